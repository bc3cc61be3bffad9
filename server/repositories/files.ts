/** File rows. Every query is scoped by the firm database. */
import type { FileRow, FileUpdate, NewFile } from '../db/schema';
import type { Executor } from './types';

/** A file row with its creator's display name. */
export type FileWithCreator = FileRow & {
  creator_first: string | null;
  creator_last: string | null;
};

function withCreator(db: Executor) {
  return db
    .selectFrom('files')
    .leftJoin('users', 'users.id', 'files.created_by')
    .selectAll('files')
    .select(['users.first_name as creator_first', 'users.last_name as creator_last']);
}

/** Inserts a file row. */
export async function insertFile(db: Executor, row: NewFile): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

/** The file with this id in this database (any status), if any. */
export function findFile(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<FileWithCreator | undefined> {
  return withCreator(db)
    .where('files.database_id', '=', databaseId)
    .where('files.id', '=', id)
    .executeTakeFirst();
}

/** Changes a file's fields. */
export async function updateFile(
  db: Executor,
  databaseId: string,
  id: string,
  patch: FileUpdate,
): Promise<void> {
  await db
    .updateTable('files')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** Removes a file row (used for refused uploads, which never became files). */
export async function deleteFileRow(db: Executor, databaseId: string, id: string): Promise<void> {
  await db.deleteFrom('files').where('database_id', '=', databaseId).where('id', '=', id).execute();
}

/** Removes the pending row (if any) that owns a storage key; ready files are never touched. */
export async function deletePendingByStorageKey(db: Executor, storageKey: string): Promise<void> {
  await db
    .deleteFrom('files')
    .where('storage_key', '=', storageKey)
    .where('status', '=', 'pending')
    .execute();
}

/** Number of ready, live files directly in a folder. */
export async function countLiveFiles(
  db: Executor,
  databaseId: string,
  folderId: string,
): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .where('folder_id', '=', folderId)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ready, live files directly in a folder, ordered by name (case-insensitive), then id. */
export function listLiveFiles(
  db: Executor,
  databaseId: string,
  folderId: string,
  offset: number,
  limit: number,
): Promise<FileWithCreator[]> {
  return withCreator(db)
    .where('files.database_id', '=', databaseId)
    .where('files.folder_id', '=', folderId)
    .where('files.status', '=', 'ready')
    .where('files.archived_at', 'is', null)
    .orderBy('files.name_key')
    .orderBy('files.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Names of the ready, live files directly in a folder. */
export async function liveFileNames(
  db: Executor,
  databaseId: string,
  folderId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('files')
    .select('name')
    .where('database_id', '=', databaseId)
    .where('folder_id', '=', folderId)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null)
    .execute();
  return rows.map((r) => r.name);
}

/** The current user's favorite entries for some entities. */
export function favoritesFor(
  db: Executor,
  databaseId: string,
  userId: string,
  entityIds: string[],
) {
  if (entityIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('favorites')
    .select(['entity_id', 'user_id', 'enabled'])
    .where('database_id', '=', databaseId)
    .where('user_id', '=', userId)
    .where('entity_id', 'in', entityIds)
    .execute();
}
