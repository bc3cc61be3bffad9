/**
 * History benchmark: `npm run bench -- history` (1,000,000 events), or a smaller run
 * from the default `npm run bench`. Prints figures; asserts no timing (a short deep page is a
 * MISS).
 *
 * For SQLite, and for PostgreSQL when one answers at BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres):
 * 1. generates BENCH_HISTORY_EVENTS events (default 1,000,000) over two years for one firm of 25
 *    users, with realistic pairs and attributes, hash chain computed, bulk-inserted (SQLite:
 *    prepared inserts in large transactions; PostgreSQL: psql \copy of a CSV file, else
 *    multi-row inserts);
 * 2. runs the real server (server/main.ts) in its own process and measures over loopback HTTP
 *    page 1 and page 5,000 (50 per page, by cursor) p50/p95, without and with filters, and page
 *    5,000's p95 as a ratio of page 1's p95; when the filter matches 5,000 full pages, every read
 *    of page 5,000 must answer 50 items, else the line says MISS and the run exits non-zero;
 * 3. exports all events and the newest 100,000 (each BENCH_HISTORY_EXPORT_RUNS times, default 3,
 *    in a fresh server process), reports the median rows/s and the median growth of the server's
 *    peak RSS (V8 sizes its heap lazily, so one run's growth swings by tens of MB), and times the database's own CSV dump of the same rows and
 *    columns (`sqlite3 -csv`, `psql \copy ... to`) for the ratio;
 * 4. times the chain verifier over the whole log.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import pg from 'pg';
import { rssOf, signIn, startServer, type ServerProcess } from './serverProcess';
import { HISTORY_EVENT_PAIRS } from '@common/history';
import { migrateToLatest, openDatabase } from '@server/db/database';
import { CHAIN_COLUMNS, listHistory } from '@server/repositories/history';
import { resolveHistoryQuery, verifyHistoryChain } from '@server/services/history';
import { exportRecordText, HISTORY_EXPORT_FORMAT } from '@server/services/historyCsv';
import {
  canonicalJson,
  chainHash,
  GENESIS_HASH,
  historyIdAt,
  type ChainLink,
} from '@server/services/historyChain';
import { seedBenchFirm, type BenchFirm } from './benchFirm';
import { median, percentile, prng, postgresReachable, scratchDatabase } from './benchUtils';

const PASSWORD = 'bench-history-password';
const PAGE_SIZE = 50;
const DEEP_PAGE = 5000;
const REPEAT = Number(process.env.BENCH_HISTORY_REPEAT ?? 100);
/** Runs of each export, each in a fresh server process (BENCH_HISTORY_EXPORT_RUNS, default 3). */
const EXPORT_RUNS = Math.max(1, Number(process.env.BENCH_HISTORY_EXPORT_RUNS ?? 3));

/** Options of {@link runHistoryBench}. */
export interface HistoryBenchOptions {
  /** Events to generate (default BENCH_HISTORY_EVENTS or 1,000,000). */
  events?: number;
}

/** One stored history row, as recordEvents writes it: the chain link and its export record. */
type Row = ChainLink & { export_record: string; export_format: number };

const COLUMNS: readonly (keyof Row)[] = [...CHAIN_COLUMNS, 'export_record', 'export_format'];

/** Columns of the database's own dump: those of the app's export the database can produce. */
const DUMP_COLUMNS =
  'id, created_at, user_name, user_id, entity_type, action, entity_id, item_id, ip, user_agent, attributes, chain_seq, hash';

/** How often each pair happens, roughly as in a document office. */
const WEIGHTS: Record<string, number> = {
  'file:download': 18,
  'file:preview': 10,
  'file:create': 15,
  'user:login': 8,
  'user:logout': 6,
  'folder:create': 4,
  'file:rename': 4,
  'file:update': 3,
  'applied_index:create_many': 3,
  'file:move': 3,
  'folder:update': 2,
  'file:archive': 2,
  'folder_contact:create': 1.5,
  'share_link:create': 1.5,
  'folder:rename': 1,
  'folder:move': 1,
  'file:restore': 1,
  'folder:archive': 1,
  'file:delete': 1,
  'folder_permission:create_many': 1,
  'external_share:create': 1,
  'applied_index:update': 1,
  'user:download': 1,
  'folder:download': 1,
};

/** Generates the events, oldest first, with the chain; `sink` takes batches of rows. */
async function generate(
  firm: Firm,
  count: number,
  sink: (rows: Row[]) => Promise<void> | void,
): Promise<{ first: number; last: number }> {
  const random = prng(42);
  const pairs = HISTORY_EVENT_PAIRS.map((p) => ({
    ...p,
    weight: WEIGHTS[`${p.entity_type}:${p.action}`] ?? 0.3,
  }));
  const totalWeight = pairs.reduce((s, p) => s + p.weight, 0);
  const pick = () => {
    let r = random() * totalWeight;
    for (const p of pairs) {
      r -= p.weight;
      if (r <= 0) return p;
    }
    return pairs[0]!;
  };
  const folders = Array.from({ length: 5000 }, (_, i) => ({
    id: historyIdAt(Date.UTC(2020, 0, 1) + i),
    name: `Client ${String(i).padStart(4, '0')}`,
  }));
  const files = Array.from({ length: 20000 }, (_, i) => ({
    id: historyIdAt(Date.UTC(2020, 6, 1) + i),
    name: `Statement ${String(i).padStart(5, '0')}.pdf`,
  }));
  const agents = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
  ];
  const end = Date.now() - 60_000;
  const start = end - 2 * 365 * 86_400_000;
  const span = end - start;
  let prev = GENESIS_HASH;
  let lastId: string | null = null;
  let batch: Row[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = Math.floor(start + ((i + random()) * span) / count);
    const pair = pick();
    const user = firm.users[Math.floor(random() * firm.users.length)]!;
    const folder = folders[Math.floor(random() * folders.length)]!;
    const file = files[Math.floor(random() * files.length)]!;
    const other = folders[Math.floor(random() * folders.length)]!;
    let entityId = folder.id;
    let itemId: string | null = folder.id;
    let attributes: Record<string, unknown>;
    switch (pair.entity_type) {
      case 'file':
        entityId = file.id;
        itemId = file.id;
        attributes = {
          name: file.name,
          file_name: file.name,
          parent: { id: folder.id, name: folder.name },
          ...(pair.action === 'rename'
            ? { prev: { name: `Draft ${file.name}` }, next: { name: file.name } }
            : {}),
          ...(pair.action === 'move' ? { changes: { prevParent: other, nextParent: folder } } : {}),
          ...(pair.action === 'download' || pair.action === 'preview'
            ? { download: { preview: pair.action === 'preview', print: random() < 0.1 } }
            : {}),
        };
        break;
      case 'folder':
        attributes = {
          name: folder.name,
          folder_name: folder.name,
          parent: { id: '', name: 'Root' },
          ...(pair.action === 'move' || pair.action === 'copy'
            ? { changes: { prevParent: other, nextParent: folder } }
            : {}),
        };
        break;
      case 'user':
        entityId = user.id;
        itemId = null;
        attributes = { name: user.name };
        break;
      case 'applied_index':
        entityId = file.id;
        itemId = file.id;
        attributes = {
          index_values: [{ name: 'Tax year', value: String(2020 + (i % 6)) }],
          entity_id: file.id,
          file_name: file.name,
        };
        break;
      case 'share_link':
      case 'external_share':
        attributes = {
          email: `guest${i % 300}@example.com`,
          folder: { id: folder.id, name: folder.name },
          folder_id: folder.id,
          folder_name: folder.name,
        };
        break;
      case 'folder_contact':
        attributes = {
          contact_name: `Contact ${i % 900}`,
          changes: { folder: { id: folder.id, name: folder.name } },
          folder_id: folder.id,
          folder_name: folder.name,
        };
        break;
      default:
        attributes = {
          permissions: [{ permissionable_id: user.id, permissionable_type: 'user' }],
          folder_id: folder.id,
          folder_name: folder.name,
          folders: [{ id: folder.id, name: folder.name }],
        };
    }
    const id: string = historyIdAt(at, lastId);
    lastId = id;
    const content = {
      id,
      database_id: firm.databaseId,
      chain_seq: i + 1,
      entity_type: pair.entity_type,
      entity_id: entityId,
      item_id: itemId,
      action: pair.action,
      user_id: user.id,
      user_name: user.name,
      attributes: canonicalJson(attributes),
      ip: `10.0.${i % 200}.${i % 250}`,
      user_agent: agents[i % agents.length]!,
      created_at: new Date(at).toISOString(),
    };
    const hash = chainHash(prev, content);
    batch.push({
      ...content,
      prev_hash: prev,
      hash,
      export_record: exportRecordText({ ...content, hash }),
      export_format: HISTORY_EXPORT_FORMAT,
    });
    prev = hash;
    if (batch.length === 10_000) {
      await sink(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await sink(batch);
  return { first: start, last: end };
}

/** The firm of a run, as the history benchmark reads it back (its members with their names). */
type Firm = Omit<BenchFirm, 'adminId'>;

/** Adds 24 more members to the seeded firm. */
async function addMembers(url: string): Promise<Firm> {
  const database = openDatabase(url);
  await migrateToLatest(database.db);
  const firm = await seedBenchFirm(database.db, PASSWORD, 24);
  await database.close();
  return firm;
}

/** Bulk load into SQLite with better-sqlite3 directly. */
async function loadSqlite(file: string, firm: Firm, count: number) {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const insert = sqlite.prepare(
    `insert into history_events (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`,
  );
  const insertMany = sqlite.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(...COLUMNS.map((c) => row[c]));
  });
  const range = await generate(firm, count, (rows) => insertMany(rows));
  sqlite.exec('analyze');
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  return range;
}

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** Bulk load into PostgreSQL: a CSV file and psql \copy, or multi-row inserts without psql. */
async function loadPostgres(url: string, firm: Firm, count: number, dir: string) {
  if (hasCommand('psql')) {
    const csvFile = path.join(dir, 'events.csv');
    const out = createWriteStream(csvFile);
    const range = await generate(firm, count, async (rows) => {
      const text = `${Papa.unparse(rows.map((r) => COLUMNS.map((c) => r[c])))}\r\n`;
      if (!out.write(text))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    });
    await new Promise<void>((resolve) => out.end(resolve));
    const copy = spawnSync(
      'psql',
      [
        url,
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `\\copy history_events (${COLUMNS.join(', ')}) from '${csvFile}' csv`,
      ],
      { encoding: 'utf8' },
    );
    if (copy.status !== 0) throw new Error(`psql \\copy failed: ${copy.stderr}`);
    rmSync(csvFile);
    return range;
  }
  console.log('  (psql not found: loading with multi-row inserts)');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const range = await generate(firm, count, async (rows) => {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const values: unknown[] = [];
      const tuples = chunk.map((row, r) => {
        for (const c of COLUMNS) values.push(row[c]);
        return `(${COLUMNS.map((_, k) => `$${r * COLUMNS.length + k + 1}`).join(', ')})`;
      });
      await client.query(
        `insert into history_events (${COLUMNS.join(', ')}) values ${tuples.join(', ')}`,
        values,
      );
    }
  });
  await client.end();
  return range;
}

async function timePage(
  base: string,
  cookie: string,
  page: number,
  body: Record<string, unknown>,
  repeat = REPEAT,
): Promise<{ p50: number; p95: number; items: number[] }> {
  const times: number[] = [];
  /** Items of each read, warm-up reads included. */
  const items: number[] = [];
  for (let i = 0; i < repeat + 5; i += 1) {
    const t = performance.now();
    const response = await fetch(`${base}/api/rest/history?page=${page}&page_size=${PAGE_SIZE}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { items: unknown[] };
    if (!response.ok) throw new Error(`page ${page}: ${response.status} ${JSON.stringify(json)}`);
    if (i >= 5) times.push(performance.now() - t); // the first five warm up
    items.push(json.items.length);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), items };
}

/** The cursor of page n: the id of the last event of page n-1 (read directly, once). */
async function cursorOfPage(
  read: (offset: number, filters: Record<string, unknown>) => Promise<string | null>,
  page: number,
  filters: Record<string, unknown>,
): Promise<string | null> {
  return read((page - 1) * PAGE_SIZE - 1, filters);
}

/** Streams an export, counting bytes and records, sampling the server's RSS. */
async function timeExport(
  server: ServerProcess,
  cookie: string,
  body: Record<string, unknown>,
): Promise<{ rows: number; seconds: number; bytes: number; baseline: number; peak: number }> {
  const pid = server.child.pid!;
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 25);
  const started = performance.now();
  const result = await new Promise<{ rows: number; bytes: number }>((resolve, reject) => {
    const req = request(
      `${server.base}/api/rest/history/export`,
      { method: 'POST', headers: { cookie, 'content-type': 'application/json' } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`export: ${res.statusCode}`));
        let newlines = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines += 1;
        });
        // Bench data has no line breaks inside fields: one per record, header included.
        res.on('end', () => resolve({ rows: newlines - 1, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  return { ...result, seconds, baseline, peak };
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** One database kind, end to end. */
async function benchDatabase(kind: 'sqlite' | 'postgres', events: number): Promise<void> {
  let count = events;
  // BENCH_HISTORY_REUSE=<dir>: measure a SQLite database made earlier by makeSqliteHistory.
  const reuse = kind === 'sqlite' ? process.env.BENCH_HISTORY_REUSE : undefined;
  const dataDir = reuse ?? mkdtempSync(path.join(os.tmpdir(), `dossier-bench-history-${kind}-`));
  const { databaseUrl, dropDatabase } = await scratchDatabase(kind, dataDir, 'dossier_bench');
  try {
    console.log(
      `\nhistory [${kind}], ${count.toLocaleString('en-US')} events over 2 years, one firm of 25 users`,
    );
    let started = performance.now();
    let firm: Firm;
    if (reuse) {
      firm = await firmOf(databaseUrl);
      count = await countEvents(databaseUrl, firm.databaseId);
    } else {
      firm = await addMembers(databaseUrl);
      if (kind === 'sqlite') await loadSqlite(databaseUrl.slice('sqlite://'.length), firm, count);
      else await loadPostgres(databaseUrl, firm, count, dataDir);
    }
    // Reads for setting up the measurements (cursors, ranges), outside the server.
    const database = openDatabase(databaseUrl);
    if (kind === 'postgres') {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query('vacuum analyze history_events');
      await client.end();
    }
    console.log(
      `  generate + bulk load (chain computed): ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    started = performance.now();
    const verified = await verifyHistoryChain(database.db, firm.databaseId);
    const verifySeconds = (performance.now() - started) / 1000;
    console.log(
      `  chain verify: ${verified.ok ? 'OK' : 'BROKEN'}, ${verified.checked.toLocaleString('en-US')} links in ${verifySeconds.toFixed(1)} s (${Math.round(verified.checked / verifySeconds).toLocaleString('en-US')} links/s)`,
    );

    const monthStart = new Date();
    monthStart.setDate(1);
    monthStart.setHours(0, 0, 0, 0);
    const monthEnd = new Date(monthStart);
    monthEnd.setMonth(monthEnd.getMonth() + 1);
    const someUser = firm.users[3]!.id;
    const filters: [string, Record<string, unknown>][] = [
      ['no filter', {}],
      ['type "Downloaded" (4 pairs)', { labels: ['Downloaded'] }],
      ['type "Renamed"', { labels: ['Renamed'] }],
      ['date "This month"', { start: monthStart.toISOString(), end: monthEnd.toISOString() }],
      ['one user', { user_id: someUser }],
      [
        'type "Added" + user + last 365 days',
        {
          labels: ['Added'],
          user_id: someUser,
          start: new Date(Date.now() - 365 * 86_400_000).toISOString(),
          end: new Date(Date.now() + 86_400_000).toISOString(),
        },
      ],
      ['entity type folder', { entity_type: 'folder' }],
    ];
    // Cursor of page n for a filter: the id at offset (n-1)*50-1 of the filtered list.
    const offsetId = async (offset: number, body: Record<string, unknown>) => {
      const q = resolveHistoryQuery(firm.databaseId, body);
      const rows = await listHistory(database.db, q, offset, 1);
      return rows[0]?.id ?? null;
    };

    const server = await startServer({ dataDir, databaseUrl, password: PASSWORD });
    try {
      const cookie = await signIn(server.base, PASSWORD);
      console.log(
        `  page latency over loopback HTTP, ${PAGE_SIZE} per page, ${REPEAT} requests each (p50 / p95):`,
      );
      for (const [label, body] of filters) {
        const first = await timePage(server.base, cookie, 1, body);
        const cursor = await cursorOfPage(offsetId, DEEP_PAGE, body);
        let deep = 'fewer than 5,000 pages match';
        if (cursor) {
          const page = await timePage(server.base, cookie, DEEP_PAGE, { ...body, cursor });
          // A full page when the filter matches at least DEEP_PAGE pages' worth of events.
          const full = (await offsetId(DEEP_PAGE * PAGE_SIZE - 1, body)) !== null;
          const short = page.items.filter((count) => count !== PAGE_SIZE);
          let miss = '';
          if (full && short.length > 0) {
            process.exitCode = 1;
            miss = ` — MISS: ${short.length} of ${page.items.length} reads answered ${[...new Set(short)].join('/')} items, expected ${PAGE_SIZE}`;
          } else if (!full) {
            miss = ` (the last page: ${page.items.at(-1)} items)`;
          }
          deep = `page ${DEEP_PAGE.toLocaleString('en-US')} ${ms(page.p50)} / ${ms(page.p95)} (p95 ${(page.p95 / first.p95).toFixed(2)}× page 1's p95)${miss}`;
        }
        console.log(`    ${label.padEnd(36)} page 1 ${ms(first.p50)} / ${ms(first.p95)}; ${deep}`);
      }
      // The deep link without a cursor falls back to an offset read.
      const offsetOnly = await timePage(server.base, cookie, DEEP_PAGE, {}, 10);
      console.log(
        `    (page ${DEEP_PAGE.toLocaleString('en-US')} by offset, no cursor: ${ms(offsetOnly.p50)} / ${ms(offsetOnly.p95)})`,
      );
      const statsStart = new Date(Date.now() - 365 * 86_400_000).toISOString();
      const statsTimes: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const t = performance.now();
        const response = await fetch(
          `${server.base}/api/rest/history/stats?start=${statsStart}&end=${new Date().toISOString()}&time_zone=UTC`,
          { headers: { cookie } },
        );
        await response.json();
        statsTimes.push(performance.now() - t);
      }
      statsTimes.sort((a, b) => a - b);
      console.log(
        `  stats of the last 365 days (per day and type): median ${ms(percentile(statsTimes, 50))}`,
      );
    } finally {
      await server.stop();
    }

    // Export: the newest 100,000 and all, each in a fresh server so the RSS is the export's.
    const hundredK = Math.min(100_000, count);
    const cutoffId = await offsetId(hundredK - 1, {});
    const cutoffRow = cutoffId
      ? await database.db
          .selectFrom('history_events')
          .select('created_at')
          .where('id', '=', cutoffId)
          .executeTakeFirstOrThrow()
      : null;
    const exports: [string, Record<string, unknown>][] = [
      [
        `newest ${hundredK.toLocaleString('en-US')}`,
        cutoffRow ? { start: cutoffRow.created_at } : {},
      ],
      [`all ${count.toLocaleString('en-US')}`, {}],
    ];
    const ours: Record<string, number> = {};
    for (const [label, body] of exports) {
      const runs: Awaited<ReturnType<typeof timeExport>>[] = [];
      for (let run = 0; run < EXPORT_RUNS; run += 1) {
        const fresh = await startServer({ dataDir, databaseUrl, password: PASSWORD });
        try {
          const cookie = await signIn(fresh.base, PASSWORD);
          runs.push(await timeExport(fresh, cookie, body));
        } finally {
          await fresh.stop();
        }
      }
      const rates = runs.map((r) => r.rows / r.seconds);
      const growths = runs.map((r) => r.peak - r.baseline);
      const rate = median(rates);
      ours[label] = rate;
      const first = runs[0]!;
      console.log(
        `  export ${label}: ${first.rows.toLocaleString('en-US')} rows, ${mb(first.bytes)}, median of ${runs.length} runs (each in a fresh server) ${Math.round(rate).toLocaleString('en-US')} rows/s (${rates.map((r) => Math.round(r).toLocaleString('en-US')).join(', ')}); server RSS ${mb(median(runs.map((r) => r.baseline)))} before, peak growth median +${mb(median(growths))} (${growths.map((g) => `+${mb(g)}`).join(', ')})`,
      );
    }
    await database.close();

    // The database's own CSV dump of the same rows and columns.
    const query = `select ${DUMP_COLUMNS} from history_events where database_id = '${firm.databaseId}' order by id desc`;
    let native: { tool: string; seconds: number } | null = null;
    if (kind === 'sqlite') {
      if (hasCommand('sqlite3')) {
        const t = performance.now();
        const run = spawnSync(
          'sh',
          [
            '-c',
            `sqlite3 -csv -header "${databaseUrl.slice('sqlite://'.length)}" "${query}" > /dev/null`,
          ],
          { encoding: 'utf8' },
        );
        if (run.status !== 0) throw new Error(`sqlite3 failed: ${run.stderr}`);
        native = { tool: 'sqlite3 -csv', seconds: (performance.now() - t) / 1000 };
      } else {
        console.log(
          '  sqlite3 not installed (apt-get install -y sqlite3): no database dump to compare with',
        );
      }
    } else if (hasCommand('psql')) {
      const t = performance.now();
      const run = spawnSync(
        'psql',
        [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${query}) to '/dev/null' csv header`],
        { encoding: 'utf8' },
      );
      if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
      native = { tool: 'psql \\copy', seconds: (performance.now() - t) / 1000 };
    } else {
      console.log('  psql not installed: no database dump to compare with');
    }
    if (native) {
      const nativeRate = count / native.seconds;
      const allRate = ours[`all ${count.toLocaleString('en-US')}`] ?? 0;
      console.log(
        `  ${native.tool} of the same ${count.toLocaleString('en-US')} rows: ${native.seconds.toFixed(1)} s = ${Math.round(nativeRate).toLocaleString('en-US')} rows/s; export / dump = ${(allRate / nativeRate).toFixed(2)}`,
      );
    }
  } finally {
    await dropDatabase();
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The seeded firm of a database made earlier, with its members. */
async function firmOf(url: string): Promise<Firm> {
  const database = openDatabase(url);
  const rows = await database.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.database_id as databaseId',
      'users.id as id',
      'users.first_name',
      'users.last_name',
    ])
    .orderBy('users.id')
    .execute();
  await database.close();
  return {
    databaseId: rows[0]!.databaseId,
    users: rows.map((r) => ({ id: r.id, name: `${r.first_name} ${r.last_name}` })),
  };
}

/** Events of a firm. */
async function countEvents(url: string, databaseId: string): Promise<number> {
  const database = openDatabase(url);
  const row = await database.db
    .selectFrom('history_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .executeTakeFirstOrThrow();
  await database.close();
  return Number(row.n);
}

/**
 * Makes a SQLite history database of `count` events in `dataDir` (dossier.sqlite), for
 * experiments beside the benchmark.
 * @returns the database URL and the firm
 */
export async function makeSqliteHistory(
  dataDir: string,
  count: number,
): Promise<{ url: string; firm: Firm }> {
  const url = `sqlite://${path.join(dataDir, 'dossier.sqlite')}`;
  const firm = await addMembers(url);
  await loadSqlite(url.slice('sqlite://'.length), firm, count);
  return { url, firm };
}

/**
 * Runs the history benchmark on SQLite, and on PostgreSQL when reachable; prints its figures.
 * @param options.events events to generate (default BENCH_HISTORY_EVENTS or 1,000,000)
 */
export async function runHistoryBench(options: HistoryBenchOptions = {}): Promise<void> {
  const count = options.events ?? Number(process.env.BENCH_HISTORY_EVENTS ?? 1_000_000);
  const kinds = (process.env.BENCH_HISTORY_DB ?? 'sqlite,postgres').split(',');
  if (kinds.includes('sqlite')) await benchDatabase('sqlite', count);
  if (kinds.includes('postgres')) {
    if (await postgresReachable()) await benchDatabase('postgres', count);
    else console.log('\nhistory [postgres]: no PostgreSQL at BENCH_PG_URL, skipped');
  }
  if (!existsSync('/usr/bin/sqlite3') && !hasCommand('sqlite3')) {
    console.log("(install Debian's sqlite3 to compare the export with `sqlite3 -csv`)");
  }
}

// Run directly: `tsx bench/history.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runHistoryBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
