/**
 * Search reads over `search_documents` (migration 0013; kept in step by triggers, never written
 * here). Every query is scoped by the firm database, the archived flag and, when the session has
 * hidden folders, by their subtrees (`scope_id` is the folder that decides a row's visibility).
 *
 * Text matching: the query's words (Unicode letters and digits) must all match (AND), anywhere in
 * the name, the applied index values or the linked contact names; the last word as a word prefix
 * (it is being typed), the others as whole words — SQLite FTS5 `"word" AND "last"*` on
 * `search_fts` (prefix indexes of 2 and 3 characters), PostgreSQL `'word' & 'last':*` tsqueries
 * on the GIN-indexed `tsv` column.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { hiddenFolderIdsSql, type FolderFilter } from './permissions';
import type { Executor } from './types';

/** The dialect of the database (FTS syntax differs). */
export type SearchDialect = 'sqlite' | 'postgres';

/** What every search read is limited to. */
export interface SearchScope {
  databaseId: string;
  /** true: archived rows only; false: live rows only. */
  archived: boolean;
  /** The session's folder visibility condition (access.ts `visibility`), or null. */
  folderVisible: FolderFilter;
}

/** The columns a hit needs before its entity is read. */
export interface DocumentRow {
  id: string;
  entity_type: 'file' | 'folder';
  parent_id: string;
  name: string;
  index_text: string;
  contact_text: string;
}

/** Conditions of search and filtered lists besides the text (all optional; see SearchFilters). */
export interface DocumentConditions {
  /** Any of these: folders, files with one of these extensions, files with none of these. */
  kinds?: { folders: boolean; extensions: string[]; otherThan: string[] | null };
  /** created_at ≥ from (ISO UTC). */
  createdFrom?: string;
  /** created_at < to (ISO UTC). */
  createdTo?: string;
  /**
   * Per index field, any of these values (compared exactly as stored); `entityIds` when read
   * beforehand with {@link indexValueEntityIds}.
   */
  indexValues?: { fieldId: string; values: string[]; entityIds?: string[] | null }[];
  /** Only this user's enabled favorites. */
  favoritesOf?: string;
  /**
   * The ids of those favorites, when read beforehand with {@link favoriteEntityIds} (null: more
   * than the cap; the condition stays a subquery).
   */
  favoriteIds?: string[] | null;
  /**
   * Only rows inside this folder's subtree (not the folder itself): the folder's id and, when read
   * beforehand with {@link subtreeFolderIds}, the ids of the subtree's folders.
   */
  within?: { folderId: string; folderIds: string[] | null };
}

/** The text part of a search: the name key (exact/prefix ranking) and the words. */
export interface TextQuery {
  /** The whole query lowercased as names are (nameKey). */
  key: string;
  /** Lowercased words of the query; empty when the query holds no letter or digit. */
  words: string[];
}

const MAX_CHAR = String.fromCodePoint(0x10ffff);

/** Whether the word at `index` is the last one (matched as a prefix; the others are whole). */
const isLast = (words: string[], index: number) => index === words.length - 1;

/**
 * The FTS5 MATCH expression of some words, all required: the last one a prefix term (it is being
 * typed), the others whole words (a whole-word doclist is read lazily, so a long query stays as
 * cheap as its rarest word).
 */
export function ftsMatch(words: string[]): string {
  return words
    .map((w, i) => `"${w.replace(/"/g, '""')}"${isLast(words, i) ? '*' : ''}`)
    .join(' AND ');
}

/** The PostgreSQL tsquery text of some words, as {@link ftsMatch}: the last one a prefix. */
export function tsQuery(words: string[]): string {
  return words
    .map((w, i) => `'${w.replace(/['\\]/g, '')}'${isLast(words, i) ? ':*' : ''}`)
    .join(' & ');
}

/**
 * How a text match meets the other conditions on SQLite (PostgreSQL's planner chooses by itself):
 * - `drive`: the list of every matching rowid drives the query (no other condition is selective);
 * - `probe`: another condition picks a few rows (an index value, a short favorites list, a folder
 *   subtree) and each is looked up in the FTS doclists by rowid (a correlated probe): 20 ms
 *   instead of 0.5 s for a 3-letter word over 1,000,000 documents when a handful of rows carry
 *   the value;
 * - `filter`: another condition picks many rows (hundreds of favorites, an index value on
 *   thousands of items): the matching rowids are listed once and each picked row is checked
 *   against that list (`+` keeps the planner from seeking each listed rowid in each picked row's
 *   index range). A probe re-reads a short prefix's doclist, about 0.15 ms over 200,000
 *   documents, so with 500 favorites and 2 characters the query alone took 80 ms probed and 2 ms
 *   filtered.
 */
export type TextMatchMode = 'drive' | 'probe' | 'filter';

/** "the row matches these words", per dialect (`words` not empty); see {@link TextMatchMode}. */
function textMatches(
  dialect: SearchDialect,
  words: string[],
  mode: TextMatchMode = 'drive',
): Expression<SqlBool> {
  if (dialect === 'postgres') {
    return sql<SqlBool>`d.tsv @@ to_tsquery('simple', ${tsQuery(words)})`;
  }
  if (mode === 'probe') {
    return sql<SqlBool>`exists (select 1 from search_fts
      where search_fts match ${ftsMatch(words)} and search_fts.rowid = d.rid)`;
  }
  const rowids = sql`(select rowid from search_fts where search_fts match ${ftsMatch(words)})`;
  return mode === 'filter' ? sql<SqlBool>`+d.rid in ${rowids}` : sql<SqlBool>`d.rid in ${rowids}`;
}

/**
 * Most rows a selective condition may pick for the text match to be probed row by row rather than
 * filtered against the list of matching rowids ({@link TextMatchMode}).
 */
export const TEXT_PROBE_MAX_ROWS = 64;

/**
 * How the text match of a search with these conditions runs ({@link TextMatchMode}): `drive`
 * without a selective condition; `probe` when a list read beforehand (favorites, index value
 * items) holds at most {@link TEXT_PROBE_MAX_ROWS} ids, or when a folder subtree is the only
 * selective condition (its item count is not known beforehand); `filter` otherwise.
 */
export function textMatchMode(conditions: DocumentConditions): TextMatchMode {
  const lists: (string[] | null | undefined)[] = [
    ...(conditions.indexValues ?? []).map((v) => v.entityIds),
  ];
  if (conditions.favoritesOf) lists.push(conditions.favoriteIds);
  if (lists.length === 0) return conditions.within ? 'probe' : 'drive';
  const known = lists.filter((l): l is string[] => Array.isArray(l));
  return known.some((l) => l.length <= TEXT_PROBE_MAX_ROWS) ? 'probe' : 'filter';
}

/** The condition "name_key starts with key" as a B-tree range. */
function namePrefix(key: string): Expression<SqlBool> {
  return sql<SqlBool>`(d.name_key >= ${key} and d.name_key < ${key + MAX_CHAR})`;
}

function scoped(db: Executor, scope: SearchScope) {
  let query = db
    .selectFrom('search_documents as d')
    .where('d.database_id', '=', scope.databaseId)
    .where('d.archived', '=', scope.archived ? 1 : 0);
  if (scope.folderVisible) query = query.where(scope.folderVisible('d.scope_id'));
  return query;
}

const DOCUMENT_COLUMNS = [
  'd.id',
  'd.entity_type',
  'd.parent_id',
  'd.name',
  'd.index_text',
  'd.contact_text',
] as const;

/**
 * Items whose whole name, or name without its extension, is `key` (the exact tier of ranking),
 * ordered by name then id.
 */
export async function exactNameHits(
  db: Executor,
  scope: SearchScope,
  key: string,
  limit: number,
): Promise<DocumentRow[]> {
  return scoped(db, scope)
    .select(DOCUMENT_COLUMNS)
    .where((eb) => eb.or([eb('d.name_key', '=', key), eb('d.stem_key', '=', key)]))
    .orderBy('d.name_key')
    .orderBy('d.id')
    .limit(limit)
    .execute();
}

/** Items whose name starts with `key`, except `excluded`, by name then id (the prefix tier). */
export async function prefixNameHits(
  db: Executor,
  scope: SearchScope,
  key: string,
  excluded: string[],
  limit: number,
): Promise<DocumentRow[]> {
  let query = scoped(db, scope).select(DOCUMENT_COLUMNS).where(namePrefix(key));
  if (excluded.length > 0) query = query.where('d.id', 'not in', excluded);
  return query.orderBy('d.name_key').orderBy('d.id').limit(limit).execute();
}

/**
 * Items matching the words in their name, index values or contact names, except `excluded`, in
 * the index's own order (no ranking: the caller fills the last tier, and the scan stops at
 * `limit`).
 */
export async function textHits(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  words: string[],
  excluded: string[],
  limit: number,
): Promise<DocumentRow[]> {
  if (words.length === 0 || limit <= 0) return [];
  if (dialect === 'postgres') {
    let query = scoped(db, scope).select(DOCUMENT_COLUMNS).where(textMatches(dialect, words));
    if (excluded.length > 0) query = query.where('d.id', 'not in', excluded);
    return query.limit(limit).execute();
  }
  // SQLite: driven by the FTS table (a join, so the scan stops after `limit` rows pass).
  const visible = scope.folderVisible ? sql`and ${scope.folderVisible('d.scope_id')}` : sql``;
  const notExcluded =
    excluded.length > 0
      ? sql`and d.id not in (${sql.join(excluded.map((e) => sql`${e}`))})`
      : sql``;
  const result = await sql<DocumentRow>`select d.id, d.entity_type, d.parent_id, d.name,
      d.index_text, d.contact_text
    from search_fts f join search_documents d on d.rid = f.rowid
    where f.search_fts match ${ftsMatch(words)} and d.database_id = ${scope.databaseId}
      and d.archived = ${scope.archived ? 1 : 0} ${visible} ${notExcluded}
    limit ${limit}`.execute(db);
  return result.rows;
}

/**
 * The ids of a folder's subtree (the folder included, archived or not), read by one recursive
 * query, or null when there are more than `cap` (the caller then filters by the recursive query
 * itself). A list lets the planners use the `(database_id, scope_id)` index: PostgreSQL estimates
 * a recursive CTE at thousands of rows and scans the documents instead (0.75 s on 1,000,000).
 */
export async function subtreeFolderIds(
  db: Executor,
  databaseId: string,
  folderId: string,
  cap: number,
): Promise<string[] | null> {
  const result = await sql<{
    id: string;
  }>`select id from ${subtreeIds(databaseId, folderId)} as t limit ${cap + 1}`.execute(db);
  return result.rows.length > cap ? null : result.rows.map((r) => r.id);
}

/**
 * The items carrying a live applied value of a field among `values`, or null when there are more
 * than `cap`. A list lets PostgreSQL look the documents up by id; with the subquery it builds the
 * text match's bitmap first for a member (0.2 s for a 3-letter word over 1,000,000 documents).
 */
export async function indexValueEntityIds(
  db: Executor,
  databaseId: string,
  fieldId: string,
  values: string[],
  cap: number,
): Promise<string[] | null> {
  const rows = await db
    .selectFrom('applied_indexes')
    .select('entity_id')
    .where('index_field_id', '=', fieldId)
    .where('value', 'in', values)
    .where('database_id', '=', databaseId)
    .where('archived_at', 'is', null)
    .limit(cap + 1)
    .execute();
  return rows.length > cap ? null : [...new Set(rows.map((r) => r.entity_id))];
}

/**
 * The items a user has as enabled favorites in a firm, or null when there are more than `cap`
 * (the caller keeps the subquery). Known beforehand, their number decides how a text match runs
 * ({@link textMatchMode}), and a list lets the planners look the documents up by id.
 */
export async function favoriteEntityIds(
  db: Executor,
  databaseId: string,
  userId: string,
  cap: number,
): Promise<string[] | null> {
  const rows = await db
    .selectFrom('favorites')
    .select('entity_id')
    .where('database_id', '=', databaseId)
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .limit(cap + 1)
    .execute();
  return rows.length > cap ? null : [...new Set(rows.map((r) => r.entity_id))];
}

/**
 * The session's visibility as a list: "the folder id in this column is not one of the hidden
 * subtrees' folders", read once by one recursive query, or null when those folders are more than
 * `cap` (the caller keeps the recursive condition). Autocomplete runs up to three queries with
 * the condition; PostgreSQL re-runs the recursive one in each (9 ms instead of 1 ms a call).
 */
export async function hiddenFolderList(
  db: Executor,
  databaseId: string,
  roots: string[],
  cap: number,
): Promise<FolderFilter> {
  const result = await sql<{
    id: string;
  }>`select id from ${hiddenFolderIdsSql(databaseId, roots)} as h limit ${cap + 1}`.execute(db);
  if (result.rows.length > cap) return null;
  if (result.rows.length === 0) return () => sql<SqlBool>`1 = 1`;
  const ids = sql.join(result.rows.map((r) => sql`${r.id}`));
  return (column) => sql<SqlBool>`${sql.ref(column)} not in (${ids})`;
}

/** The ids of a folder's subtree (the folder included, archived or not). */
function subtreeIds(databaseId: string, folderId: string): Expression<string> {
  return sql<string>`(with recursive sub(id) as (
      select id from folders where database_id = ${databaseId} and id = ${folderId}
      union all
      select f.id from folders f join sub s on f.parent_id = s.id where f.database_id = ${databaseId}
    ) select id from sub)`;
}

function filtered(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery | null,
) {
  let query = scoped(db, scope);
  if (text) {
    query = query.where(
      text.words.length > 0
        ? textMatches(dialect, text.words, textMatchMode(conditions))
        : namePrefix(text.key),
    );
  }
  const { kinds } = conditions;
  if (kinds) {
    query = query.where((eb) => {
      const any: Expression<SqlBool>[] = [];
      if (kinds.folders) any.push(eb('d.entity_type', '=', 'folder'));
      if (kinds.extensions.length > 0) {
        any.push(
          eb.and([eb('d.entity_type', '=', 'file'), eb('d.extension', 'in', kinds.extensions)]),
        );
      }
      if (kinds.otherThan) {
        any.push(
          eb.and([eb('d.entity_type', '=', 'file'), eb('d.extension', 'not in', kinds.otherThan)]),
        );
      }
      return any.length > 0 ? eb.or(any) : sql<SqlBool>`1 = 0`;
    });
  }
  if (conditions.createdFrom) query = query.where('d.created_at', '>=', conditions.createdFrom);
  if (conditions.createdTo) query = query.where('d.created_at', '<', conditions.createdTo);
  // As `id in (…)` semi-joins, so a selective value or a short favorites list can drive the query.
  for (const { fieldId, values, entityIds } of conditions.indexValues ?? []) {
    if (entityIds) {
      query =
        entityIds.length > 0
          ? query.where('d.id', 'in', entityIds)
          : query.where(sql<SqlBool>`1 = 0`);
      continue;
    }
    query = query.where('d.id', 'in', (eb) =>
      eb
        .selectFrom('applied_indexes as a')
        .select('a.entity_id')
        .where('a.index_field_id', '=', fieldId)
        .where('a.value', 'in', values)
        .where('a.database_id', '=', scope.databaseId)
        .where('a.archived_at', 'is', null),
    );
  }
  if (conditions.favoriteIds) {
    query =
      conditions.favoriteIds.length > 0
        ? query.where('d.id', 'in', conditions.favoriteIds)
        : query.where(sql<SqlBool>`1 = 0`);
  } else if (conditions.favoritesOf) {
    const userId = conditions.favoritesOf;
    query = query.where('d.id', 'in', (eb) =>
      eb
        .selectFrom('favorites as fv')
        .select('fv.entity_id')
        .where('fv.database_id', '=', scope.databaseId)
        .where('fv.user_id', '=', userId)
        .where('fv.enabled', '=', 1),
    );
  }
  if (conditions.within) {
    const { folderId, folderIds } = conditions.within;
    query = query
      .where(
        folderIds
          ? sql<SqlBool>`d.scope_id in (${sql.join(folderIds.map((id) => sql`${id}`))})`
          : sql<SqlBool>`d.scope_id in ${subtreeIds(scope.databaseId, folderId)}`,
      )
      .where('d.id', '<>', folderId);
  }
  return query;
}

/**
 * One page of search or filtered results and the number of rows in all pages, by one query (the
 * total is a window count over the same rows; a page past the end counts apart). With a text
 * query: exact name matches first, then name prefix matches, then the other matches, each by name
 * then id. Without: folders first, then by name then id.
 */
export async function searchDocuments(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery | null,
  offset: number,
  limit: number,
): Promise<{ rows: DocumentRow[]; total: number }> {
  let query = filtered(db, dialect, scope, conditions, text)
    .select(DOCUMENT_COLUMNS)
    .select(sql<number>`count(*) over ()`.as('total_rows'));
  if (text) {
    const key = text.key;
    query = query.orderBy(
      sql`case when d.name_key = ${key} or d.stem_key = ${key} then 0
        when d.name_key >= ${key} and d.name_key < ${key + MAX_CHAR} then 1 else 2 end`,
    );
  } else {
    query = query.orderBy(sql`case when d.entity_type = 'folder' then 0 else 1 end`);
  }
  const found = await query
    .orderBy('d.name_key')
    .orderBy('d.id')
    .offset(offset)
    .limit(limit)
    .execute();
  const total =
    found.length > 0
      ? Number(found[0]!.total_rows)
      : offset === 0
        ? 0
        : await countDocuments(db, dialect, scope, conditions, text);
  return {
    rows: found.map(({ total_rows: _total, ...row }) => row),
    total,
  };
}

/** How many rows {@link searchDocuments} pages through. */
export async function countDocuments(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery | null,
): Promise<number> {
  const row = await filtered(db, dialect, scope, conditions, text)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The raw full-text query alone (no firm, visibility or ranking): the first `limit` matching row
 * ids. For the benchmark's baseline only.
 */
export async function rawTextQuery(
  db: Executor,
  dialect: SearchDialect,
  words: string[],
  limit: number,
): Promise<string[]> {
  if (dialect === 'postgres') {
    const result = await sql<{
      id: string;
    }>`select id from search_documents where tsv @@ to_tsquery('simple', ${tsQuery(words)}) limit ${limit}`.execute(
      db,
    );
    return result.rows.map((r) => r.id);
  }
  const result = await sql<{
    rowid: number;
  }>`select rowid from search_fts where search_fts match ${ftsMatch(words)} limit ${limit}`.execute(
    db,
  );
  return result.rows.map((r) => String(r.rowid));
}
