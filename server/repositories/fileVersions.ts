/**
 * File version rows (migration 0026; docs/architecture.md "File versions"). Every query of a
 * firm's versions is scoped by its database; the few that serve the store and the system jobs
 * (a key's upload state, the backup check, derivatives still needed) are not, as their callers act
 * for no session.
 */
import type { FileVersionRow, NewFileVersion } from '../db/schemaVersions';
import { chunked } from './organise';
import type { Executor } from './types';

/** A version row with its uploader's display name. */
export type VersionWithCreator = FileVersionRow & {
  creator_first: string | null;
  creator_last: string | null;
};

/** Every version of a file of a firm, newest first (none for a file recorded without them). */
export function versionsOf(
  db: Executor,
  databaseId: string,
  fileId: string,
): Promise<VersionWithCreator[]> {
  return db
    .selectFrom('file_versions')
    .leftJoin('users', 'users.id', 'file_versions.created_by')
    .selectAll('file_versions')
    .select(['users.first_name as creator_first', 'users.last_name as creator_last'])
    .where('file_versions.database_id', '=', databaseId)
    .where('file_versions.file_id', '=', fileId)
    .orderBy('file_versions.number', 'desc')
    .execute();
}

/** One version of a file of a firm, if any. */
export function findVersion(
  db: Executor,
  databaseId: string,
  fileId: string,
  number: number,
): Promise<FileVersionRow | undefined> {
  return db
    .selectFrom('file_versions')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('file_id', '=', fileId)
    .where('number', '=', number)
    .executeTakeFirst();
}

/** The number of a file's newest version, or 0 when it has no version rows. */
export async function newestVersionNumber(
  db: Executor,
  databaseId: string,
  fileId: string,
): Promise<number> {
  const row = await db
    .selectFrom('file_versions')
    .select((eb) => eb.fn.max('number').as('newest'))
    .where('database_id', '=', databaseId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return Number(row?.newest ?? 0);
}

/** Inserts versions (a unique violation means another transaction took a number first). */
export async function insertVersions(db: Executor, rows: readonly NewFileVersion[]): Promise<void> {
  for (const part of chunked(rows)) await db.insertInto('file_versions').values(part).execute();
}

/**
 * Removes one version row.
 * @returns whether a row was removed
 */
export async function deleteVersionRow(
  db: Executor,
  databaseId: string,
  fileId: string,
  number: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('file_versions')
    .where('database_id', '=', databaseId)
    .where('file_id', '=', fileId)
    .where('number', '=', number)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The object keys and sha256 of every version of some files of a firm (any number of ids). */
export async function versionObjectsOf(
  db: Executor,
  databaseId: string,
  fileIds: readonly string[],
): Promise<{ storage_key: string; sha256: string | null }[]> {
  const out: { storage_key: string; sha256: string | null }[] = [];
  for (const part of chunked(fileIds)) {
    out.push(
      ...(await db
        .selectFrom('file_versions')
        .select(['storage_key', 'sha256'])
        .where('database_id', '=', databaseId)
        .where('file_id', 'in', part)
        .execute()),
    );
  }
  return out;
}

/** The version recorded from the pending upload `uploadId` of a firm, if any. */
export function findVersionByUpload(
  db: Executor,
  databaseId: string,
  uploadId: string,
): Promise<FileVersionRow | undefined> {
  return db
    .selectFrom('file_versions')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('upload_id', '=', uploadId)
    .executeTakeFirst();
}

/** The version recorded from the client file `clientKey` of upload batch `batchId`, if any. */
export function findVersionByBatch(
  db: Executor,
  databaseId: string,
  batchId: string,
  clientKey: string,
): Promise<FileVersionRow | undefined> {
  return db
    .selectFrom('file_versions')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('upload_batch_id', '=', batchId)
    .where('upload_client_key', '=', clientKey)
    .executeTakeFirst();
}

/** Whether some version (of any firm) owns an object key. */
export async function isVersionKey(db: Executor, storageKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('file_versions')
    .select('file_id')
    .where('storage_key', '=', storageKey)
    .executeTakeFirst();
  return row !== undefined;
}
