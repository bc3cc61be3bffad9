// Jest global setup: finds out whether the PostgreSQL suite can run. It connects to
// DOSSIER_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) and exports the URL to
// the test workers, or the reason it cannot, which the suites print when they skip.
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
    process.env.DOSSIER_TEST_PG_UNAVAILABLE = `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//***@')} is not reachable: ${error.message}`;
    delete process.env.DOSSIER_TEST_PG_URL;
    console.warn(`\n[postgres suite] skipped: ${process.env.DOSSIER_TEST_PG_UNAVAILABLE}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
};
