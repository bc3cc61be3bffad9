/** Session rows. The id is the sha256 of the cookie token, never the token. */
import type { Insertable, Updateable } from 'kysely';
import type { SessionRow, SessionsTable } from '../db/schema';
import type { Executor } from './types';

/** Inserts a session. */
export async function insertSession(db: Executor, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session with this id (token hash), if any. */
export function findSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Changes a session's fields. */
export async function updateSession(
  db: Executor,
  id: string,
  patch: Updateable<SessionsTable>,
): Promise<void> {
  await db.updateTable('sessions').set(patch).where('id', '=', id).execute();
}

/**
 * Marks a session's logout event as recorded, once: true only for the call that marked it (the
 * guarded update keeps the event once-only under concurrent calls).
 */
export async function markLogoutRecorded(db: Executor, id: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ logout_recorded: 1 })
    .where('id', '=', id)
    .where('logout_recorded', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends a session. */
export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/**
 * Ends every session of a user, optionally keeping one.
 * @param except id (token hash) of a session to keep, e.g. the one changing its own password
 * @returns how many sessions were ended
 */
export async function deleteSessionsOfUser(
  db: Executor,
  userId: string,
  except?: string,
): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (except !== undefined) query = query.where('id', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Removes sessions past their absolute lifetime (ISO 8601 UTC text compares in time order).
 * @returns how many rows were removed
 */
export async function deleteSessionsExpiredBefore(db: Executor, nowIso: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('expires_at', '<=', nowIso)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
