/**
 * The append-only history event log: this module only inserts and reads (triggers refuse UPDATE
 * and DELETE, migration 0002).
 *
 * Every read is a keyset read newest first (`ORDER BY id DESC`, ids are UUIDv7 made from the
 * event's time) served by an index whose last column is `id`:
 * - (database_id, id): no filter, and date ranges (turned into id ranges by the service);
 * - (database_id, entity_type, action, id): activity types, one index range per (entity_type,
 *   action) pair, merged by a UNION ALL of per-pair `LIMIT n` reads (so a page never sorts more
 *   than pairs × n rows);
 * - (database_id, user_id, entity_type, action, id): a user's events of some types, the same way;
 * - (database_id, user_id, id), (database_id, item_id, id), (database_id, entity_id, id): user,
 *   per-item and entity filters;
 * - (database_id, chain_seq) unique: the hash chain's order.
 */
import Database from 'better-sqlite3';
import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { HistoryEventsTable, HistoryRow } from '../db/schema';
import type { Executor } from './types';

/** Every column of a chain link (its hashed content plus prev_hash and hash), in table order. */
export const CHAIN_COLUMNS = [
  'id',
  'database_id',
  'chain_seq',
  'entity_type',
  'entity_id',
  'item_id',
  'action',
  'user_id',
  'user_name',
  'attributes',
  'ip',
  'user_agent',
  'created_at',
  'prev_hash',
  'hash',
] as const;

/** One (entity_type, action) pair. */
export interface PairFilter {
  entity_type: string;
  action: string;
}

/** Filters of a history read, already validated and resolved by the service. */
export interface HistoryQuery {
  databaseId: string;
  /** Allowed pairs; null means any pair, [] means none (the read answers nothing). */
  pairs: PairFilter[] | null;
  entityId?: string;
  itemId?: string;
  userId?: string;
  /** Inclusive lower id bound (the start of a date range). */
  fromId?: string;
  /** Exclusive upper id bound (the end of a date range, or a cursor). */
  beforeId?: string;
  /** Only the events visible to the session (folder permissions, see access.ts), or all. */
  visible?: Expression<SqlBool> | null;
}

/** The columns a list answers. */
const LIST_COLUMNS = [
  'id',
  'entity_type',
  'entity_id',
  'item_id',
  'action',
  'user_id',
  'user_name',
  'attributes',
  'created_at',
] as const;

/** A listed event (no IP, user agent or hashes). */
export type HistoryListRow = Pick<HistoryRow, (typeof LIST_COLUMNS)[number]>;

/** The columns an export answers (the CSV columns; the chain is verified by its own command). */
const EXPORT_COLUMNS = [...LIST_COLUMNS, 'ip', 'user_agent', 'chain_seq', 'hash'] as const;

/** An exported event: the row but its firm and previous hash. */
export type HistoryExportRow = Pick<HistoryRow, (typeof EXPORT_COLUMNS)[number]>;

/** The head (newest link) of a firm's chain. */
export interface ChainHead {
  id: string;
  chain_seq: number;
  hash: string;
}

/** Namespace of the PostgreSQL advisory locks of history chains ("HI"). */
const CHAIN_LOCK_NAMESPACE = 0x4849;

/**
 * Serialises appends to one firm's chain until the transaction ends. PostgreSQL: a transaction
 * advisory lock keyed by the firm (two firms may share a key and then merely wait for each other).
 * SQLite: nothing to do, its write transactions are already serial.
 * @param trx an open transaction
 */
export async function lockHistoryChain(
  trx: Executor,
  dialect: 'sqlite' | 'postgres',
  databaseId: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${CHAIN_LOCK_NAMESPACE}, hashtext(${databaseId}))`.execute(
    trx,
  );
}

/** The newest link of a firm's chain, if any. */
export async function historyHead(
  db: Executor,
  databaseId: string,
): Promise<ChainHead | undefined> {
  const row = await db
    .selectFrom('history_events')
    .select(['id', 'chain_seq', 'hash'])
    .where('database_id', '=', databaseId)
    .orderBy('chain_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, chain_seq: Number(row.chain_seq) } : undefined;
}

/** Appends events (one statement; keep batches within the dialect's bind-parameter limit). */
export async function insertHistoryEvents(
  db: Executor,
  rows: Insertable<HistoryEventsTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('history_events').values(rows).execute();
}

/** One branch of a read: the common conditions, and optionally one pair. */
function branch<C extends readonly (keyof HistoryRow)[]>(
  db: Executor,
  q: HistoryQuery,
  columns: C,
  pair: PairFilter | null,
  pairsAsOr: boolean,
) {
  let query = db
    .selectFrom('history_events')
    .select(columns as unknown as (keyof HistoryRow)[])
    .where('database_id', '=', q.databaseId);
  if (pair) {
    query = query.where('entity_type', '=', pair.entity_type).where('action', '=', pair.action);
  } else if (pairsAsOr && q.pairs) {
    const pairs = q.pairs;
    query = query.where((eb) =>
      eb.or(
        pairs.map((p) =>
          eb.and([eb('entity_type', '=', p.entity_type), eb('action', '=', p.action)]),
        ),
      ),
    );
  }
  if (q.entityId) query = query.where('entity_id', '=', q.entityId);
  if (q.itemId) query = query.where('item_id', '=', q.itemId);
  if (q.userId) query = query.where('user_id', '=', q.userId);
  if (q.fromId) query = query.where('id', '>=', q.fromId);
  if (q.beforeId) query = query.where('id', '<', q.beforeId);
  if (q.visible) query = query.where(q.visible);
  return query;
}

/**
 * Whether the pairs are read one index range each (UNION ALL) rather than in one scan: when an
 * item, entity or single pair already narrows the read to one small index range, one query is best.
 */
function unionByPair(q: HistoryQuery): boolean {
  return q.pairs !== null && q.pairs.length > 1 && !q.itemId && !q.entityId;
}

/**
 * The query of rows newest first, `offset` rows skipped, `limit` rows at most; null when no pair is
 * allowed (the read answers nothing).
 */
function newestQuery<C extends readonly (keyof HistoryRow)[]>(
  db: Executor,
  q: HistoryQuery,
  columns: C,
  offset: number,
  limit: number,
) {
  if (q.pairs !== null && q.pairs.length === 0) return null;
  if (!unionByPair(q)) {
    const pair = q.pairs?.length === 1 ? q.pairs[0]! : null;
    return branch(db, q, columns, pair, true).orderBy('id', 'desc').limit(limit).offset(offset);
  }
  const pairs = q.pairs!;
  const per = (pair: PairFilter, i: number) =>
    db
      .selectFrom(
        branch(db, q, columns, pair, false)
          .orderBy('id', 'desc')
          .limit(offset + limit)
          .as(`p${i}`),
      )
      .selectAll();
  let union = per(pairs[0]!, 0);
  for (let i = 1; i < pairs.length; i += 1) union = union.unionAll(per(pairs[i]!, i));
  return union.orderBy('id', 'desc').limit(limit).offset(offset);
}

/** Rows newest first, `offset` rows skipped; `limit` rows at most. */
async function readNewest<C extends readonly (keyof HistoryRow)[]>(
  db: Executor,
  q: HistoryQuery,
  columns: C,
  offset: number,
  limit: number,
): Promise<Pick<HistoryRow, C[number]>[]> {
  const query = newestQuery(db, q, columns, offset, limit);
  if (!query) return [];
  return await query.execute();
}

/**
 * One page of events, newest first.
 * @param offset rows to skip (0 with a cursor in `q.beforeId`)
 * @param limit rows to answer at most
 */
export function listHistory(
  db: Executor,
  q: HistoryQuery,
  offset: number,
  limit: number,
): Promise<HistoryListRow[]> {
  return readNewest(db, q, LIST_COLUMNS, offset, limit);
}

/** The columns an export reads first: the stored record and its format, and the cursor. */
const STORED_EXPORT_COLUMNS = ['id', 'export_format', 'export_record'] as const;

/** A row's stored export record (null for rows written before migration 0016). */
export type StoredExportRow = Pick<HistoryRow, (typeof STORED_EXPORT_COLUMNS)[number]>;

/**
 * A batch of stored export records, newest first, after the cursor in `q.beforeId` (through
 * Kysely; the export reader reads the same rows).
 */
export function storedExportBatch(
  db: Executor,
  q: HistoryQuery,
  limit: number,
): Promise<StoredExportRow[]> {
  return readNewest(db, q, STORED_EXPORT_COLUMNS, 0, limit);
}

/**
 * Whole rows of a firm by id, in no particular order (the export renders rows stored without a
 * current record).
 */
export async function exportRowsByIds(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<HistoryExportRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('history_events')
    .select(EXPORT_COLUMNS)
    .where('database_id', '=', databaseId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Rows an export reads per batch by reader kind. Through Kysely (PostgreSQL) each batch is a round
 * trip and a plan: exports of 1,000,000 rows streamed 209,000 rows/s by batches of 1,000, 234,000
 * by 2,000 and 231,000–270,000 by 5,000, whose peak RSS growth was higher (+45 to +60 MB, against
 * +35 to +49 MB by 2,000). The SQLite reader has no round trip, and its exports of 1,000,000 rows
 * grew the server's peak RSS by +28 MB with batches of 1,000 and +74 MB with 5,000.
 */
export const EXPORT_BATCH_ROWS = { sqliteReader: 1000, kysely: 2000 } as const;

/** Reads the batches of one export (see {@link openExportReader}); close it when done. */
export interface ExportReader {
  /** The rows the reader reads per batch ({@link EXPORT_BATCH_ROWS}). */
  batchSize: number;
  /** A batch of stored records, newest first, after the cursor in `q.beforeId`. */
  batch(q: HistoryQuery, limit: number): Promise<StoredExportRow[]>;
  /** Releases the reader's connection, if it has one of its own. */
  close(): void;
}

/**
 * A read-only better-sqlite3 connection of its own to the SQLite file behind `db`, for a long read
 * (an export) that should neither fill nor hold the server connection's 64 MiB page cache: it has
 * SQLite's default 2 MiB cache. Null for an in-memory database, which no other connection sees.
 * The caller closes it.
 */
export async function openSideReader(db: Executor): Promise<Database.Database | null> {
  const { rows } = await sql<{
    file: string;
  }>`select file from pragma_database_list where name = 'main'`.execute(db);
  const file = rows[0]?.file;
  if (!file) return null;
  const connection = new Database(file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  return connection;
}

/**
 * Opens the reader of one export. On a SQLite file it is a read-only better-sqlite3 connection of
 * its own that runs the same queries (built and compiled by Kysely, as {@link storedExportBatch}
 * builds them) with statements in raw mode, answering arrays of values instead of objects (the
 * driver makes an object key by key). Its own connection also keeps its own small page cache
 * (SQLite's default 2 MiB), so however many rows an export reads, the server's connection and its
 * 64 MiB cache are neither filled nor held by it. Reads still happen only when the caller asks for
 * a batch. PostgreSQL and in-memory SQLite read through Kysely ({@link storedExportBatch}).
 * @param dialect the database kind
 */
export async function openExportReader(
  db: Executor,
  dialect: 'sqlite' | 'postgres',
): Promise<ExportReader> {
  const viaKysely: ExportReader = {
    batchSize: EXPORT_BATCH_ROWS.kysely,
    batch: (q, limit) => storedExportBatch(db, q, limit),
    close() {},
  };
  if (dialect !== 'sqlite') return viaKysely;
  const connection = await openSideReader(db);
  if (!connection) return viaKysely;
  const statements = new Map<string, Database.Statement>();
  return {
    batchSize: EXPORT_BATCH_ROWS.sqliteReader,
    batch(q, limit) {
      const query = newestQuery(db, q, STORED_EXPORT_COLUMNS, 0, limit);
      if (!query) return Promise.resolve([]);
      const compiled = query.compile();
      let statement = statements.get(compiled.sql);
      if (!statement) {
        statement = connection.prepare(compiled.sql).raw(true);
        const names = statement.columns().map((c) => c.name);
        if (names.join() !== STORED_EXPORT_COLUMNS.join()) {
          throw new Error(`Unexpected export columns: ${names.join(', ')}`);
        }
        statements.set(compiled.sql, statement);
      }
      const values = statement.all(...(compiled.parameters as unknown[])) as [
        string,
        number | null,
        string | null,
      ][];
      return Promise.resolve(
        values.map(([id, format, record]) => ({
          id,
          export_format: format,
          export_record: record,
        })),
      );
    },
    close() {
      statements.clear();
      if (connection.open) connection.close();
    },
  };
}

/**
 * Number of matching events, counting at most `cap` + 1 (so a count costs at most that many index
 * entries whatever the log's size).
 * @returns the count, which is a lower bound when it exceeds `cap`
 */
export async function countHistory(db: Executor, q: HistoryQuery, cap: number): Promise<number> {
  if (q.pairs !== null && q.pairs.length === 0) return 0;
  const limit = cap + 1;
  const one = (pair: PairFilter | null, asOr: boolean) =>
    branch(db, q, ['id'] as const, pair, asOr)
      .orderBy('id', 'desc')
      .limit(limit);
  let inner;
  if (unionByPair(q)) {
    const pairs = q.pairs!;
    let union = db.selectFrom(one(pairs[0]!, false).as('c0')).select('id');
    for (let i = 1; i < pairs.length; i += 1) {
      union = union.unionAll(db.selectFrom(one(pairs[i]!, false).as(`c${i}`)).select('id'));
    }
    inner = union.limit(limit);
  } else {
    inner = one(q.pairs?.length === 1 ? q.pairs[0]! : null, true);
  }
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from (${inner}) as matching`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** One day (or any range) to count: a label and its id range [fromId, beforeId). */
export interface CountRange {
  label: string;
  fromId: string;
  beforeId: string;
}

/**
 * Events per range (e.g. per local day), each counted on the (database_id, id) index.
 * @param dialect the database kind (PostgreSQL needs the id collation spelled out)
 * @param pairs when given, only events of these (entity_type, action) pairs count
 * @returns the counts in the order of `ranges`
 */
export async function countByRange(
  db: Executor,
  dialect: 'sqlite' | 'postgres',
  databaseId: string,
  ranges: CountRange[],
  visible: Expression<SqlBool> | null = null,
  pairs: PairFilter[] | null = null,
): Promise<number[]> {
  if (ranges.length === 0) return [];
  const ofPairs =
    pairs === null
      ? sql`1 = 1`
      : pairs.length === 0
        ? sql`1 = 0`
        : sql`(${sql.join(
            pairs.map((p) => sql`(h.entity_type = ${p.entity_type} and h.action = ${p.action})`),
            sql` or `,
          )})`;
  // PostgreSQL: ids compare bytewise (COLLATE "C", migration 0002); the bounds must too.
  const bound = (id: string) =>
    dialect === 'postgres' ? sql`cast(${id} as text) collate "C"` : sql`${id}`;
  const values = sql.join(
    ranges.map((r, i) => sql`(${i}, ${bound(r.fromId)}, ${bound(r.beforeId)})`),
    sql`, `,
  );
  const { rows } = await sql<{ position: number; n: number }>`
    with ranges(position, from_id, before_id) as (values ${values})
    select r.position as position,
      (select count(*) from history_events h
        where h.database_id = ${databaseId} and h.id >= r.from_id and h.id < r.before_id
          and ${visible ?? sql`1 = 1`} and ${ofPairs}) as n
    from ranges r`.execute(db);
  const counts = new Array<number>(ranges.length).fill(0);
  for (const row of rows) counts[Number(row.position)] = Number(row.n);
  return counts;
}

/**
 * Events per (entity_type, action) pair in an id range, each counted on the
 * (database_id, entity_type, action, id) index.
 * @returns the counts in the order of `pairs`
 */
export async function countByPair(
  db: Executor,
  databaseId: string,
  pairs: PairFilter[],
  fromId: string,
  beforeId: string,
  visible: Expression<SqlBool> | null = null,
): Promise<number[]> {
  if (pairs.length === 0) return [];
  const values = sql.join(
    pairs.map((p, i) => sql`(${i}, ${p.entity_type}, ${p.action})`),
    sql`, `,
  );
  const { rows } = await sql<{ position: number; n: number }>`
    with pairs(position, entity_type, action) as (values ${values})
    select p.position as position,
      (select count(*) from history_events h
        where h.database_id = ${databaseId} and h.entity_type = p.entity_type
          and h.action = p.action and h.id >= ${fromId} and h.id < ${beforeId}
          and ${visible ?? sql`1 = 1`}) as n
    from pairs p`.execute(db);
  const counts = new Array<number>(pairs.length).fill(0);
  for (const row of rows) counts[Number(row.position)] = Number(row.n);
  return counts;
}

/** A link of the chain as the verifier reads it. */
export type HistoryLinkRow = Pick<
  HistoryRow,
  | 'id'
  | 'database_id'
  | 'chain_seq'
  | 'entity_type'
  | 'entity_id'
  | 'item_id'
  | 'action'
  | 'user_id'
  | 'user_name'
  | 'attributes'
  | 'ip'
  | 'user_agent'
  | 'created_at'
  | 'prev_hash'
  | 'hash'
  | 'export_format'
  | 'export_record'
>;

/**
 * The links of a firm's chain after `afterSeq`, in chain order, `limit` at most, with their stored
 * export records (which the verifier checks too).
 */
export async function chainLinks(
  db: Executor,
  databaseId: string,
  afterSeq: number,
  limit: number,
): Promise<HistoryLinkRow[]> {
  const rows = await db
    .selectFrom('history_events')
    .select([...CHAIN_COLUMNS, 'export_format', 'export_record'])
    .where('database_id', '=', databaseId)
    .where('chain_seq', '>', afterSeq)
    .orderBy('chain_seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, chain_seq: Number(r.chain_seq) }));
}

/** Every firm database id, for the command-line verifier. */
export async function allDatabaseIds(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('databases').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The members of a firm (id and display parts), for the history's user filter. */
export function firmMembers(
  db: Executor,
  databaseId: string,
): Promise<{ id: string; first_name: string; last_name: string; username: string }[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as id', 'users.first_name', 'users.last_name', 'users.username'])
    .where('memberships.database_id', '=', databaseId)
    .orderBy('users.first_name')
    .orderBy('users.last_name')
    .execute();
}

/**
 * Whether a user's event of this action about an entity exists at or after `sinceId` (an id lower
 * bound, see historyChain.ts idLowerBound), by the (database_id, entity_id, id) index.
 */
export async function hasRecentEvent(
  db: Executor,
  event: { databaseId: string; entityId: string; userId: string; action: string; sinceId: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('history_events')
    .select('id')
    .where('database_id', '=', event.databaseId)
    .where('entity_id', '=', event.entityId)
    .where('id', '>=', event.sinceId)
    .where('user_id', '=', event.userId)
    .where('action', '=', event.action)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
