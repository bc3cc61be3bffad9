/**
 * Start-up speed benchmark: `npm run bench -- speed`. Prints figures; asserts nothing.
 *
 * 1. builds the client into a fresh directory (or takes BENCH_CLIENT_DIR, a client already built);
 * 2. seeds SQLite with one folder of BENCH_SPEED_FILES files (default 100,000) and 100 subfolders
 *    (bench/organise.ts generateBigFolder: rows inserted in one transaction) and runs the real
 *    server (server/main.ts) serving that client;
 * 3. in Chromium (playwright, /usr/bin/chromium or CHROMIUM_PATH, 1400 × 900) opens the folder by
 *    its address, signed in, BENCH_SPEED_RUNS times (default 11) cold (a new browser context: an
 *    empty HTTP cache) and as many times warm (one context, after one load that fills its cache);
 *    each load is timed in the page from its navigation start: the frame that first shows a row
 *    (`[data-entity-id]`), when the first API request left, and the requests made before that
 *    frame (the document, scripts, stylesheets, API calls; performance resource entries);
 * 4. prints the shell: the scripts and stylesheets loaded before the first rows (from the first
 *    cold load), their size as built, as the server sends them compressed (the `.gz` and `.br`
 *    copies of the build; a file without one goes as it is) and as received (transfer size), and
 *    p50 / min / max of each timing over the runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@server/config';
import { migrateToLatest, openDatabase } from '@server/db/database';
import { systemClock } from '@server/ids';
import { seed } from '@server/seed';
import { median } from './benchUtils';
import { buildClient, firmOf, generateBigFolder } from './organise';
import { startServer, type ServerProcess } from './serverProcess';

const PASSWORD = 'bench-speed-password';
const FILES = Number(process.env.BENCH_SPEED_FILES ?? 100_000);
const FOLDERS = 100;
const RUNS = Number(process.env.BENCH_SPEED_RUNS ?? 11);
const ROWS = '[data-entity-id]';

/** What one page load measured, in ms from its navigation start. */
interface Load {
  rows: number;
  firstApiRequest: number;
  /** When the folder's first page (GET entities) had been answered. */
  pageAnswered: number;
  /** Requests that started before the first rows (the document included). */
  requests: number;
  /** Scripts and stylesheets fetched before the first rows: path and bytes received. */
  assets: { path: string; transfer: number }[];
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Size of a built file and of its compressed copies (the file itself when it has none). */
function builtSizes(clientDir: string, urlPath: string): { raw: number; gzip: number; br: number } {
  const file = path.join(clientDir, urlPath);
  const size = (candidate: string) => (existsSync(candidate) ? statSync(candidate).size : null);
  const raw = statSync(file).size;
  return { raw, gzip: size(`${file}.gz`) ?? raw, br: size(`${file}.br`) ?? raw };
}

/** p50, min and max of some timings. */
function spread(values: number[]): string {
  return `p50 ${ms(median(values))} (min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))})`;
}

/** Loads and times the folder page in Chromium, cold and warm. */
async function browserLoads(
  base: string,
  folderId: string,
): Promise<{ cold: Load[]; warm: Load[] }> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  // Signed in once through the sign-in page, so the browser keeps the session cookie and the
  // cached user the client starts from; every context starts from that state (and its own, empty
  // HTTP cache).
  const setup = await browser.newContext();
  const signInPage = await setup.newPage();
  await signInPage.goto(`${base}/login`);
  await signInPage.getByLabel('Username').fill('admin');
  await signInPage.getByLabel('Password').fill(PASSWORD);
  await signInPage.getByRole('button', { name: 'Sign in' }).click();
  await signInPage.waitForURL(/\/home/);
  const storageState = await setup.storageState();
  await setup.close();
  const newContext = () =>
    browser.newContext({ viewport: { width: 1400, height: 900 }, storageState });
  const load = async (context: Awaited<ReturnType<typeof newContext>>): Promise<Load> => {
    const page = await context.newPage();
    await page.addInitScript((selector: string) => {
      const record = window as unknown as { __firstRowsAt?: number };
      const observer = new MutationObserver(() => {
        if (!document.querySelector(selector)) return;
        observer.disconnect();
        requestAnimationFrame(() => (record.__firstRowsAt = performance.now()));
      });
      document.addEventListener('DOMContentLoaded', () =>
        observer.observe(document.body, { childList: true, subtree: true }),
      );
    }, ROWS);
    await page.goto(`${base}/home/folders/${folderId}`, { waitUntil: 'commit' });
    await page.waitForSelector(ROWS, { timeout: 30_000 });
    await page.waitForFunction(() => '__firstRowsAt' in window);
    const measured = await page.evaluate(() => {
      const rows = (window as unknown as { __firstRowsAt: number }).__firstRowsAt;
      const entries = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < rows) as PerformanceResourceTiming[];
      const api = entries.filter((entry) => new URL(entry.name).pathname.startsWith('/api/'));
      return {
        rows,
        firstApiRequest: Math.min(...api.map((entry) => entry.startTime)),
        pageAnswered: Math.min(
          ...api
            .filter((entry) => new URL(entry.name).pathname === '/api/rest/entities')
            .map((entry) => entry.responseEnd),
        ),
        requests: entries.length + 1,
        assets: entries
          .filter((entry) => /\.(?:js|css)$/.test(new URL(entry.name).pathname))
          .map((entry) => ({ path: new URL(entry.name).pathname, transfer: entry.transferSize })),
      };
    });
    await page.close();
    return measured;
  };
  try {
    const cold: Load[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await newContext();
      cold.push(await load(context));
      await context.close();
    }
    const context = await newContext();
    await load(context);
    const warm: Load[] = [];
    for (let run = 0; run < RUNS; run += 1) warm.push(await load(context));
    await context.close();
    return { cold, warm };
  } finally {
    await browser.close();
  }
}

/** Prints one kind of load's timings. */
function report(label: string, loads: Load[]): void {
  console.log(
    `  ${label} (${loads.length} loads): navigation → first rows ${spread(loads.map((l) => l.rows))}; ` +
      `first API request at ${spread(loads.map((l) => l.firstApiRequest))}; ` +
      `folder's first page answered at ${spread(loads.map((l) => l.pageAnswered))}; ` +
      `${median(loads.map((l) => l.requests))} requests before the first rows (p50)`,
  );
}

/** Runs the benchmark; prints its figures. */
export async function runSpeedBench(): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'dossier-bench-speed-'));
  let server: ServerProcess | null = null;
  try {
    const clientDir = process.env.BENCH_CLIENT_DIR ?? buildClient(path.join(scratch, 'client'));
    if (!clientDir) throw new Error('the client did not build');
    const dataDir = path.join(scratch, 'data');
    const databaseUrl = `sqlite://${path.join(dataDir, 'bench.sqlite')}`;
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    });
    const database = openDatabase(config.databaseUrl);
    let big: { id: string };
    try {
      await migrateToLatest(database.db);
      await seed(database.db, { username: 'admin', password: PASSWORD }, systemClock);
      const started = performance.now();
      big = await generateBigFolder(database, await firmOf(database), FILES, FOLDERS);
      console.log(
        `\nspeed: one folder of ${FILES.toLocaleString('en-US')} files and ${FOLDERS} folders ` +
          `(seeded in ${((performance.now() - started) / 1000).toFixed(1)} s, SQLite)`,
      );
    } finally {
      await database.close();
    }
    server = await startServer({ dataDir, databaseUrl, password: PASSWORD, clientDir });
    const { cold, warm } = await browserLoads(server.base, big.id);

    const shell = cold[0]!.assets;
    const sizes = shell.map((asset) => builtSizes(clientDir, asset.path));
    const sum = (pick: (s: { raw: number; gzip: number; br: number }) => number) =>
      sizes.reduce((total, s) => total + pick(s), 0);
    const transfer = shell.reduce((total, asset) => total + asset.transfer, 0);
    console.log(
      `  shell (scripts and stylesheets loaded before the first rows): ${shell.length} files, ` +
        `${kb(sum((s) => s.raw))} raw, ${kb(sum((s) => s.gzip))} gzip, ${kb(sum((s) => s.br))} brotli; ` +
        `${kb(transfer)} received by Chromium (cold)`,
    );
    const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
    const largest = shell
      .map((asset, i) => ({ path: asset.path, ...sizes[i]! }))
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 5)
      .map((s) => `${path.basename(s.path)} ${kb(s.gzip)}`)
      .join(', ');
    console.log(`  largest (gzip): ${largest}; index.html ${kb(html.length)}`);
    report('cold cache', cold);
    report('warm cache', warm);
  } finally {
    if (server) await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
