/**
 * `npm run bench`: prints figures; asserts nothing. `npm run bench -- uploads` runs only the upload
 * benchmark (bench/uploads.ts) at BENCH_UPLOAD_MB (default 100) MiB. The default run is short:
 * - folder page latency (p50/p95) of GET /api/rest/entities for page 1 and the last page of a
 *   folder of BENCH_ITEMS (default 2000) items, on the real app over loopback HTTP;
 * - the upload benchmark at 20 MiB, one run (single PUT and multipart beside curl -T to a plain
 *   node:http server, with the server's RSS growth).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { migrateToLatest, openDatabase } from '@server/db/database';
import { systemClock } from '@server/ids';
import { seed } from '@server/seed';
import { LocalObjectStore } from '@server/storage/localObjectStore';
import { runUploadsBench } from './uploads';
import { percentile } from './benchUtils';

const only = process.argv.slice(2);
const uploadMb = Number(process.env.BENCH_UPLOAD_MB ?? 100);
const items = Number(process.env.BENCH_ITEMS ?? 2000);
const password = 'bench-password';

async function main(): Promise<void> {
  if (only.includes('uploads')) {
    await runUploadsBench({ sizeMb: uploadMb, runs: Number(process.env.BENCH_RUNS ?? 7) });
    return;
  }
  await folderPages();
  await runUploadsBench({ sizeMb: 20, runs: 1 });
}

/** Folder page latency on the real app in this process. */
async function folderPages(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000' });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  await seed(database.db, { username: 'admin', password }, systemClock);
  const store = new LocalObjectStore(dataDir, config.sessionSecret);
  await store.init();
  const app = await buildApp({
    db: database.db,
    dialect: 'sqlite',
    store,
    localStore: store,
    clock: systemClock,
    config,
    serveClient: false,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const base = new URL(address);

  const signIn = await fetch(new URL('/api/rest/private/users/authenticate', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(url, base), {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  // Folder page latency.
  const folder = await api<{ id: string }>('POST', '/api/rest/folders', { name: 'Bench folder' });
  const now = new Date().toISOString();
  const me = await api<{ userId: string; currentDatabaseId: string }>(
    'GET',
    '/api/auth/current-user',
  );
  const rows = Array.from({ length: items }, (_, i) => ({
    id: `bench-${String(i).padStart(7, '0')}`,
    database_id: me.currentDatabaseId,
    parent_id: folder.id,
    name: `Folder ${String(i).padStart(7, '0')}`,
    name_key: `folder ${String(i).padStart(7, '0')}`,
    created_by: me.userId,
    created_at: now,
    updated_at: now,
    archived_at: null,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await database.db
      .insertInto('folders')
      .values(rows.slice(i, i + 500))
      .execute();
  const lastPage = Math.ceil(items / 100);
  for (const page of [1, lastPage]) {
    const times: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const t = performance.now();
      await api('GET', `/api/rest/entities?folder_id=${folder.id}&page=${page}&page_size=100`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `folder page ${page} of ${lastPage} (${items} items, sqlite): p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
    );
  }

  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The history benchmark (bench/history.ts): `npm run bench -- history` runs only it, at
 * BENCH_HISTORY_EVENTS (default 1,000,000) events; the default run has it at 100,000. The
 * organise benchmark (bench/organise.ts: a folder of 100,000 files and 1,000 folders, paging,
 * Chromium, zip, bulk archive): `npm run bench -- organise` runs only it; the default run ends
 * with it. The imaging benchmark (bench/imaging.ts): `npm run bench -- imaging [--quick]` only.
 * The start-up speed benchmark (bench/speed.ts: the shell's size, requests and Chromium's time to
 * the first rows of a 100,000-file folder, cold and warm): `npm run bench -- speed` only.
 * The scale benchmark (bench/scale.ts: one and two instances on PostgreSQL and S3 on Swift):
 * `npm run bench -- scale` only. The records benchmark (bench/records.ts: the examiner's export of
 * a firm of 10,000 files, 1 GiB and 100,000 events beside `zip -r`, and its memory):
 * `npm run bench -- records` only. The replay benchmark (bench/replay.ts: a folder of 10,000
 * items with 200,000 events over two years, the state as of a random moment cold and warm and one
 * step of the timeline, on SQLite and PostgreSQL): `npm run bench -- replay` only.
 */
async function run(): Promise<void> {
  const args = process.argv.slice(2);
  const { runHistoryBench } = await import('./history');
  const { runOrganiseBench } = await import('./organise');
  if (args.includes('history')) return runHistoryBench();
  if (args.includes('organise')) return runOrganiseBench();
  if (args.includes('search')) return (await import('./search')).runSearchBench();
  if (args.includes('throughput')) return (await import('./throughput')).runThroughputBench();
  if (args.includes('speed')) {
    // The shell and Chromium's first rows, then throughput beside nginx (bench/throughput.ts).
    await (await import('./speed')).runSpeedBench();
    return (await import('./throughput')).runThroughputBench();
  }
  if (args.includes('scale')) return (await import('./scale')).runScaleBench();
  if (args.includes('records')) return (await import('./records')).runRecordsBench();
  if (args.includes('replay')) return (await import('./replay')).runReplayBench();
  if (args.includes('imaging')) {
    return (await import('./imaging')).runImagingBench({ quick: args.includes('--quick') });
  }
  await main();
  if (args.length === 0) {
    await runHistoryBench({ events: Number(process.env.BENCH_HISTORY_EVENTS ?? 100_000) });
    await runOrganiseBench();
  }
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
