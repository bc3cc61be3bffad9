/**
 * Records benchmark: `npm run bench -- records`. Prints figures; asserts no timing (an export
 * whose status is not `done`, or that answers fewer bytes than the files hold, is a MISS and the
 * run exits non-zero).
 *
 * On SQLite:
 * 1. seeds one firm with RECORDS_EVENTS history events (default 100,000; bench/history.ts's
 *    generator: the app's hash chain and stored export records), then RECORDS_FILES files (default
 *    10,000) of RECORDS_MB MiB in all (default 1,024; random bytes, sizes spread from 0.2× to 1.8×
 *    the mean, stored as PDFs, so the zips store them) in a tree of 10 groups of client folders of
 *    100 files each: rows inserted straight through Kysely, objects written through the local
 *    object store (no HTTP uploads), and their imaging jobs queued as uploads queue them;
 * 2. hard-links the same objects into a temporary folder tree on disk, and times
 *    `zip -q -r -n .pdf - .` of it, written to /dev/null (stored like the export);
 * 3. runs the real server (server/main.ts) in a fresh child process per run, asks it for an
 *    examiner's export (POST /api/rest/examiner_exports) of one group (a tenth of the files: 1,000
 *    by default) and of the whole firm (every file and every event), streams the zip over loopback
 *    HTTP counting its bytes, and samples the server's RSS (VmRSS every 20 ms): MiB/s of the whole
 *    firm beside `zip -r`, and the peak RSS growth over the server's RSS before the export, for
 *    both scopes (target: flat, the whole firm within 50 MB of the group). RECORDS_RUNS (default
 *    3) runs of each after one unmeasured warm-up export of the group, each export 3 s after its
 *    server's start, medians. RECORDS_KEEP=1 keeps the data folder. The server runs with
 *    IMAGING_CONCURRENCY=0: the export is measured, not the background imaging of the seeded files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import type { ExaminerExportDto, ExaminerScope } from '@common/examinerExport';
import { contentTypeFor } from '@common/files';
import { nameKey } from '@common/names';
import { loadConfig } from '@server/config';
import { openDatabase, type DatabaseHandle } from '@server/db/database';
import type { FoldersTable, NewFile } from '@server/db/schema';
import { newId, systemClock } from '@server/ids';
import { backfillDerivations } from '@server/services/imaging/queue';
import { LocalObjectStore } from '@server/storage/localObjectStore';
import { median, prng } from './benchUtils';
import { makeSqliteHistory } from './history';
import { firmOf, type Firm } from './organise';
import { rssOf, signIn, startServer, type ServerProcess } from './serverProcess';

const MiB = 1024 * 1024;
/** Groups of the tree (the small scope is one of them). */
const GROUPS = 10;
/** Files per client folder. */
const FILES_PER_CLIENT = 100;
/** The target: the whole firm's peak RSS growth within this much of one group's, in bytes. */
const RSS_TARGET = 50 * 1000 * 1000;
/** Milliseconds a fresh server is left to settle before an export is measured. */
const SETTLE_MS = 3000;

/** Options of {@link runRecordsBench}; each defaults to its environment variable. */
export interface RecordsBenchOptions {
  /** Files of the firm (RECORDS_FILES, default 10,000). */
  files?: number;
  /** MiB of all the files together (RECORDS_MB, default 1,024). */
  mb?: number;
  /** History events (RECORDS_EVENTS, default 100,000). */
  events?: number;
  /** Measured runs of each export and of zip (RECORDS_RUNS, default 3). */
  runs?: number;
}

/** The seeded tree: the first group's id, the files' total bytes, and the on-disk copy. */
interface Seeded {
  groupId: string;
  groupFiles: number;
  groupBytes: number;
  files: number;
  bytes: number;
  /** The folder tree of hard links to the objects, for `zip -r`. */
  treeDir: string;
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

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

/**
 * Seeds the tree: GROUPS groups of client folders of FILES_PER_CLIENT files each; each file's
 * object is written to the store and hard-linked into `treeDir` at the same folder path.
 */
async function seedTree(
  database: DatabaseHandle,
  store: LocalObjectStore,
  objectsDir: string,
  treeDir: string,
  firm: Firm,
  fileCount: number,
  totalBytes: number,
): Promise<Seeded> {
  const now = new Date().toISOString();
  const random = prng(11);
  const mean = totalBytes / fileCount;
  // Sizes spread from 0.2× to 1.8× the mean, scaled to add up to the total.
  const raw = Array.from({ length: fileCount }, () => 0.2 + 1.6 * random());
  const scale = totalBytes / raw.reduce((s, r) => s + r, 0);
  const sizes = raw.map((r) => Math.max(1, Math.round(r * scale)));
  const pool = randomBytes(Math.ceil(mean * 2) + 64);
  const folders: Insertable<FoldersTable>[] = [];
  const files: NewFile[] = [];
  const perGroup = Math.ceil(fileCount / GROUPS);
  let groupId = '';
  let groupFiles = 0;
  let groupBytes = 0;
  let bytes = 0;
  let n = 0;
  for (let g = 0; g < GROUPS && n < fileCount; g += 1) {
    const groupName = `Group ${String(g).padStart(2, '0')}`;
    const group = folderRow(firm, '', groupName, now);
    folders.push(group);
    if (g === 0) groupId = group.id;
    for (let c = 0; n < fileCount && c * FILES_PER_CLIENT < perGroup; c += 1) {
      const clientName = `Client ${String(g * 1000 + c).padStart(5, '0')}`;
      const client = folderRow(firm, group.id, clientName, now);
      folders.push(client);
      const dir = path.join(treeDir, groupName, clientName);
      mkdirSync(dir, { recursive: true });
      for (
        let i = 0;
        i < FILES_PER_CLIENT && n < fileCount && i + c * FILES_PER_CLIENT < perGroup;
        i += 1
      ) {
        const size = sizes[n]!;
        // A different slice of the pool per file, its first bytes the file's number: no two equal.
        const offset = Math.floor(random() * (pool.length - size));
        const body = Buffer.from(pool.subarray(offset, offset + size));
        body.writeUInt32BE(n, 0);
        const id = newId();
        const name = `Statement ${String(n).padStart(6, '0')}.pdf`;
        const key = `bench/${id}`;
        await store.write(key, Readable.from([body]), size);
        linkSync(path.join(objectsDir, key), path.join(dir, name));
        files.push({
          id,
          database_id: firm.databaseId,
          folder_id: client.id,
          name,
          name_key: nameKey(name),
          extension: 'pdf',
          size,
          content_type: contentTypeFor('pdf'),
          storage_key: key,
          status: 'ready',
          sha256: createHash('sha256').update(body).digest('hex'),
          created_by: firm.userId,
          created_at: now,
          updated_at: now,
          archived_at: null,
          archived_root_id: null,
        });
        bytes += size;
        if (g === 0) {
          groupFiles += 1;
          groupBytes += size;
        }
        n += 1;
      }
    }
  }
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < folders.length; i += 500) {
      await trx
        .insertInto('folders')
        .values(folders.slice(i, i + 500))
        .execute();
    }
    for (let i = 0; i < files.length; i += 500) {
      await trx
        .insertInto('files')
        .values(files.slice(i, i + 500))
        .execute();
    }
  });
  return { groupId, groupFiles, groupBytes, files: files.length, bytes, treeDir };
}

/** One export over HTTP: its bytes, seconds, and the server's RSS before and at its peak. */
interface ExportRun {
  bytes: number;
  seconds: number;
  baseline: number;
  peak: number;
  /** Bytes of the zip received when the peak was sampled. */
  peakAt: number;
  status: string;
  files: number;
  events: number;
}

/** Asks for an export of `scope`, streams its zip (counting bytes), samples the server's RSS. */
async function timeExport(
  server: ServerProcess,
  cookie: string,
  scope: ExaminerScope,
): Promise<ExportRun> {
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.base}${url}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as ExaminerExportDto;
  };
  const created = await api('POST', '/api/rest/examiner_exports', { scope });
  const pid = server.child.pid!;
  const baseline = rssOf(pid);
  let peak = baseline;
  let count = 0;
  let peakAt = 0;
  const sampler = setInterval(() => {
    const rss = rssOf(pid);
    if (rss > peak) {
      peak = rss;
      peakAt = count;
    }
  }, 20);
  const started = performance.now();
  const bytes = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.base}${created.url!}`, { headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`export: ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => (count += chunk.length));
      res.on('end', () => resolve(count));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  // The server marks the export done once the last byte went out.
  let done = await api('GET', `/api/rest/examiner_exports/${created.id}`);
  for (let i = 0; i < 50 && done.status === 'running'; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = await api('GET', `/api/rest/examiner_exports/${created.id}`);
  }
  return {
    bytes,
    seconds,
    baseline,
    peak,
    peakAt,
    status: done.status,
    files: done.files_done,
    events: done.events_done,
  };
}

/** Times `zip -q -r -n .pdf - .` of the tree, written to /dev/null; answers its seconds and bytes. */
async function timeZip(treeDir: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const bytes = await new Promise<number>((resolve, reject) => {
    const child = spawn('zip', ['-q', '-r', '-n', '.pdf', '-', '.'], {
      cwd: treeDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let count = 0;
    child.stdout.on('data', (chunk: Buffer) => (count += chunk.length));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(count) : reject(new Error(`zip exited with ${code}`)),
    );
  });
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** Pads a table's cells to their column's width. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`).join('\n');
}

/** Runs the records benchmark on SQLite and prints its figures. */
export async function runRecordsBench(options: RecordsBenchOptions = {}): Promise<void> {
  const fileCount = options.files ?? Number(process.env.RECORDS_FILES ?? 10_000);
  const totalMb = options.mb ?? Number(process.env.RECORDS_MB ?? 1024);
  const eventCount = options.events ?? Number(process.env.RECORDS_EVENTS ?? 100_000);
  const runs = Math.max(1, options.runs ?? Number(process.env.RECORDS_RUNS ?? 3));
  if (spawnSync('sh', ['-c', 'command -v zip']).status !== 0) {
    console.log(
      '\nrecords: `zip` is not installed (apt-get install zip); the comparison is left out',
    );
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-bench-records-'));
  const treeDir = path.join(dataDir, 'zip-tree');
  let server: ServerProcess | null = null;
  try {
    console.log(
      `\nrecords [sqlite]: ${fileCount.toLocaleString('en-US')} files, ${totalMb.toLocaleString('en-US')} MiB, ` +
        `${eventCount.toLocaleString('en-US')} history events; ${runs} run(s) of each, medians`,
    );
    let started = performance.now();
    const { url: databaseUrl } = await makeSqliteHistory(dataDir, eventCount);
    console.log(`  history generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    });
    const store = new LocalObjectStore(dataDir, config.sessionSecret);
    await store.init();
    const database = openDatabase(databaseUrl);
    let seeded: Seeded;
    try {
      const firm = await firmOf(database);
      started = performance.now();
      seeded = await seedTree(
        database,
        store,
        path.join(dataDir, 'objects'),
        treeDir,
        firm,
        fileCount,
        totalMb * MiB,
      );
      // The imaging jobs the uploads would have queued (the server queues missing ones as it
      // starts, which would run beside the first export).
      await backfillDerivations({ db: database.db, clock: systemClock });
    } finally {
      await database.close();
    }
    console.log(
      `  files generated in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
        `(${seeded.files.toLocaleString('en-US')} files, ${mib(seeded.bytes)}; ` +
        `one group: ${seeded.groupFiles.toLocaleString('en-US')} files, ${mib(seeded.groupBytes)})`,
    );

    const scopes = [
      {
        label: `one group (${seeded.groupFiles.toLocaleString('en-US')} files)`,
        scope: { kind: 'folder', folder_id: seeded.groupId } as ExaminerScope,
        bytes: seeded.groupBytes,
      },
      {
        label: `whole firm (${seeded.files.toLocaleString('en-US')} files)`,
        scope: { kind: 'firm' } as ExaminerScope,
        bytes: seeded.bytes,
      },
    ];
    const results: ExportRun[][] = scopes.map(() => []);
    // Run -1 warms up (the first start after seeding does one-off work; its export is not counted).
    for (let run = -1; run < runs; run += 1) {
      for (const [i, { scope, bytes }] of scopes.entries()) {
        if (run < 0 && i > 0) continue;
        // A fresh server per export: RSS growth from the same start.
        server = await startServer({
          dataDir,
          databaseUrl,
          password: 'bench-history-password',
          // Imaging off: the seeded "PDFs" are random bytes, and deriving their text and
          // thumbnails in the background (pdftotext, one process per file) would compete with the
          // export for the CPU.
          env: { UPLOAD_CLEANUP_INTERVAL_MINUTES: '0', IMAGING_CONCURRENCY: '0' },
          readyTimeoutMs: 60_000,
        });
        const cookie = await signIn(server.base, 'bench-history-password');
        // Let the start-up's background work (imaging's start, the first checkpoint) settle.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const result = await timeExport(server, cookie, scope);
        await server.stop();
        server = null;
        if (result.status !== 'done' || result.bytes < bytes) {
          console.log(
            `  MISS: ${scopes[i]!.label}: status ${result.status}, ${mib(result.bytes)} for ${mib(bytes)} of files`,
          );
          process.exitCode = 1;
        }
        if (run >= 0) results[i]!.push(result);
      }
    }
    const zipRuns: { seconds: number; bytes: number }[] = [];
    for (let run = 0; run < runs; run += 1) zipRuns.push(await timeZip(treeDir));

    const rows = [['', 'zip bytes', 'seconds', 'MiB/s (files)', 'RSS before', 'peak growth']];
    const growth: number[] = [];
    for (const [i, { label, bytes }] of scopes.entries()) {
      const r = results[i]!;
      const seconds = median(r.map((x) => x.seconds));
      const up = median(r.map((x) => x.peak - x.baseline));
      growth.push(up);
      rows.push([
        `examiner export, ${label}, ${r[0]!.events.toLocaleString('en-US')} events`,
        mib(median(r.map((x) => x.bytes))),
        seconds.toFixed(2),
        (bytes / MiB / seconds).toFixed(1),
        mib(median(r.map((x) => x.baseline))),
        `+${mb(up)}`,
      ]);
    }
    const zipSeconds = median(zipRuns.map((z) => z.seconds));
    rows.push([
      `zip -r -n .pdf of the same files on disk (${seeded.files.toLocaleString('en-US')})`,
      mib(zipRuns[0]!.bytes),
      zipSeconds.toFixed(2),
      (seeded.bytes / MiB / zipSeconds).toFixed(1),
      '',
      '',
    ]);
    console.log(table(rows));
    const firmSeconds = median(results[1]!.map((x) => x.seconds));
    console.log(
      `  whole-firm export / zip -r: ${(zipSeconds / firmSeconds).toFixed(2)}× zip's throughput`,
    );
    const apart = growth[1]! - growth[0]!;
    console.log(
      `  peak RSS growth, whole firm − one group: ${apart >= 0 ? '+' : ''}${mb(apart)} ` +
        `(target: within ${mb(RSS_TARGET)}) — ${Math.abs(apart) <= RSS_TARGET ? 'meets it' : 'MISSES it'}`,
    );
    console.log(
      `  every run (seconds; peak growth at the zip bytes received then): ${scopes
        .map(
          (s, i) =>
            `${s.label}: ${results[i]!.map((x) => `${x.seconds.toFixed(1)} s; +${mb(x.peak - x.baseline)} at ${mib(x.peakAt)} of ${mib(x.bytes)}`).join(', ')}`,
        )
        .join(' | ')}`,
    );
  } finally {
    if (server) await server.stop();
    if (process.env.RECORDS_KEEP === '1') console.log(`  data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run directly: `tsx bench/records.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runRecordsBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
