/** Users, firm databases and memberships. */
import type { Insertable } from 'kysely';
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

/** A user's memberships with their databases, ordered by database name. */
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
    .orderBy('databases.name')
    .orderBy('databases.id')
    .execute();
}

/** The user's role in one database, or undefined when not a member. */
export async function roleIn(
  db: Executor,
  userId: string,
  databaseId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('user_id', '=', userId)
    .where('database_id', '=', databaseId)
    .executeTakeFirst();
  return row?.role;
}
