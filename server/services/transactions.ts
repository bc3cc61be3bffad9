/**
 * Transactions that choose a unique name. Every service that picks a free name in a folder (create,
 * record, copy, move, restore, rename) runs in {@link inTransaction}, so a PostgreSQL race for the
 * same name retries instead of reaching the error handler as a 500 (SPEC section 4 "Unique names").
 */
import type { Executor } from '../repositories/types';
import type { Services } from './context';

/** Attempts of a transaction that lost a race for a unique name (PostgreSQL). */
const UNIQUE_RACE_ATTEMPTS = 3;

/** True for a unique-index violation (PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * Runs `work` in one transaction. On PostgreSQL two calls may pick the same free name in one
 * folder at once; the unique index refuses the second commit, and the whole transaction runs
 * again (it then sees the first one's name), up to UNIQUE_RACE_ATTEMPTS times. SQLite runs write
 * transactions one at a time, so it never races.
 */
export async function inTransaction<T>(
  services: Pick<Services, 'db'>,
  work: (trx: Executor) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await services.db.transaction().execute(work);
    } catch (error) {
      if (attempt >= UNIQUE_RACE_ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}
