/** Folder rows. Every query is scoped by the firm database. */
import { sql, type Insertable } from 'kysely';
import type { FolderRow, FoldersTable } from '../db/schema';
import { DEFAULT_FOLDER_SORT } from '@common/sort';
import {
  afterPosition,
  folderListOrder,
  positionOf,
  type ListOrder,
  type ListPosition,
} from './listOrder';
import type { Executor } from './types';

/** A folder row with its creator's display name. */
export type FolderWithCreator = FolderRow & {
  creator_first: string | null;
  creator_last: string | null;
};

function withCreator(db: Executor) {
  return db
    .selectFrom('folders')
    .leftJoin('users', 'users.id', 'folders.created_by')
    .selectAll('folders')
    .select(['users.first_name as creator_first', 'users.last_name as creator_last']);
}

/** The folder with this id in this database (archived or not), if any. */
export function findFolder(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<FolderWithCreator | undefined> {
  return withCreator(db)
    .where('folders.database_id', '=', databaseId)
    .where('folders.id', '=', id)
    .executeTakeFirst();
}

/** The folders with these ids in this database (any state), in no particular order. */
export function findFoldersByIds(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<FolderWithCreator[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return withCreator(db)
    .where('folders.database_id', '=', databaseId)
    .where('folders.id', 'in', ids)
    .execute();
}

/** Inserts a folder. */
export async function insertFolder(db: Executor, row: Insertable<FoldersTable>): Promise<void> {
  await db.insertInto('folders').values(row).execute();
}

/**
 * Number of live (not archived) folders directly in a parent, less those in `exclude` (the
 * restricted folders hidden from the session, see access.ts).
 */
export async function countLiveFolders(
  db: Executor,
  databaseId: string,
  parentId: string,
  exclude: readonly string[] = [],
): Promise<number> {
  const row = await db
    .selectFrom('folders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .where('parent_id', '=', parentId)
    .where('archived_at', 'is', null)
    .$if(exclude.length > 0, (q) => q.where('id', 'not in', exclude))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Live folders directly in a parent, ordered by name (case-insensitive), then id. */
export function listLiveFolders(
  db: Executor,
  databaseId: string,
  parentId: string,
  offset: number,
  limit: number,
  exclude: readonly string[] = [],
): Promise<FolderWithCreator[]> {
  return withCreator(db)
    .where('folders.database_id', '=', databaseId)
    .where('folders.parent_id', '=', parentId)
    .where('folders.archived_at', 'is', null)
    .$if(exclude.length > 0, (q) => q.where('folders.id', 'not in', exclude))
    .orderBy('folders.name_key')
    .orderBy('folders.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * Live folders directly in a parent after a position (keyset; from the start when `after` is
 * null), in `order` (default: by name, case-insensitive, then id). Reads through the list index
 * of that order (`folders_list`, `folders_list_modified`), so a deep page costs what the first
 * one costs.
 */
export function listLiveFoldersAfter(
  db: Executor,
  databaseId: string,
  parentId: string,
  after: ListPosition | null,
  limit: number,
  exclude: readonly string[] = [],
  order: ListOrder = folderListOrder(DEFAULT_FOLDER_SORT),
): Promise<FolderWithCreator[]> {
  let query = withCreator(db)
    .where('folders.database_id', '=', databaseId)
    .where('folders.parent_id', '=', parentId)
    .where('folders.archived_at', 'is', null)
    .$if(exclude.length > 0, (q) => q.where('folders.id', 'not in', exclude));
  if (after) query = query.where(afterPosition('folders', order, after));
  for (const column of order.columns) {
    query = query.orderBy(sql.ref(`folders.${column}`), order.desc ? 'desc' : 'asc');
  }
  return query.limit(limit).execute();
}

/**
 * The position of the live folder at `offset` (from 0) in a parent's `order`, read from the
 * index alone (no row or creator lookups for the rows skipped), or undefined past the end.
 */
export async function liveFolderPositionAt(
  db: Executor,
  databaseId: string,
  parentId: string,
  offset: number,
  exclude: readonly string[] = [],
  order: ListOrder = folderListOrder(DEFAULT_FOLDER_SORT),
): Promise<ListPosition | undefined> {
  let query = db
    .selectFrom('folders')
    // Only the order's columns: the row is read from the index alone.
    .select(order.columns as readonly ('name_key' | 'updated_at' | 'id')[])
    .where('database_id', '=', databaseId)
    .where('parent_id', '=', parentId)
    .where('archived_at', 'is', null)
    .$if(exclude.length > 0, (q) => q.where('id', 'not in', exclude));
  for (const column of order.columns) {
    query = query.orderBy(sql.ref(`folders.${column}`), order.desc ? 'desc' : 'asc');
  }
  const row = await query.limit(1).offset(offset).executeTakeFirst();
  return row ? positionOf(order, row) : undefined;
}

/** Names of the live folders directly in a parent. */
export async function liveFolderNames(
  db: Executor,
  databaseId: string,
  parentId: string,
  exclude: readonly string[] = [],
): Promise<string[]> {
  const rows = await db
    .selectFrom('folders')
    .select('name')
    .where('database_id', '=', databaseId)
    .where('parent_id', '=', parentId)
    .where('archived_at', 'is', null)
    .$if(exclude.length > 0, (q) => q.where('id', 'not in', exclude))
    .execute();
  return rows.map((r) => r.name);
}

/**
 * The chain of folders from the top level down to `id` (inclusive), by one recursive query.
 * Answers [] when the folder is not in this database.
 */
export async function folderAncestry(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<{ id: string; name: string; depth: number }[]> {
  const rows = await db
    .withRecursive('chain(id, name, parent_id, depth)', (qb) =>
      qb
        .selectFrom('folders')
        .select(['id', 'name', 'parent_id', sql<number>`0`.as('depth')])
        .where('database_id', '=', databaseId)
        .where('id', '=', id)
        .unionAll((u) =>
          u
            .selectFrom('folders as f')
            .innerJoin('chain', 'chain.parent_id', 'f.id')
            .select([
              'f.id',
              'f.name',
              'f.parent_id',
              (eb) => eb('chain.depth', '+', 1).as('depth'),
            ])
            .where('f.database_id', '=', databaseId)
            .where('chain.depth', '<', 1000),
        ),
    )
    .selectFrom('chain')
    .select(['id', 'name', 'depth'])
    .orderBy('depth', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, depth: Number(r.depth) }));
}

/** The current user's colours for some folders. */
export function colorsFor(db: Executor, userId: string, folderIds: string[]) {
  if (folderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('folder_colors')
    .select(['folder_id', 'color'])
    .where('user_id', '=', userId)
    .where('folder_id', 'in', folderIds)
    .execute();
}
