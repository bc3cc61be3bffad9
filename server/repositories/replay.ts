/**
 * What replay reads of the history (chain order, served by the unique (database_id, chain_seq)
 * index and the (database_id, id) index) and its snapshots (migration 0030).
 */
import type { ReplayEvent } from '@common/replay';
import type { Executor } from './types';

/** The entity types whose events replay applies (common/replay.ts isReplayable). */
export const REPLAY_ENTITY_TYPES = [
  'folder',
  'file',
  'applied_index',
  'folder_contact',
  'folder_permission',
  'share_link',
  'external_share',
] as const;

/** An event's place in the chain. */
export interface ChainPosition {
  id: string;
  seq: number;
  created_at: string;
}

/** The newest event of the firm (null: no history yet). */
export async function newestPosition(
  db: Executor,
  databaseId: string,
): Promise<ChainPosition | null> {
  const row = await db
    .selectFrom('history_events')
    .select(['id', 'chain_seq', 'created_at'])
    .where('database_id', '=', databaseId)
    .orderBy('chain_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, seq: Number(row.chain_seq), created_at: row.created_at } : null;
}

/** The newest event whose id sorts below `idBound` (the first id of a moment), or null. */
export async function positionBefore(
  db: Executor,
  databaseId: string,
  idBound: string,
): Promise<ChainPosition | null> {
  const row = await db
    .selectFrom('history_events')
    .select(['id', 'chain_seq', 'created_at'])
    .where('database_id', '=', databaseId)
    .where('id', '<', idBound)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, seq: Number(row.chain_seq), created_at: row.created_at } : null;
}

/** The event `id` of the firm, or null (unknown, or another firm's). */
export async function positionOf(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<ChainPosition | null> {
  const row = await db
    .selectFrom('history_events')
    .select(['id', 'chain_seq', 'created_at'])
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.id, seq: Number(row.chain_seq), created_at: row.created_at } : null;
}

/**
 * The replayable events after chain position `afterSeq` up to `uptoSeq` (inclusive), in chain
 * order, at most `limit`.
 */
export async function replayEvents(
  db: Executor,
  databaseId: string,
  afterSeq: number,
  uptoSeq: number,
  limit: number,
): Promise<ReplayEvent[]> {
  const rows = await db
    .selectFrom('history_events')
    .select([
      'id',
      'chain_seq',
      'entity_type',
      'entity_id',
      'item_id',
      'action',
      'user_id',
      'user_name',
      'attributes',
      'created_at',
    ])
    .where('database_id', '=', databaseId)
    .where('chain_seq', '>', afterSeq)
    .where('chain_seq', '<=', uptoSeq)
    .where('entity_type', 'in', REPLAY_ENTITY_TYPES)
    .orderBy('chain_seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.chain_seq),
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    item_id: row.item_id,
    action: row.action,
    user_id: row.user_id,
    user_name: row.user_name,
    attributes: parseAttributes(row.attributes),
    created_at: row.created_at,
  }));
}

function parseAttributes(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The position of the newest snapshot of `format` at or before chain position `seq`, or null. */
export async function snapshotPositionAtOrBefore(
  db: Executor,
  databaseId: string,
  seq: number,
  format: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('replay_snapshots')
    .select('chain_seq')
    .where('database_id', '=', databaseId)
    .where('chain_seq', '<=', seq)
    .where('format', '=', format)
    .orderBy('chain_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.chain_seq) : null;
}

/** The stored state (gzipped JSON, base64) of the snapshot of `format` at `seq`, or null. */
export async function snapshotStateAt(
  db: Executor,
  databaseId: string,
  seq: number,
  format: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('replay_snapshots')
    .select('state')
    .where('database_id', '=', databaseId)
    .where('chain_seq', '=', seq)
    .where('format', '=', format)
    .executeTakeFirst();
  return row?.state ?? null;
}

/** The positions of the snapshots of `format` stored after `afterSeq` up to `uptoSeq`. */
export async function snapshotPositions(
  db: Executor,
  databaseId: string,
  afterSeq: number,
  uptoSeq: number,
  format: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('replay_snapshots')
    .select('chain_seq')
    .where('database_id', '=', databaseId)
    .where('chain_seq', '>', afterSeq)
    .where('chain_seq', '<=', uptoSeq)
    .where('format', '=', format)
    .execute();
  return rows.map((row) => Number(row.chain_seq));
}

/**
 * Stores a snapshot; one already stored at that position in the same format (another
 * instance's) is kept, one of another format (older rules) is replaced.
 */
export async function insertSnapshot(
  db: Executor,
  row: {
    databaseId: string;
    seq: number;
    format: number;
    itemCount: number;
    state: string;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('replay_snapshots')
    .values({
      database_id: row.databaseId,
      chain_seq: row.seq,
      format: row.format,
      item_count: row.itemCount,
      state: row.state,
      created_at: row.at,
    })
    .onConflict((oc) =>
      oc
        .columns(['database_id', 'chain_seq'])
        .doUpdateSet({
          format: row.format,
          item_count: row.itemCount,
          state: row.state,
          created_at: row.at,
        })
        .where('replay_snapshots.format', '!=', row.format),
    )
    .execute();
}

/**
 * Ids asked per query of {@link existingItemIds}: well under SQLite's 32,766 and PostgreSQL's
 * 65,535 bound parameters, and few round trips for a view of 10,000 items.
 */
const EXISTING_CHUNK = 5_000;

/**
 * The ids of folders and files of the firm that exist now, among `ids` (replay marks the others
 * as destroyed since).
 */
export async function existingItemIds(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += EXISTING_CHUNK) {
    const part = ids.slice(i, i + EXISTING_CHUNK);
    const [folders, files] = await Promise.all([
      db
        .selectFrom('folders')
        .select('id')
        .where('database_id', '=', databaseId)
        .where('id', 'in', part)
        .execute(),
      db
        .selectFrom('files')
        .select('id')
        .where('database_id', '=', databaseId)
        .where('id', 'in', part)
        .execute(),
    ]);
    for (const row of [...folders, ...files]) found.add(row.id);
  }
  return found;
}

/** Whether the firm's history has an event about the folder or file `id` (one destroyed since). */
export async function hasItemHistory(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('history_events')
    .select('id')
    .where('database_id', '=', databaseId)
    .where('item_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
