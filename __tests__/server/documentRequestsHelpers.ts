/**
 * Helpers of the document request tests (documentRequests.test.ts): requests made through the
 * API, the link token of a recipient's URL, the recipient's public calls (with the unlock grant
 * when given), an upload into an item the way the client makes it (create, PUT to the presigned
 * URL, record), and the outbox messages to an address.
 */
import { expect } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { contentTypeFor } from '@common/files';
import { splitFileName } from '@common/names';
import {
  REQUEST_ACCESS_HEADER,
  REQUEST_PAGE_PATH,
  type CreateDocumentRequestRequest,
  type CreateDocumentRequestResponse,
  type PublicRequestDto,
} from '@common/documentRequests';
import type { CreateUploadResponse } from '@common/uploads';
import { listOutbox, type OutboxMessage } from '@server/services/mail';
import type { TestServer } from './helpers';
import { call, type Actor } from './organiseHelpers';

export const DAY_MS = 86_400_000;

/** The `YYYY-MM-DD` day `days` after the server clock's today (UTC). */
export function dayFromNow(server: TestServer, days: number): string {
  return new Date(server.clock.now + days * DAY_MS).toISOString().slice(0, 10);
}

/** The token at the end of a request link. */
export function linkTokenOf(url: string): string {
  const match = new RegExp(`${REQUEST_PAGE_PATH}/([A-Za-z0-9_-]+)$`).exec(url);
  if (!match) throw new Error(`not a request link: ${url}`);
  return match[1]!;
}

/** POST /api/rest/requests with a valid default body (one item, one recipient, due in 7 days). */
export function postRequest(
  server: TestServer,
  actor: Actor,
  body: Partial<CreateDocumentRequestRequest> & { folder_id: string },
): Promise<LightMyRequestResponse> {
  return call(server, actor, 'POST', '/api/rest/requests', {
    items: [{ name: 'Bank statement' }],
    due_date: dayFromNow(server, 7),
    recipients: ['client@example.com'],
    ...body,
  });
}

/** A created request (201), with the first recipient's link token. */
export async function makeRequest(
  server: TestServer,
  actor: Actor,
  body: Partial<CreateDocumentRequestRequest> & { folder_id: string },
): Promise<CreateDocumentRequestResponse & { token: string }> {
  const response = await postRequest(server, actor, body);
  expect(response.statusCode).toBe(201);
  const answer = response.json<CreateDocumentRequestResponse>();
  return { ...answer, token: linkTokenOf(answer.links[0]!.url) };
}

/** A recipient's call to a public route (no session), with the unlock grant when given. */
export function publicCall(
  server: TestServer,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  access?: string,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url,
    headers: access ? { [REQUEST_ACCESS_HEADER]: access } : {},
    ...(payload !== undefined ? { payload } : {}),
  });
}

/** GET of a link's page. */
export function pageOf(
  server: TestServer,
  token: string,
  access?: string,
): Promise<LightMyRequestResponse> {
  return publicCall(server, 'GET', `/api/rest/public/requests/${token}`, undefined, access);
}

/** The create-upload body of a file for an item. */
export function uploadStart(itemId: string, name: string, size: number) {
  const { extension } = splitFileName(name);
  return { item_id: itemId, name, extension, content_type: contentTypeFor(extension), size };
}

/** POST …/files: starts a single-PUT upload into an item. */
export function startUpload(
  server: TestServer,
  token: string,
  itemId: string,
  name: string,
  size: number,
  access?: string,
): Promise<LightMyRequestResponse> {
  return publicCall(
    server,
    'POST',
    `/api/rest/public/requests/${token}/files`,
    uploadStart(itemId, name, size),
    access,
  );
}

/**
 * Uploads `content` into an item as the client does: create (201), PUT to the presigned URL
 * (the local store's app route), record (201).
 * @returns the upload's (= the file's) id and the page the record answered
 */
export async function uploadToItem(
  server: TestServer,
  token: string,
  itemId: string,
  name: string,
  content: string,
  access?: string,
): Promise<{ id: string; page: PublicRequestDto }> {
  const bytes = Buffer.from(content);
  const created = await startUpload(server, token, itemId, name, bytes.length, access);
  expect(created.statusCode).toBe(201);
  const upload = created.json<CreateUploadResponse>();
  const put = await server.app.inject({
    method: upload.method,
    url: upload.url,
    headers: upload.headers,
    payload: bytes,
  });
  expect(put.statusCode).toBe(200);
  const recorded = await publicCall(
    server,
    'POST',
    `/api/rest/public/requests/${token}/files/record`,
    { id: upload.id },
    access,
  );
  expect(recorded.statusCode).toBe(201);
  return { id: upload.id, page: recorded.json<PublicRequestDto>() };
}

/** The outbox messages to an address, oldest first. */
export async function mailsTo(server: TestServer, to: string): Promise<OutboxMessage[]> {
  return (await listOutbox(server.config)).filter((m) => m.to === to).reverse();
}

/** The `message` of an error answer. */
export function messageOf(response: LightMyRequestResponse): string {
  return response.json<{ message: string }>().message;
}
