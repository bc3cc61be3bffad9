// `npm test`: every test. Jest (common/, server/ on SQLite and PostgreSQL, client) and then the
// Playwright end-to-end suite in Debian's Chromium against the server `npm start` runs. Prints
// "N passed, N failed, N skipped" on its own line at the end (scripts/testSummary.mjs) and exits
// non-zero when anything failed. Under CI=true an unreachable PostgreSQL fails the Jest run (see
// __tests__/globalSetup.cjs) instead of skipping its suites.
// `npm test -- --unit` runs Jest only; `npm test -- --e2e` runs Playwright only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  addCounts,
  jestCounts,
  NO_TESTS,
  playwrightCounts,
  runFailed,
  summaryLine,
} from './testSummary.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-output');
const args = process.argv.slice(2);
const runUnit = !args.includes('--e2e');
const runE2e = !args.includes('--unit');
mkdirSync(out, { recursive: true });

let jest = NO_TESTS;
let playwright = NO_TESTS;

function run(command, commandArgs, env = {}) {
  const result = spawnSync(process.execPath, [command, ...commandArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

if (runUnit) {
  const report = path.join(out, 'jest.json');
  rmSync(report, { force: true });
  const status = run(path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'), [
    '--ci',
    '--json',
    `--outputFile=${report}`,
  ]);
  jest = jestCounts(existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null, status);
}

if (runE2e) {
  const report = path.join(out, 'playwright.json');
  rmSync(report, { force: true });
  const status = run(
    path.join(root, 'node_modules', '@playwright', 'test', 'cli.js'),
    ['test', '--reporter=list,json'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    },
  );
  playwright = playwrightCounts(
    existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null,
    status,
  );
}

const total = addCounts(jest, playwright);
console.log(`\n${summaryLine(total)}`);
if (total.broken) {
  console.error('A test runner failed before it could report every test (see above).');
}
process.exit(runFailed(total) ? 1 : 0);
