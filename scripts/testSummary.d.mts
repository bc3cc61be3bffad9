// Types of scripts/testSummary.mjs (the counts and summary line of `npm test`).

/** Tests of one run or of several, and whether a runner broke before reporting every test. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  broken: boolean;
}

/** The fields of Jest's `--json` report the counts read. */
export interface JestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  numFailedTestSuites?: number;
}

/** The fields of Playwright's JSON report the counts read. */
export interface PlaywrightReport {
  stats?: { expected?: number; flaky?: number; unexpected?: number; skipped?: number };
  errors?: unknown[];
}

/** Counts of a run with nothing in it. */
export const NO_TESTS: Readonly<TestCounts>;

/** Counts of a Jest report (null when there is none: broken); `exitStatus` is Jest's. */
export function jestCounts(report: JestReport | null, exitStatus: number): TestCounts;

/** Counts of a Playwright report (null when there is none: broken); `exitStatus` is Playwright's. */
export function playwrightCounts(report: PlaywrightReport | null, exitStatus: number): TestCounts;

/** The sum of several runs' counts. */
export function addCounts(...counts: TestCounts[]): TestCounts;

/** "N passed, N failed, N skipped" (a broken runner with no failed test counts as 1 failed). */
export function summaryLine(counts: TestCounts): string;

/** Whether the run failed: a failed test or a broken runner. */
export function runFailed(counts: TestCounts): boolean;
