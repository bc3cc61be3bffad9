// Jest global setup: finds out whether the PostgreSQL suite can run. It connects to
// DOSSIER_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) and exports the URL to
// the test workers, or the reason it cannot, which the suites print when they skip. Under CI=true
// the PostgreSQL half must run (CI's machine has PostgreSQL, so a skip there means a broken
// setup): an unreachable server fails the whole Jest run with the reason instead.
const { Client } = require('pg');

module.exports = async function globalSetup() {
  const url = process.env.DOSSIER_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    process.env.DOSSIER_TEST_PG_URL = url;
    delete process.env.DOSSIER_TEST_PG_UNAVAILABLE;
  } catch (error) {
    const reason = `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//***@')} is not reachable: ${error.message}`;
    if (/^(true|1)$/i.test(process.env.CI ?? '')) {
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
};
