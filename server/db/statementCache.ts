/**
 * Prepared statements kept by their SQL text for the embedded SQLite database. Kysely's SQLite
 * driver prepares every query it runs (`database.prepare(sql)` on each call), and preparing costs
 * 20–60 µs for this schema's queries: often more than running them. Kysely compiles a query to the
 * same text every time (values are parameters), so a small LRU cache of prepared statements, keyed
 * by that text, skips the work for every query the app runs more than once.
 *
 * SQLite re-prepares a cached statement by itself when the schema changed since (a migration), so
 * a cached statement never runs against an old schema.
 */
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept by default. */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Longest SQL text kept, in characters: a query with a long generated list (up to 5,000 ids) is
 * rarely the same twice, and would only push the common ones out.
 */
export const MAX_CACHED_SQL_LENGTH = 8192;

/** What the cache did so far (tests and diagnostics). */
export interface StatementCacheStats {
  hits: number;
  misses: number;
  /** Statements held now. */
  size: number;
}

/** Kysely's SQLite database, with the cache's figures. */
export interface CachingSqliteDatabase extends SqliteDatabase {
  stats(): StatementCacheStats;
}

/**
 * Wraps a better-sqlite3 connection as the `database` of Kysely's SqliteDialect, answering
 * `prepare(sql)` from an LRU cache of up to `capacity` statements. A cached statement that is still
 * busy (an iterator of a streamed query not yet finished) is not handed out twice: that call gets a
 * statement of its own, not cached. Closing the database drops the cache.
 * @param connection the open better-sqlite3 connection (its pragmas already set)
 * @param capacity most statements kept (default {@link STATEMENT_CACHE_SIZE})
 */
export function cachingSqliteDatabase(
  connection: Database.Database,
  capacity = STATEMENT_CACHE_SIZE,
): CachingSqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  let hits = 0;
  let misses = 0;
  return {
    close() {
      cache.clear();
      connection.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        hits += 1;
        // Most recently used last: Map keeps insertion order, so the first key is the oldest.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      misses += 1;
      const statement = connection.prepare(sql);
      if (!cached && sql.length <= MAX_CACHED_SQL_LENGTH && capacity > 0) {
        cache.set(sql, statement);
        if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
    stats: () => ({ hits, misses, size: cache.size }),
  };
}
