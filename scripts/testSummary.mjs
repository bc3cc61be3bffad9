// The counts `npm test` (scripts/test.mjs) prints from Jest's and Playwright's JSON reports, and its
// summary line "N passed, N failed, N skipped". Pure functions, tested in
// __tests__/common/testSummary.test.ts; types in testSummary.d.mts.

/** Counts of a run with nothing in it. */
export const NO_TESTS = Object.freeze({ passed: 0, failed: 0, skipped: 0, broken: false });

/**
 * The counts of a Jest `--json` report: skipped are the pending (describe.skip, it.skip, the
 * PostgreSQL suites when no server answers) and todo tests; broken when a suite failed to run
 * without a failed test (a syntax error, a hook that threw) or when Jest exited non-zero without
 * a failed test.
 */
export function jestCounts(report, exitStatus) {
  if (!report) return { ...NO_TESTS, broken: true };
  const failed = report.numFailedTests ?? 0;
  return {
    passed: report.numPassedTests ?? 0,
    failed,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    broken: ((report.numFailedTestSuites ?? 0) > 0 || exitStatus !== 0) && failed === 0,
  };
}

/**
 * The counts of a Playwright JSON report: passed are the expected and flaky tests, failed the
 * unexpected ones, skipped the skipped ones; broken when the run reported errors (a global setup
 * that threw, a web server that did not start) or exited non-zero without a failed test.
 */
export function playwrightCounts(report, exitStatus) {
  if (!report?.stats) return { ...NO_TESTS, broken: true };
  const { expected = 0, flaky = 0, unexpected = 0, skipped = 0 } = report.stats;
  return {
    passed: expected + flaky,
    failed: unexpected,
    skipped,
    broken: ((report.errors?.length ?? 0) > 0 || exitStatus !== 0) && unexpected === 0,
  };
}

/** The sum of several runs' counts. */
export function addCounts(...counts) {
  return counts.reduce(
    (sum, c) => ({
      passed: sum.passed + c.passed,
      failed: sum.failed + c.failed,
      skipped: sum.skipped + c.skipped,
      broken: sum.broken || c.broken,
    }),
    NO_TESTS,
  );
}

/**
 * The summary line, alone on its line at the end of `npm test`: "N passed, N failed, N skipped".
 * A runner that broke before it could report every test counts as one failure, so the line never
 * says "0 failed" of a failed run.
 */
export function summaryLine(counts) {
  const failed = counts.failed === 0 && counts.broken ? 1 : counts.failed;
  return `${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped`;
}

/** Whether the run failed: a failed test or a broken runner. */
export function runFailed(counts) {
  return counts.failed > 0 || counts.broken;
}
