/**
 * Rows for organising: reading many items at once, moving, renaming, archiving and
 * restoring subtrees (archived_root_id, migration 0004), copying a tree, permanent delete,
 * favorites and colours. Every query is scoped by the firm database; id lists are cut into
 * chunks of {@link ID_CHUNK} so a statement stays far under both dialects' bind limits and a call
 * on 10,000 items costs tens of statements, not thousands.
 */
import { sql, type Insertable, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { DB, FilesTable, FoldersTable } from '../db/schema';
import type { Executor } from './types';

/** Ids per `IN (...)` list and rows per multi-row insert. */
export const ID_CHUNK = 500;

/**
 * The firm scope of a statement that names its rows by primary key (`id IN (...)`), written as an
 * expression no index serves: SQLite, which has no statistics here, would otherwise walk the
 * firm's whole range of a (database_id, ...) index for every chunk instead of looking the ids up by
 * primary key (reading 10,000 ids: about 250 ms instead of 50 ms). PostgreSQL plans it the same.
 */
function inFirm(databaseId: string) {
  return sql<boolean>`database_id || '' = ${databaseId}`;
}

/** Cuts a list into chunks of at most `size` items (last one shorter). */
export function chunked<T>(items: readonly T[], size = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Reads by chunks: `read` runs on each chunk of `items` ({@link chunked}) in turn, and the rows it
 * answers come back as one list, in order.
 */
export async function readChunked<T, R>(
  items: readonly T[],
  read: (part: T[]) => Promise<readonly R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (const part of chunked(items)) for (const row of await read(part)) out.push(row);
  return out;
}

/** What organising reads of a folder or file. `parent_id` is the file's folder_id. */
export interface ItemRow {
  type: 'folder' | 'file';
  id: string;
  parent_id: string;
  name: string;
  archived_at: string | null;
  archived_root_id: string | null;
  /** Files: 'pending' or 'ready'; folders: always 'ready'. */
  status: 'pending' | 'ready';
  /** Files only: the lowercased extension. */
  extension: string;
  /** Files only: the object key. */
  storage_key: string | null;
}

/** The folders with these ids in this database (any state), in chunks. */
export async function folderItems(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<ItemRow[]> {
  const rows = await readChunked(ids, (part) =>
    db
      .selectFrom('folders')
      .select(['id', 'parent_id', 'name', 'archived_at', 'archived_root_id'])
      .where(inFirm(databaseId))
      .where('id', 'in', part)
      .execute(),
  );
  return rows.map((r) => ({
    ...r,
    type: 'folder',
    status: 'ready',
    extension: '',
    storage_key: null,
  }));
}

/** The files with these ids in this database (any state and status), in chunks. */
export async function fileItems(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<ItemRow[]> {
  const rows = await readChunked(ids, (part) =>
    db
      .selectFrom('files')
      .select([
        'id',
        'folder_id',
        'name',
        'archived_at',
        'archived_root_id',
        'status',
        'extension',
        'storage_key',
      ])
      .where(inFirm(databaseId))
      .where('id', 'in', part)
      .execute(),
  );
  return rows.map((r) => ({
    type: 'file',
    id: r.id,
    parent_id: r.folder_id,
    name: r.name,
    archived_at: r.archived_at,
    archived_root_id: r.archived_root_id,
    status: r.status,
    extension: r.extension,
    storage_key: r.storage_key,
  }));
}

/** One child of a folder as the unique-name rule sees it. */
export interface ChildName {
  id: string;
  parent_id: string;
  name: string;
  archived_at: string | null;
  archived_root_id: string | null;
}

/**
 * The folders and ready files directly in some folders ('' is the root), live ones only or with
 * the archived ones too (a restore brings some of those back).
 */
export async function childrenOf(
  db: Executor,
  databaseId: string,
  parentIds: readonly string[],
  options: { includeArchived: boolean },
): Promise<ChildName[]> {
  const out: ChildName[] = [];
  for (const part of chunked(parentIds)) {
    let folders = db
      .selectFrom('folders')
      .select(['id', 'parent_id', 'name', 'archived_at', 'archived_root_id'])
      .where('database_id', '=', databaseId)
      .where('parent_id', 'in', part);
    let files = db
      .selectFrom('files')
      .select(['id', 'folder_id as parent_id', 'name', 'archived_at', 'archived_root_id'])
      .where('database_id', '=', databaseId)
      .where('folder_id', 'in', part)
      .where('status', '=', 'ready');
    if (!options.includeArchived) {
      folders = folders.where('archived_at', 'is', null);
      files = files.where('archived_at', 'is', null);
    }
    out.push(...(await folders.execute()), ...(await files.execute()));
  }
  return out;
}

/** A live child's id and name. */
export interface LiveName {
  id: string;
  name: string;
}

/**
 * The live folders and ready files directly in a folder whose name_key is one of `keys` (the
 * partial unique indexes answer it), in chunks.
 */
export async function liveNamesWithKeys(
  db: Executor,
  databaseId: string,
  parentId: string,
  keys: readonly string[],
): Promise<LiveName[]> {
  return readChunked(keys, async (part) => [
    ...(await db
      .selectFrom('folders')
      .select(['id', 'name'])
      .where('database_id', '=', databaseId)
      .where('parent_id', '=', parentId)
      .where('name_key', 'in', part)
      .where('archived_at', 'is', null)
      .execute()),
    ...(await db
      .selectFrom('files')
      .select(['id', 'name'])
      .where('database_id', '=', databaseId)
      .where('folder_id', '=', parentId)
      .where('name_key', 'in', part)
      .where('archived_at', 'is', null)
      .where('status', '=', 'ready')
      .execute()),
  ]);
}

/** `text` with LIKE's wildcards and escape character escaped (for `ESCAPE '\'`). */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The live folders and ready files directly in a folder whose name_key starts with `keyPrefix`
 * (the names a "(n)" counter could collide with). A LIKE on the folder's rows: it reads the
 * folder's index entries, and is only asked when a wanted name is taken.
 */
export async function liveNamesWithPrefix(
  db: Executor,
  databaseId: string,
  parentId: string,
  keyPrefix: string,
): Promise<LiveName[]> {
  const pattern = `${likeEscaped(keyPrefix)}%`;
  return [
    ...(await db
      .selectFrom('folders')
      .select(['id', 'name'])
      .where('database_id', '=', databaseId)
      .where('parent_id', '=', parentId)
      .where('archived_at', 'is', null)
      .where(sql<boolean>`name_key like ${pattern} escape '\\'`)
      .execute()),
    ...(await db
      .selectFrom('files')
      .select(['id', 'name'])
      .where('database_id', '=', databaseId)
      .where('folder_id', '=', parentId)
      .where('archived_at', 'is', null)
      .where('status', '=', 'ready')
      .where(sql<boolean>`name_key like ${pattern} escape '\\'`)
      .execute()),
  ];
}

/** Sets one item's name (and parent), e.g. a rename or a move that had to change the name. */
export async function setItemNameAndParent(
  db: Executor,
  databaseId: string,
  item: { type: 'folder' | 'file'; id: string },
  change: { name: string; nameKey: string; parentId: string; at: string },
): Promise<void> {
  if (item.type === 'folder') {
    await db
      .updateTable('folders')
      .set({
        name: change.name,
        name_key: change.nameKey,
        parent_id: change.parentId,
        updated_at: change.at,
      })
      .where('database_id', '=', databaseId)
      .where('id', '=', item.id)
      .execute();
  } else {
    await db
      .updateTable('files')
      .set({
        name: change.name,
        name_key: change.nameKey,
        folder_id: change.parentId,
        updated_at: change.at,
      })
      .where('database_id', '=', databaseId)
      .where('id', '=', item.id)
      .execute();
  }
}

/** Moves many items of one type into one folder (names unchanged), in chunks. */
export async function setParent(
  db: Executor,
  databaseId: string,
  type: 'folder' | 'file',
  ids: readonly string[],
  parentId: string,
  at: string,
): Promise<void> {
  for (const part of chunked(ids)) {
    if (type === 'folder') {
      await db
        .updateTable('folders')
        .set({ parent_id: parentId, updated_at: at })
        .where(inFirm(databaseId))
        .where('id', 'in', part)
        .execute();
    } else {
      await db
        .updateTable('files')
        .set({ folder_id: parentId, updated_at: at })
        .where(inFirm(databaseId))
        .where('id', 'in', part)
        .execute();
    }
  }
}

/**
 * Archives the named live items themselves: archived_at = at, archived_root_id = their own id.
 * Items already archived are left as they are.
 */
export async function archiveNamed(
  db: Executor,
  databaseId: string,
  type: 'folder' | 'file',
  ids: readonly string[],
  at: string,
): Promise<void> {
  for (const part of chunked(ids)) {
    await db
      .updateTable(type === 'folder' ? 'folders' : 'files')
      .set((eb) => ({ archived_at: at, archived_root_id: eb.ref('id') }))
      .where(inFirm(databaseId))
      .where('id', 'in', part)
      // "Still live", written so that no index serves it: PostgreSQL without statistics (a
      // freshly filled table) otherwise takes `archived_at is null` for selective and walks
      // every live row of the firm through files_folder for each chunk (measured: 69 ms a chunk
      // of 500 instead of 32 ms).
      .where(sql<boolean>`coalesce(archived_at, '') = ''`)
      .execute();
  }
}

/** One table's step of {@link propagateArchive}: what it sets and which of the rows it takes. */
type ArchiveStep<T extends 'folders' | 'files'> = (
  update: UpdateQueryBuilder<DB, T, T, UpdateResult>,
) => UpdateQueryBuilder<DB, T, T, UpdateResult>;

/**
 * Carries an archive down folder trees: level by level, `folders` updates the firm's folders whose
 * parent belongs to one of the archives `rootIds` (archived_root_id in the list) until a level
 * updates none; then `files` updates the files directly in those archives' folders. One statement
 * per level; parents are found by primary key, so the cost grows with the trees, not the firm.
 */
async function propagateArchive(
  db: Executor,
  databaseId: string,
  rootIds: readonly string[],
  folders: ArchiveStep<'folders'>,
  files: ArchiveStep<'files'>,
): Promise<void> {
  const archivedFolders = db
    .selectFrom('folders as t')
    .select('t.id')
    .where('t.database_id', '=', databaseId)
    .where('t.archived_root_id', 'in', rootIds);
  for (let depth = 0; depth < 10_000; depth += 1) {
    const result = await folders(
      db.updateTable('folders').where('folders.database_id', '=', databaseId),
    )
      .where('folders.parent_id', 'in', archivedFolders)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) break;
  }
  await files(db.updateTable('files').where('files.database_id', '=', databaseId))
    .where('files.folder_id', 'in', archivedFolders)
    .execute();
}

/**
 * Archives the live contents of folders that {@link archiveNamed} just archived: level by level,
 * every live subfolder takes its parent's archived_root_id (so each row names the folder whose
 * archive took it), then every live ready file in those folders does ({@link propagateArchive}).
 */
export async function archiveContents(
  db: Executor,
  databaseId: string,
  rootIds: readonly string[],
  at: string,
): Promise<void> {
  for (const part of chunked(rootIds)) {
    await propagateArchive(
      db,
      databaseId,
      part,
      (folders) =>
        folders
          .set((eb) => ({
            archived_at: at,
            archived_root_id: eb
              .selectFrom('folders as p')
              .select('p.archived_root_id')
              .whereRef('p.id', '=', 'folders.parent_id'),
          }))
          .where('folders.archived_at', 'is', null),
      (files) =>
        files
          .set((eb) => ({
            archived_at: at,
            archived_root_id: eb
              .selectFrom('folders as p')
              .select('p.archived_root_id')
              .whereRef('p.id', '=', 'files.folder_id'),
          }))
          .where('files.archived_at', 'is', null)
          .where('files.status', '=', 'ready'),
    );
  }
}

/**
 * Makes an item that was archived with an ancestor's archive (archived_root_id = `oldRootId`) the
 * root of its own archive, together with what went with it below it, so it can be restored alone.
 */
export async function detachArchive(
  db: Executor,
  databaseId: string,
  item: { type: 'folder' | 'file'; id: string },
  oldRootId: string,
): Promise<void> {
  await db
    .updateTable(item.type === 'folder' ? 'folders' : 'files')
    .set({ archived_root_id: item.id })
    .where('database_id', '=', databaseId)
    .where('id', '=', item.id)
    .execute();
  if (item.type === 'file') return;
  await propagateArchive(
    db,
    databaseId,
    [item.id],
    (folders) =>
      folders.set({ archived_root_id: item.id }).where('archived_root_id', '=', oldRootId),
    (files) => files.set({ archived_root_id: item.id }).where('archived_root_id', '=', oldRootId),
  );
}

/**
 * Brings back every row archived by these roots' archives (the roots included). Like an archive,
 * a restore leaves updated_at alone: the item itself did not change.
 */
export async function restoreArchives(
  db: Executor,
  databaseId: string,
  rootIds: readonly string[],
): Promise<void> {
  for (const part of chunked(rootIds)) {
    await db
      .updateTable('folders')
      .set({ archived_at: null, archived_root_id: null })
      .where('database_id', '=', databaseId)
      .where('archived_root_id', 'in', part)
      .execute();
    await db
      .updateTable('files')
      .set({ archived_at: null, archived_root_id: null })
      .where('database_id', '=', databaseId)
      .where('archived_root_id', 'in', part)
      .execute();
  }
}

/**
 * Every folder below some folders (any state), by one recursive query per chunk of roots; the
 * roots themselves are not included.
 */
export async function descendantFolderIds(
  db: Executor,
  databaseId: string,
  rootIds: readonly string[],
): Promise<string[]> {
  const rows = await readChunked(rootIds, (part) =>
    db
      .withRecursive('tree(id, depth)', (qb) =>
        qb
          .selectFrom('folders')
          .select(['id', sql<number>`0`.as('depth')])
          .where(inFirm(databaseId))
          .where('id', 'in', part)
          .unionAll((u) =>
            u
              .selectFrom('folders as f')
              .innerJoin('tree', 'tree.id', 'f.parent_id')
              .select(['f.id', (eb) => eb('tree.depth', '+', 1).as('depth')])
              .where('f.database_id', '=', databaseId)
              .where('tree.depth', '<', 10_000),
          ),
      )
      .selectFrom('tree')
      .select('id')
      .where('depth', '>', 0)
      .execute(),
  );
  return rows.map((r) => r.id);
}

/** The files (any state and status) directly in some folders: ids and object keys. */
export async function filesInFolders(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
): Promise<{ id: string; storage_key: string }[]> {
  return readChunked(folderIds, (part) =>
    db
      .selectFrom('files')
      .select(['id', 'storage_key'])
      .where('database_id', '=', databaseId)
      .where('folder_id', 'in', part)
      .execute(),
  );
}

/**
 * Removes folders and files for good with their favorites, colours, recent items (for every
 * user) and applied index values. History events stay (append-only).
 */
export async function deleteItems(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
  fileIds: readonly string[],
): Promise<void> {
  for (const part of chunked([...folderIds, ...fileIds])) {
    await db
      .deleteFrom('favorites')
      .where('database_id', '=', databaseId)
      .where('entity_type', 'in', ['folder', 'file'])
      .where('entity_id', 'in', part)
      .execute();
    await db
      .deleteFrom('recent_items')
      .where('database_id', '=', databaseId)
      .where('entity_id', 'in', part)
      .execute();
    await db
      .deleteFrom('applied_indexes')
      .where('database_id', '=', databaseId)
      .where('entity_id', 'in', part)
      .execute();
  }
  for (const part of chunked(fileIds)) {
    await db.deleteFrom('files').where(inFirm(databaseId)).where('id', 'in', part).execute();
  }
  for (const part of chunked(folderIds)) {
    await db.deleteFrom('folder_colors').where('folder_id', 'in', part).execute();
    await db.deleteFrom('folders').where(inFirm(databaseId)).where('id', 'in', part).execute();
  }
}

/** A live folder of a tree being copied, with its depth below the copied folder (0 for it). */
export interface TreeFolder {
  id: string;
  parent_id: string;
  name: string;
  name_key: string;
  depth: number;
}

/**
 * The live folders of a tree (the top folder included, depth 0), top-down. The descent stops at
 * the folders in `exclude` (restricted folders hidden from the session): they and their trees are
 * not in the answer.
 */
export async function liveTree(
  db: Executor,
  databaseId: string,
  folderId: string,
  exclude: readonly string[] = [],
): Promise<TreeFolder[]> {
  const rows = await db
    .withRecursive('tree(id, parent_id, name, name_key, depth)', (qb) =>
      qb
        .selectFrom('folders')
        .select(['id', 'parent_id', 'name', 'name_key', sql<number>`0`.as('depth')])
        .where('database_id', '=', databaseId)
        .where('id', '=', folderId)
        .where('archived_at', 'is', null)
        .unionAll((u) =>
          u
            .selectFrom('folders as f')
            .innerJoin('tree', 'tree.id', 'f.parent_id')
            .select([
              'f.id',
              'f.parent_id',
              'f.name',
              'f.name_key',
              (eb) => eb('tree.depth', '+', 1).as('depth'),
            ])
            .where('f.database_id', '=', databaseId)
            .where('f.archived_at', 'is', null)
            .$if(exclude.length > 0, (q) => q.where('f.id', 'not in', exclude))
            .where('tree.depth', '<', 10_000),
        ),
    )
    .selectFrom('tree')
    .select(['id', 'parent_id', 'name', 'name_key', 'depth'])
    .orderBy('depth')
    .execute();
  return rows.map((r) => ({ ...r, depth: Number(r.depth) }));
}

/** The live ready files directly in some folders (full rows, for copying). */
export async function liveFilesIn(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
): Promise<Insertable<FilesTable>[]> {
  return readChunked(folderIds, (part) =>
    db
      .selectFrom('files')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('folder_id', 'in', part)
      .where('status', '=', 'ready')
      .where('archived_at', 'is', null)
      .execute(),
  );
}

/** Inserts many folders (top-down order), ID_CHUNK rows per statement. */
export async function insertFolders(
  db: Executor,
  rows: readonly Insertable<FoldersTable>[],
): Promise<void> {
  for (const part of chunked(rows)) await db.insertInto('folders').values(part).execute();
}

/** Inserts many files, ID_CHUNK rows per statement. */
export async function insertFiles(
  db: Executor,
  rows: readonly Insertable<FilesTable>[],
): Promise<void> {
  for (const part of chunked(rows)) await db.insertInto('files').values(part).execute();
}

/**
 * Sets a user's favorite entry of an item (one row per item and user).
 * @returns whether `enabled` was already the entry's value (no change)
 */
export async function upsertFavorite(
  db: Executor,
  row: {
    id: string;
    databaseId: string;
    entityType: 'folder' | 'file';
    entityId: string;
    userId: string;
    enabled: boolean;
    at: string;
  },
): Promise<boolean> {
  const existing = await db
    .selectFrom('favorites')
    .select(['id', 'enabled'])
    .where('entity_type', '=', row.entityType)
    .where('entity_id', '=', row.entityId)
    .where('user_id', '=', row.userId)
    .executeTakeFirst();
  const value = row.enabled ? 1 : 0;
  if (existing) {
    if (Number(existing.enabled) === value) return true;
    await db
      .updateTable('favorites')
      .set({ enabled: value, updated_at: row.at })
      .where('id', '=', existing.id)
      .execute();
    return false;
  }
  await db
    .insertInto('favorites')
    .values({
      id: row.id,
      database_id: row.databaseId,
      entity_type: row.entityType,
      entity_id: row.entityId,
      user_id: row.userId,
      enabled: value,
      created_at: row.at,
      updated_at: row.at,
    })
    .execute();
  return !row.enabled;
}

/** A user's colours of some folders (folder id → colour key). */
export async function colorsOf(
  db: Executor,
  userId: string,
  folderIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await readChunked(folderIds, (part) =>
    db
      .selectFrom('folder_colors')
      .select(['folder_id', 'color'])
      .where('user_id', '=', userId)
      .where('folder_id', 'in', part)
      .execute(),
  );
  return new Map<string, string>(rows.map((r) => [r.folder_id, r.color]));
}

/** Sets a user's colour of many folders (insert or replace), ID_CHUNK rows per statement. */
export async function setColors(
  db: Executor,
  userId: string,
  folderIds: readonly string[],
  color: string,
  at: string,
): Promise<void> {
  for (const part of chunked(folderIds)) {
    await db
      .insertInto('folder_colors')
      .values(part.map((id) => ({ folder_id: id, user_id: userId, color, updated_at: at })))
      .onConflict((oc) =>
        oc.columns(['folder_id', 'user_id']).doUpdateSet((eb) => ({
          color: eb.ref('excluded.color'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Removes a user's colour of many folders (back to the default). */
export async function clearColors(
  db: Executor,
  userId: string,
  folderIds: readonly string[],
): Promise<void> {
  for (const part of chunked(folderIds)) {
    await db
      .deleteFrom('folder_colors')
      .where('user_id', '=', userId)
      .where('folder_id', 'in', part)
      .execute();
  }
}
