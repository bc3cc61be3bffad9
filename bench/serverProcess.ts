/**
 * The real server (server/main.ts) in its own process, for the benchmarks that measure it over
 * HTTP and read its RSS: started on a free port of 127.0.0.1, waited for until /api/health
 * answers, signed in as the seeded administrator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** A started server process. */
export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Sends SIGTERM and resolves once the process exited. */
  stop(): Promise<void>;
}

/** What {@link startServer} needs. */
export interface ServerOptions {
  dataDir: string;
  databaseUrl: string;
  /** Seeded administrator's password (DOSSIER_ADMIN_PASSWORD). */
  password: string;
  /** Built client to serve; none by default. */
  clientDir?: string;
  /** Further environment variables. */
  env?: Record<string, string>;
  /** Further arguments of node itself (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Milliseconds to wait for /api/health before giving up (default 30,000). */
  readyTimeoutMs?: number;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts server/main.ts (silent logs, a high sign-in rate limit) and waits until it answers.
 * @throws Error when the process exits during start-up or does not answer in time
 */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', path.join(ROOT, 'server/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: options.dataDir,
        DATABASE_URL: options.databaseUrl,
        LOG_LEVEL: 'silent',
        LOGIN_RATE_LIMIT: '1000',
        CLIENT_DIR: options.clientDir ?? path.join(options.dataDir, 'no-client'),
        DOSSIER_ADMIN_PASSWORD: options.password,
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('the server exited during start-up');
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the server did not answer in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of a process, in bytes (Linux /proc); 0 when it cannot be read. */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Signs in as the seeded administrator.
 * @returns the session cookie ("name=value")
 * @throws Error when the sign-in is refused
 */
export async function signIn(base: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/rest/private/users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}
