/**
 * Upload benchmark: the throughput of one file of BENCH_UPLOAD_MB MiB through the
 * local object store, by single PUT and by multipart, beside `curl -T` of the same file to a plain
 * `node:http` server that writes the body to disk on this machine (the reference), as a ratio; and
 * the app server's RSS growth during each upload. Targets: at least 0.8× the reference, RSS growth
 * under 30 MB (10^6 bytes). Prints figures in MiB and MiB/s (2^20 bytes), asserts nothing.
 *
 * - The app server runs in a child process (bench/appServer.ts: the real buildApp, SQLite, the
 *   local store in a temporary DATA_DIR); its RSS is read from /proc/<pid>/status every 10 ms. The
 *   growth is the peak during the upload minus the RSS just before it (after a warm-up upload).
 * - Single PUT: create-upload, then `curl -T` of the file to the presigned URL (the same client
 *   as the reference), then record; the time covers all three.
 * - Multipart: create, sign the parts (of the configured part size) ten per call as the browser
 *   does, send them with one `curl` over one kept-alive connection, one after the other as
 *   @uppy/aws-s3 does (the file is split into part files before any timing), then sign and send
 *   complete, then record; the time covers all of it, the server joining the parts included.
 * - BENCH_RUNS rounds (default 7 for `npm run bench -- uploads`) of reference, single PUT and
 *   multipart, in an order that turns by one each round, each upload after `sync` (so none pays
 *   for the write-back of the one before); speeds are medians, the ratio is the median of the
 *   ratios within each round (this machine's load drifts between rounds).
 * - Fingerprint: objects above the multipart threshold are hashed (sha256) after the upload is
 *   recorded, in the background (server/services/fingerprints.ts). After each app upload, outside
 *   its time, the benchmark polls the file until its sha256 is set, prints how long after the
 *   record answer that took (and the server's CPU and RSS growth meanwhile), and only then starts
 *   the next upload, so the background hash never overlaps a measured one. The sha256 must equal
 *   the source's, or the benchmark stops.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { FileDto } from '@common/entities';
import type {
  CreateMultipartUploadResponse,
  CreateUploadResponse,
  PresignedRequestDto,
} from '@common/uploads';
import type { UploadRestrictions } from '@common/uploads';
import { median } from './benchUtils';

/** Parts signed per call, as the browser does (src/features/uploads/uppyClient.ts). */
const PARTS_PER_SIGNATURE = 10;

/** Bytes in a MiB: sizes, speeds and RSS figures are printed in MiB and MiB/s. */
const MB = 1024 * 1024;

/** Target: each app upload at least this fraction of the reference's speed. */
const MIN_RATIO = 0.8;

/** Target: the app server's RSS grows by less than 30 MB (decimal) during an upload. */
const MAX_RSS_GROWTH_BYTES = 30e6;

/** Options of {@link runUploadsBench}. */
export interface UploadsBenchOptions {
  /** File size in MiB. */
  sizeMb: number;
  /** Runs per figure (the median is printed). */
  runs: number;
}

/** One measured upload. */
interface Measure {
  seconds: number;
  /** Peak RSS minus the RSS before, in MiB. */
  rssGrowthMb: number;
  /** CPU time (user + system) the receiving server spent, in ms. */
  cpuMs: number;
}

/** CPU time (user + system) of a process so far, in ms (Linux /proc); 0 when it cannot be read. */
function cpuMsOf(pid: number): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks, after the parenthesised command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Milliseconds spent in each step of an upload kind, one entry per counted run, by step name. */
export type Steps = Map<string, number[]>;

/** Runs `fn`, adding its wall time in ms to `steps` under `name`. */
async function step<T>(steps: Steps, name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    const list = steps.get(name) ?? [];
    list.push(performance.now() - started);
    steps.set(name, list);
  }
}

/** Writes `size` random bytes and answers their sha256. */
export function generate(file: string, size: number): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    const chunk = randomBytes(MB);
    for (let written = 0; written < size; written += MB) {
      const part = chunk.subarray(0, Math.min(MB, size - written));
      hash.update(part);
      writeSync(fd, part);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Starts a child process that prints `{ "port": n }` on its first line; answers the port. */
async function startChild(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
}

/** VmRSS of a process in bytes (Linux /proc). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

/** Runs `fn` while sampling the RSS of `pid` every 10 ms; answers its time and RSS growth. */
async function measure(pid: number, fn: () => Promise<void>): Promise<Measure> {
  const before = rssOf(pid);
  const cpuBefore = cpuMsOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);
  const started = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, rssOf(pid));
  return { seconds, rssGrowthMb: (peak - before) / MB, cpuMs: cpuMsOf(pid) - cpuBefore };
}

/**
 * `curl -T file url` with extra headers.
 * @returns the reply's ETag header (without quotes), '' when there is none
 * @throws when curl fails or the reply is not 2xx
 */
export async function curlPut(
  file: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const args = ['-sS', '-o', '/dev/null', '-D', '-', '-w', '%{http_code}', '-T', file];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const status = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !/^2\d\d$/.test(status)) {
    throw new Error(`curl -T ${url} failed: exit ${code}, HTTP ${status}`);
  }
  return (/^etag:\s*"?([^"\r\n]*)"?/im.exec(out)?.[1] ?? '').trim();
}

/**
 * Sends several files with one `curl` (one connection, kept alive, one transfer after the other).
 * @returns the ETag of each reply, in order
 * @throws when curl fails or a reply is not 2xx
 */
export async function curlPutMany(transfers: { file: string; url: string }[]): Promise<string[]> {
  const args = ['-sS', '-D', '-', '-w', 'HTTP_STATUS %{http_code}\\n'];
  for (const { file, url } of transfers) args.push('-T', file, '-o', '/dev/null', url);
  const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const statuses = [...out.matchAll(/^HTTP_STATUS (\d+)/gm)].map((m) => m[1]);
  if (
    code !== 0 ||
    statuses.length !== transfers.length ||
    statuses.some((s) => !s?.startsWith('2'))
  ) {
    throw new Error(
      `curl of ${transfers.length} parts failed: exit ${code}, HTTP ${statuses.join(' ')}`,
    );
  }
  return [...out.matchAll(/^etag:\s*"?([^"\r\n]*)"?/gim)].map((m) => (m[1] ?? '').trim());
}

/** Copies byte ranges of `file` into one file per part (before any timing). */
export function splitParts(file: string, size: number, partSize: number): string[] {
  const data = readFileSync(file);
  const parts: string[] = [];
  for (let start = 0, n = 1; start < size; start += partSize, n += 1) {
    const part = `${file}.part${n}`;
    writeFileSync(part, data.subarray(start, Math.min(size, start + partSize)));
    parts.push(part);
  }
  return parts;
}

/** A tiny JSON client of the app with a session cookie (set by the first answer that sets one). */
export function appClient(base: URL) {
  let cookie = '';
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(url, base), {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return call;
}

/** What create-upload needs of a file (POST /api/rest/files and /files/multipart). */
export interface UploadBody {
  folder_id: string;
  name: string;
  extension: string;
  content_type: string;
  size: number;
}

/**
 * The app's single-PUT flow: create-upload, `curl -T` of `source` to the presigned URL (relative
 * URLs resolve against `base`), record. Adds each step's wall time in ms to `s`.
 * @returns the recorded file
 * @throws when a request fails
 */
export async function appSingleUpload(
  call: ReturnType<typeof appClient>,
  base: URL,
  source: string,
  body: UploadBody,
  s: Steps,
): Promise<FileDto> {
  const created = await step(s, 'create', () =>
    call<CreateUploadResponse>('POST', '/api/rest/files', body),
  );
  await step(s, 'PUT', () =>
    curlPut(source, new URL(created.url, base).toString(), created.headers),
  );
  const recorded = await step(s, 'record', () =>
    call<FileDto>('POST', '/api/rest/files/record', { id: created.id }),
  );
  return recorded;
}

/**
 * The app's multipart flow as the browser runs it: create, store create, sign the parts ten per
 * call, send `partFiles` with one `curl` one after the other, sign and send complete, record.
 * Adds each step's wall time in ms to `s`.
 * @returns the recorded file
 * @throws when a request fails
 */
export async function appMultipartUpload(
  call: ReturnType<typeof appClient>,
  base: URL,
  partFiles: string[],
  body: UploadBody,
  s: Steps,
): Promise<FileDto> {
  const created = await step(s, 'create', () =>
    call<CreateMultipartUploadResponse>('POST', '/api/rest/files/multipart', body),
  );
  await step(s, 'store create', async () => {
    const init = await fetch(new URL(created.url, base), {
      method: 'POST',
      headers: created.headers,
    });
    if (!init.ok) throw new Error(`create multipart: ${init.status}`);
    await init.text();
  });
  // Sign the parts ten at a time (as the browser does, uppyClient.ts PARTS_PER_SIGNATURE),
  // then send them all with one curl over one kept-alive connection, one after the other
  // (as the browser does, without a process per part).
  const signedParts: PresignedRequestDto[] = [];
  await step(s, 'sign parts', async () => {
    while (signedParts.length < partFiles.length) {
      const first = signedParts.length + 1;
      const count = Math.min(PARTS_PER_SIGNATURE, partFiles.length - signedParts.length);
      const { parts } = await call<{ parts: PresignedRequestDto[] }>(
        'GET',
        `/api/rest/files/multipart/${created.id}/parts?key=${encodeURIComponent(created.key)}&first=${first}&count=${count}`,
      );
      signedParts.push(...parts);
    }
  });
  const etags = await step(s, 'PUT parts', () =>
    curlPutMany(
      partFiles.map((file, index) => ({
        file,
        url: new URL(signedParts[index]!.url, base).toString(),
      })),
    ),
  );
  const parts = etags.map((etag, index) => ({ partNumber: index + 1, etag }));
  const complete = await step(s, 'sign complete', () =>
    call<PresignedRequestDto>('POST', `/api/rest/files/multipart/${created.id}/complete`, {
      key: created.key,
    }),
  );
  const xml =
    '<CompleteMultipartUpload>' +
    parts
      .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${p.etag}</ETag></Part>`)
      .join('') +
    '</CompleteMultipartUpload>';
  await step(s, 'complete', async () => {
    const done = await fetch(new URL(complete.url, base), {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: xml,
    });
    if (!done.ok) throw new Error(`complete: ${done.status} ${await done.text()}`);
    await done.text();
  });
  const recorded = await step(s, 'record', () =>
    call<FileDto>('POST', '/api/rest/files/record', { id: created.id }),
  );
  return recorded;
}

/** The reference server: node:http writing each PUT body to disk, in a child process. */
const REFERENCE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
let n = 0;
const server = http.createServer((req, res) => {
  const target = path.join(process.env.REF_DIR, 'upload-' + (n += 1) + '.bin');
  const out = fs.createWriteStream(target);
  req.pipe(out);
  out.on('finish', () => { res.writeHead(200); res.end(); });
  out.on('error', () => { res.writeHead(500); res.end(); });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;

/**
 * Runs the benchmark and prints its figures.
 * @throws when an upload fails or a recorded file's checksum differs from the source's
 */
export async function runUploadsBench(options: UploadsBenchOptions): Promise<void> {
  const version = spawnSync('curl', ['--version']);
  if (version.status !== 0) throw new Error('curl is required for the upload benchmark');
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-bench-uploads-'));
  const source = path.join(workDir, 'source.bin');
  const size = options.sizeMb * MB;
  const sourceSha = generate(source, size);
  const password = 'bench-password';
  const children: ChildProcess[] = [];
  try {
    const reference = spawn(process.execPath, ['-e', REFERENCE_SERVER], {
      env: { ...process.env, REF_DIR: workDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(reference);
    const referencePort = await startChild(reference);
    const app = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'appServer.ts')],
      {
        env: {
          ...process.env,
          BENCH_DATA_DIR: path.join(workDir, 'data'),
          BENCH_PASSWORD: password,
          DATABASE_URL: '',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(app);
    const base = new URL(`http://127.0.0.1:${await startChild(app)}`);
    const pid = app.pid!;
    const call = appClient(base);
    await call('POST', '/api/rest/private/users/authenticate', { username: 'admin', password });
    const restrictions = await call<UploadRestrictions>('GET', '/api/rest/files/restrictions');
    const partSize = restrictions.part_size;
    const partFiles = splitParts(source, size, partSize);
    let uploads = 0;
    const createBody = () => {
      uploads += 1;
      return {
        folder_id: '',
        name: `bench-${uploads}.bin`,
        extension: 'bin',
        content_type: 'application/octet-stream',
        size,
      };
    };
    /** The file recorded by the last app upload, waiting for its fingerprint. */
    let lastRecorded: FileDto | null = null;
    const checkRecorded = (file: FileDto) => {
      if (file.size !== size || (file.sha256 !== null && file.sha256 !== sourceSha)) {
        throw new Error(`recorded ${file.name}: size ${file.size}, sha256 ${file.sha256}`);
      }
      lastRecorded = file;
    };
    /** Polls the last recorded file every 2 ms until its sha256 is set; checks it. */
    const awaitFingerprint = async () => {
      const file = lastRecorded;
      lastRecorded = null;
      if (!file) throw new Error('no recorded file to wait for');
      const deadline = Date.now() + 60_000;
      for (let sha = file.sha256; ;) {
        if (sha !== null) {
          if (sha !== sourceSha) throw new Error(`fingerprint of ${file.name}: ${sha}`);
          return;
        }
        if (Date.now() > deadline) throw new Error(`no fingerprint for ${file.name} after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        sha = (await call<FileDto>('GET', `/api/rest/files/${file.id}`)).sha256;
      }
    };

    const referenceRun = async () => {
      await curlPut(source, `http://127.0.0.1:${referencePort}/upload`, {
        'content-type': 'application/octet-stream',
      });
    };
    // Where the time of an app upload goes, step by step (the counted rounds only).
    const singleSteps: Steps = new Map();
    const multipartSteps: Steps = new Map();
    const singleRun = async () => {
      checkRecorded(await appSingleUpload(call, base, source, createBody(), singleSteps));
    };
    const multipartRun = async () => {
      checkRecorded(await appMultipartUpload(call, base, partFiles, createBody(), multipartSteps));
    };

    // Warm-up (JIT, page cache, SQLite): one of each, not counted.
    await referenceRun();
    await singleRun();
    await awaitFingerprint();
    await multipartRun();
    await awaitFingerprint();
    singleSteps.clear();
    multipartSteps.clear();

    const results: Record<'reference' | 'single' | 'multipart', Measure[]> = {
      reference: [],
      single: [],
      multipart: [],
    };
    /** The wait for each app upload's fingerprint, after its record answered. */
    const fingerprints: Measure[] = [];
    // Rounds of reference, single PUT and multipart, each after `sync` so that no upload pays for
    // the write-back of the one before; a ratio is taken within its round (the machine's load
    // drifts between rounds) and the median ratio is printed. The order turns by one each round
    // (reference first, then single PUT first, then multipart first), so no kind always runs
    // first or last in its round.
    const kinds = [
      { name: 'reference', pid: reference.pid!, run: referenceRun },
      { name: 'single', pid, run: singleRun },
      { name: 'multipart', pid, run: multipartRun },
    ] as const;
    for (let run = 0; run < options.runs; run += 1) {
      for (let turn = 0; turn < kinds.length; turn += 1) {
        const kind = kinds[(run + turn) % kinds.length]!;
        spawnSync('sync');
        results[kind.name].push(await measure(kind.pid, kind.run));
        if (kind.name !== 'reference') fingerprints.push(await measure(pid, awaitFingerprint));
      }
    }

    const speed = (list: Measure[]) => options.sizeMb / median(list.map((m) => m.seconds));
    const growth = (list: Measure[]) => Math.max(...list.map((m) => m.rssGrowthMb));
    const referenceSpeed = speed(results.reference);
    const ratioOf = (list: Measure[]) =>
      median(list.map((m, round) => results.reference[round]!.seconds / m.seconds));
    const line = (label: string, list: Measure[]) => {
      const ratio = ratioOf(list);
      const rss = growth(list);
      const ok =
        ratio >= MIN_RATIO && rss * MB < MAX_RSS_GROWTH_BYTES
          ? 'meets the targets'
          : 'MISSES a target';
      return `${label}: ${speed(list).toFixed(1)} MiB/s, ${ratio.toFixed(3)}× the reference (median of per-round ratios), server RSS growth ${rss.toFixed(1)} MiB (max of runs) — ${ok}`;
    };
    const parts = Math.ceil(size / partSize);
    console.log(
      `uploads (${options.sizeMb} MiB file, ${options.runs} ${options.runs === 1 ? 'round' : 'rounds'}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}, app server in a child process, sqlite, data in ${os.tmpdir()}):`,
    );
    console.log(
      `  reference  curl -T → node:http → disk: ${referenceSpeed.toFixed(1)} MiB/s (reference RSS growth ${growth(results.reference).toFixed(1)} MiB)`,
    );
    console.log(`  ${line('single PUT curl -T, create + PUT + record', results.single)}`);
    console.log(
      `  ${line(`multipart  ${parts} parts of ${(partSize / MB).toFixed(0)} MiB (one curl, sequential), create + sign/PUT parts + complete + record`, results.multipart)}`,
    );
    console.log(
      `  targets: ≥ ${MIN_RATIO}× reference, RSS growth < ${MAX_RSS_GROWTH_BYTES / 1e6} MB (${(MAX_RSS_GROWTH_BYTES / MB).toFixed(1)} MiB); sha256 of every recorded file checked`,
    );
    console.log(
      `  background fingerprint (sha256) after each app upload, not in its time: ready ${median(fingerprints.map((m) => m.seconds * 1000)).toFixed(0)} ms after the record answer (median, polled every 2 ms), server CPU ${median(fingerprints.map((m) => m.cpuMs)).toFixed(0)} ms, RSS growth ${Math.max(...fingerprints.map((m) => m.rssGrowthMb)).toFixed(1)} MiB (max)`,
    );
    const stepLine = (steps: Steps) =>
      [...steps].map(([name, list]) => `${name} ${median(list).toFixed(1)}`).join(', ');
    const cpu = (list: Measure[]) => median(list.map((m) => m.cpuMs)).toFixed(0);
    console.log(
      `  receiving server's CPU time per upload (user + system, median): reference ${cpu(results.reference)} ms, single PUT ${cpu(results.single)} ms, multipart ${cpu(results.multipart)} ms`,
    );
    console.log(`  single PUT steps, median ms: ${stepLine(singleSteps)}`);
    console.log(`  multipart steps, median ms: ${stepLine(multipartSteps)}`);
    const roundsMet = (list: Measure[]) =>
      `${list.filter((m, round) => results.reference[round]!.seconds / m.seconds >= MIN_RATIO).length} of ${list.length}`;
    console.log(
      `  rounds at ≥ ${MIN_RATIO}× the reference: single PUT ${roundsMet(results.single)}, multipart ${roundsMet(results.multipart)}`,
    );
    results.reference.forEach((ref, round) => {
      const single = results.single[round]!;
      const multi = results.multipart[round]!;
      console.log(
        `  round ${round + 1}: reference ${ref.seconds.toFixed(3)} s, single PUT ${single.seconds.toFixed(3)} s (${(ref.seconds / single.seconds).toFixed(2)}×), multipart ${multi.seconds.toFixed(3)} s (${(ref.seconds / multi.seconds).toFixed(2)}×)`,
      );
    });
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    rmSync(workDir, { recursive: true, force: true });
  }
}
