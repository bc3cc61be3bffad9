/**
 * Helpers of the migrations that differ by dialect (not a migration itself: index.ts lists the
 * migrations by name).
 */
import { sql, type Kysely } from 'kysely';

/** True on PostgreSQL (`version()` exists there, not on SQLite). */
export async function isPostgres(db: Kysely<unknown>): Promise<boolean> {
  return sql`select version() as v`
    .execute(db)
    .then(() => true)
    .catch(() => false);
}

/** Runs raw statements in order. */
export async function runStatements(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
