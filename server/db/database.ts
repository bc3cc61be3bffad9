/**
 * Opens the Kysely instance for the configured dialect and runs migrations.
 * SQLite (better-sqlite3) is the embedded default, in WAL mode with synchronous=FULL (the history
 * log's durability), its prepared statements cached by SQL text (statementCache.ts); PostgreSQL is
 * selected by a
 * postgres:// DATABASE_URL. The same migrations run on both.
 */
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { migrations } from './migrations';
import { cachingSqliteDatabase } from './statementCache';

// int8 (bigint) columns come back as JS numbers: sizes and counts stay far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

/** A database handle plus what the services need to know about it. */
export interface DatabaseHandle {
  db: Kysely<DB>;
  dialect: 'sqlite' | 'postgres';
  /** SQLite only: the connection and its file (the WAL checkpoint worker needs both). */
  sqlite?: { connection: Database.Database; file: string };
  /** PostgreSQL only: the pool (its counts feed the metrics). */
  pool?: pg.Pool;
  /** Closes the pool or the file. */
  close(): Promise<void>;
}

/**
 * Opens the database named by a URL: `sqlite:///abs/path.sqlite`, `sqlite://:memory:` or
 * `postgres://user:pass@host:port/db`.
 * @throws Error for another scheme.
 */
export function openDatabase(url: string): DatabaseHandle {
  if (url.startsWith('sqlite://')) {
    const file = url.slice('sqlite://'.length);
    const sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    // FULL: every commit (each carries its history event) is on disk before it returns, so an
    // acknowledged change and its audit record survive a power loss (NORMAL may lose the last ones).
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // 64 MiB of page cache (the default is 2 MiB): a bulk action's pages stay in memory until its
    // commit instead of spilling to the log mid-transaction and being read back (a bulk archive of
    // 10,000 files: 1.5 s with the default, 1.1 s with this).
    sqlite.pragma('cache_size = -65536');
    // Prepared statements are kept by their SQL text (Kysely would prepare each query anew).
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({ database: cachingSqliteDatabase(sqlite) }),
    });
    return {
      db,
      dialect: 'sqlite',
      sqlite: { connection: sqlite, file },
      close: () => db.destroy(),
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client whose backend goes away (server restart, a dropped test database) emits
    // 'error' on the pool; without a listener Node would crash the process. The pool replaces the
    // client, and the next query reports any lasting problem.
    pool.on('error', (error) => console.warn(`PostgreSQL idle client error: ${error.message}`));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
  }
  throw new Error('Unsupported database URL');
}

/**
 * Brings the schema up to the latest migration.
 * @throws the migration's error when one fails (nothing after it runs).
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Features land in any order; a migration numbered below one already applied still runs.
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error instanceof Error) throw result.error;
  if (result.error) throw new Error(`Migration failed: ${JSON.stringify(result.error)}`);
  return result;
}
