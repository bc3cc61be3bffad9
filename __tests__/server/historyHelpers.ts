/**
 * Helpers of the history tests: a request context for calling services directly, a bulk event
 * writer that extends a firm's hash chain (for tests that need thousands of events fast), and the
 * RFC 4180 CSV parser of __tests__/csv.ts.
 */
import type { Kysely } from 'kysely';
import type { Role } from '@common/session';
import type { DB } from '@server/db/schema';
import type { RequestContext } from '@server/services/context';
import { canonicalJson, chainHash, GENESIS_HASH, historyIdAt } from '@server/services/historyChain';
import { historyHead } from '@server/repositories/history';
import { exportRecordText, HISTORY_EXPORT_FORMAT } from '@server/services/historyCsv';

export { parseCsv } from '../csv';

/** A context acting as a user of a firm, as the auth plugin would build it. */
export function contextFor(input: {
  userId: string;
  databaseId: string;
  userName?: string;
  role?: Role;
}): RequestContext {
  return {
    userId: input.userId,
    userName: input.userName ?? 'Test User',
    databaseId: input.databaseId,
    role: input.role ?? 'admin',
    sessionId: 'test-session',
    ip: '203.0.113.7',
    userAgent: 'jest',
  };
}

/** The seeded admin and the seeded firm ("Demo Advisory"). */
export async function seededAdmin(db: Kysely<DB>): Promise<{ userId: string; databaseId: string }> {
  const row = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id as userId', 'memberships.database_id as databaseId'])
    .where('users.username_key', '=', 'admin')
    .executeTakeFirstOrThrow();
  return row;
}

/** One event of {@link appendEvents}. */
export interface BulkEvent {
  entity_type: string;
  action: string;
  entity_id: string;
  item_id?: string | null;
  user_id: string;
  user_name: string;
  attributes: Record<string, unknown>;
  ip?: string | null;
  user_agent?: string | null;
  /** Epoch ms. */
  at: number;
}

/**
 * Appends events to a firm's chain in bulk (multi-row inserts of 200), in the given order, with
 * valid hashes, so the verifier accepts them, and with their export records as recordEvents
 * stores them.
 * @param options.legacy store no export record, as rows written before migration 0016
 * @returns the ids, in the given order
 */
export async function appendEvents(
  db: Kysely<DB>,
  databaseId: string,
  events: BulkEvent[],
  options: { legacy?: boolean } = {},
): Promise<string[]> {
  const head = await historyHead(db, databaseId);
  let seq = head?.chain_seq ?? 0;
  let prev = head?.hash ?? GENESIS_HASH;
  let lastId = head?.id ?? null;
  const ids: string[] = [];
  const rows = events.map((e) => {
    seq += 1;
    const id = historyIdAt(e.at, lastId);
    lastId = id;
    const content = {
      id,
      database_id: databaseId,
      chain_seq: seq,
      entity_type: e.entity_type,
      entity_id: e.entity_id,
      item_id: e.item_id ?? null,
      action: e.action,
      user_id: e.user_id,
      user_name: e.user_name,
      attributes: canonicalJson(e.attributes),
      ip: e.ip ?? null,
      user_agent: e.user_agent ?? null,
      created_at: new Date(e.at).toISOString(),
    };
    const hash = chainHash(prev, content);
    const row = {
      ...content,
      prev_hash: prev,
      hash,
      ...(options.legacy
        ? {}
        : {
            export_record: exportRecordText({ ...content, hash }),
            export_format: HISTORY_EXPORT_FORMAT,
          }),
    };
    prev = hash;
    ids.push(id);
    return row;
  });
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('history_events')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return ids;
}
