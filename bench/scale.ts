/**
 * Several instances on S3: `npm run bench -- scale`. One, then two app servers (server/main.ts,
 * each its own process and DATA_DIR) share one PostgreSQL database and one S3 bucket on a
 * single-node OpenStack Swift on this machine (scripts/swift.mjs). The bench prints:
 * - folder-page requests/s and p99 (GET /api/rest/entities, page 1 of 100 items, a folder of
 *   BENCH_ITEMS (default 2,000) items seeded straight into the database) at BENCH_CONNECTIONS
 *   (default 50) connections for BENCH_SECONDS (default 10) s: with one instance, one autocannon
 *   run; with two, two autocannon runs at once of half the connections each, one per instance,
 *   requests/s summed and the worse p99 taken;
 * - a BENCH_UPLOAD_MB (default 100) MiB upload through the S3 store by the app's flows (single PUT
 *   and multipart, bench/uploads.ts) beside `curl -T` of the same file straight to Swift with a
 *   presigned URL (the reference; target ≥ 0.8×), BENCH_RUNS (default 3) rounds in a turning order,
 *   medians and the median per-round ratio, each app upload's background fingerprint awaited
 *   outside its time;
 * - each instance's RSS after the page load and after the uploads.
 * autocannon and curl run on this machine too (2 cores shared with everything else): two instances
 * cannot run faster than the cores allow. Prints figures; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileDto } from '@common/entities';
import type { UploadRestrictions } from '@common/uploads';
import { openDatabase } from '@server/db/database';
import { startSwift, stopSwift, swiftInstalled } from '../scripts/swift.mjs';
import { median, postgresReachable, scratchDatabase } from './benchUtils';
import { freePort, rssOf, signIn, startServer, type ServerProcess } from './serverProcess';
import { load, rows, type Load } from './throughput';
import {
  appClient,
  appMultipartUpload,
  appSingleUpload,
  curlPut,
  generate,
  splitParts,
  type Steps,
} from './uploads';

const PASSWORD = 'bench-scale-password';
const BUCKET = 'dossier-scale';
const ACCESS_KEY_ID = 'test:tester';
const SECRET_ACCESS_KEY = 'testing';
/** Bytes in a MiB (sizes and speeds are printed in MiB and MiB/s). */
const MB = 1024 * 1024;
/** Target: an app upload at least this fraction of the speed of `curl -T` straight to Swift. */
const MIN_RATIO = 0.8;

/** Whether nobody listens on `port` of 127.0.0.1 right now. */
async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Swift's ports: the S3 API's, and a base with base+1 and base+2 free for the backends. */
async function swiftPorts(): Promise<{ port: number; backendPort: number }> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const base = await freePort();
    if (base + 2 > 65535) continue;
    if ((await portFree(base + 1)) && (await portFree(base + 2))) {
      return { backendPort: base, port: await freePort() };
    }
  }
  throw new Error('no free ports for Swift');
}

const mib = (bytes: number) => `${(bytes / MB).toFixed(0)} MiB`;

/** Runs the scale benchmark and prints its figures; skips when Swift or PostgreSQL is missing. */
export async function runScaleBench(): Promise<void> {
  const items = Number(process.env.BENCH_ITEMS ?? 2000);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 100);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  // The AWS SDK's warning about Node 20 (this process's S3 clients and Swift's bucket check).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  if (!swiftInstalled()) {
    console.log('scale: OpenStack Swift is not installed; skipped');
    return;
  }
  if (!(await postgresReachable())) {
    console.log('scale: PostgreSQL unreachable; skipped');
    return;
  }
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-scale-'));
  const swiftDir = path.join(workDir, 'swift');
  const servers: ServerProcess[] = [];
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;
  let s3: S3Client | null = null;
  try {
    const ports = await swiftPorts();
    const swift = await startSwift({ dir: swiftDir, ...ports, bucket: BUCKET });
    scratch = await scratchDatabase('postgres', workDir, 'dossier_scale');
    const env = {
      OBJECT_STORE: 's3',
      S3_ENDPOINT: swift.endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: '1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      SESSION_SECRET: randomBytes(32).toString('hex'),
    };
    const start = (n: number) =>
      startServer({
        dataDir: path.join(workDir, `instance-${n}`),
        databaseUrl: scratch!.databaseUrl,
        password: PASSWORD,
        env,
      });
    // The first instance migrates and seeds; the second starts once it is up.
    servers.push(await start(1));
    const [first] = servers as [ServerProcess];
    const cookie = await signIn(first.base, PASSWORD);
    const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${first.base}${url}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status}`);
      return (await response.json()) as T;
    };
    const me = await api<{ userId: string; currentDatabaseId: string }>(
      'GET',
      '/api/auth/current-user',
    );
    const folder = await api<{ id: string }>('POST', '/api/rest/folders', { name: 'Scale' });
    const seeded = rows(me.currentDatabaseId, me.userId, folder.id, items);
    const database = openDatabase(scratch.databaseUrl);
    try {
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
    } finally {
      await database.close();
    }
    const pagePath = `/api/rest/entities?folder_id=${folder.id}&page=1&page_size=100`;
    const loadAll = async (targets: ServerProcess[]): Promise<Load[]> => {
      const cookies = await Promise.all(targets.map((s) => signIn(s.base, PASSWORD)));
      // Warm-up (JIT, connection pools), not counted.
      await Promise.all(
        targets.map((s, i) => load(`${s.base}${pagePath}`, 10, 2, { cookie: cookies[i]! })),
      );
      const share = Math.round(connections / targets.length);
      return Promise.all(
        targets.map((s, i) =>
          load(`${s.base}${pagePath}`, share, seconds, { cookie: cookies[i]! }),
        ),
      );
    };
    const summary = (loads: Load[]) => {
      const rps = loads.reduce((sum, l) => sum + l.rps, 0);
      const p99 = Math.max(...loads.map((l) => l.p99));
      const errors = loads.reduce((sum, l) => sum + l.errors, 0);
      const each = loads
        .map((l, i) => `#${i + 1} ${l.rps.toFixed(0)} req/s, p99 ${l.p99} ms`)
        .join('; ');
      return `${rps.toFixed(0)} req/s, p99 ${p99} ms${errors ? `, ${errors} errors` : ''}${loads.length > 1 ? ` (${each})` : ''}`;
    };
    const rssLine = () => servers.map((s, i) => `#${i + 1} ${mib(rssOf(s.child.pid!))}`).join(', ');

    console.log(
      `\nscale (PostgreSQL, S3 store on single-node Swift, ${os.cpus().length} CPUs shared by the app instances, PostgreSQL, Swift and the load generators; load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
    console.log(
      `  folder page (page 1 of 100 items, folder of ${items} items), ${connections} connections, ${seconds} s, autocannon in this process:`,
    );
    const one = await loadAll([first]);
    console.log(`    one instance:  ${summary(one)}; RSS after load ${rssLine()}`);
    servers.push(await start(2));
    const two = await loadAll(servers);
    console.log(
      `    two instances: ${summary(two)}; RSS after load ${rssLine()} — two autocannon runs at once, ${Math.round(connections / 2)} connections each, one per instance; req/s summed, worse p99 (ratio to one instance ${(two.reduce((s, l) => s + l.rps, 0) / one[0]!.rps).toFixed(2)}×)`,
    );

    // Uploads through the S3 store, on the first instance.
    const source = path.join(workDir, 'source.bin');
    const size = sizeMb * MB;
    const sourceSha = generate(source, size);
    const base = new URL(first.base);
    const call = appClient(base);
    await call('POST', '/api/rest/private/users/authenticate', {
      username: 'admin',
      password: PASSWORD,
    });
    const restrictions = await call<UploadRestrictions>('GET', '/api/rest/files/restrictions');
    const partFiles = splitParts(source, size, restrictions.part_size);
    s3 = new S3Client({
      endpoint: swift.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    let uploads = 0;
    const body = () => {
      uploads += 1;
      return {
        folder_id: '',
        name: `scale-${uploads}.bin`,
        extension: 'bin',
        content_type: 'application/octet-stream',
        size,
      };
    };
    /** Polls the recorded file until its background sha256 is set; checks it. */
    const awaitFingerprint = async (file: FileDto) => {
      if (file.size !== size) throw new Error(`recorded ${file.name}: size ${file.size}`);
      const deadline = Date.now() + 120_000;
      for (let sha = file.sha256; sha === null;) {
        if (Date.now() > deadline) throw new Error(`no fingerprint for ${file.name} after 120 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        sha = (await call<FileDto>('GET', `/api/rest/files/${file.id}`)).sha256;
        if (sha !== null && sha !== sourceSha) throw new Error(`fingerprint of ${file.name}`);
      }
    };
    const singleSteps: Steps = new Map();
    const multipartSteps: Steps = new Map();
    const kinds = {
      reference: async () => {
        uploads += 1;
        const url = await getSignedUrl(
          s3!,
          new PutObjectCommand({ Bucket: BUCKET, Key: `reference/${uploads}` }),
          { expiresIn: 3600 },
        );
        const started = performance.now();
        await curlPut(source, url);
        return performance.now() - started;
      },
      single: async () => {
        const started = performance.now();
        const file = await appSingleUpload(call, base, source, body(), singleSteps);
        const ms = performance.now() - started;
        await awaitFingerprint(file);
        return ms;
      },
      multipart: async () => {
        const started = performance.now();
        const file = await appMultipartUpload(call, base, partFiles, body(), multipartSteps);
        const ms = performance.now() - started;
        await awaitFingerprint(file);
        return ms;
      },
    };
    const names = Object.keys(kinds) as (keyof typeof kinds)[];
    // Warm-up, not counted.
    for (const name of names) await kinds[name]();
    singleSteps.clear();
    multipartSteps.clear();
    const times: Record<keyof typeof kinds, number[]> = {
      reference: [],
      single: [],
      multipart: [],
    };
    for (let round = 0; round < runs; round += 1) {
      for (let turn = 0; turn < names.length; turn += 1) {
        const name = names[(round + turn) % names.length]!;
        spawnSync('sync');
        times[name].push(await kinds[name]());
      }
    }
    const speed = (list: number[]) => sizeMb / (median(list) / 1000);
    const ratio = (list: number[]) => median(list.map((ms, round) => times.reference[round]! / ms));
    const line = (label: string, list: number[]) => {
      const r = ratio(list);
      return `${label}: ${speed(list).toFixed(1)} MiB/s, ${r.toFixed(2)}× the reference (median of per-round ratios) — ${r >= MIN_RATIO ? 'meets' : 'MISSES'} the ${MIN_RATIO}× target`;
    };
    const stepLine = (steps: Steps) =>
      [...steps].map(([name, list]) => `${name} ${median(list).toFixed(0)}`).join(', ');
    console.log(
      `  upload of ${sizeMb} MiB through the S3 store (instance #1, ${runs} rounds after a warm-up, turning order, medians):`,
    );
    console.log(
      `    reference  curl -T → presigned PUT straight to Swift: ${speed(times.reference).toFixed(1)} MiB/s`,
    );
    console.log(`    ${line('single PUT (create + curl -T + record)', times.single)}`);
    console.log(
      `    ${line(`multipart  (${partFiles.length} parts of ${mib(restrictions.part_size)}, one curl, sequential; create + sign/PUT parts + complete + record)`, times.multipart)}`,
    );
    // The bytes' own leg, without the app's steps around it (record copies the staged object).
    const putOnly = (steps: Steps, name: string) =>
      (median(times.reference) / median(steps.get(name) ?? [])).toFixed(2);
    console.log(
      `    the PUT step alone: single ${putOnly(singleSteps, 'PUT')}×, multipart parts ${putOnly(multipartSteps, 'PUT parts')}× the reference's median (record includes the S3 CopyObject of the staged object to its key, which Swift performs by reading and writing the whole object)`,
    );
    console.log(`    single PUT steps, median ms: ${stepLine(singleSteps)}`);
    console.log(`    multipart steps, median ms: ${stepLine(multipartSteps)}`);
    console.log(`  RSS after the uploads: ${rssLine()}`);
  } finally {
    s3?.destroy();
    for (const server of servers) await server.stop();
    stopSwift(swiftDir);
    await scratch?.dropDatabase();
    rmSync(workDir, { recursive: true, force: true });
  }
}
