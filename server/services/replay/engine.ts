/**
 * Replay's engine: the firm's replayed state after any position of its hash chain, as the nearest
 * stored snapshot (replay_snapshots, migration 0030) plus the events after it
 * (common/replay.ts applyEvent). While it replays it stores a snapshot every
 * REPLAY_SNAPSHOT_INTERVAL chain positions, so no replay reads more than about that many events
 * past a snapshot the next time. Snapshots are derived data: gzipped JSON of the state, written
 * after the answer, a lost one is made again.
 */
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import {
  applyEvent,
  copyState,
  emptyReplayState,
  type ReplayEvent,
  type ReplayState,
} from '@common/replay';
import { REPLAY_SNAPSHOT_INTERVAL } from '@common/replayViews';
import {
  insertSnapshot,
  replayEvents,
  snapshotPositionAtOrBefore,
  snapshotPositions,
  snapshotStateAt,
} from '../../repositories/replay';
import type { Executor } from '../../repositories/types';
import { isoAt } from '../../ids';
import type { Services } from '../context';

const gzipAsync = promisify(gzip);

/**
 * Format of the stored snapshots; a change of ReplayState's shape or rules raises it (2: a share
 * link's invitations are kept one per address).
 */
export const REPLAY_SNAPSHOT_FORMAT = 2;

/** Events read per query while replaying. */
const BATCH = 2_000;

/** A state replayed to a chain position. */
export interface Replayed {
  state: ReplayState;
  /** The chain position it is the state after (its last event, or the snapshot's). */
  seq: number;
}

/** The state of a snapshot (gzipped JSON, base64). */
function decode(text: string): ReplayState {
  const state = JSON.parse(gunzipSync(Buffer.from(text, 'base64')).toString('utf8')) as ReplayState;
  return { ...state, legacy: [] };
}

/** How many decoded snapshots this process keeps per database connection (the least recent go). */
const DECODED_KEPT = 3;
/**
 * Decoded snapshots by database connection, then `firm:position` (a snapshot of a format never
 * changes: its position's state is the same whoever writes it); read-only, callers get copies.
 */
const decodedByDb = new WeakMap<object, Map<string, ReplayState>>();

/**
 * The nearest snapshot at or before `seq` (or the empty state), not yet replayed further: the
 * caller's own copy, to replay in place. The stored row decides which snapshot; its decoded state
 * comes from memory when this process decoded it lately (a copy costs about a third of a decode).
 */
export async function snapshotBefore(
  db: Executor,
  databaseId: string,
  seq: number,
): Promise<Replayed> {
  const position = await snapshotPositionAtOrBefore(db, databaseId, seq, REPLAY_SNAPSHOT_FORMAT);
  if (position === null) return { state: emptyReplayState(), seq: 0 };
  let decoded = decodedByDb.get(db);
  if (!decoded) {
    decoded = new Map();
    decodedByDb.set(db, decoded);
  }
  const key = `${databaseId}:${position}`;
  let state = decoded.get(key);
  if (state) {
    decoded.delete(key);
  } else {
    const text = await snapshotStateAt(db, databaseId, position, REPLAY_SNAPSHOT_FORMAT);
    // Removed since the position was read: the snapshot before it serves.
    if (text === null) return snapshotBefore(db, databaseId, position - 1);
    state = decode(text);
  }
  decoded.set(key, state);
  while (decoded.size > DECODED_KEPT) decoded.delete(decoded.keys().next().value!);
  return { state: copyState(state), seq: position };
}

/**
 * Replays `from` forward through the events after its position up to `uptoSeq` (inclusive), in
 * place, calling `visit` around each event (`before` may read the state before the event;
 * `after` after it). Stores a snapshot at each REPLAY_SNAPSHOT_INTERVAL boundary it passes
 * that has none stored yet (serialising a state of 10,000 items costs about 50 ms).
 * @param stop called after each event; true ends the replay there
 * @returns the position reached
 */
export async function replayForward(
  services: Pick<Services, 'db' | 'clock'>,
  databaseId: string,
  from: Replayed,
  uptoSeq: number,
  visit: {
    before?: (event: ReplayEvent, state: ReplayState) => void;
    after?: (event: ReplayEvent, state: ReplayState) => boolean | void;
  } = {},
): Promise<number> {
  let seq = from.seq;
  let lastSnapshot = from.seq - (from.seq % REPLAY_SNAPSHOT_INTERVAL);
  const upto = Math.min(uptoSeq, Number.MAX_SAFE_INTEGER);
  const boundary = (position: number) => position - (position % REPLAY_SNAPSHOT_INTERVAL);
  const stored = new Set(
    (await snapshotPositions(services.db, databaseId, seq, upto, REPLAY_SNAPSHOT_FORMAT)).map(
      boundary,
    ),
  );
  for (;;) {
    const events = await replayEvents(services.db, databaseId, seq, uptoSeq, BATCH);
    for (const event of events) {
      visit.before?.(event, from.state);
      applyEvent(from.state, event);
      seq = event.seq;
      if (seq - lastSnapshot >= REPLAY_SNAPSHOT_INTERVAL) {
        lastSnapshot = boundary(seq);
        if (!stored.has(lastSnapshot)) storeSnapshot(services, databaseId, from.state);
      }
      if (visit.after?.(event, from.state) === true) {
        from.seq = seq;
        return seq;
      }
    }
    if (events.length < BATCH) break;
  }
  seq = Math.max(seq, Math.min(uptoSeq, Number.MAX_SAFE_INTEGER));
  from.seq = seq;
  return seq;
}

/** Snapshots being written by this process, by firm and position (one write each). */
const writing = new Set<string>();
/** The writes in flight, for {@link snapshotsSettled}. */
const pending = new Set<Promise<void>>();

/** Resolves when every snapshot write in flight has ended (tests and shutdown wait on it). */
export async function snapshotsSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

/**
 * Stores the state as a snapshot of its position: serialised now (the state changes after),
 * compressed and written in the background; a failure is left for the next replay to redo.
 */
function storeSnapshot(
  services: Pick<Services, 'db' | 'clock'>,
  databaseId: string,
  state: ReplayState,
): void {
  const key = `${databaseId}:${state.seq}`;
  if (writing.has(key)) return;
  writing.add(key);
  const json = JSON.stringify({ ...state, legacy: [] });
  const itemCount = Object.keys(state.items).length;
  const seq = state.seq;
  const write = gzipAsync(Buffer.from(json, 'utf8'))
    .then((zipped) =>
      insertSnapshot(services.db, {
        databaseId,
        seq,
        format: REPLAY_SNAPSHOT_FORMAT,
        itemCount,
        state: zipped.toString('base64'),
        at: isoAt(services.clock),
      }),
    )
    .catch(() => undefined)
    .finally(() => {
      writing.delete(key);
      pending.delete(write);
    });
  pending.add(write);
}

/**
 * The firm's state right after chain position `seq` (every replayable event with a position up
 * to it applied).
 */
export async function stateAt(
  services: Pick<Services, 'db' | 'clock'>,
  databaseId: string,
  seq: number,
): Promise<Replayed> {
  const from = await snapshotBefore(services.db, databaseId, seq);
  await replayForward(services, databaseId, from, seq);
  from.seq = seq;
  return from;
}

/** How many firms' newest states this process keeps in memory (the least recently used go). */
const NEWEST_KEPT = 4;
/**
 * The newest state replayed per database connection and firm, advanced by one replay at a time
 * (read-only to callers).
 */
const newestStatesByDb = new WeakMap<object, Map<string, Promise<Replayed>>>();

/**
 * The firm's state at chain position `seq` or later, to read only: what replay asks of "now"
 * (which items a member may see, when an item was destroyed). One state per firm stays in memory
 * and is advanced to the newer position a later call names, so a view pays for the events since
 * the last one instead of decoding a snapshot; a state further along than `seq` answers as it is
 * (a destroyed item's time and today's folders do not change with the events after).
 * Never change the state answered: it is shared with the other requests.
 */
export function newestState(
  services: Pick<Services, 'db' | 'clock'>,
  databaseId: string,
  seq: number,
): Promise<Replayed> {
  let newestStates = newestStatesByDb.get(services.db);
  if (!newestStates) {
    newestStates = new Map();
    newestStatesByDb.set(services.db, newestStates);
  }
  const states = newestStates;
  const previous = states.get(databaseId);
  const next = (async (): Promise<Replayed> => {
    const current = previous ? await previous.catch(() => null) : null;
    if (!current) return stateAt(services, databaseId, seq);
    if (current.seq < seq) {
      // A copy is advanced and then swapped in, so a reader of the current one never sees it
      // half-way (replayForward awaits its reads between events).
      const advanced: Replayed = { state: copyState(current.state), seq: current.seq };
      await replayForward(services, databaseId, advanced, seq);
      advanced.seq = seq;
      return advanced;
    }
    return current;
  })();
  states.delete(databaseId);
  states.set(databaseId, next);
  while (states.size > NEWEST_KEPT) states.delete(states.keys().next().value!);
  // A failed replay is not kept: the next call starts from a snapshot again.
  next.catch(() => {
    if (states.get(databaseId) === next) states.delete(databaseId);
  });
  return next;
}
