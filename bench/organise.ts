/**
 * Organise benchmark: `npm run bench -- organise`, or part of the default run.
 * Prints figures; asserts no timing (a page that answers the wrong number of items is a MISS).
 *
 * For SQLite, and for PostgreSQL when one answers at BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres):
 * 1. generates one folder of BENCH_ORGANISE_FILES files (default 100,000) and
 *    BENCH_ORGANISE_FOLDERS folders (default 1,000), rows inserted directly in transactions (no
 *    objects: listing never reads them);
 * 2. counts the queries of one page (page 1, page 400 by cursor, page 400 by offset) with a Kysely
 *    plugin on the real service (server/services/folders.ts listEntities);
 * 3. runs the real server (server/main.ts) in its own process and measures over loopback HTTP the
 *    folder page p50/p95 of page 1, of page 400 read by cursor as the client does (the cursor of
 *    page 399 comes from walking pages 1-399 once), and of page 400 by offset, each deep page's
 *    p50 as a ratio of page 1's p50; every read must answer the page's expected number of items
 *    (100 while the folder holds 40,000 entries or more), and page 400 by cursor must start where
 *    page 400 by offset does, else the line says MISS and the run exits non-zero;
 * 4. (SQLite) in Chromium (playwright, /usr/bin/chromium or CHROMIUM_PATH) against a fresh client
 *    build: the time from navigation to the first rows of the big folder (timed in the page: its
 *    navigation start to the frame that first shows a row; 1 cold and 10 warm loads), and the
 *    number of row elements (`[data-entity-id]`) in the DOM, after load and after scrolling;
 * 5. (SQLite) a zip download of a subtree with real objects (BENCH_ZIP_MB, default 200, MiB in two
 *    halves of 1 MiB files): MiB/s and the server's RSS in MiB (VmRSS sampled every 20 ms) before,
 *    at its peak and after, for half the tree and for all of it (flat memory: the peak does not
 *    grow with size);
 * 6. bulk archive of 10,000 files through POST /api/rest/bulk/archive (one request), timed.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql, type Insertable, type KyselyPlugin } from 'kysely';
import { rssOf, signIn, startServer, type ServerProcess } from './serverProcess';
import { DEFAULT_PAGE_SIZE } from '@common/constants';
import { contentTypeFor } from '@common/files';
import { nameKey } from '@common/names';
import type { CursorPage } from '@common/api';
import type { EntityDto } from '@common/entities';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '@server/db/database';
import type { FoldersTable, NewFile } from '@server/db/schema';
import { newId, systemClock } from '@server/ids';
import { seed } from '@server/seed';
import { loadConfig } from '@server/config';
import type { RequestContext, Services } from '@server/services/context';
import { listEntities } from '@server/services/folders';
import { LocalObjectStore } from '@server/storage/localObjectStore';
import { median, percentile, prng, postgresReachable, scratchDatabase } from './benchUtils';

const PASSWORD = 'bench-organise-password';
const ROOT = path.resolve(import.meta.dirname, '..');
const PAGE_SIZE = DEFAULT_PAGE_SIZE;
const DEEP_PAGE = 400;
const REPEAT = Number(process.env.BENCH_ORGANISE_REPEAT ?? 50);
const BULK_ITEMS = 10_000;
const MB = 1024 * 1024;

/** Options of {@link runOrganiseBench}. */
export interface OrganiseBenchOptions {
  /** Files in the big folder (default BENCH_ORGANISE_FILES or 100,000). */
  files?: number;
  /** Subfolders in the big folder (default BENCH_ORGANISE_FOLDERS or 1,000). */
  folders?: number;
  /** MiB of real objects in the zipped subtree (default BENCH_ZIP_MB or 200). */
  zipMb?: number;
}

/** A firm database and its administrator, for rows written straight to the database. */
export interface Firm {
  databaseId: string;
  userId: string;
}

const EXTENSIONS = ['pdf', 'pdf', 'pdf', 'docx', 'xlsx', 'jpg', 'png', 'txt', 'csv', 'msg'];
const WORDS = ['Statement', 'Invoice', 'Return', 'Letter', 'Scan', 'Report', 'Contract', 'Memo'];

function folderRow(firm: Firm, parentId: string, name: string, now: string) {
  return {
    id: newId(),
    database_id: firm.databaseId,
    parent_id: parentId,
    name,
    name_key: nameKey(name),
    created_by: firm.userId,
    created_at: now,
    updated_at: now,
    archived_at: null,
    archived_root_id: null,
  } satisfies Insertable<FoldersTable>;
}

function fileRow(firm: Firm, folderId: string, name: string, size: number, now: string): NewFile {
  const id = newId();
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return {
    id,
    database_id: firm.databaseId,
    folder_id: folderId,
    name,
    name_key: nameKey(name),
    extension,
    size,
    content_type: contentTypeFor(extension),
    storage_key: `bench/${id}`,
    status: 'ready',
    sha256: null,
    created_by: firm.userId,
    created_at: now,
    updated_at: now,
    archived_at: null,
    archived_root_id: null,
  };
}

/** Inserts rows in one transaction, `batch` rows per statement. */
async function insertAll(
  database: DatabaseHandle,
  folders: Insertable<FoldersTable>[],
  files: NewFile[],
): Promise<void> {
  const batch = 1000;
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < folders.length; i += batch) {
      await trx
        .insertInto('folders')
        .values(folders.slice(i, i + batch))
        .execute();
    }
    for (let i = 0; i < files.length; i += batch) {
      await trx
        .insertInto('files')
        .values(files.slice(i, i + batch))
        .execute();
    }
  });
}

/** The big folder: `folderCount` subfolders and `fileCount` files, names in shuffled order (also bench/speed.ts). */
export async function generateBigFolder(
  database: DatabaseHandle,
  firm: Firm,
  fileCount: number,
  folderCount: number,
): Promise<{ id: string; fileIds: string[] }> {
  const now = new Date().toISOString();
  const random = prng(7);
  const top = folderRow(firm, '', 'Big folder', now);
  const folders = [top];
  for (let i = 0; i < folderCount; i += 1) {
    folders.push(folderRow(firm, top.id, `Client ${String(i).padStart(5, '0')}`, now));
  }
  // A permutation of 0..n-1, so names are unique but inserted out of name order.
  const order = Array.from({ length: fileCount }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const files = order.map((n) => {
    const word = WORDS[n % WORDS.length]!;
    const ext = EXTENSIONS[Math.floor(random() * EXTENSIONS.length)]!;
    return fileRow(
      firm,
      top.id,
      `${word} ${String(n).padStart(6, '0')}.${ext}`,
      1000 + Math.floor(random() * 5 * MB),
      now,
    );
  });
  await insertAll(database, folders, files);
  return { id: top.id, fileIds: files.map((f) => f.id) };
}

/**
 * The zipped subtree: "Zip folder" with two halves of `mb / 2` files of 1 MiB each (random bytes,
 * stored as PDFs, so the zip stores them), objects written to the local store.
 */
async function generateZipTree(
  database: DatabaseHandle,
  store: LocalObjectStore,
  firm: Firm,
  mb: number,
): Promise<{ id: string; halfId: string; bytes: number; halfBytes: number }> {
  const now = new Date().toISOString();
  const top = folderRow(firm, '', 'Zip folder', now);
  const halves = [folderRow(firm, top.id, 'Half A', now), folderRow(firm, top.id, 'Half B', now)];
  const files: NewFile[] = [];
  const perHalf = Math.max(1, Math.round(mb / 2));
  const body = randomBytes(MB);
  for (const half of halves) {
    for (let i = 0; i < perHalf; i += 1) {
      const file = fileRow(firm, half.id, `Scan ${String(i).padStart(4, '0')}.pdf`, MB, now);
      // Vary the first bytes so no two objects are equal.
      body.writeUInt32BE(files.length, 0);
      await store.write(file.storage_key, Readable.from([Buffer.from(body)]), MB);
      files.push(file);
    }
  }
  await insertAll(database, [top, ...halves], files);
  return { id: top.id, halfId: halves[0]!.id, bytes: files.length * MB, halfBytes: perHalf * MB };
}

/** Queries of one listEntities call, counted by a Kysely plugin. */
async function countQueries(
  database: DatabaseHandle,
  config: Services['config'],
  firm: Firm,
  folderId: string,
): Promise<{ first: number; deepCursor: number; deepOffset: number }> {
  let queries = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      queries += 1;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  const services: Services = {
    db: database.db.withPlugin(counter),
    dialect: database.dialect,
    store: undefined as unknown as Services['store'],
    clock: systemClock,
    config,
  };
  const ctx: RequestContext = {
    userId: firm.userId,
    userName: 'Bench',
    databaseId: firm.databaseId,
    role: 'admin',
    sessionId: 'bench',
    ip: null,
    userAgent: null,
  };
  queries = 0;
  const first = await listEntities(services, ctx, folderId, 1, PAGE_SIZE);
  const firstCount = queries;
  // The cursor of page 399's end, by offset (the position is the same as the client's cursor).
  const before = await listEntities(services, ctx, folderId, DEEP_PAGE - 1, PAGE_SIZE);
  queries = 0;
  await listEntities(services, ctx, folderId, DEEP_PAGE, PAGE_SIZE, before.next_cursor!);
  const deepCursor = queries;
  queries = 0;
  await listEntities(services, ctx, folderId, DEEP_PAGE, PAGE_SIZE);
  const deepOffset = queries;
  if (first.items.length !== PAGE_SIZE) throw new Error('page 1 is short');
  return { first: firstCount, deepCursor, deepOffset };
}

async function getPage(
  base: string,
  cookie: string,
  folderId: string,
  page: number,
  cursor?: string,
): Promise<CursorPage<EntityDto>> {
  const query = new URLSearchParams({
    folder_id: folderId,
    page: String(page),
    page_size: String(PAGE_SIZE),
  });
  if (cursor) query.set('cursor', cursor);
  const response = await fetch(`${base}/api/rest/entities?${query}`, { headers: { cookie } });
  const json = (await response.json()) as CursorPage<EntityDto>;
  if (!response.ok) throw new Error(`page ${page}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Latency figures of one kind of read. */
interface Timing {
  p50: number;
  p95: number;
  /** Items of each read, in order (warm-up reads included). */
  items: number[];
  /** The id of the first item of the last read ('' for an empty page). */
  firstId: string;
}

/**
 * p50/p95 of REPEAT reads of each reader, taken in turns (one of each per round, after five
 * warm-up rounds), so that the load of this shared machine drifts over all of them alike.
 */
async function timeReads(readers: (() => Promise<CursorPage<EntityDto>>)[]): Promise<Timing[]> {
  const times = readers.map(() => [] as number[]);
  const items = readers.map(() => [] as number[]);
  const firstIds = readers.map(() => '');
  for (let round = 0; round < REPEAT + 5; round += 1) {
    for (const [i, read] of readers.entries()) {
      const t = performance.now();
      const page = await read();
      if (round >= 5) times[i]!.push(performance.now() - t);
      items[i]!.push(page.items.length);
      firstIds[i] = page.items[0]?.id ?? '';
    }
  }
  return times.map((list, i) => {
    list.sort((a, b) => a - b);
    return {
      p50: percentile(list, 50),
      p95: percentile(list, 95),
      items: items[i]!,
      firstId: firstIds[i]!,
    };
  });
}

/**
 * The items page `page` of a folder of `total` entries holds: PAGE_SIZE, fewer on the last page,
 * none beyond it.
 */
function expectedItems(total: number, page: number): number {
  return Math.max(0, Math.min(PAGE_SIZE, total - (page - 1) * PAGE_SIZE));
}

/**
 * '' when every read answered `expected` items, else a MISS note for the printed line (and the
 * run's exit code becomes 1): a timing of a short or empty page is not the page's timing.
 */
function itemsMiss(timing: Timing, expected: number): string {
  const wrong = timing.items.filter((count) => count !== expected);
  if (wrong.length === 0) return '';
  process.exitCode = 1;
  return (
    ` — MISS: ${wrong.length} of ${timing.items.length} reads answered ` +
    `${[...new Set(wrong)].join('/')} items, expected ${expected}`
  );
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / MB).toFixed(0)} MiB`;

/** Downloads a folder's zip, counting bytes, sampling the server's RSS. */
async function timeZip(server: ServerProcess, cookie: string, folderId: string) {
  const pid = server.child.pid!;
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const started = performance.now();
  const bytes = await new Promise<number>((resolve, reject) => {
    const req = request(
      `${server.base}/api/rest/folders/${folderId}/download`,
      { headers: { cookie } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`zip: ${res.statusCode}`));
        let count = 0;
        res.on('data', (chunk: Buffer) => (count += chunk.length));
        res.on('end', () => resolve(count));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  return { bytes, seconds, baseline, peak, after: rssOf(pid) };
}

/** Builds the client into a fresh directory (also bench/speed.ts); answers it, or null when the build fails. */
export function buildClient(dir: string): string | null {
  const started = performance.now();
  const build = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'error',
      '--outDir',
      dir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (build.status !== 0 || !existsSync(path.join(dir, 'index.html'))) return null;
  console.log(`  client build: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return dir;
}

/** One page load in Chromium: when the folder's first page was asked for and answered, and rows shown. */
interface LoadTiming {
  requested: number;
  answered: number;
  rows: number;
}

/**
 * Chromium: navigation → first rows of the big folder (and of the small root folder, as a
 * control: the same client boot with two items), the moments its first page was requested and
 * answered, and the row elements in the DOM after load and while scrolling far down.
 */
async function browserFigures(base: string, folderId: string): Promise<void> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const signedIn = await context.request.post(`${base}/api/rest/private/users/authenticate`, {
      data: { username: 'admin', password: PASSWORD },
    });
    if (!signedIn.ok()) throw new Error(`browser sign-in: ${signedIn.status()}`);
    const rows = '[data-entity-id]';
    const load = async (path: string, listed: string, keep = false) => {
      const page = await context.newPage();
      // Timed in the page, from its navigation start (performance.now()): the frame that first
      // shows a row, and the list call's resource timing. Playwright's own waitForSelector polls
      // with growing pauses (up to 500 ms apart), which measured its polling, not the app.
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
      }, rows);
      await page.goto(`${base}${path}`, { waitUntil: 'commit' });
      await page.waitForSelector(rows, { timeout: 30_000 });
      await page.waitForFunction(() => '__firstRowsAt' in window);
      const timing = await page.evaluate((listed: string) => {
        const list = performance
          .getEntriesByType('resource')
          .find((entry) => entry.name.includes(`/api/rest/entities?folder_id=${listed}&`)) as
          PerformanceResourceTiming | undefined;
        return {
          rows: (window as unknown as { __firstRowsAt: number }).__firstRowsAt,
          requested: list?.startTime ?? NaN,
          answered: list?.responseEnd ?? NaN,
        };
      }, listed);
      if (!keep) await page.close();
      return { timing: timing, page };
    };
    const runs = async (path: string, listed: string) => {
      const timings: LoadTiming[] = [];
      for (let run = 0; run < 11; run += 1) timings.push((await load(path, listed)).timing);
      const warm = timings.slice(1);
      return {
        first: timings[0]!,
        rows: median(warm.map((t) => t.rows)),
        max: Math.max(...warm.map((t) => t.rows)),
        requested: median(warm.map((t) => t.requested)),
        answered: median(warm.map((t) => t.answered)),
      };
    };
    const big = await runs(`/home/folders/${folderId}`, folderId);
    const root = await runs('/home', '');
    console.log(
      `  Chromium, navigation → first rows of the big folder: p50 ${ms(big.rows)} (max ${ms(big.max)}; ` +
        `first, cold load ${ms(big.first.rows)}) over 10 warm loads; its first page requested at ` +
        `${ms(big.requested)}, answered at ${ms(big.answered)} (p50)`,
    );
    console.log(
      `  Chromium, the root folder (2 items) for comparison: first rows p50 ${ms(root.rows)}, ` +
        `its first page requested at ${ms(root.requested)}, answered at ${ms(root.answered)}`,
    );

    const { page } = await load(`/home/folders/${folderId}`, folderId, true);
    let pagesFetched = 0;
    page.on('request', (r) => {
      if (r.url().includes(`/api/rest/entities?folder_id=${folderId}&`)) pagesFetched += 1;
    });
    await page.waitForTimeout(1500);
    const domRows = await page.locator(rows).count();
    // Scroll far down (the list fetches further pages as the end comes near).
    await page.locator(rows).first().hover();
    let domRowsScrolled = 0;
    for (let i = 0; i < 20; i += 1) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(150);
      domRowsScrolled = Math.max(domRowsScrolled, await page.locator(rows).count());
    }
    await page.close();
    console.log(
      `  rows in the DOM: ${domRows} after load, at most ${domRowsScrolled} while scrolling ` +
        `20 × 4000 px (${pagesFetched} further pages fetched meanwhile)`,
    );
  } finally {
    await browser.close();
  }
}

/** Bulk archive of 10,000 files in one request. */
async function bulkArchive(base: string, cookie: string, fileIds: string[]): Promise<void> {
  const items = fileIds.slice(0, BULK_ITEMS).map((id) => ({ id, type: 'file' }));
  const started = performance.now();
  const response = await fetch(`${base}/api/rest/bulk/archive`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  const seconds = (performance.now() - started) / 1000;
  const text = await response.text();
  if (response.status === 404 && text.includes('Route POST')) {
    console.log('  bulk archive: POST /api/rest/bulk/archive is not there yet (S1), skipped');
    return;
  }
  if (!response.ok) {
    console.log(`  bulk archive of ${items.length}: ${response.status} ${text.slice(0, 200)}`);
    return;
  }
  const result = JSON.parse(text) as { count: number };
  console.log(
    `  bulk archive of ${items.length.toLocaleString('en-US')} files (one request, one transaction): ` +
      `${(seconds * 1000).toFixed(0)} ms, count ${result.count}`,
  );
}

/** The seeded administrator's firm database and user id. */
export async function firmOf(database: DatabaseHandle): Promise<Firm> {
  const row = await database.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.database_id', 'memberships.user_id'])
    .where('users.username_key', '=', 'admin')
    .executeTakeFirstOrThrow();
  return { databaseId: row.database_id, userId: row.user_id };
}

/** One database kind, end to end. */
async function benchDatabase(
  kind: 'sqlite' | 'postgres',
  options: Required<OrganiseBenchOptions>,
  clientDir: string | null,
): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `dossier-bench-organise-${kind}-`));
  const { databaseUrl, dropDatabase } = await scratchDatabase(
    kind,
    dataDir,
    'dossier_bench_organise',
  );
  let server: ServerProcess | null = null;
  const database = openDatabase(databaseUrl);
  try {
    console.log(
      `\norganise [${kind}]: one folder of ${options.files.toLocaleString('en-US')} files and ` +
        `${options.folders.toLocaleString('en-US')} folders, ${PAGE_SIZE} items a page`,
    );
    await migrateToLatest(database.db);
    await seed(database.db, { username: 'admin', password: PASSWORD }, systemClock);
    const firm = await firmOf(database);
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    });
    let started = performance.now();
    const big = await generateBigFolder(database, firm, options.files, options.folders);
    // VACUUM ANALYZE after the bulk load, as autovacuum does shortly after one: statistics for
    // the planner and the visibility map for index-only counts.
    if (kind === 'postgres') await sql`vacuum analyze`.execute(database.db);
    console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const counts = await countQueries(database, config, firm, big.id);
    console.log(
      `  queries per page: page 1 ${counts.first}, page ${DEEP_PAGE} by cursor ${counts.deepCursor}, ` +
        `page ${DEEP_PAGE} by offset ${counts.deepOffset}`,
    );

    let zip: Awaited<ReturnType<typeof generateZipTree>> | null = null;
    if (kind === 'sqlite' && options.zipMb > 0) {
      const store = new LocalObjectStore(dataDir, config.sessionSecret);
      await store.init();
      started = performance.now();
      zip = await generateZipTree(database, store, firm, options.zipMb);
      console.log(
        `  zip subtree: ${mib(zip.bytes)} of objects written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }

    server = await startServer({
      dataDir,
      databaseUrl,
      password: PASSWORD,
      clientDir: kind === 'sqlite' && clientDir ? clientDir : undefined,
      env: { UPLOAD_CLEANUP_INTERVAL_MINUTES: '0' },
      readyTimeoutMs: 60_000,
    });
    const cookie = await signIn(server.base, PASSWORD);
    const base = server.base;

    // Walk pages 1..399 once by cursor, as the client does when scrolling (this also warms up).
    started = performance.now();
    let cursor: string | undefined;
    for (let page = 1; page < DEEP_PAGE; page += 1) {
      const answer = await getPage(base, cookie, big.id, page, cursor);
      cursor = answer.next_cursor ?? undefined;
    }
    const walkSeconds = (performance.now() - started) / 1000;
    const [first, deepCursor, deepOffset] = await timeReads([
      () => getPage(base, cookie, big.id, 1),
      () => getPage(base, cookie, big.id, DEEP_PAGE, cursor),
      () => getPage(base, cookie, big.id, DEEP_PAGE),
    ]);
    const total = options.files + options.folders;
    const deepExpected = expectedItems(total, DEEP_PAGE);
    // Page 400 by cursor and by offset are the same page: both start with the same entry.
    const sameStart =
      deepCursor!.firstId === deepOffset!.firstId
        ? ''
        : ` — MISS: starts with ${deepCursor!.firstId || 'nothing'}, by offset with ${deepOffset!.firstId || 'nothing'}`;
    if (sameStart) process.exitCode = 1;
    console.log(
      `  page 1: p50 ${ms(first!.p50)}, p95 ${ms(first!.p95)} (${first!.items.at(-1)} items, over HTTP, ${REPEAT} reads each)` +
        itemsMiss(first!, expectedItems(total, 1)),
    );
    console.log(
      `  page ${DEEP_PAGE} by cursor: p50 ${ms(deepCursor!.p50)}, p95 ${ms(deepCursor!.p95)} ` +
        `(${deepCursor!.items.at(-1)} items; p50 ${(deepCursor!.p50 / first!.p50).toFixed(2)}× page 1's p50)` +
        itemsMiss(deepCursor!, deepExpected) +
        sameStart,
    );
    console.log(
      `  page ${DEEP_PAGE} by offset: p50 ${ms(deepOffset!.p50)}, p95 ${ms(deepOffset!.p95)} ` +
        `(${deepOffset!.items.at(-1)} items; p50 ${(deepOffset!.p50 / first!.p50).toFixed(2)}× page 1's p50)` +
        itemsMiss(deepOffset!, deepExpected),
    );
    console.log(
      `  walking pages 1-${DEEP_PAGE - 1} by cursor: ${walkSeconds.toFixed(1)} s (${ms((walkSeconds * 1000) / (DEEP_PAGE - 1))} a page)`,
    );

    if (kind === 'sqlite') {
      if (clientDir) {
        try {
          await browserFigures(base, big.id);
        } catch (error) {
          console.log(`  Chromium figures failed: ${(error as Error).message.split('\n')[0]}`);
        }
      } else {
        console.log(
          process.env.BENCH_BROWSER === '0'
            ? '  Chromium figures skipped (BENCH_BROWSER=0)'
            : '  Chromium figures skipped: the client did not build',
        );
      }
    }

    if (zip) {
      // A warm-up zip of half the tree, then half and all, measured.
      await timeZip(server, cookie, zip.halfId);
      for (const [label, id] of [
        ['half', zip.halfId],
        ['all', zip.id],
      ] as const) {
        const run = await timeZip(server, cookie, id);
        console.log(
          `  zip download (${label}, ${mib(run.bytes)}): ${(run.bytes / MB / run.seconds).toFixed(0)} MiB/s, ` +
            `server RSS ${mib(run.baseline)} before, peak ${mib(run.peak)} ` +
            `(+${mib(run.peak - run.baseline)}), ${mib(run.after)} after`,
        );
      }
    }

    await bulkArchive(base, cookie, big.fileIds);
  } finally {
    if (server) await server.stop();
    await database.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the organise benchmark on SQLite, and on PostgreSQL when reachable; prints its figures. */
export async function runOrganiseBench(options: OrganiseBenchOptions = {}): Promise<void> {
  const resolved: Required<OrganiseBenchOptions> = {
    files: options.files ?? Number(process.env.BENCH_ORGANISE_FILES ?? 100_000),
    folders: options.folders ?? Number(process.env.BENCH_ORGANISE_FOLDERS ?? 1_000),
    zipMb: options.zipMb ?? Number(process.env.BENCH_ZIP_MB ?? 200),
  };
  const kinds = (process.env.BENCH_ORGANISE_DB ?? 'sqlite,postgres').split(',');
  const clientParent = mkdtempSync(path.join(os.tmpdir(), 'dossier-bench-client-'));
  try {
    const clientDir =
      process.env.BENCH_BROWSER === '0' ? null : buildClient(path.join(clientParent, 'client'));
    if (kinds.includes('sqlite')) await benchDatabase('sqlite', resolved, clientDir);
    if (kinds.includes('postgres')) {
      if (await postgresReachable()) await benchDatabase('postgres', resolved, null);
      else console.log('\norganise [postgres]: no PostgreSQL at BENCH_PG_URL, skipped');
    }
  } finally {
    rmSync(clientParent, { recursive: true, force: true });
  }
}

// Run directly: `tsx bench/organise.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runOrganiseBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
