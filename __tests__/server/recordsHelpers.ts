/**
 * Helpers of the records management tests (retention.test.ts, legalHolds.test.ts,
 * disposition.test.ts): files created on a given day, schedules and holds through the API, and the
 * organising calls that records management refuses.
 */
import { Readable } from 'node:stream';
import { expect } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { contentTypeFor } from '@common/files';
import { nameKey, splitFileName } from '@common/names';
import type {
  CreateLegalHoldRequest,
  CreateRetentionScheduleRequest,
  LegalHoldDto,
  RetentionScheduleDto,
} from '@common/retention';
import type { EntityRef } from '@common/entities';
import type { HistoryEventDto, HistoryPageDto } from '@common/history';
import { newId } from '@server/ids';
import { insertFile } from '@server/repositories/files';
import type { TestServer } from './helpers';
import { call, type Actor } from './organiseHelpers';

/** A day `days` before the server's clock, as an ISO timestamp at noon UTC. */
export function daysAgo(server: TestServer, days: number): string {
  const day = new Date(server.clock.now - days * 86_400_000).toISOString().slice(0, 10);
  return `${day}T12:00:00.000Z`;
}

/** Today by the server's clock (UTC day). */
export function today(server: TestServer): string {
  return new Date(server.clock.now).toISOString().slice(0, 10);
}

/** A ready file with its object in the store, created at `createdAt` (default: now). */
export async function fileAt(
  server: TestServer,
  actor: Actor,
  name: string,
  folderId: string,
  createdAt = new Date(server.clock.now).toISOString(),
): Promise<{ id: string; name: string; storageKey: string; sha256: string | null }> {
  const id = newId();
  const storageKey = `${actor.databaseId}/${id}`;
  const bytes = Buffer.from(`content of ${name} ${id}`);
  const stored = await server.store.write(storageKey, Readable.from([bytes]), bytes.length);
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
    created_at: createdAt,
    updated_at: createdAt,
    archived_at: null,
    archived_root_id: null,
  });
  return { id, name, storageKey, sha256: stored.sha256 ?? null };
}

/** Creates a schedule (201 expected). */
export async function createSchedule(
  server: TestServer,
  actor: Actor,
  body: CreateRetentionScheduleRequest,
): Promise<RetentionScheduleDto> {
  const response = await call(server, actor, 'POST', '/api/rest/private/retention_schedules', body);
  expect(response.statusCode).toBe(201);
  return response.json<RetentionScheduleDto>();
}

/** Applies a schedule to a folder or file (200 expected). */
export async function applySchedule(
  server: TestServer,
  actor: Actor,
  scheduleId: string,
  target: { type: 'folder' | 'file'; id: string },
): Promise<RetentionScheduleDto> {
  const response = await call(
    server,
    actor,
    'POST',
    `/api/rest/private/retention_schedules/${scheduleId}/targets`,
    target,
  );
  expect(response.statusCode).toBe(200);
  return response.json<RetentionScheduleDto>();
}

/** Places a hold (201 expected). */
export async function placeHold(
  server: TestServer,
  actor: Actor,
  body: CreateLegalHoldRequest,
): Promise<LegalHoldDto> {
  const response = await call(server, actor, 'POST', '/api/rest/private/legal_holds', body);
  expect(response.statusCode).toBe(201);
  return response.json<LegalHoldDto>();
}

/** POST bulk/archive. */
export function archive(
  server: TestServer,
  actor: Actor,
  items: EntityRef[],
): Promise<LightMyRequestResponse> {
  return call(server, actor, 'POST', '/api/rest/bulk/archive', { items });
}

/** POST bulk/destroy. */
export function destroy(
  server: TestServer,
  actor: Actor,
  items: EntityRef[],
): Promise<LightMyRequestResponse> {
  return call(server, actor, 'POST', '/api/rest/bulk/destroy', { items });
}

/** Archives items (200 expected). */
export async function archived(server: TestServer, actor: Actor, items: EntityRef[]) {
  const response = await archive(server, actor, items);
  expect(response.statusCode).toBe(200);
}

/** A refusal's status, code and message. */
export function refusal(response: LightMyRequestResponse): {
  status: number;
  code: string;
  message: string;
} {
  const body = response.json<{ code: string; message: string }>();
  return { status: response.statusCode, code: body.code, message: body.message };
}

/** The firm's events of some (entity_type, action) pairs, newest first. */
export async function eventsOf(
  server: TestServer,
  actor: Actor,
  filters: Record<string, unknown>,
): Promise<HistoryEventDto[]> {
  const response = await call(server, actor, 'POST', '/api/rest/history?page_size=500', filters);
  expect(response.statusCode).toBe(200);
  return response.json<HistoryPageDto>().items;
}

/** Whether the firm's hash chain verifies. */
export async function chainIntact(server: TestServer, actor: Actor): Promise<boolean> {
  const response = await call(server, actor, 'GET', '/api/rest/history/verify');
  expect(response.statusCode).toBe(200);
  return response.json<{ ok: boolean }>().ok;
}

/**
 * The message a database statement was refused with (a trigger's raise), checked by its text.
 * Not `rejects.toThrow`: better-sqlite3's native addon keeps the error class of the first test
 * file that loaded it in a Jest worker, so in later files its errors belong to another realm and
 * fail Jest's `instanceof Error` check although the statement was refused.
 * @param statement the statement's promise, expected to reject
 * @param pattern what the refusal's message must match
 */
export async function expectRefusedByDatabase(
  statement: Promise<unknown>,
  pattern: RegExp,
): Promise<void> {
  const outcome = await statement.then(
    () => ({ refused: false, message: '' }),
    (error: unknown) => ({
      refused: true,
      message: String((error as { message?: unknown } | null)?.message ?? error),
    }),
  );
  expect(outcome.refused).toBe(true);
  expect(outcome.message).toMatch(pattern);
}
