/**
 * Row builders for server tests that need many folders and files in a given state (archived,
 * favorited, recently touched) without going through the mutation routes: rows are inserted
 * directly through Kysely, as the benchmark does.
 */
import { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import { contentTypeFor } from '@common/files';
import { nameKey, splitFileName } from '@common/names';
import type { CurrentUserDto } from '@common/session';
import type { FoldersTable, NewFile } from '@server/db/schema';
import { newId } from '@server/ids';
import type { TestServer } from './helpers';

/** The signed-in user and their current firm database. */
export interface Firm {
  userId: string;
  databaseId: string;
}

/** The session's user id and current database id (GET /api/auth/current-user). */
export async function firmOf(server: TestServer, cookie: string): Promise<Firm> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/api/auth/current-user',
    headers: { cookie },
  });
  const me = response.json<CurrentUserDto>();
  return { userId: me.userId, databaseId: me.currentDatabaseId };
}

/** ISO time `seconds` after a fixed instant, so tests control the order of timestamps. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();
}

/** A live folder row (override any field, e.g. archived_at and archived_root_id). */
export function folderRow(
  firm: Firm,
  parentId: string,
  name: string,
  extra: Partial<Insertable<FoldersTable>> = {},
): Insertable<FoldersTable> {
  return {
    id: newId(),
    database_id: firm.databaseId,
    parent_id: parentId,
    name,
    name_key: nameKey(name),
    created_by: firm.userId,
    created_at: at(0),
    updated_at: at(0),
    archived_at: null,
    archived_root_id: null,
    ...extra,
  };
}

/** A ready, live file row (override any field). */
export function fileRow(
  firm: Firm,
  folderId: string,
  name: string,
  extra: Partial<NewFile> = {},
): NewFile {
  const id = newId();
  const extension = splitFileName(name).extension;
  return {
    id,
    database_id: firm.databaseId,
    folder_id: folderId,
    name,
    name_key: nameKey(name),
    extension,
    size: 10,
    content_type: contentTypeFor(extension),
    storage_key: `test/${id}`,
    status: 'ready',
    sha256: null,
    created_by: firm.userId,
    created_at: at(0),
    updated_at: at(0),
    archived_at: null,
    archived_root_id: null,
    ...extra,
  };
}

/** Inserts folder and file rows, 200 per statement. */
export async function insertRows(
  server: TestServer,
  rows: { folders?: Insertable<FoldersTable>[]; files?: NewFile[] },
): Promise<void> {
  const { db } = server.services;
  const folders = rows.folders ?? [];
  const files = rows.files ?? [];
  for (let i = 0; i < folders.length; i += 200) {
    await db
      .insertInto('folders')
      .values(folders.slice(i, i + 200))
      .execute();
  }
  for (let i = 0; i < files.length; i += 200) {
    await db
      .insertInto('files')
      .values(files.slice(i, i + 200))
      .execute();
  }
}

/** Writes a file row's object into the test store with the given bytes (and sets its size). */
export async function storeObject(server: TestServer, file: NewFile, body: Buffer): Promise<void> {
  await server.store.write(file.storage_key, Readable.from([body]), body.length);
  file.size = body.length;
}
