/** Users, firm databases and memberships. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { DatabasesTable, MembershipsTable, UsersTable, UserRow } from '../db/schema';
import type { Executor } from './types';

/** The user with this lowercased username, if any. */
export function findUserByUsernameKey(
  db: Executor,
  usernameKey: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', usernameKey)
    .executeTakeFirst();
}

/** The user with this id, if any. */
export function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Number of users (seeding runs only on an empty database). */
export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts a user row. */
export async function insertUser(db: Executor, user: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Inserts a firm database. */
export async function insertDatabase(db: Executor, row: Insertable<DatabasesTable>): Promise<void> {
  await db.insertInto('databases').values(row).execute();
}

/** Inserts a membership (a user's role in a firm database). */
export async function insertMembership(
  db: Executor,
  row: Insertable<MembershipsTable>,
): Promise<void> {
  await db.insertInto('memberships').values(row).execute();
}

/**
 * A user's memberships with their databases, ordered by database name. Memberships disabled by an
 * administrator and firms disabled by an operator (firm provisioning) are left out: the
 * user cannot sign in to, switch to or see those firms.
 */
export function membershipsOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('databases', 'databases.id', 'memberships.database_id')
    .select([
      'databases.id as id',
      'databases.name as name',
      'databases.description as description',
      'memberships.role as role',
    ])
    .where('memberships.user_id', '=', userId)
    .where('memberships.disabled_at', 'is', null)
    .where('databases.disabled_at', 'is', null)
    .orderBy('databases.name')
    .orderBy('databases.id')
    .execute();
}

/**
 * The user's role in one database, or undefined when not a member, disabled there, or
 * the firm is disabled (firm provisioning): a session in such a firm ends at its next request,
 * and single sign-on and partner keys refuse it.
 */
export async function roleIn(
  db: Executor,
  userId: string,
  databaseId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('databases', 'databases.id', 'memberships.database_id')
    .select('memberships.role as role')
    .where('memberships.user_id', '=', userId)
    .where('memberships.database_id', '=', databaseId)
    .where('memberships.disabled_at', 'is', null)
    .where('databases.disabled_at', 'is', null)
    .executeTakeFirst();
  return row?.role;
}

// ---- Users administration and lockout -------------------------------------------------

/** A member of a firm database: the user row with the membership's role and disabled state. */
export interface DatabaseUserRow extends UserRow {
  role: string;
  membership_disabled_at: string | null;
}

/** `text` with LIKE's wildcards and escape character escaped (for `ESCAPE '\'`). */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The members of a firm database, disabled ones included; guests (sharing) are not members. */
function databaseUsersQuery(db: Executor, databaseId: string, query: string) {
  let q = db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .where('memberships.database_id', '=', databaseId)
    .where('memberships.role', '!=', 'guest');
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5);
  for (const word of words) {
    const pattern = `%${likeEscaped(word)}%`;
    q = q.where(
      sql<boolean>`(users.username_key like ${pattern} escape '\\'
        or lower(users.first_name) like ${pattern} escape '\\'
        or lower(users.last_name) like ${pattern} escape '\\'
        or lower(coalesce(users.email, '')) like ${pattern} escape '\\')`,
    );
  }
  return q;
}

/**
 * One page of a firm's members ordered by last name, first name and id; `query` keeps those whose
 * username, first or last name or e-mail contains every word of it (case-insensitive).
 */
export function listDatabaseUsers(
  db: Executor,
  databaseId: string,
  options: { query: string; limit: number; offset: number },
): Promise<DatabaseUserRow[]> {
  return databaseUsersQuery(db, databaseId, options.query)
    .selectAll('users')
    .select(['memberships.role as role', 'memberships.disabled_at as membership_disabled_at'])
    .orderBy(sql`lower(users.last_name)`)
    .orderBy(sql`lower(users.first_name)`)
    .orderBy('users.id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

/** How many members {@link listDatabaseUsers} would list in all. */
export async function countDatabaseUsers(
  db: Executor,
  databaseId: string,
  query: string,
): Promise<number> {
  const row = await databaseUsersQuery(db, databaseId, query)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A member of one firm database (disabled or not), or undefined when not its member (a guest of
 * the firm, is not a member: the user administration does not reach guests).
 */
export function findDatabaseUser(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<DatabaseUserRow | undefined> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .selectAll('users')
    .select(['memberships.role as role', 'memberships.disabled_at as membership_disabled_at'])
    .where('memberships.database_id', '=', databaseId)
    .where('memberships.user_id', '=', userId)
    .where('memberships.role', '!=', 'guest')
    .executeTakeFirst();
}

/** Every membership of a user, disabled ones included: database id and role. */
export function allMembershipsOfUser(
  db: Executor,
  userId: string,
): Promise<{ database_id: string; role: string; disabled_at: string | null }[]> {
  return db
    .selectFrom('memberships')
    .select(['database_id', 'role', 'disabled_at'])
    .where('user_id', '=', userId)
    .orderBy('database_id')
    .execute();
}

/** Updates a user row. */
export async function updateUser(
  db: Executor,
  userId: string,
  patch: Updateable<UsersTable>,
): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', userId).execute();
}

/** Updates a user's membership of one firm database. */
export async function updateMembership(
  db: Executor,
  databaseId: string,
  userId: string,
  patch: Updateable<MembershipsTable>,
): Promise<void> {
  await db
    .updateTable('memberships')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Administrators of a firm who can act: enabled in the firm and not disabled globally. On
 * PostgreSQL the rows are locked (FOR UPDATE) so that two demotions in parallel cannot both pass
 * the last-administrator rule.
 */
export async function activeAdminIds(
  db: Executor,
  databaseId: string,
  dialect: 'sqlite' | 'postgres',
): Promise<string[]> {
  let q = db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.user_id as user_id')
    .where('memberships.database_id', '=', databaseId)
    .where('memberships.role', '=', 'admin')
    .where('memberships.disabled_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .orderBy('memberships.user_id');
  if (dialect === 'postgres') q = q.forUpdate();
  const rows = await q.execute();
  return rows.map((r) => r.user_id);
}

/**
 * Counts one more wrong password for a user, atomically.
 * @returns the user's count of wrong passwords in a row after this one
 */
export async function addFailedLogin(db: Executor, userId: string): Promise<number> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ failed_login_count: eb('failed_login_count', '+', 1) }))
    .where('id', '=', userId)
    .returning('failed_login_count')
    .executeTakeFirst();
  return Number(row?.failed_login_count ?? 0);
}

/**
 * Clears a user's run of wrong passwords and lock (a successful sign-in, an expired lock, an
 * administrator's unlock).
 * @param options.onlyLockedAt clear only when the lock is still this one (an expired lock cleared
 *   by a sign-in must not clear a newer lock set meanwhile)
 * @returns true when a row changed
 */
export async function clearLockout(
  db: Executor,
  userId: string,
  options: { onlyLockedAt?: string } = {},
): Promise<boolean> {
  let q = db
    .updateTable('users')
    .set({ failed_login_count: 0, locked_at: null, locked_until: null })
    .where('id', '=', userId);
  if (options.onlyLockedAt !== undefined) q = q.where('locked_at', '=', options.onlyLockedAt);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A user's run of wrong passwords from one source (client IP, '' when unknown), if any. */
export function findLoginFailure(db: Executor, userId: string, source: string) {
  return db
    .selectFrom('login_failures')
    .selectAll()
    .where('user_id', '=', userId)
    .where('source', '=', source)
    .executeTakeFirst();
}

/**
 * Counts one more wrong password for a user from a source (atomic upsert, so parallel attempts
 * all count).
 * @param now ISO UTC time of the attempt
 * @returns the source's run after this one
 */
export async function addLoginFailure(
  db: Executor,
  userId: string,
  source: string,
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('login_failures')
    .values({ user_id: userId, source, failed_count: 1, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'source']).doUpdateSet((eb) => ({
        failed_count: eb('login_failures.failed_count', '+', 1),
        updated_at: now,
      })),
    )
    .returning('failed_count')
    .executeTakeFirst();
  return Number(row?.failed_count ?? 0);
}

/**
 * Locks a source out of a user's account unless it is locked already (guarded, so concurrent
 * failures lock once).
 * @param lockedUntil when the lock ends, or null until an administrator unlocks
 * @returns true when this call set the lock
 */
export async function lockLoginSource(
  db: Executor,
  userId: string,
  source: string,
  lockedAt: string,
  lockedUntil: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('login_failures')
    .set({ locked_at: lockedAt, locked_until: lockedUntil, updated_at: lockedAt })
    .where('user_id', '=', userId)
    .where('source', '=', source)
    .where('locked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Forgets a source's run and lock (a right password from it, or its lock's end).
 * @param options.onlyLockedAt forget it only when its lock is still this one
 * @param options.onlyUnlocked forget only a run without a lock (a right password must not undo a
 *   lock that a parallel wrong attempt, maybe on another instance, set meanwhile)
 */
export async function clearLoginSource(
  db: Executor,
  userId: string,
  source: string,
  options: { onlyLockedAt?: string; onlyUnlocked?: boolean } = {},
): Promise<void> {
  let q = db
    .deleteFrom('login_failures')
    .where('user_id', '=', userId)
    .where('source', '=', source);
  if (options.onlyLockedAt !== undefined) q = q.where('locked_at', '=', options.onlyLockedAt);
  if (options.onlyUnlocked) q = q.where('locked_at', 'is', null);
  await q.execute();
}

/**
 * Forgets a user's stale source rows: runs without a lock last counted before `staleBefore`, and
 * locks that ended before `now` (both ISO UTC), so the table holds only live runs and locks.
 */
export async function purgeStaleLoginSources(
  db: Executor,
  userId: string,
  staleBefore: string,
  now: string,
): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb.and([eb('locked_at', 'is', null), eb('updated_at', '<', staleBefore)]),
        eb.and([eb('locked_until', 'is not', null), eb('locked_until', '<', now)]),
      ]),
    )
    .execute();
}

/** Forgets every source's run and lock of a user (an administrator's or the CLI's unlock). */
export async function clearLoginSourcesOfUser(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('login_failures').where('user_id', '=', userId).execute();
}

/**
 * Marks the account as locked for some source in its summary (what administrators see): the
 * first lock's time is kept; the end is the newest lock's (null: until an administrator unlocks).
 */
export async function markUserLocked(
  db: Executor,
  userId: string,
  lockedAt: string,
  lockedUntil: string | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      locked_at: eb.fn.coalesce('locked_at', eb.val(lockedAt)),
      locked_until: lockedUntil,
    }))
    .where('id', '=', userId)
    .execute();
}

/** Clears the account's count of wrong passwords in a row (a right password from any source). */
export async function resetFailedLogins(db: Executor, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ failed_login_count: 0 })
    .where('id', '=', userId)
    .where('failed_login_count', '>', 0)
    .execute();
}

/** The names of the given firm databases (unknown ids are left out), for the password policy. */
export async function databaseNames(
  db: Executor,
  databaseIds: readonly string[],
): Promise<string[]> {
  if (databaseIds.length === 0) return [];
  const rows = await db
    .selectFrom('databases')
    .select('name')
    .where('id', 'in', [...databaseIds])
    .execute();
  return rows.map((r) => r.name);
}

/**
 * Ends a user's sessions in one firm database (the member was disabled there).
 * @returns how many sessions were ended
 */
export async function deleteSessionsOfUserIn(
  db: Executor,
  userId: string,
  databaseId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('database_id', '=', databaseId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
