// Jest global setup.
// PostgreSQL: finds out whether the PostgreSQL suite can run. It connects to
// DOSSIER_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) and exports the URL to
// the test workers, or the reason it cannot, which the suites print when they skip. Under CI=true
// the PostgreSQL half must run (CI's machine has PostgreSQL, so a skip there means a broken
// setup): an unreachable server fails the whole Jest run with the reason instead.
// S3: starts a single-node OpenStack Swift (scripts/swift.mjs) on free ports in a temporary folder
// for the S3 halves of describeEachStore, without waiting for it (the first S3 suite waits), and
// exports its endpoint as DOSSIER_TEST_S3_ENDPOINT; globalTeardown.cjs stops it. Without Swift the
// reason goes to DOSSIER_TEST_S3_UNAVAILABLE (the S3 halves skip), and under CI=true the run fails.
const { Client } = require('pg');
const { mkdtempSync } = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const onCi = () => /^(true|1)$/i.test(process.env.CI ?? '');

async function checkPostgres() {
  const url = process.env.DOSSIER_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    process.env.DOSSIER_TEST_PG_URL = url;
    delete process.env.DOSSIER_TEST_PG_UNAVAILABLE;
  } catch (error) {
    const reason = `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//***@')} is not reachable: ${error.message}`;
    if (onCi()) {
      throw new Error(
        `CI=true and ${reason}. CI runs the server tests on PostgreSQL too; start it or set ` +
          'DOSSIER_TEST_PG_URL.',
        { cause: error },
      );
    }
    process.env.DOSSIER_TEST_PG_UNAVAILABLE = reason;
    delete process.env.DOSSIER_TEST_PG_URL;
    console.warn(`\n[postgres suite] skipped: ${reason}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A port nobody listens on right now (the OS's pick). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Four free ports in a row (the backends take port, +1, +2), and one for the S3 API. */
async function swiftPorts() {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = await freePort();
    if (base + 2 > 65535) continue;
    const taken = await Promise.all(
      [base + 1, base + 2].map(
        (port) =>
          new Promise((resolve) => {
            const probe = net.createServer();
            probe.once('error', () => resolve(true));
            probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
          }),
      ),
    );
    if (!taken.some(Boolean)) return { backendPort: base, port: await freePort() };
  }
  throw new Error('no free ports for Swift');
}

async function startSwiftForTests() {
  delete process.env.DOSSIER_TEST_S3_ENDPOINT;
  const { startSwift, swiftInstalled } = await import('../scripts/swift.mjs');
  if (!swiftInstalled()) {
    const reason =
      'OpenStack Swift is not installed (apt-get install swift-proxy swift-account swift-container swift-object)';
    if (onCi()) throw new Error(`CI=true and ${reason}. CI runs the S3 store's tests on Swift.`);
    process.env.DOSSIER_TEST_S3_UNAVAILABLE = reason;
    console.warn(`\n[s3 suites] skipped: ${reason}\n`);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dossier-jest-swift-'));
  const ports = await swiftPorts();
  const { endpoint } = await startSwift({ dir, ...ports, wait: false });
  process.env.DOSSIER_TEST_S3_ENDPOINT = endpoint;
  process.env.DOSSIER_TEST_SWIFT_DIR = dir;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  delete process.env.DOSSIER_TEST_S3_UNAVAILABLE;
}

module.exports = async function globalSetup() {
  await checkPostgres();
  await startSwiftForTests();
};
