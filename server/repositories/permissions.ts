/**
 * Folder permissions and the visibility queries built on them. Every query is
 * scoped by the firm database. A folder is restricted when it has at least one permission row; a
 * user may see it when a row names the user or a team the user belongs to.
 */
import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { FolderPermissionsTable } from '../db/schema';
import type { Executor } from './types';

/** A permission row with the display name of the user or team it names. */
export interface FolderPermissionWithName {
  id: string;
  folder_id: string;
  permissionable_id: string;
  permissionable_type: 'user' | 'team';
  created_at: string;
  name: string | null;
}

function withName(db: Executor) {
  return db
    .selectFrom('folder_permissions as p')
    .leftJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'p.permissionable_id').on('p.permissionable_type', '=', 'user'),
    )
    .leftJoin('teams as t', (j) =>
      j.onRef('t.id', '=', 'p.permissionable_id').on('p.permissionable_type', '=', 'team'),
    )
    .select([
      'p.id',
      'p.folder_id',
      'p.permissionable_id',
      'p.permissionable_type',
      'p.created_at',
      't.name as team_name',
      'u.first_name',
      'u.last_name',
    ]);
}

type NamedRow = {
  id: string;
  folder_id: string;
  permissionable_id: string;
  permissionable_type: 'user' | 'team';
  created_at: string;
  team_name: string | null;
  first_name: string | null;
  last_name: string | null;
};

function named(r: NamedRow): FolderPermissionWithName {
  const userName = r.first_name !== null ? `${r.first_name} ${r.last_name ?? ''}`.trim() : null;
  return {
    id: r.id,
    folder_id: r.folder_id,
    permissionable_id: r.permissionable_id,
    permissionable_type: r.permissionable_type,
    created_at: r.created_at,
    name: r.permissionable_type === 'team' ? r.team_name : userName,
  };
}

/** The permissions of one folder, by type then name order of creation. */
export async function folderPermissions(
  db: Executor,
  databaseId: string,
  folderId: string,
): Promise<FolderPermissionWithName[]> {
  const rows = await withName(db)
    .where('p.database_id', '=', databaseId)
    .where('p.folder_id', '=', folderId)
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  return rows.map(named);
}

/** One permission by id, if it is in this database. */
export async function findPermission(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<FolderPermissionWithName | undefined> {
  const row = await withName(db)
    .where('p.database_id', '=', databaseId)
    .where('p.id', '=', id)
    .executeTakeFirst();
  return row ? named(row) : undefined;
}

/** A user's own permission rows (not through teams) in this database. */
export async function permissionsOfUser(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<FolderPermissionWithName[]> {
  const rows = await withName(db)
    .where('p.database_id', '=', databaseId)
    .where('p.permissionable_type', '=', 'user')
    .where('p.permissionable_id', '=', userId)
    .orderBy('p.created_at')
    .execute();
  return rows.map(named);
}

/** Inserts permission rows (the caller skips those that exist). */
export async function insertPermissions(
  db: Executor,
  rows: Insertable<FolderPermissionsTable>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('folder_permissions').values(rows).execute();
}

/** Deletes permission rows by id (in this database). */
export async function deletePermissions(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('folder_permissions')
    .where('database_id', '=', databaseId)
    .where('id', 'in', ids)
    .execute();
}

/** Deletes every permission naming a team (the team is being deleted). */
export async function deleteTeamPermissions(
  db: Executor,
  databaseId: string,
  teamId: string,
): Promise<void> {
  await db
    .deleteFrom('folder_permissions')
    .where('database_id', '=', databaseId)
    .where('permissionable_type', '=', 'team')
    .where('permissionable_id', '=', teamId)
    .execute();
}

/**
 * The restricted folders this user may not see: folders with at least one permission row, none of
 * which names the user or a team of the user. One query on `folder_permissions_folder`; the
 * answer's size is the number of such folders in the firm (not their contents).
 */
export async function hiddenRootIds(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('folder_permissions as p')
    .select('p.folder_id')
    .distinct()
    .where('p.database_id', '=', databaseId)
    .where((outer) =>
      outer.not(
        outer.exists(
          outer
            .selectFrom('folder_permissions as a')
            .select('a.id')
            .whereRef('a.folder_id', '=', 'p.folder_id')
            .where('a.database_id', '=', databaseId)
            .where((eb) =>
              eb.or([
                eb.and([
                  eb('a.permissionable_type', '=', 'user'),
                  eb('a.permissionable_id', '=', userId),
                ]),
                eb.and([
                  eb('a.permissionable_type', '=', 'team'),
                  eb(
                    'a.permissionable_id',
                    'in',
                    eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId),
                  ),
                ]),
              ]),
            ),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.folder_id);
}

/**
 * SQL for the ids of every folder in the hidden subtrees: the hidden roots and all their
 * descendants (archived or not), by one recursive query over `folders_list`-style parent lookups.
 * Used as `NOT IN (...)` by the lists; its cost grows with the size of the hidden subtrees only.
 * `roots` must not be empty (callers skip the filter when nothing is hidden).
 */
function hiddenFolderIdsSql(databaseId: string, roots: string[]): Expression<string> {
  const ids = sql.join(roots.map((r) => sql`${r}`));
  return sql<string>`(with recursive hidden_tree(id) as (
      select id from folders where database_id = ${databaseId} and id in (${ids})
      union all
      select f.id from folders f join hidden_tree h on f.parent_id = h.id
      where f.database_id = ${databaseId}
    ) select id from hidden_tree)`;
}

/**
 * A condition builder for list queries: "the folder id in this column is visible to the session",
 * or null when nothing is hidden (the query is left as it was).
 */
export type FolderFilter = ((column: string) => Expression<SqlBool>) | null;

/**
 * A condition: the folder id in `column` is not inside a hidden subtree. `column` is a trusted
 * column reference such as 'files.folder_id'.
 */
export function notHiddenFolder(
  column: string,
  databaseId: string,
  roots: string[],
): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} not in ${hiddenFolderIdsSql(databaseId, roots)}`;
}

/**
 * Whether `folderId` or one of its ancestors is among `roots`, by one recursive query up the chain.
 */
export async function ancestryHits(
  db: Executor,
  databaseId: string,
  folderId: string,
  roots: string[],
): Promise<boolean> {
  const ids = sql.join(roots.map((r) => sql`${r}`));
  const result = await sql<{ id: string }>`with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from folders where database_id = ${databaseId} and id = ${folderId}
      union all
      select f.id, f.parent_id, c.depth + 1 from folders f join chain c on f.id = c.parent_id
      where f.database_id = ${databaseId} and c.depth < 1000
    ) select id from chain where id in (${ids}) limit 1`.execute(db);
  return result.rows.length > 0;
}

/**
 * Which of these folder ids lie inside a hidden subtree (themselves hidden or below a hidden
 * root), by one query whatever the number of ids.
 */
export async function hiddenAmong(
  db: Executor,
  databaseId: string,
  folderIds: string[],
  roots: string[],
): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const wanted = [...new Set(folderIds)];
  const found: string[] = [];
  for (let i = 0; i < wanted.length; i += 5000) {
    const chunk = wanted.slice(i, i + 5000);
    const rows = await db
      .selectFrom('folders')
      .select('id')
      .where('database_id', '=', databaseId)
      .where('id', 'in', chunk)
      .where(sql<SqlBool>`id in ${hiddenFolderIdsSql(databaseId, roots)}`)
      .execute();
    found.push(...rows.map((r) => r.id));
  }
  return found;
}

/** The users (members of the firm) and teams of a firm, for the permission dialog. */
export async function permissionables(
  db: Executor,
  databaseId: string,
): Promise<{ id: string; type: 'user' | 'team'; name: string }[]> {
  const [users, teams] = await Promise.all([
    db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.first_name', 'users.last_name', 'users.username'])
      .where('memberships.database_id', '=', databaseId)
      // Guests (sharing) are not firm members: they are never given folder permissions.
      .where('memberships.role', '!=', 'guest')
      .orderBy('users.last_name')
      .orderBy('users.first_name')
      .orderBy('users.id')
      .execute(),
    db
      .selectFrom('teams')
      .select(['id', 'name'])
      .where('database_id', '=', databaseId)
      .orderBy('name_key')
      .execute(),
  ]);
  return [
    ...users.map((u) => ({
      id: u.id,
      type: 'user' as const,
      name: `${u.first_name} ${u.last_name}`.trim() || u.username,
    })),
    ...teams.map((t) => ({ id: t.id, type: 'team' as const, name: t.name })),
  ];
}

/**
 * A condition on history events: the event concerns no item hidden from the session. Events about
 * a folder inside a hidden subtree (item_id is the folder) or a file in one (item_id is the file)
 * are left out, and so are folder_permission events without an item (a user's permissions removed
 * across folders, which name folders). `alias` qualifies the columns ('h' → h.item_id).
 */
export function eventVisibleSql(
  databaseId: string,
  roots: string[],
  alias?: string,
): Expression<SqlBool> {
  const col = (c: string) => sql.ref(alias ? `${alias}.${c}` : c);
  const hidden = hiddenFolderIdsSql(databaseId, roots);
  return sql<SqlBool>`((${col('item_id')} is null and ${col('entity_type')} <> 'folder_permission')
    or (${col('item_id')} is not null and ${col('item_id')} not in ${hidden}
      and ${col('item_id')} not in (select hf.id from files hf
        where hf.database_id = ${databaseId} and hf.folder_id in ${hidden})))`;
}

/**
 * Whether a hidden root lies strictly below one of `folderIds` (their trees hold something the
 * session may not see), by one recursive query up from the roots.
 */
export async function hiddenBelow(
  db: Executor,
  databaseId: string,
  folderIds: string[],
  roots: string[],
): Promise<boolean> {
  if (folderIds.length === 0 || roots.length === 0) return false;
  const rootList = sql.join(roots.map((r) => sql`${r}`));
  const wanted = sql.join(folderIds.map((r) => sql`${r}`));
  const result = await sql<{ id: string }>`with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from folders where database_id = ${databaseId} and id in (${rootList})
      union all
      select f.id, f.parent_id, u.depth + 1 from folders f join up u on f.id = u.parent_id
      where f.database_id = ${databaseId} and u.depth < 1000
    ) select id from up where depth > 0 and id in (${wanted}) limit 1`.execute(db);
  return result.rows.length > 0;
}
