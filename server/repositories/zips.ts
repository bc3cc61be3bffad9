/**
 * The zip of a selection: its short-lived requests (zip_requests, 0022) and what the zip reads of
 * the selected items. Every query is scoped by the firm database.
 */
import { sql } from 'kysely';
import { chunked } from './organise';
import type { Executor } from './types';

/** Stores a zip request. */
export async function insertZipRequest(
  db: Executor,
  row: {
    token_hash: string;
    user_id: string;
    database_id: string;
    items: string;
    expires_at: string;
  },
): Promise<void> {
  await db.insertInto('zip_requests').values(row).execute();
}

/** Removes the zip requests that expired before `now` (ISO UTC). */
export async function deleteExpiredZipRequests(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('zip_requests').where('expires_at', '<=', now).execute();
}

/**
 * Takes (reads and deletes: a token is used once) the live zip request of this token hash made by
 * this user in this firm database; undefined when there is none (unknown, another user's or
 * firm's, expired, or already taken).
 * @returns the request's items as stored (JSON text)
 */
export async function takeZipRequest(
  db: Executor,
  tokenHash: string,
  userId: string,
  databaseId: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('zip_requests')
    .select(['items', 'user_id', 'database_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.user_id !== userId || row.database_id !== databaseId) return undefined;
  const taken = await db
    .deleteFrom('zip_requests')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  // Another request may have taken it between the read and the delete.
  if (Number(taken.numDeletedRows) !== 1 || row.expires_at <= now) return undefined;
  return row.items;
}

/** A selected folder as the zip reads it. */
export interface ZipFolderRow {
  id: string;
  name: string;
  updated_at: string;
}

/** A selected file as the zip reads it. */
export interface ZipFileRow extends ZipFolderRow {
  extension: string;
  size: number;
  storage_key: string;
}

/** The folders with these ids (any state; the caller checked them), in chunks. */
export async function zipFolders(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<ZipFolderRow[]> {
  const out: ZipFolderRow[] = [];
  for (const part of chunked(ids)) {
    out.push(
      ...(await db
        .selectFrom('folders')
        .select(['id', 'name', 'updated_at'])
        .where('database_id', '=', databaseId)
        .where('id', 'in', part)
        .execute()),
    );
  }
  return out;
}

/** The files with these ids (any state; the caller checked them), in chunks. */
export async function zipFiles(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<ZipFileRow[]> {
  const out: ZipFileRow[] = [];
  for (const part of chunked(ids)) {
    const rows = await db
      .selectFrom('files')
      .select(['id', 'name', 'updated_at', 'extension', 'size', 'storage_key'])
      .where('database_id', '=', databaseId)
      .where('id', 'in', part)
      .execute();
    out.push(...rows.map((r) => ({ ...r, size: Number(r.size) })));
  }
  return out;
}

/**
 * Bytes of the ready, live files in the live trees under these folders (one recursive query per
 * chunk of folders; the descent stops at the folders in `exclude`). A folder selected with one of
 * its ancestors is counted twice, as it is zipped twice.
 */
export async function liveTreesBytes(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
  exclude: readonly string[] = [],
): Promise<number> {
  let total = 0;
  for (const part of chunked(folderIds)) {
    const row = await db
      .withRecursive('tree(id)', (qb) =>
        qb
          .selectFrom('folders')
          .select('id')
          .where('database_id', '=', databaseId)
          .where('id', 'in', part)
          .unionAll((u) =>
            u
              .selectFrom('folders as f')
              .innerJoin('tree', 'tree.id', 'f.parent_id')
              .select('f.id')
              .where('f.database_id', '=', databaseId)
              .where('f.archived_at', 'is', null)
              .$if(exclude.length > 0, (q) => q.where('f.id', 'not in', exclude)),
          ),
      )
      .selectFrom('tree')
      .innerJoin('files', 'files.folder_id', 'tree.id')
      .select(sql<number | string | null>`sum(files.size)`.as('bytes'))
      .where('files.database_id', '=', databaseId)
      .where('files.status', '=', 'ready')
      .where('files.archived_at', 'is', null)
      .executeTakeFirstOrThrow();
    total += Number(row.bytes ?? 0);
  }
  return total;
}
