/**
 * Helpers of the replay tests (replay.test.ts, replayProperty.test.ts): uploads through the API
 * (so each file has its create event), the firm's newest event, and the replay view.
 */
import { createHash } from 'node:crypto';
import { expect } from '@jest/globals';
import { contentTypeFor } from '@common/files';
import type { FileDto } from '@common/entities';
import { splitFileName } from '@common/names';
import { REPLAY_ROOT_ID, type ReplayViewDto, type ReplayViewQuery } from '@common/replayViews';
import type { CreateUploadResponse } from '@common/uploads';
import { call, type Actor } from './organiseHelpers';
import type { TestServer } from './helpers';

/** Uploads a file through the API (create, presigned PUT, record) and answers the record. */
export async function uploadFile(
  server: TestServer,
  actor: Actor,
  folderId: string,
  name: string,
  content = `content of ${name}`,
): Promise<FileDto> {
  const bytes = Buffer.from(content);
  const { extension } = splitFileName(name);
  const created = await call(server, actor, 'POST', '/api/rest/files', {
    folder_id: folderId,
    name,
    extension,
    content_type: contentTypeFor(extension),
    size: bytes.length,
  });
  expect(created.statusCode).toBe(201);
  const upload = created.json<CreateUploadResponse>();
  let status: number;
  if (upload.url.startsWith('/')) {
    status = (
      await server.app.inject({
        method: upload.method,
        url: upload.url,
        headers: upload.headers,
        payload: bytes,
      })
    ).statusCode;
  } else {
    status = (
      await fetch(upload.url, {
        method: upload.method,
        headers: upload.headers,
        body: new Uint8Array(bytes),
      })
    ).status;
  }
  expect(status).toBe(200);
  const recorded = await call(server, actor, 'POST', '/api/rest/files/record', {
    id: upload.id,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
  expect(recorded.statusCode).toBe(201);
  return recorded.json<FileDto>();
}

/** The id of the firm's newest history event. */
export async function newestEventId(server: TestServer, databaseId: string): Promise<string> {
  const row = await server.services.db
    .selectFrom('history_events')
    .select('id')
    .where('database_id', '=', databaseId)
    .orderBy('chain_seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** GET the replay view of a folder ('' or REPLAY_ROOT_ID for the root), expecting 200. */
export async function replayView(
  server: TestServer,
  actor: Actor,
  folderId: string,
  query: ReplayViewQuery = {},
): Promise<ReplayViewDto> {
  const search = new URLSearchParams(query as Record<string, string>).toString();
  const id = folderId === '' ? REPLAY_ROOT_ID : folderId;
  const response = await call(
    server,
    actor,
    'GET',
    `/api/rest/replay/folders/${id}${search ? `?${search}` : ''}`,
  );
  expect(response.statusCode).toBe(200);
  return response.json<ReplayViewDto>();
}
