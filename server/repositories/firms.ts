/**
 * Firm databases as the operator manages them (firm provisioning, services/firms.ts): the list
 * with member counts, lookups by id and name key, changes, memberships of any role, and the
 * operator flag of users.
 */
import type { Insertable, Updateable } from 'kysely';
import type { DatabasesTable } from '../db/schema';
import type { Executor } from './types';

/** A firm database row with its member count (members, not guests; disabled ones included). */
export interface FirmRow {
  id: string;
  name: string;
  name_key: string | null;
  description: string | null;
  created_at: string;
  disabled_at: string | null;
  member_count: number;
}

function firmsQuery(db: Executor) {
  return db.selectFrom('databases').select((eb) => [
    'databases.id',
    'databases.name',
    'databases.name_key',
    'databases.description',
    'databases.created_at',
    'databases.disabled_at',
    eb
      .selectFrom('memberships')
      .select((m) => m.fn.countAll<number>().as('n'))
      .whereRef('memberships.database_id', '=', 'databases.id')
      .where('memberships.role', '!=', 'guest')
      .as('member_count'),
  ]);
}

function withCount<T extends { member_count: number | string | null }>(
  row: T,
): T & { member_count: number } {
  return { ...row, member_count: Number(row.member_count ?? 0) };
}

/** Every firm database by name (then id), disabled ones included. */
export async function listFirms(db: Executor): Promise<FirmRow[]> {
  const rows = await firmsQuery(db).orderBy('databases.name').orderBy('databases.id').execute();
  return rows.map(withCount);
}

/** The firm database with this id, if any. */
export async function findFirmById(db: Executor, id: string): Promise<FirmRow | undefined> {
  const row = await firmsQuery(db).where('databases.id', '=', id).executeTakeFirst();
  return row && withCount(row);
}

/**
 * The firm databases whose trimmed, lowercased name is `key`, oldest first: the one holding the
 * unique key, and old rows of the same name that predate it (migration 0025).
 */
export async function findFirmsByNameKey(db: Executor, key: string): Promise<FirmRow[]> {
  const rows = await firmsQuery(db)
    .orderBy('databases.created_at')
    .orderBy('databases.id')
    .execute();
  return rows.map(withCount).filter((row) => row.name.trim().toLowerCase() === key);
}

/** Inserts a firm database. */
export async function insertFirm(db: Executor, row: Insertable<DatabasesTable>): Promise<void> {
  await db.insertInto('databases').values(row).execute();
}

/** Changes a firm database's fields. */
export async function updateFirm(
  db: Executor,
  id: string,
  patch: Updateable<DatabasesTable>,
): Promise<void> {
  await db.updateTable('databases').set(patch).where('id', '=', id).execute();
}

/**
 * Locks a firm database's row for the rest of the transaction on PostgreSQL (FOR UPDATE), so two
 * operators' changes of one firm run one after the other; SQLite's writer lock does the same.
 */
export async function lockFirm(
  db: Executor,
  id: string,
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('databases').select('id').where('id', '=', id).forUpdate().execute();
}

/** A user's membership of a firm of any role (guests included), disabled or not. */
export function findMembership(db: Executor, databaseId: string, userId: string) {
  return db
    .selectFrom('memberships')
    .select(['id', 'role', 'disabled_at'])
    .where('database_id', '=', databaseId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The members of a firm (not guests), disabled ones included, by last and first name. */
export function firmMembersOf(db: Executor, databaseId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'users.id as user_id',
      'users.username',
      'users.first_name',
      'users.last_name',
      'memberships.role',
      'memberships.disabled_at',
    ])
    .where('memberships.database_id', '=', databaseId)
    .where('memberships.role', '!=', 'guest')
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .orderBy('users.id')
    .execute();
}

/** Deletes a user's membership of a firm. */
export async function deleteMembership(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('memberships')
    .where('database_id', '=', databaseId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes a user from every team of one firm (they left the firm). */
export async function deleteTeamMembershipsIn(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('user_id', '=', userId)
    .where(
      'team_id',
      'in',
      db.selectFrom('teams').select('id').where('database_id', '=', databaseId),
    )
    .execute();
}

/**
 * Ends every session in one firm database (it was disabled).
 * @returns how many sessions were ended
 */
export async function deleteSessionsInFirm(db: Executor, databaseId: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('database_id', '=', databaseId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the user may manage firms (users.is_operator). */
export async function isOperator(db: Executor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('is_operator')
    .where('id', '=', userId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.is_operator ?? 0) === 1;
}

/** Sets or clears a user's operator flag. */
export async function setOperator(db: Executor, userId: string, operator: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_operator: operator ? 1 : 0 })
    .where('id', '=', userId)
    .execute();
}

/** The operators' usernames, in order. */
export async function operatorUsernames(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('username')
    .where('is_operator', '=', 1)
    .orderBy('username_key')
    .execute();
  return rows.map((r) => r.username);
}
