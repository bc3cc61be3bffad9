/** The append-only history event log: this module only inserts and reads. */
import type { Insertable } from 'kysely';
import type { HistoryEventsTable, HistoryRow } from '../db/schema';
import type { Executor } from './types';

/** Filters of a history listing, already validated. */
export interface HistoryQuery {
  databaseId: string;
  entityType?: string;
  entityId?: string;
  userId?: string;
  actions?: string[];
  /** Inclusive lower bound, ISO text. */
  start?: string;
  /** Exclusive upper bound, ISO text. */
  end?: string;
}

/** Appends one event. */
export async function insertHistoryEvent(
  db: Executor,
  row: Insertable<HistoryEventsTable>,
): Promise<void> {
  await db.insertInto('history_events').values(row).execute();
}

function filtered(db: Executor, q: HistoryQuery) {
  let query = db.selectFrom('history_events').where('database_id', '=', q.databaseId);
  if (q.entityType) query = query.where('entity_type', '=', q.entityType);
  if (q.entityId) query = query.where('entity_id', '=', q.entityId);
  if (q.userId) query = query.where('user_id', '=', q.userId);
  if (q.actions && q.actions.length > 0) query = query.where('action', 'in', q.actions);
  if (q.start) query = query.where('created_at', '>=', q.start);
  if (q.end) query = query.where('created_at', '<', q.end);
  return query;
}

/** One page of events, newest first. */
export function listHistory(
  db: Executor,
  q: HistoryQuery,
  offset: number,
  limit: number,
): Promise<HistoryRow[]> {
  return filtered(db, q).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** Number of events matching the filters. */
export async function countHistory(db: Executor, q: HistoryQuery): Promise<number> {
  const row = await filtered(db, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
