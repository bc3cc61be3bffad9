/**
 * The examiner's export: its rows (examiner_exports, 0028) and what the export reads of a scope —
 * totals, the files of a date range, the folders of a contact, contacts and the scope's history
 * events in chain order. Every query is scoped by the firm database.
 */
import type Database from 'better-sqlite3';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { DB, HistoryRow } from '../db/schema';
import type { ExaminerExportRow, ExaminerExportsTable } from '../db/schemaExaminer';
import type { FileWithCreator } from './files';
import { CHAIN_COLUMNS, openSideReader } from './history';
import { chunked } from './organise';
import type { Executor } from './types';

/** Stores a new export. */
export async function insertExaminerExport(
  db: Executor,
  row: Insertable<ExaminerExportsTable>,
): Promise<void> {
  await db.insertInto('examiner_exports').values(row).execute();
}

/** The export with this id in this firm, if any. */
export function findExaminerExport(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<ExaminerExportRow | undefined> {
  return db
    .selectFrom('examiner_exports')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Takes the export whose link has this token hash, when it is this user's in this firm, still
 * `ready` and not expired at `now`: the token is cleared (single use) and the export marked
 * `running` from `now`. Undefined otherwise (unknown, another user's or firm's, used, expired).
 */
export async function takeExaminerExport(
  db: Executor,
  tokenHash: string,
  userId: string,
  databaseId: string,
  now: string,
): Promise<ExaminerExportRow | undefined> {
  const row = await db
    .selectFrom('examiner_exports')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.user_id !== userId || row.database_id !== databaseId) return undefined;
  if (row.status !== 'ready' || row.expires_at <= now) return undefined;
  const taken = await db
    .updateTable('examiner_exports')
    .set({ token_hash: null, status: 'running', phase: 'files', started_at: now })
    .where('id', '=', row.id)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  // Another request may have taken it between the read and the update.
  if (Number(taken.numUpdatedRows) !== 1) return undefined;
  return { ...row, token_hash: null, status: 'running', phase: 'files', started_at: now };
}

/** Changes an export's progress or outcome. */
export async function updateExaminerExport(
  db: Executor,
  id: string,
  values: Updateable<ExaminerExportsTable>,
): Promise<void> {
  await db.updateTable('examiner_exports').set(values).where('id', '=', id).execute();
}

/** Live, ready files and their bytes. */
export interface FileTotals {
  files: number;
  bytes: number;
}

const totalsOf = (row: { n: number | string | null; bytes: number | string | null }) => ({
  files: Number(row.n ?? 0),
  bytes: Number(row.bytes ?? 0),
});

/**
 * Live, ready files in the live trees under these folders (each root counted once: the caller
 * leaves out a root inside another).
 */
export async function liveTreesTotals(
  db: Executor,
  databaseId: string,
  rootIds: readonly string[],
): Promise<FileTotals> {
  const total: FileTotals = { files: 0, bytes: 0 };
  for (const part of chunked(rootIds)) {
    const row = await db
      .withRecursive('tree(id)', (qb) =>
        qb
          .selectFrom('folders')
          .select('id')
          .where('database_id', '=', databaseId)
          .where('id', 'in', part)
          .unionAll((u) =>
            u
              .selectFrom('folders as f')
              .innerJoin('tree', 'tree.id', 'f.parent_id')
              .select('f.id')
              .where('f.database_id', '=', databaseId)
              .where('f.archived_at', 'is', null),
          ),
      )
      .selectFrom('tree')
      .innerJoin('files', 'files.folder_id', 'tree.id')
      .select([
        sql<number | string | null>`count(*)`.as('n'),
        sql<number | string | null>`sum(files.size)`.as('bytes'),
      ])
      .where('files.database_id', '=', databaseId)
      .where('files.status', '=', 'ready')
      .where('files.archived_at', 'is', null)
      .executeTakeFirstOrThrow();
    const totals = totalsOf(row);
    total.files += totals.files;
    total.bytes += totals.bytes;
  }
  return total;
}

/** The condition "created or changed in [start, end)" on a files row. */
function changedIn(eb: ExpressionBuilder<DB, 'files'>, range: { start: string; end: string }) {
  return eb.or([
    eb.and([eb('files.created_at', '>=', range.start), eb('files.created_at', '<', range.end)]),
    eb.and([eb('files.updated_at', '>=', range.start), eb('files.updated_at', '<', range.end)]),
  ]);
}

/** Live, ready files of the firm (all, or those created or changed in [start, end)). */
export async function firmFileTotals(
  db: Executor,
  databaseId: string,
  range?: { start: string; end: string },
): Promise<FileTotals> {
  const row = await db
    .selectFrom('files')
    .select([
      sql<number | string | null>`count(*)`.as('n'),
      sql<number | string | null>`sum(files.size)`.as('bytes'),
    ])
    .where('files.database_id', '=', databaseId)
    .where('files.status', '=', 'ready')
    .where('files.archived_at', 'is', null)
    .$if(range !== undefined, (q) => q.where((eb) => changedIn(eb, range!)))
    .executeTakeFirstOrThrow();
  return totalsOf(row);
}

/**
 * Live, ready files created or changed in [start, end), after the file `afterId` in id order
 * (keyset; from the start when null), `limit` at most.
 */
export function rangeFilesAfter(
  db: Executor,
  databaseId: string,
  range: { start: string; end: string },
  afterId: string | null,
  limit: number,
): Promise<FileWithCreator[]> {
  return db
    .selectFrom('files')
    .leftJoin('users', 'users.id', 'files.created_by')
    .selectAll('files')
    .select(['users.first_name as creator_first', 'users.last_name as creator_last'])
    .where('files.database_id', '=', databaseId)
    .where('files.status', '=', 'ready')
    .where('files.archived_at', 'is', null)
    .$if(afterId !== null, (q) => q.where('files.id', '>', afterId!))
    .where((eb) => changedIn(eb, range))
    .orderBy('files.id')
    .limit(limit)
    .execute();
}

/** The live folders a contact of this firm is linked to. */
export async function liveFoldersOfContact(
  db: Executor,
  databaseId: string,
  contactId: string,
): Promise<{ id: string; name: string; updated_at: string }[]> {
  return db
    .selectFrom('folder_contacts')
    .innerJoin('folders', 'folders.id', 'folder_contacts.folder_id')
    .select(['folders.id', 'folders.name', 'folders.updated_at'])
    .where('folder_contacts.database_id', '=', databaseId)
    .where('folders.database_id', '=', databaseId)
    .where('folder_contacts.contact_id', '=', contactId)
    .where('folders.archived_at', 'is', null)
    .orderBy('folders.name_key')
    .orderBy('folders.id')
    .execute();
}

/** The contacts linked to some folders, by contact name: (folder id, contact name) pairs. */
export async function contactNamesOfFolders(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
): Promise<{ folder_id: string; name: string }[]> {
  const out: { folder_id: string; name: string }[] = [];
  for (const part of chunked([...new Set(folderIds)].filter((id) => id !== ''))) {
    out.push(
      ...(await db
        .selectFrom('folder_contacts')
        .innerJoin('contacts', 'contacts.id', 'folder_contacts.contact_id')
        .select(['folder_contacts.folder_id', 'contacts.name'])
        .where('folder_contacts.database_id', '=', databaseId)
        .where('folder_contacts.folder_id', 'in', part)
        .orderBy('contacts.name_key')
        .orderBy('contacts.id')
        .execute()),
    );
  }
  return out;
}

/** Which history events a scope holds (see common/examinerExport.ts ExaminerScope). */
export type EventScope =
  /** Events about the folders (any state) of these trees and the files in them. */
  | { kind: 'trees'; rootIds: readonly string[] }
  /** Events whose ids lie in [fromId, beforeId) (a date range, see historyChain idLowerBound). */
  | { kind: 'range'; fromId: string; beforeId: string }
  /** Every event of the firm. */
  | { kind: 'all' };

/** A scope's event as the export reads it: its chain link and its stored CSV record. */
export type ScopeEventRow = Pick<
  HistoryRow,
  'id' | 'chain_seq' | 'prev_hash' | 'hash' | 'export_format' | 'export_record'
>;

/**
 * The scope's events from (excluding) `afterId` up to (excluding) `beforeId`, oldest first (id
 * order, which is the firm's chain order), `limit` at most. A tree scope reads its folders (any
 * state, by one recursive query) and their files' ids as a subquery.
 */
async function scopeEventsAfter(
  db: Executor,
  databaseId: string,
  scope: EventScope,
  afterId: string | null,
  beforeId: string,
  limit: number,
): Promise<ScopeEventRow[]> {
  const rows = await scopeEventsQuery(db, databaseId, scope, afterId, beforeId, limit).execute();
  return rows.map((r) => ({ ...r, chain_seq: Number(r.chain_seq) }));
}

function scopeEventsQuery(
  db: Executor,
  databaseId: string,
  scope: EventScope,
  afterId: string | null,
  beforeId: string,
  limit: number,
) {
  return scopedEvents(db, databaseId, scope, (q) =>
    q
      .select(['id', 'chain_seq', 'prev_hash', 'hash', 'export_format', 'export_record'])
      .$if(afterId !== null, (w) => w.where('id', '>', afterId!))
      .where('id', '<', beforeId)
      .orderBy('id')
      .limit(limit),
  );
}

/** Reads one scope's events batch by batch (see {@link openScopeEventReader}); close it when done. */
export interface ScopeEventReader {
  /** As {@link scopeEventsAfter}: the events after `afterId` and before `beforeId`, oldest first. */
  after(afterId: string | null, beforeId: string, limit: number): Promise<ScopeEventRow[]>;
  /** Releases the reader's connection, if it has one of its own. */
  close(): void;
}

/**
 * Opens the reader of one export's events. On a SQLite file it runs the same queries (built and
 * compiled by Kysely) on a read-only connection of its own ({@link openSideReader}), so a whole
 * firm's events neither fill nor stay in the server connection's 64 MiB page cache (measured by
 * `npm run bench -- records` as the peak RSS growth of the export). PostgreSQL and in-memory
 * SQLite read through Kysely.
 */
export async function openScopeEventReader(
  db: Executor,
  dialect: 'sqlite' | 'postgres',
  databaseId: string,
  scope: EventScope,
): Promise<ScopeEventReader> {
  const connection = dialect === 'sqlite' ? await openSideReader(db) : null;
  if (!connection) {
    return {
      after: (afterId, beforeId, limit) =>
        scopeEventsAfter(db, databaseId, scope, afterId, beforeId, limit),
      close() {},
    };
  }
  const statements = new Map<string, Database.Statement>();
  return {
    after(afterId, beforeId, limit) {
      const compiled = scopeEventsQuery(db, databaseId, scope, afterId, beforeId, limit).compile();
      let statement = statements.get(compiled.sql);
      if (!statement) {
        statement = connection.prepare(compiled.sql);
        statements.set(compiled.sql, statement);
      }
      const rows = statement.all(...(compiled.parameters as unknown[])) as (Omit<
        ScopeEventRow,
        'chain_seq'
      > & { chain_seq: number | bigint })[];
      return Promise.resolve(rows.map((r) => ({ ...r, chain_seq: Number(r.chain_seq) })));
    },
    close() {
      statements.clear();
      if (connection.open) connection.close();
    },
  };
}

/** How many events the scope holds before the event `beforeId` (or all, without it). */
export async function countScopeEvents(
  db: Executor,
  databaseId: string,
  scope: EventScope,
  beforeId?: string,
): Promise<number> {
  const row = await scopedEvents(db, databaseId, scope, (q) =>
    q
      .select(sql<number | string>`count(*)`.as('n'))
      .$if(beforeId !== undefined, (w) => w.where('id', '<', beforeId!)),
  ).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A query over the firm's history_events restricted to a scope, shaped by `shape` (its columns,
 * bounds and order). Tree scopes put the recursive folder walk in a CTE named `scope_folders`.
 */
function scopedEvents<R>(
  db: Executor,
  databaseId: string,
  scope: EventScope,
  shape: (q: ReturnType<typeof eventsOf>) => R,
): R {
  if (scope.kind !== 'trees') {
    let q = eventsOf(db, databaseId);
    if (scope.kind === 'range') {
      q = q.where('id', '>=', scope.fromId).where('id', '<', scope.beforeId);
    }
    return shape(q);
  }
  const withTree = db.withRecursive('scope_folders(id)', (qb) =>
    qb
      .selectFrom('folders')
      .select('id')
      .where('database_id', '=', databaseId)
      .where('id', 'in', scope.rootIds.length > 0 ? [...scope.rootIds] : [''])
      .unionAll((u) =>
        u
          .selectFrom('folders as f')
          .innerJoin('scope_folders', 'scope_folders.id', 'f.parent_id')
          .select('f.id')
          .where('f.database_id', '=', databaseId),
      ),
  );
  const inTree: Expression<SqlBool> = sql<SqlBool>`(item_id in (select id from scope_folders)
    or item_id in (select files.id from files inner join scope_folders
      on files.folder_id = scope_folders.id where files.database_id = ${databaseId}))`;
  const q = withTree
    .selectFrom('history_events')
    .where('database_id', '=', databaseId)
    .where(inTree) as unknown as ReturnType<typeof eventsOf>;
  return shape(q);
}

/** The firm's events, unshaped. */
function eventsOf(db: Executor, databaseId: string) {
  return db.selectFrom('history_events').where('database_id', '=', databaseId);
}

/** One event of this firm as a whole chain link (its hashed content, prev_hash and hash). */
export async function chainLinkById(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<ChainLinkRow | undefined> {
  const row = await db
    .selectFrom('history_events')
    .select([...CHAIN_COLUMNS])
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, chain_seq: Number(row.chain_seq) } : undefined;
}

/** A history row's chain columns. */
export type ChainLinkRow = Pick<HistoryRow, (typeof CHAIN_COLUMNS)[number]>;
