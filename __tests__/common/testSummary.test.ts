import { describe, expect, it } from '@jest/globals';
import {
  addCounts,
  jestCounts,
  NO_TESTS,
  playwrightCounts,
  runFailed,
  summaryLine,
} from '../../scripts/testSummary.mjs';

/** The pattern .ci/run greps the summary line with. */
const CI_SUMMARY = /^[0-9]+ passed, [0-9]+ failed/;

describe('npm test summary', () => {
  it("counts Jest's pending and todo tests as skipped", () => {
    const counts = jestCounts(
      { numPassedTests: 900, numFailedTests: 0, numPendingTests: 120, numTodoTests: 2 },
      0,
    );
    expect(counts).toEqual({ passed: 900, failed: 0, skipped: 122, broken: false });
    expect(summaryLine(counts)).toBe('900 passed, 0 failed, 122 skipped');
    expect(runFailed(counts)).toBe(false);
  });

  it("counts Playwright's expected and flaky tests as passed and its skipped ones", () => {
    const counts = playwrightCounts(
      { stats: { expected: 40, flaky: 1, unexpected: 2, skipped: 3 }, errors: [] },
      1,
    );
    expect(counts).toEqual({ passed: 41, failed: 2, skipped: 3, broken: false });
    expect(runFailed(counts)).toBe(true);
  });

  it('adds both runs into one line of exactly the form .ci/run greps, skipped included', () => {
    const line = summaryLine(
      addCounts(
        jestCounts({ numPassedTests: 10, numFailedTests: 1, numPendingTests: 5 }, 1),
        playwrightCounts({ stats: { expected: 4, flaky: 0, unexpected: 0, skipped: 1 } }, 0),
      ),
    );
    expect(line).toBe('14 passed, 1 failed, 6 skipped');
    expect(line).toMatch(CI_SUMMARY);
    expect(line).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
  });

  it('counts a runner that broke without a failed test as one failure', () => {
    const noReport = jestCounts(null, 1);
    expect(noReport.broken).toBe(true);
    expect(summaryLine(addCounts(noReport, NO_TESTS))).toBe('0 passed, 1 failed, 0 skipped');
    expect(runFailed(noReport)).toBe(true);

    const suiteFailed = jestCounts(
      { numPassedTests: 3, numFailedTests: 0, numFailedTestSuites: 1 },
      1,
    );
    expect(suiteFailed).toMatchObject({ passed: 3, failed: 0, broken: true });
    expect(summaryLine(suiteFailed)).toBe('3 passed, 1 failed, 0 skipped');

    const setupThrew = playwrightCounts(
      { stats: { expected: 0, unexpected: 0, skipped: 0 }, errors: [{ message: 'boom' }] },
      1,
    );
    expect(setupThrew.broken).toBe(true);
    expect(playwrightCounts(null, 0).broken).toBe(true);
  });

  it('does not call a run with failed tests broken, nor count those failures twice', () => {
    const counts = jestCounts({ numPassedTests: 3, numFailedTests: 2, numFailedTestSuites: 1 }, 1);
    expect(counts.broken).toBe(false);
    expect(summaryLine(counts)).toBe('3 passed, 2 failed, 0 skipped');
  });

  it('reports a clean run with skips as passed', () => {
    const counts = addCounts(jestCounts({ numPassedTests: 5, numPendingTests: 5 }, 0), NO_TESTS);
    expect(runFailed(counts)).toBe(false);
    expect(summaryLine(counts)).toBe('5 passed, 0 failed, 5 skipped');
  });
});
