/**
 * Process entry: config → database (migrate, seed) → object store → listen; graceful shutdown on
 * SIGINT/SIGTERM. `npm start` builds the client first (scripts/start.mjs) and then runs this.
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { startWalCheckpointer } from './db/walCheckpointer';
import { boundHeapGrowth } from './heap';
import { systemClock } from './ids';
import { seed } from './seed';
import { startImaging } from './services/imaging/lifecycle';
import { startUploadCleanup } from './services/uploads';
import { LocalObjectStore } from './storage/localObjectStore';

async function main(): Promise<void> {
  const config = loadConfig();
  // Before anything allocates much: the peak RSS stays near the live heap (server/heap.ts).
  boundHeapGrowth(config.heapGrowingPercent);
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const seeded = await seed(
    database.db,
    { username: config.adminUsername, password: config.adminPassword },
    systemClock,
  );
  // SQLite: the log is copied back into the database file by a worker thread, not inside the
  // commit of whichever request crosses the threshold.
  const checkpointer = database.sqlite
    ? startWalCheckpointer(database.sqlite.connection, database.sqlite.file)
    : null;
  const store = new LocalObjectStore(config.dataDir, config.sessionSecret);
  await store.init();
  const services = {
    db: database.db,
    dialect: database.dialect,
    store,
    clock: systemClock,
    config,
  };
  const app = await buildApp({ ...services, localStore: store });
  await app.listen({ port: config.port, host: config.host });
  // Abandoned uploads (pending rows, multipart parts) are removed periodically (issue 4).
  const stopUploadCleanup = startUploadCleanup(services, app.log);
  // Document imaging: renditions, text and thumbnails of recorded files, in child processes.
  const stopImaging = startImaging(services, app.log);
  const url = `http://localhost:${config.port}`;
  console.log(`\nDossier is running at ${url} (${database.dialect}, data in ${config.dataDir})`);
  if (seeded.seeded) {
    if (seeded.generatedPassword) {
      console.log(
        `First start: sign in as "${seeded.username}" with password "${seeded.generatedPassword}".\n` +
          'This password is shown only once; set DOSSIER_ADMIN_PASSWORD to choose your own on a new DATA_DIR.',
      );
    } else {
      console.log(`First start: sign in as "${seeded.username}" with DOSSIER_ADMIN_PASSWORD.`);
    }
  } else {
    console.log(`Sign in at ${url} with your account.`);
  }

  const shutdown = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    stopUploadCleanup();
    void stopImaging()
      .then(() => app.close())
      .then(() => checkpointer?.stop())
      .then(() => database.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
