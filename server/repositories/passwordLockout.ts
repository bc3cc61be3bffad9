/**
 * The password lock of share links and document requests (SPEC section 8's link password limits,
 * docs/architecture/sharing.md): a run of wrong passwords in `failed_password_count` and, once it
 * reaches the limit, `locked_until`. Each step is one guarded update, so attempts on several
 * instances at once all count and none passes a lock set meanwhile.
 */
import { sql } from 'kysely';
import type { Executor } from './types';

/** The tables whose rows carry a password lock. */
export type PasswordLockedTable = 'share_links' | 'document_requests';

/**
 * Counts one wrong password on row `id` unless it is locked at `now`: a lock that has ended counts
 * from 1 again, and the attempt reaching `maxFailures` locks the row until `lockUntil`.
 * @param now ISO UTC time of the attempt
 * @param lockUntil ISO UTC end of the lock this attempt would set
 * @returns `locked` when the row is locked (by this attempt or already), else the count so far
 */
export async function addPasswordFailure(
  db: Executor,
  table: PasswordLockedTable,
  id: string,
  now: string,
  maxFailures: number,
  lockUntil: string,
): Promise<{ locked: boolean; count: number }> {
  const ended = sql<boolean>`locked_until is not null and locked_until <= ${now}`;
  const count = sql<number>`case when ${ended} then 1 else failed_password_count + 1 end`;
  const row = await db
    .updateTable(table)
    .set({
      failed_password_count: count,
      locked_until: sql<string | null>`case when ${count} >= ${maxFailures} then ${lockUntil}
        when ${ended} then null else locked_until end`,
    })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning(['failed_password_count', 'locked_until'])
    .executeTakeFirst();
  if (!row) return { locked: true, count: maxFailures };
  return { locked: row.locked_until !== null, count: Number(row.failed_password_count) };
}

/**
 * Clears row `id`'s run of wrong passwords after a right one, unless it is locked at `now` (a
 * lock set by a parallel attempt, maybe on another instance, since the row was read).
 * @param now ISO UTC time of the attempt
 * @returns false when the row is locked (the attempt must be refused)
 */
export async function clearPasswordFailures(
  db: Executor,
  table: PasswordLockedTable,
  id: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({ failed_password_count: 0, locked_until: null })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
