// `npm test`: every test. Jest (common/, server/ on SQLite and PostgreSQL, client) and then the
// Playwright end-to-end suite in Debian's Chromium against the server `npm start` runs. Prints
// "N passed, N failed" on its own line at the end and exits non-zero when anything failed.
// `npm test -- --unit` runs Jest only; `npm test -- --e2e` runs Playwright only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-output');
const args = process.argv.slice(2);
const runUnit = !args.includes('--e2e');
const runE2e = !args.includes('--unit');
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
let broken = false;

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
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    if (json.numFailedTestSuites > 0 && json.numFailedTests === 0) broken = true;
  } else broken = true;
  if (status !== 0 && failed === 0) broken = true;
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
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.stats.expected + json.stats.flaky;
    failed += json.stats.unexpected;
    if (json.errors?.length > 0 && json.stats.unexpected === 0) broken = true;
  } else broken = true;
  if (status !== 0 && failed === 0) broken = true;
}

console.log(`\n${passed} passed, ${failed} failed`);
if (broken) console.error('A test runner failed before it could report every test (see above).');
process.exit(failed > 0 || broken ? 1 : 0);
