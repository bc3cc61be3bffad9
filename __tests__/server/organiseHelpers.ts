/**
 * Helpers of the organising tests (organise.test.ts, bulk.test.ts): a signed-in actor, folders
 * through the API, ready files written straight to the database and the store, and readers of the
 * rows and history events the tests check.
 */
import { Readable } from 'node:stream';
import { expect } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { contentTypeFor } from '@common/files';
import { nameKey, splitFileName } from '@common/names';
import type { FolderDto } from '@common/entities';
import type { HistoryEventDto, HistoryPageDto } from '@common/history';
import type { Role } from '@common/session';
import { newId } from '@server/ids';
import { insertFile } from '@server/repositories/files';
import { addUser, signIn, type TestServer } from './helpers';
import { seededAdmin } from './historyHelpers';

/** Who acts in a test: the session cookie and the ids behind it. */
export interface Actor {
  cookie: string;
  userId: string;
  databaseId: string;
}

/** The seeded admin of "Demo Advisory". */
export async function adminActor(server: TestServer): Promise<Actor> {
  const { userId, databaseId } = await seededAdmin(server.services.db);
  return { cookie: await signIn(server), userId, databaseId };
}

/** A new user (in `databaseId`, or in a new firm) with a role, signed in. */
export async function newActor(
  server: TestServer,
  username: string,
  role: Role,
  databaseId?: string,
): Promise<Actor> {
  const password = 'organise test password';
  const ids = await addUser(server, { username, password, role, databaseId });
  return { cookie: await signIn(server, username, password), ...ids };
}

/** Sends a JSON request as an actor. */
export function call(
  server: TestServer,
  actor: Actor,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url,
    headers: { cookie: actor.cookie },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** Creates a folder through the API. */
export async function makeFolder(
  server: TestServer,
  actor: Actor,
  name: string,
  parentId = '',
): Promise<FolderDto> {
  const response = await call(server, actor, 'POST', '/api/rest/folders', {
    name,
    parent_id: parentId,
  });
  expect(response.statusCode).toBe(201);
  return response.json<FolderDto>();
}

/** A ready file written straight to the database, with its object in the store. */
export async function makeFile(
  server: TestServer,
  actor: Actor,
  name: string,
  folderId: string,
  content = `content of ${name}`,
): Promise<{ id: string; name: string; storageKey: string }> {
  const id = newId();
  const storageKey = `${actor.databaseId}/${id}`;
  const bytes = Buffer.from(content);
  const stored = await server.store.write(storageKey, Readable.from([bytes]), bytes.length);
  const at = new Date(server.clock.now).toISOString();
  await insertFile(server.services.db, {
    id,
    database_id: actor.databaseId,
    folder_id: folderId,
    name,
    name_key: nameKey(name),
    extension: splitFileName(name).extension,
    size: bytes.length,
    content_type: contentTypeFor(splitFileName(name).extension),
    storage_key: storageKey,
    status: 'ready',
    sha256: stored.sha256 ?? null,
    created_by: actor.userId,
    created_at: at,
    updated_at: at,
    archived_at: null,
    archived_root_id: null,
  });
  return { id, name, storageKey };
}

/** The stored bytes of an object as text, or null when there is none. */
export async function objectText(server: TestServer, key: string): Promise<string | null> {
  if (!(await server.store.head(key))) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of server.store.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** A folder row as stored (any state), or undefined. */
export function folderRow(server: TestServer, id: string) {
  return server.services.db
    .selectFrom('folders')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A file row as stored (any state), or undefined. */
export function fileRow(server: TestServer, id: string) {
  return server.services.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest events of one item (its per-item history), newest first. */
export async function itemEvents(
  server: TestServer,
  actor: Actor,
  kind: 'folder' | 'file',
  id: string,
): Promise<HistoryEventDto[]> {
  const response = await call(server, actor, 'GET', `/api/rest/${kind}s/${id}/history`);
  expect(response.statusCode).toBe(200);
  return response.json<HistoryPageDto>().items;
}

/** How many events a firm has (any kind). */
export async function eventCount(server: TestServer, databaseId: string): Promise<number> {
  const row = await server.services.db
    .selectFrom('history_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
