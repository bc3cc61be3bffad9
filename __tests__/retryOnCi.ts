// Under CI=true a failed test is run up to twice more before it counts as failed, and each failed
// attempt's errors are printed, so a test that only passes on a retry still shows in the log.
// CI runs the whole suite on a loaded 2-core machine next to LibreOffice, OCR and Swift, where a
// slow child process can miss a wait once; a real failure fails all three attempts.
import { jest } from '@jest/globals';

if (/^(true|1)$/i.test(process.env.CI ?? '')) {
  jest.retryTimes(2, { logErrorsBeforeRetry: true });
}
