/**
 * Process entry: config → database (migrate, seed) → object store → listen; graceful shutdown on
 * SIGINT/SIGTERM (server/shutdown.ts). `npm start` builds the client first (scripts/start.mjs)
 * and then runs this.
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { startWalCheckpointer } from './db/walCheckpointer';
import { boundHeapGrowth } from './heap';
import { systemClock } from './ids';
import { seed } from './seed';
import { flushLogAndExit, shutdownHandler } from './shutdown';
import { fingerprintsSettled } from './services/fingerprints';
import { snapshotsSettled } from './services/replay/engine';
import { startImaging } from './services/imaging/lifecycle';
import { startUploadCleanup } from './services/uploads';
import { startRequestJobs } from './services/documentRequests/reminders';
import { LocalObjectStore } from './storage/localObjectStore';
import { S3ObjectStore } from './storage/s3ObjectStore';

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
  const localStore =
    config.objectStore === 'local'
      ? new LocalObjectStore(config.dataDir, config.sessionSecret)
      : undefined;
  await localStore?.init();
  const store = localStore ?? new S3ObjectStore(config.s3!, config.sessionSecret);
  const services = {
    db: database.db,
    dialect: database.dialect,
    store,
    clock: systemClock,
    config,
  };
  const lifecycle = { shuttingDown: false };
  const app = await buildApp({
    ...services,
    localStore,
    lifecycle,
    ...(database.pool ? { dbPool: database.pool } : {}),
  });
  await app.listen({ port: config.port, host: config.host });
  // Abandoned uploads (pending rows, multipart parts) are removed periodically.
  const stopUploadCleanup = startUploadCleanup(services, app.log);
  // Document requests: their e-mails when due, and the expiry of their links.
  const stopRequestJobs = startRequestJobs(services, app.log);
  // Document imaging: renditions, text and thumbnails of recorded files, in child processes.
  const imaging = startImaging(services, app.log);
  const url = `http://localhost:${config.port}`;
  const objects =
    config.objectStore === 's3' ? `objects in S3 bucket ${config.s3!.bucket}` : 'objects local';
  console.log(
    `\nDossier is running at ${url} (${database.dialect}, data in ${config.dataDir}, ${objects})`,
  );
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

  const shutdown = shutdownHandler({
    lifecycle,
    log: app.log,
    timeoutMs: config.shutdownTimeoutMs,
    closeServer: async () => {
      stopUploadCleanup();
      stopRequestJobs();
      await app.close();
    },
    cutConnections: () => app.server.closeAllConnections(),
    drain: [
      (graceMs) => imaging.stop(graceMs),
      () => fingerprintsSettled(services),
      () => snapshotsSettled(),
    ],
    abortNow: () => imaging.abort(),
    release: async () => {
      await checkpointer?.stop();
      await database.close();
    },
    exit: (code) => flushLogAndExit(app.log, code),
  });
  process.on('SIGINT', (signal) => void shutdown(signal));
  process.on('SIGTERM', (signal) => void shutdown(signal));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
