#!/usr/bin/env node
/**
 * A single-node OpenStack Swift with its S3 API (s3api + tempauth), for the S3 object store's tests
 * and CI (Debian packages swift-proxy swift-account swift-container swift-object).
 *
 *   node scripts/swift.mjs start [DIR]   builds the rings in DIR, starts the four servers, creates
 *                                        the bucket through the S3 API and waits until it answers
 *   node scripts/swift.mjs stop [DIR]    stops the servers started in DIR (their pids are in DIR/pids)
 *
 * DIR: the argument, else SWIFT_DIR, else a folder under the system's temp dir. Ports: the S3
 * endpoint listens on SWIFT_PORT (default 8080); the object, container and account servers on
 * SWIFT_BACKEND_PORT, +1 and +2 (default 6200), so that several Swifts can run on one machine.
 * The bucket is S3_BUCKET (default `dossier`). Credentials (tempauth): access key `test:tester`,
 * secret `testing`; region us-east-1, path-style addressing.
 *
 * Also importable: startSwift(options) / stopSwift(dir) (used by Jest's global setup).
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The S3 credentials of the tempauth user this configuration defines. */
export const SWIFT_ACCESS_KEY_ID = 'test:tester';
/** Its secret (test only). */
export const SWIFT_SECRET_ACCESS_KEY = 'testing';

const PROXY_CONF = (dir, port) => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 1
user = ${os.userInfo().username}
swift_dir = ${dir}/etc
log_name = proxy-server
log_facility = LOG_LOCAL2
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true
[filter:s3api]
use = egg:swift#s3api
location = us-east-1
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${SWIFT_SECRET_ACCESS_KEY} .admin
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:cache]
use = egg:swift#memcache
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
`;

const BACKEND_CONF = (dir, name, port) => `[DEFAULT]
devices = ${dir}/node
mount_check = false
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 1
user = ${os.userInfo().username}
swift_dir = ${dir}/etc
log_facility = LOG_LOCAL2
[pipeline:main]
pipeline = ${name}-server
[app:${name}-server]
use = egg:swift#${name}
`;

/** Whether the Swift servers are installed (swift-proxy-server and swift-ring-builder on PATH). */
export function swiftInstalled() {
  try {
    execFileSync('sh', ['-c', 'command -v swift-proxy-server && command -v swift-ring-builder'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

function defaultDir(port) {
  return path.join(os.tmpdir(), `dossier-swift-${port}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the bucket through the S3 API (an existing one of ours is fine) and checks it answers.
 * @returns true once the bucket is there
 */
async function ensureBucket(endpoint, bucket) {
  const { S3Client, CreateBucketCommand, HeadBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: SWIFT_ACCESS_KEY_ID, secretAccessKey: SWIFT_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  try {
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } catch (error) {
      if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.name)) throw error;
    }
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } finally {
    client.destroy();
  }
}

/**
 * Starts a single-node Swift in `dir` (made if missing; rings built once) and creates `bucket`.
 * With `detached: false` the servers stay in the caller's process group (a supervisor that kills
 * the group, like Playwright's web servers, stops them too).
 * With `wait: false` it answers as soon as the servers are spawned, without the bucket (the caller
 * waits for the S3 API and makes its buckets itself).
 * @param {{dir?: string, port?: number, backendPort?: number, bucket?: string, timeoutMs?: number, wait?: boolean, detached?: boolean}} options
 * @returns {Promise<{endpoint: string, dir: string, bucket: string}>}
 * @throws when Swift is not installed or does not answer within the timeout (then it is stopped)
 */
export async function startSwift(options = {}) {
  const port = options.port ?? Number(process.env.SWIFT_PORT || 8080);
  const backendPort = options.backendPort ?? Number(process.env.SWIFT_BACKEND_PORT || 6200);
  const dir = path.resolve(options.dir ?? process.env.SWIFT_DIR ?? defaultDir(port));
  const bucket = options.bucket ?? process.env.S3_BUCKET ?? 'dossier';
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!swiftInstalled()) {
    throw new Error(
      'OpenStack Swift is not installed (apt-get install swift-proxy swift-account swift-container swift-object)',
    );
  }
  const etc = path.join(dir, 'etc');
  mkdirSync(path.join(dir, 'node', 'd1'), { recursive: true });
  mkdirSync(etc, { recursive: true });
  mkdirSync(path.join(dir, 'run'), { recursive: true });
  const backends = [
    ['object', backendPort],
    ['container', backendPort + 1],
    ['account', backendPort + 2],
  ];
  writeFileSync(path.join(etc, 'proxy-server.conf'), PROXY_CONF(dir, port));
  for (const [name, p] of backends) {
    writeFileSync(path.join(etc, `${name}-server.conf`), BACKEND_CONF(dir, name, p));
    if (!existsSync(path.join(etc, `${name}.ring.gz`))) {
      const builder = path.join(etc, `${name}.builder`);
      const run = (...args) =>
        execFileSync('swift-ring-builder', [builder, ...args], { stdio: 'ignore' });
      run('create', '8', '1', '1');
      run('add', `r1z1-127.0.0.1:${p}/d1`, '1');
      try {
        run('rebalance');
      } catch (error) {
        // swift-ring-builder exits 1 on warnings (a single device); the ring is written all the same.
        if (!existsSync(path.join(etc, `${name}.ring.gz`))) throw error;
      }
    }
  }
  const log = openSync(path.join(dir, 'swift.log'), 'a');
  const pids = [];
  for (const name of ['object', 'container', 'account', 'proxy']) {
    const child = spawn(
      `swift-${name}-server`,
      [path.join(etc, `${name}-server.conf`), '--verbose'],
      {
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...process.env, PYTHONUNBUFFERED: '1' },
      },
    );
    child.unref();
    pids.push(child.pid);
  }
  writeFileSync(path.join(dir, 'pids'), pids.join('\n'));
  const endpoint = `http://127.0.0.1:${port}`;
  if (options.wait === false) return { endpoint, dir, bucket };
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      if (await ensureBucket(endpoint, bucket)) return { endpoint, dir, bucket };
    } catch (error) {
      last = error.message || error.name;
    }
    await sleep(250);
  }
  stopSwift(dir);
  throw new Error(
    `Swift at ${endpoint} did not answer within ${timeoutMs} ms (${last}); see ${dir}/swift.log`,
  );
}

/** Stops the Swift servers started in `dir` (a missing one is not an error). */
export function stopSwift(dir) {
  const file = path.join(dir, 'pids');
  if (!existsSync(file)) return;
  for (const pid of readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number)) {
    try {
      // Started detached, a server's process group is its own pid (with its workers).
      process.kill(-pid, 'SIGTERM');
    } catch {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
  rmSync(file, { force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [command, dirArg] = process.argv.slice(2);
  const port = Number(process.env.SWIFT_PORT || 8080);
  const dir = path.resolve(dirArg ?? process.env.SWIFT_DIR ?? defaultDir(port));
  if (command === 'start') {
    startSwift({ dir, port })
      .then(({ endpoint, bucket }) => {
        console.log(`Swift S3 API at ${endpoint}, bucket ${bucket}, data in ${dir}`);
      })
      .catch((error) => {
        console.error(error.message);
        process.exit(1);
      });
  } else if (command === 'stop') {
    stopSwift(dir);
  } else {
    console.error('usage: node scripts/swift.mjs start|stop [DIR]');
    process.exit(2);
  }
}
