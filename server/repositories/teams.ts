/** Teams of users in a firm database. Every query is scoped by the database. */
import type { Insertable } from 'kysely';
import type { TeamRow, TeamsTable } from '../db/schema';
import type { Executor } from './types';

/** The teams of a firm, by name. */
export function listTeams(db: Executor, databaseId: string): Promise<TeamRow[]> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('database_id', '=', databaseId)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
}

/** One team of this firm, if any. */
export function findTeam(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The team of this firm with this lowercased name, if any. */
export function findTeamByNameKey(
  db: Executor,
  databaseId: string,
  nameKey: string,
): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
}

/** Inserts a team. */
export async function insertTeam(db: Executor, row: Insertable<TeamsTable>): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

/** Renames a team. */
export async function renameTeam(
  db: Executor,
  databaseId: string,
  id: string,
  name: string,
  nameKey: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('teams')
    .set({ name, name_key: nameKey, updated_at: now })
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** Deletes a team and its memberships. */
export async function deleteTeam(db: Executor, databaseId: string, id: string): Promise<void> {
  await db.deleteFrom('team_members').where('team_id', '=', id).execute();
  await db.deleteFrom('teams').where('database_id', '=', databaseId).where('id', '=', id).execute();
}

/** The member user ids of some teams, as team id → user ids. */
export async function membersOfTeams(
  db: Executor,
  teamIds: string[],
): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return map;
  const rows = await db
    .selectFrom('team_members')
    .select(['team_id', 'user_id'])
    .where('team_id', 'in', teamIds)
    .orderBy('created_at')
    .orderBy('user_id')
    .execute();
  for (const r of rows) map.get(r.team_id)?.push(r.user_id);
  return map;
}

/** Adds users to a team (those already in it are skipped by the caller). */
export async function addTeamMembers(
  db: Executor,
  teamId: string,
  userIds: string[],
  now: string,
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('team_members')
    .values(userIds.map((user_id) => ({ team_id: teamId, user_id, created_at: now })))
    .execute();
}

/** Removes a user from a team. Answers whether a row was removed. */
export async function removeTeamMember(
  db: Executor,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The teams of one user in one firm, by name (GET private/users/{id}/teams). */
export function teamsOfUser(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id', 'teams.name'])
    .where('teams.database_id', '=', databaseId)
    .where('team_members.user_id', '=', userId)
    .orderBy('teams.name_key')
    .execute();
}

/** Which of these user ids are members of this firm database (guests of its shares are not). */
export async function firmMemberIds(
  db: Executor,
  databaseId: string,
  userIds: string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('database_id', '=', databaseId)
    .where('user_id', 'in', userIds)
    .where('role', '!=', 'guest')
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
