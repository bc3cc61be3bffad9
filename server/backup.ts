/**
 * Backup and restore of an SQLite instance (docs/operations.md "Backups and restore"; the
 * commands are `npm run backup -- <dir>` and `npm run restore -- <dir>`, server/cli/backup.ts).
 *
 * A backup is a folder:
 *
 *   dossier.sqlite   the database, copied by SQLite's online backup (better-sqlite3 `.backup()`)
 *                    while the server keeps serving: a consistent snapshot of one moment
 *   data/            DATA_DIR without the database files and without tmp/ (uploads still in
 *                    flight): the local object store (objects/), the session secret (secret),
 *                    the outbox, …
 *   manifest.json    written last, so a folder without it is an unfinished backup
 *
 * Order: the database first, then the files. Stored objects are never changed in place, only
 * added and removed, so every object the snapshot's recorded files name is copied unless it was
 * deleted between the two steps; the backup then checks that every recorded file's object is in
 * the copy and reports the missing ones (a file deleted meanwhile: take the backup again).
 * Objects added after the snapshot are copied too and are harmless (no row names them).
 *
 * PostgreSQL is backed up with `pg_dump` and an S3 store by copying its bucket (docs): both
 * functions refuse a PostgreSQL configuration.
 */
import { constants as fsConstants } from 'node:fs';
import { access, copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { olderVersionKeys, readyStorageKeys } from './repositories/backup';

/** The layout version of a backup folder. */
const BACKUP_FORMAT = 1;
/** The database's name inside a backup folder. */
const BACKUP_DATABASE = 'dossier.sqlite';
/** The folder holding the copy of DATA_DIR inside a backup folder. */
const BACKUP_DATA = 'data';
/** The file that marks a finished backup. */
const BACKUP_MANIFEST = 'manifest.json';

/** What manifest.json records. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  /** ISO time the backup finished. */
  created_at: string;
  dialect: 'sqlite';
  /** Recorded files in the snapshot (each object was checked). */
  recorded_files: number;
}

/** A refused backup or restore: the message says why and what to do. */
export class BackupRefused extends Error {}

/** What a backup did. */
export interface BackupResult {
  manifest: BackupManifest;
  /**
   * Storage keys of recorded files and file versions whose object is not in the copy (deleted
   * meanwhile).
   */
  missingObjects: string[];
  /** False when DATA_DIR has no objects folder (an external store: copy its bucket instead). */
  objectsChecked: boolean;
}

/** The SQLite file of a configuration. @throws BackupRefused for PostgreSQL or :memory: */
function sqliteFile(config: Config): string {
  if (config.dialect !== 'sqlite') {
    throw new BackupRefused(
      'This instance uses PostgreSQL: back it up with pg_dump and copy the object store ' +
        '(docs/operations.md, "Backups and restore").',
    );
  }
  const file = config.databaseUrl.slice('sqlite://'.length);
  if (file === ':memory:' || file === '') {
    throw new BackupRefused('An in-memory database cannot be backed up.');
  }
  return path.resolve(file);
}

/** Whether a path exists. */
async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Whether `inner` is `outer` or inside it. */
function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Checks SQLite's quick_check of a database file. @throws Error unless it answers ok */
function quickCheck(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`The database copy is damaged: ${String(result)}`);
  } finally {
    db.close();
  }
}

/**
 * Backs up a running (or stopped) SQLite instance into a new folder.
 * @param config the instance's configuration (DATA_DIR, DATABASE_URL)
 * @param dir the backup folder: new or empty, outside DATA_DIR
 * @param now the backup's time (tests pass their own)
 * @returns the manifest and the recorded files whose object was missing from the copy
 * @throws BackupRefused for PostgreSQL, a folder inside DATA_DIR or one that is not empty
 */
export async function backupSqlite(
  config: Config,
  dir: string,
  now: Date = new Date(),
): Promise<BackupResult> {
  const databaseFile = sqliteFile(config);
  const target = path.resolve(dir);
  if (isWithin(target, config.dataDir)) {
    throw new BackupRefused('Choose a backup folder outside DATA_DIR.');
  }
  if ((await readdir(target).catch(() => [])).length > 0) {
    throw new BackupRefused(`The backup folder ${target} is not empty.`);
  }
  // Only the owner reads it: it holds every document and the session secret.
  await mkdir(target, { recursive: true, mode: 0o700 });

  // 1. The database: SQLite's online backup copies a consistent snapshot while the server keeps
  // writing. After a first step of 100 pages the rest goes in one step, so a write by the server
  // can restart the copy at most once.
  const copy = path.join(target, BACKUP_DATABASE);
  const source = new Database(databaseFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(copy, {
      progress: ({ remainingPages }) => Math.max(100, remainingPages),
    });
  } finally {
    source.close();
  }
  quickCheck(copy);

  // 2. DATA_DIR without the database files and the partial uploads in tmp/.
  const skipped = new Set(
    ['', '-wal', '-shm', '-journal'].map((suffix) => `${databaseFile}${suffix}`),
  );
  skipped.add(path.join(config.dataDir, 'tmp'));
  await cp(config.dataDir, path.join(target, BACKUP_DATA), {
    recursive: true,
    errorOnExist: true,
    force: false,
    preserveTimestamps: true,
    filter: (from) => !skipped.has(path.resolve(from)),
  });

  // 3. Every recorded file's object, and every older version's, must be in the copy.
  const objectsDir = path.join(target, BACKUP_DATA, 'objects');
  const objectsChecked = await exists(objectsDir);
  const missingObjects: string[] = [];
  let recorded = 0;
  const snapshot = openDatabase(`sqlite://${copy}`);
  try {
    for await (const key of readyStorageKeys(snapshot.db)) {
      recorded += 1;
      if (objectsChecked && !(await exists(path.join(objectsDir, key)))) missingObjects.push(key);
    }
    for await (const key of olderVersionKeys(snapshot.db)) {
      if (objectsChecked && !(await exists(path.join(objectsDir, key)))) missingObjects.push(key);
    }
  } finally {
    await snapshot.close();
  }
  // openDatabase put the copy in WAL mode; closing folded the log back. Leave one plain file.
  await rm(`${copy}-wal`, { force: true });
  await rm(`${copy}-shm`, { force: true });

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    created_at: now.toISOString(),
    dialect: 'sqlite',
    recorded_files: recorded,
  };
  await writeFile(path.join(target, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, missingObjects, objectsChecked };
}

/**
 * Restores a backup folder into the configured DATA_DIR and database file, which must be fresh:
 * no database file and no stored object yet (a `secret` file generated by a first configuration
 * is replaced by the backup's). Start the server afterwards: it migrates the database to the
 * running version's schema.
 * @param config the target instance's configuration
 * @param dir a folder made by {@link backupSqlite}
 * @returns the backup's manifest
 * @throws BackupRefused for PostgreSQL, an unfinished or foreign backup, or a target in use
 */
export async function restoreSqlite(config: Config, dir: string): Promise<BackupManifest> {
  const databaseFile = sqliteFile(config);
  const source = path.resolve(dir);
  const manifest = await readFile(path.join(source, BACKUP_MANIFEST), 'utf8')
    .then((text): BackupManifest | null => JSON.parse(text) as BackupManifest)
    .catch(() => null);
  if (!manifest || manifest.format !== BACKUP_FORMAT) {
    throw new BackupRefused(
      `${source} is not a finished Dossier backup (no ${BACKUP_MANIFEST} of format ${BACKUP_FORMAT}).`,
    );
  }
  if (await exists(databaseFile)) {
    throw new BackupRefused(
      `${databaseFile} exists: restore into a fresh DATA_DIR (or move the old database away).`,
    );
  }
  const objects = await readdir(path.join(config.dataDir, 'objects')).catch(() => []);
  if (objects.length > 0) {
    throw new BackupRefused(
      `${config.dataDir} already holds stored objects: use a fresh DATA_DIR.`,
    );
  }
  await mkdir(config.dataDir, { recursive: true });
  await cp(path.join(source, BACKUP_DATA), config.dataDir, {
    recursive: true,
    force: true,
    preserveTimestamps: true,
  });
  await mkdir(path.dirname(databaseFile), { recursive: true });
  for (const suffix of ['-wal', '-shm', '-journal']) {
    await rm(`${databaseFile}${suffix}`, { force: true });
  }
  await copyFile(path.join(source, BACKUP_DATABASE), databaseFile, fsConstants.COPYFILE_EXCL);
  quickCheck(databaseFile);
  return manifest;
}
