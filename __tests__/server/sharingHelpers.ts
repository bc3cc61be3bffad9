/**
 * Helpers of the sharing tests (sharing.test.ts, the guest column of the authorisation matrix):
 * share links through the API, the invitation token read from the outbox, guest sign-up, history
 * events as stored.
 */
import { createHash } from 'node:crypto';
import { expect } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import type { CreateShareLinkResponse } from '@common/sharing';
import { listOutbox } from '@server/services/mail';
import { sessionCookie, type TestServer } from './helpers';

/** The guest password the tests use (passes the password policy). */
export const GUEST_PASSWORD = 'a guest passphrase 2024';

/** sha256 hex of a text, as the tables store tokens and the tests compare downloads. */
export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A JSON request with an optional session cookie. */
export function send(
  server: TestServer,
  cookie: string | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** Creates a share link as `cookie`'s user and answers the 201 body with the link's token. */
export async function createLink(
  server: TestServer,
  cookie: string,
  body: Record<string, unknown>,
): Promise<CreateShareLinkResponse & { token: string }> {
  const response = await send(server, cookie, 'POST', '/api/rest/shared/links', {
    emails: [],
    ...body,
  });
  expect(response.statusCode).toBe(201);
  const answer = response.json<CreateShareLinkResponse>();
  return { ...answer, token: tokenOf(answer.url) };
}

/** The token at the end of an invitation URL. */
export function tokenOf(url: string): string {
  const match = /\/sharing\/invitation\/([A-Za-z0-9_-]+)$/.exec(url);
  if (!match) throw new Error(`not an invitation URL: ${url}`);
  return match[1]!;
}

/** The newest outbox message to an address, with the invitation token its link carries. */
export async function invitationMail(
  server: TestServer,
  to: string,
): Promise<{ subject: string; text: string; token: string; url: string }> {
  const messages = await listOutbox(server.config);
  const message = messages.find((m) => m.to === to);
  if (!message) throw new Error(`no outbox message to ${to}`);
  const url = /(https?:\/\/\S+\/sharing\/invitation\/[A-Za-z0-9_-]+)/.exec(message.text)?.[1];
  if (!url) throw new Error(`no invitation link in: ${message.text}`);
  return { subject: message.subject, text: message.text, url, token: tokenOf(url) };
}

/** Signs a guest up through a token and answers the response (cookie in it on success). */
export function signUpGuest(
  server: TestServer,
  token: string,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  return send(server, null, 'POST', '/api/rest/shared/signup', {
    first_name: 'Gina',
    last_name: 'Guest',
    email,
    password: GUEST_PASSWORD,
    shareId: token,
    ...extra,
  });
}

/** Signs a guest in through a token (after a sign-up) and answers the response. */
export function signInGuest(
  server: TestServer,
  token: string,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  return send(server, null, 'POST', '/api/rest/shared/signin', {
    email,
    password: GUEST_PASSWORD,
    inviteId: token,
    ...extra,
  });
}

/**
 * Signs a guest up through a token (202, no session), then in with the same address and password,
 * as the client does, and answers the session cookie.
 */
export async function guestCookie(server: TestServer, token: string, email: string) {
  const response = await signUpGuest(server, token, email);
  expect(response.statusCode).toBe(202);
  expect(response.cookies).toHaveLength(0);
  const signedIn = await signInGuest(server, token, email);
  expect(signedIn.statusCode).toBe(200);
  return sessionCookie(signedIn);
}

/** A stored history event with its attributes parsed. */
export interface StoredEvent {
  entity_type: string;
  entity_id: string;
  action: string;
  user_id: string;
  user_name: string;
  item_id: string | null;
  attributes: Record<string, unknown>;
}

/** The events of a firm of one entity type, oldest first. */
export async function eventsOf(
  server: TestServer,
  databaseId: string,
  entityType: string,
): Promise<StoredEvent[]> {
  const rows = await server.services.db
    .selectFrom('history_events')
    .select(['entity_type', 'entity_id', 'action', 'user_id', 'user_name', 'item_id', 'attributes'])
    .where('database_id', '=', databaseId)
    .where('entity_type', '=', entityType)
    .orderBy('chain_seq')
    .execute();
  return rows.map((r) => ({
    ...r,
    attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  }));
}
