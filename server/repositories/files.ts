/** File rows. Every query is scoped by the firm database. */
import { sql } from 'kysely';
import type { FileRow, FileUpdate, NewFile } from '../db/schema';
import { DEFAULT_FOLDER_SORT } from '@common/sort';
import {
  afterPosition,
  fileListOrder,
  positionOf,
  type ListOrder,
  type ListPosition,
} from './listOrder';
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

/** The files with these ids in this database (any state), in no particular order. */
export function findFilesByIds(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<FileWithCreator[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return withCreator(db)
    .where('files.database_id', '=', databaseId)
    .where('files.id', 'in', ids)
    .execute();
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

/** A ready file still without a sha256, as the fingerprint sweep reads it. */
export interface FileToFingerprint {
  id: string;
  database_id: string;
  storage_key: string;
}

/**
 * Ready files of any firm still without a sha256, after `afterId` by id (the fingerprint sweep;
 * partial index files_missing_sha256).
 * @param afterId '' for the first
 * @param limit rows at most
 */
export function listFilesMissingSha256(
  db: Executor,
  afterId: string,
  limit: number,
): Promise<FileToFingerprint[]> {
  return db
    .selectFrom('files')
    .select(['id', 'database_id', 'storage_key'])
    .where(sql<boolean>`sha256 is null and status = 'ready'`)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Sets the sha256 (hex) of the bytes stored under `storageKey`: on the file while that object is
 * still its newest (a newer version keeps its own), and on the version that owns the object,
 * each unless it already has one.
 */
export async function setMissingSha256(
  db: Executor,
  databaseId: string,
  id: string,
  storageKey: string,
  sha256: string,
): Promise<void> {
  await db
    .updateTable('files')
    .set({ sha256 })
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .where('storage_key', '=', storageKey)
    .where('sha256', 'is', null)
    .execute();
  await db
    .updateTable('file_versions')
    .set({ sha256 })
    .where('database_id', '=', databaseId)
    .where('storage_key', '=', storageKey)
    .where('sha256', 'is', null)
    .execute();
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

/**
 * Ready, live files directly in a folder after a position (keyset; from the start when `after` is
 * null), in `order` (default: by name, case-insensitive, then id), through the list index of that
 * order (`files_list`, `files_list_modified`, `files_list_size`, `files_list_type`).
 */
export function listLiveFilesAfter(
  db: Executor,
  databaseId: string,
  folderId: string,
  after: ListPosition | null,
  limit: number,
  order: ListOrder = fileListOrder(DEFAULT_FOLDER_SORT),
): Promise<FileWithCreator[]> {
  let query = withCreator(db)
    .where('files.database_id', '=', databaseId)
    .where('files.folder_id', '=', folderId)
    .where('files.status', '=', 'ready')
    .where('files.archived_at', 'is', null);
  if (after) query = query.where(afterPosition('files', order, after));
  for (const column of order.columns) {
    query = query.orderBy(sql.ref(`files.${column}`), order.desc ? 'desc' : 'asc');
  }
  return query.limit(limit).execute();
}

/**
 * The position of the ready, live file at `offset` (from 0) in a folder's `order`, read from the
 * index alone, or undefined past the end.
 */
export async function liveFilePositionAt(
  db: Executor,
  databaseId: string,
  folderId: string,
  offset: number,
  order: ListOrder = fileListOrder(DEFAULT_FOLDER_SORT),
): Promise<ListPosition | undefined> {
  let query = db
    .selectFrom('files')
    .select(order.columns)
    .where('database_id', '=', databaseId)
    .where('folder_id', '=', folderId)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null);
  for (const column of order.columns) {
    query = query.orderBy(sql.ref(`files.${column}`), order.desc ? 'desc' : 'asc');
  }
  const row = await query.limit(1).offset(offset).executeTakeFirst();
  return row ? positionOf(order, row) : undefined;
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

/** The ready, live files directly in a folder whose `name_key` is one of `keys`. */
export async function liveFilesNamed(
  db: Executor,
  databaseId: string,
  folderId: string,
  keys: readonly string[],
): Promise<Pick<FileRow, 'id' | 'name' | 'name_key'>[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('files')
    .select(['id', 'name', 'name_key'])
    .where('database_id', '=', databaseId)
    .where('folder_id', '=', folderId)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null)
    .where('name_key', 'in', keys)
    .execute();
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

/**
 * Number of a user's pending uploads in a firm database touched since `since` (ISO 8601 UTC): the
 * uploads still running (a pending upload is touched at creation and at every multipart signature).
 */
export async function countActivePendingUploads(
  db: Executor,
  databaseId: string,
  userId: string,
  since: string,
): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .where('created_by', '=', userId)
    .where('status', '=', 'pending')
    .where('updated_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A pending upload the cleanup job removes. */
export interface StalePendingUpload {
  id: string;
  database_id: string;
  storage_key: string;
  /** The store's id of its multipart upload, or null. */
  store_upload_id: string | null;
}

/**
 * Pending uploads of every firm database untouched since `before` (ISO 8601 UTC), oldest first.
 * Used only by the cleanup job, which acts for the system, not for a session.
 */
export function listStalePendingUploads(
  db: Executor,
  before: string,
  limit: number,
): Promise<StalePendingUpload[]> {
  return db
    .selectFrom('files')
    .select(['id', 'database_id', 'storage_key', 'store_upload_id'])
    .where('status', '=', 'pending')
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/**
 * Removes a file row only while it is still pending and untouched since `before` (when given).
 * @returns whether a row was removed
 */
export async function deletePendingUpload(
  db: Executor,
  databaseId: string,
  id: string,
  before?: string,
): Promise<boolean> {
  let query = db
    .deleteFrom('files')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .where('status', '=', 'pending');
  if (before !== undefined) query = query.where('updated_at', '<', before);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether an error is a unique-index violation (SQLite or PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === '23505' || (typeof e?.message === 'string' && /UNIQUE constraint/i.test(e.message))
  );
}

/**
 * Inserts a pending upload row unless another pending upload of the same batch, folder and picked
 * name exists (unique index files_upload_batch_pending, migration 0019).
 * @returns false when that index refused the row (nothing was inserted)
 */
export async function insertPendingUpload(db: Executor, row: NewFile): Promise<boolean> {
  try {
    await db.insertInto('files').values(row).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * The upload of a batch for a picked name in a folder (any status; a pending one first), or
 * undefined.
 * @param uploadNameKey `nameKey` of the name the file was picked with
 */
export function findBatchUpload(
  db: Executor,
  databaseId: string,
  batchId: string,
  folderId: string,
  uploadNameKey: string,
): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('upload_batch_id', '=', batchId)
    .where('folder_id', '=', folderId)
    .where('upload_name_key', '=', uploadNameKey)
    .orderBy('status')
    .executeTakeFirst();
}

/** The id and status of the row (if any) that owns a storage key. */
export function findByStorageKey(
  db: Executor,
  storageKey: string,
): Promise<Pick<FileRow, 'id' | 'status'> | undefined> {
  return db
    .selectFrom('files')
    .select(['id', 'status'])
    .where('storage_key', '=', storageKey)
    .executeTakeFirst();
}

/**
 * Makes a pending upload a ready file with the given fields, only while it is still pending, so
 * that of two records of one upload only one does it.
 * @returns whether this call made the row ready
 */
export async function markUploadReady(
  db: Executor,
  databaseId: string,
  id: string,
  patch: FileUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('files')
    .set({ ...patch, status: 'ready' })
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
