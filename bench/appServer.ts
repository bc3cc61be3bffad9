/**
 * The app server the upload benchmark measures, run in its own process so that its RSS is its own:
 * the real buildApp on SQLite and the local object store under BENCH_DATA_DIR, seeded with an
 * administrator whose password is BENCH_PASSWORD, listening on 127.0.0.1 on a free port. Prints
 * one JSON line `{ "port": n }` once it listens; stops on SIGTERM.
 */
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { migrateToLatest, openDatabase } from '@server/db/database';
import { systemClock } from '@server/ids';
import { seed } from '@server/seed';
import { LocalObjectStore } from '@server/storage/localObjectStore';

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  const password = process.env.BENCH_PASSWORD;
  if (!dataDir || !password) throw new Error('BENCH_DATA_DIR and BENCH_PASSWORD are required');
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    UPLOAD_CLEANUP_INTERVAL_MINUTES: '0',
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  await seed(database.db, { username: 'admin', password }, systemClock);
  const store = new LocalObjectStore(dataDir, config.sessionSecret);
  await store.init();
  const app = await buildApp({
    db: database.db,
    dialect: database.dialect,
    store,
    localStore: store,
    clock: systemClock,
    config,
    serveClient: false,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
