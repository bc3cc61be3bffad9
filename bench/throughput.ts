/**
 * API throughput beside a static server: `npm run bench -- throughput` (also part of `-- speed`).
 * The real server (server/main.ts, its own process, SQLite or PostgreSQL) answers a folder page of
 * 100 items from a folder of BENCH_ITEMS (default 2,000) items, an autocomplete and a History page;
 * nginx (Debian package `nginx`, one worker) serves the identical bytes of each answer from a file.
 * autocannon loads both at 10 and 50 connections for BENCH_SECONDS (default 5) each and the bench
 * prints requests/s, p50 and p99 latency and the app/nginx ratio. Prints figures; asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Insertable } from 'kysely';
import { contentTypeFor } from '@common/files';
import { nameKey } from '@common/names';
import type { FoldersTable, NewFile } from '@server/db/schema';
import { openDatabase } from '@server/db/database';
import { newId } from '@server/ids';
import { postgresReachable, scratchDatabase } from './benchUtils';
import { freePort, rssOf, signIn, startServer, type ServerProcess } from './serverProcess';

/** Options of {@link runThroughputBench}. */
export interface ThroughputBenchOptions {
  /** Items in the benchmark folder (half folders, half files). */
  items?: number;
  /** Seconds of load per measurement. */
  seconds?: number;
  /** Databases to measure. */
  databases?: ('sqlite' | 'postgres')[];
}

/** One endpoint measured: its path and the exact bytes the app answered. */
interface Endpoint {
  label: string;
  path: string;
  /** A POST's JSON body (History's filters); GET when absent. */
  request?: string;
  body: Buffer;
}

/** autocannon's figures for one load. */
export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const PASSWORD = 'bench-throughput-password';

/** Loads `url` with `connections` for `seconds`; non-2xx answers count as errors. */
export async function load(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(body ? { method: 'POST' as const, body } : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Starts nginx (one worker) serving `root` on a free port; resolves once it answers. */
async function startNginx(root: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'dossier-nginx-'));
  mkdirSync(path.join(prefix, 'logs'));
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
error_log ${prefix}/logs/error.log;
pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / { root ${root}; default_type application/json; add_header Cache-Control no-store; }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', conf], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    try {
      await fetch(`${base}/`);
      return { base, child };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill();
  throw new Error('nginx did not start');
}

/** The benchmark folder's rows: `items / 2` folders and `items / 2` PDF files. */
export function rows(
  databaseId: string,
  userId: string,
  folderId: string,
  items: number,
): { folders: Insertable<FoldersTable>[]; files: NewFile[] } {
  const now = new Date().toISOString();
  const folders: Insertable<FoldersTable>[] = [];
  const files: NewFile[] = [];
  for (let i = 0; i < items; i += 1) {
    const id = newId();
    const common = {
      id,
      database_id: databaseId,
      created_by: userId,
      created_at: now,
      updated_at: now,
      archived_at: null,
      archived_root_id: null,
    };
    if (i % 2 === 0) {
      const name = `Client ${String(i).padStart(6, '0')}`;
      folders.push({ ...common, parent_id: folderId, name, name_key: nameKey(name) });
    } else {
      const name = `Statement ${String(i).padStart(6, '0')}.pdf`;
      files.push({
        ...common,
        folder_id: folderId,
        name,
        name_key: nameKey(name),
        extension: 'pdf',
        size: 123_456,
        content_type: contentTypeFor('pdf'),
        storage_key: `bench/${id}`,
        status: 'ready',
        sha256: null,
      });
    }
  }
  return { folders, files };
}

/** Measures one database: seeds, captures each endpoint's bytes, loads app and nginx. */
async function measure(kind: 'sqlite' | 'postgres', items: number, seconds: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-throughput-'));
  const scratch = await scratchDatabase(kind, dataDir, 'dossier_throughput');
  let server: ServerProcess | null = null;
  let nginx: ChildProcess | null = null;
  try {
    server = await startServer({
      dataDir,
      databaseUrl: scratch.databaseUrl,
      password: PASSWORD,
      // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
      nodeArgs: process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : [],
    });
    const cookie = await signIn(server.base, PASSWORD);
    const api = async (method: string, url: string, body?: unknown): Promise<Response> => {
      const response = await fetch(`${server!.base}${url}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status}`);
      return response;
    };
    const me = (await (await api('GET', '/api/auth/current-user')).json()) as {
      userId: string;
      currentDatabaseId: string;
    };
    const folder = (await (
      await api('POST', '/api/rest/folders', { name: 'Throughput' })
    ).json()) as { id: string };
    const database = openDatabase(scratch.databaseUrl);
    const seeded = rows(me.currentDatabaseId, me.userId, folder.id, items);
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < seeded.folders.length; i += 500)
        await trx
          .insertInto('folders')
          .values(seeded.folders.slice(i, i + 500))
          .execute();
      for (let i = 0; i < seeded.files.length; i += 500)
        await trx
          .insertInto('files')
          .values(seeded.files.slice(i, i + 500))
          .execute();
    });
    await database.close();

    const paths: [string, string, string?][] = [
      ['folder page (100 items)', `/api/rest/entities?folder_id=${folder.id}&page=1&page_size=100`],
      ['autocomplete', '/api/rest/entities/search/autocomplete?query=statement'],
      ['history page (50 events)', '/api/rest/history?page=1&page_size=50', '{"filters":{}}'],
    ];
    const root = mkdtempSync(path.join(os.tmpdir(), 'dossier-static-'));
    const endpoints: Endpoint[] = [];
    for (const [label, url, request] of paths) {
      const response = await fetch(`${server.base}${url}`, {
        method: request ? 'POST' : 'GET',
        headers: { cookie, 'content-type': 'application/json' },
        body: request,
      });
      if (!response.ok) {
        console.log(`  ${label}: ${url} answered ${response.status}; skipped`);
        continue;
      }
      endpoints.push({
        label,
        path: url,
        request,
        body: Buffer.from(await response.arrayBuffer()),
      });
    }
    endpoints.forEach((e, i) => writeFileSync(path.join(root, `e${i}.json`), e.body));
    const started = await startNginx(root);
    nginx = started.child;

    console.log(
      `\nthroughput (${kind}, folder of ${items} items, ${seconds} s per load, autocannon in this process)`,
    );
    for (const [i, endpoint] of endpoints.entries()) {
      console.log(`  ${endpoint.label}: ${endpoint.body.length} bytes`);
      for (const connections of [10, 50]) {
        const app = await load(
          `${server.base}${endpoint.path}`,
          connections,
          seconds,
          { cookie },
          endpoint.request,
        );
        const file = await load(`${started.base}/e${i}.json`, connections, seconds);
        console.log(
          `    ${connections} conn: app ${app.rps.toFixed(0)} req/s (p50 ${app.p50} ms, p99 ${app.p99} ms${app.errors ? `, ${app.errors} errors` : ''}) · nginx ${file.rps.toFixed(0)} req/s (p99 ${file.p99} ms) · ratio ${(app.rps / file.rps).toFixed(2)}×`,
        );
      }
    }
    console.log(`  app RSS after load: ${(rssOf(server.child.pid!) / 2 ** 20).toFixed(0)} MiB`);
    rmSync(root, { recursive: true, force: true });
  } finally {
    nginx?.kill('SIGQUIT');
    await server?.stop();
    await scratch.dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the throughput benchmark on SQLite and, when reachable, PostgreSQL. */
export async function runThroughputBench(options: ThroughputBenchOptions = {}): Promise<void> {
  const items = options.items ?? Number(process.env.BENCH_ITEMS ?? 2000);
  const seconds = options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5);
  if (spawnSync('nginx', ['-v']).error) {
    console.log('throughput: nginx is not installed (apt-get install nginx); skipped');
    return;
  }
  const fromEnv = process.env.BENCH_DATABASES?.split(',') as ('sqlite' | 'postgres')[] | undefined;
  for (const kind of options.databases ?? fromEnv ?? ['sqlite', 'postgres']) {
    if (kind === 'postgres' && !(await postgresReachable())) {
      console.log('throughput (postgres): PostgreSQL unreachable; skipped');
      continue;
    }
    await measure(kind, items, seconds);
  }
}
