/**
 * Graceful shutdown of the real server process (server/main.ts, server/shutdown.ts;
 * docs/operations.md "Graceful shutdown"): an upload streaming into the local store when SIGTERM
 * arrives completes and the process exits 0; past SHUTDOWN_TIMEOUT_MS the upload is cut off and
 * the process exits 1; a second signal exits at once. Runs on SQLite (the process, not the
 * database, is under test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { CreateUploadResponse } from '@common/uploads';
import { ADMIN_PASSWORD } from './helpers';

const ROOT = path.resolve(__dirname, '../..');
const BODY = Buffer.alloc(256 * 1024, 7);
const HALF = BODY.length / 2;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running server process. */
interface Running {
  child: ChildProcess;
  base: string;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

const started: Running[] = [];

async function startServer(env: Record<string, string>): Promise<Running> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-shutdown-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DOSSIER_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      IMAGING_CONCURRENCY: '0',
      UPLOAD_CLEANUP_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': the output streams have been read to their end by then.
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const running = {
    child,
    base: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => output,
    exited,
  };
  started.push(running);
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('Dossier is running')) resolve();
      else setTimeout(check, 50);
    };
    void exited.then((code) => reject(new Error(`server exited ${code}: ${output}`)));
    check();
  });
  return running;
}

afterEach(() => {
  for (const running of started.splice(0)) {
    running.child.kill('SIGKILL');
    rmSync(running.dataDir, { recursive: true, force: true });
  }
});

/** Signs in and starts a single upload of BODY into the root folder. */
async function createUpload(server: Running): Promise<CreateUploadResponse> {
  const signIn = await fetch(`${server.base}/api/rest/private/users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const created = await fetch(`${server.base}/api/rest/files`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({
      folder_id: '',
      name: 'slow.bin',
      extension: 'bin',
      content_type: 'application/octet-stream',
      size: BODY.length,
    }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as CreateUploadResponse;
}

/** A PUT that has sent half its body; `finish` sends the rest. */
interface SlowPut {
  finish(): void;
  /** The status and body, or the error when the connection broke. */
  answer: Promise<{ status: number; body: string } | { error: string }>;
}

/** Starts the PUT and resolves once the server is streaming it into the store's tmp folder. */
async function startSlowPut(server: Running, upload: CreateUploadResponse): Promise<SlowPut> {
  const request = http.request(`${server.base}${upload.url}`, {
    method: 'PUT',
    headers: { ...upload.headers, 'content-length': String(BODY.length) },
    agent: false,
  });
  const answer = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (error) => resolve({ error: error.message }));
    });
    request.on('error', (error) => resolve({ error: error.message }));
  });
  request.write(BODY.subarray(0, HALF));
  // The server is handling the request once its temporary file exists.
  const tmp = path.join(server.dataDir, 'tmp');
  for (let i = 0; i < 400; i += 1) {
    if (readdirSync(tmp).some((name) => !name.startsWith('multipart'))) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(readdirSync(tmp).filter((name) => !name.startsWith('multipart')).length).toBe(1);
  return { finish: () => request.end(BODY.subarray(HALF)), answer };
}

/** The sha256 of every stored object (sidecars left out). */
function storedDigests(dataDir: string): string[] {
  const dir = path.join(dataDir, 'objects');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.sha256'))
    .map((entry) =>
      createHash('sha256')
        .update(readFileSync(path.join(entry.parentPath, entry.name)))
        .digest('hex'),
    );
}

/**
 * Runs `shutdownHandler` in a process of its own whose only pending work holds no reference on
 * the event loop (as the WAL checkpointer's worker): what the handler decides must still be the
 * exit code, never Node's own 0 when the loop empties.
 * @param timedOut whether the shutdown's limit passes before its work ends
 */
function runDetachedShutdown(timedOut: boolean): Promise<number | null> {
  const script = `
    import { shutdownHandler } from ${JSON.stringify(path.join(ROOT, 'server', 'shutdown.ts'))};
    const unrefDelay = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
    const log = { info() {}, warn() {}, error() {} };
    const handler = shutdownHandler({
      lifecycle: { shuttingDown: false },
      log,
      timeoutMs: 50,
      closeServer: () => (${timedOut} ? new Promise(() => undefined) : Promise.resolve()),
      cutConnections() {},
      drain: [],
      abortNow() {},
      release: () => unrefDelay(200),
      exit: (code) => process.exit(code),
    });
    void handler('SIGTERM');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

describe('the shutdown handler in a process of its own', () => {
  it('exits 1 past the limit even when nothing else holds the process open', async () => {
    expect(await runDetachedShutdown(true)).toBe(1);
  });

  it('exits 0 when the work ended in time', async () => {
    expect(await runDetachedShutdown(false)).toBe(0);
  });
});

describe('graceful shutdown of the server process', () => {
  it('lets an upload in flight finish after SIGTERM, refuses new connections, exits 0', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '60000' });
    const upload = await createUpload(server);
    const put = await startSlowPut(server, upload);
    server.child.kill('SIGTERM');
    // The listener closes: a new connection is refused while the upload still runs.
    let refused = false;
    for (let i = 0; i < 200 && !refused; i += 1) {
      refused = await fetch(`${server.base}/api/ready`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(refused).toBe(true);
    put.finish();
    expect(await put.answer).toEqual({ status: 200, body: JSON.stringify({ size: BODY.length }) });
    // 0 is what the shutdown answers when nothing was cut off (1 past the limit, below).
    expect(await server.exited).toBe(0);
    expect(storedDigests(server.dataDir)).toEqual([
      createHash('sha256').update(BODY).digest('hex'),
    ]);
    expect(server.output()).toContain('"msg":"shutting down"');
    expect(server.output()).not.toContain('shutdown limit reached');
  });

  it('cuts an upload off past SHUTDOWN_TIMEOUT_MS and exits 1', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '300' });
    const put = await startSlowPut(server, await createUpload(server));
    server.child.kill('SIGTERM');
    // The rest of the body never comes: the limit cuts the connection.
    expect(await server.exited).toBe(1);
    expect(await put.answer).toHaveProperty('error');
    expect(server.output()).toContain('shutdown limit reached');
    expect(storedDigests(server.dataDir)).toEqual([]);
  });

  it('exits at once on a second signal while a request is in flight', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '600000' });
    const put = await startSlowPut(server, await createUpload(server));
    server.child.kill('SIGTERM');
    // Wait until the first signal has been handled before sending the second.
    for (let i = 0; i < 400 && !server.output().includes('shutting down'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(1);
    expect(await put.answer).toHaveProperty('error');
    expect(server.output()).toContain('second signal: exiting at once');
  });
});
