/**
 * Reads of a firm's folder tree as a whole (the in-memory copy of services/folderTree.ts): its
 * version (migration 0017), its folders' places and names, its folder permissions and its teams'
 * members.
 */
import { sql } from 'kysely';
import type { Executor } from './types';

/** A firm's folder tree version (0 before its first change). */
export async function folderTreeVersion(db: Executor, databaseId: string): Promise<number> {
  const row = await db
    .selectFrom('folder_tree_versions')
    .select('version')
    .where('database_id', '=', databaseId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * The SQL expression of a firm's folder tree version (0 before its first change), for a statement
 * that answers it beside its rows.
 */
export function folderTreeVersionSql(databaseId: string) {
  return sql<number>`(select coalesce(max(version), 0) from folder_tree_versions
    where database_id = ${databaseId})`;
}

/** One folder of a firm: its place and name, archived or not. */
export interface TreeFolderRow {
  id: string;
  parent_id: string;
  name: string;
}

/**
 * Every folder of a firm, or null when there are more than `cap` (the tree is then not copied).
 */
export async function treeFolders(
  db: Executor,
  databaseId: string,
  cap: number,
): Promise<TreeFolderRow[] | null> {
  const rows = await db
    .selectFrom('folders')
    .select(['id', 'parent_id', 'name'])
    .where('database_id', '=', databaseId)
    .limit(cap + 1)
    .execute();
  return rows.length > cap ? null : rows;
}

/** One folder permission row: the folder, and the user or team it lets in. */
export interface TreePermissionRow {
  folder_id: string;
  permissionable_type: string;
  permissionable_id: string;
}

/** Every folder permission of a firm. */
export function treePermissions(db: Executor, databaseId: string): Promise<TreePermissionRow[]> {
  return db
    .selectFrom('folder_permissions')
    .select(['folder_id', 'permissionable_type', 'permissionable_id'])
    .where('database_id', '=', databaseId)
    .execute();
}

/** Every member of every team of a firm. */
export function treeTeamMembers(
  db: Executor,
  databaseId: string,
): Promise<{ team_id: string; user_id: string }[]> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['m.team_id', 'm.user_id'])
    .where('t.database_id', '=', databaseId)
    .execute();
}
