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
 *
 * Content: a file also matches when one page of its bytes' derived text (`content_pages`,
 * migration 0021, keyed by sha256) holds every word, the last as a prefix — FTS5 `content_fts`,
 * or the GIN-indexed `content_pages.tsv`. Which files hold those bytes comes from
 * `files.sha256`; the file's own search document decides firm, archive state and visibility.
 */
import { CompiledQuery, sql, type Expression, type SqlBool } from 'kysely';
import { folderTreeVersionSql } from './folderTree';
import type { FolderFilter } from './permissions';
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
function ftsMatch(words: string[]): string {
  return words
    .map((w, i) => `"${w.replace(/"/g, '""')}"${isLast(words, i) ? '*' : ''}`)
    .join(' AND ');
}

/** The PostgreSQL tsquery text of some words, as {@link ftsMatch}: the last one a prefix. */
function tsQuery(words: string[]): string {
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
 * "the row is a ready file of the firm whose bytes have a page holding every word" (`words` not
 * empty). The matching pages are found by one full-text lookup, their files by the
 * `files_sha256` index (on SQLite the join order is forced: with `f.sha256 in (…)` it scanned the
 * files when its statistics made sha256 look unselective), the documents by id.
 */
function contentMatches(
  dialect: SearchDialect,
  databaseId: string,
  words: string[],
): Expression<SqlBool> {
  const files =
    dialect === 'postgres'
      ? sql`(select f.id from content_pages p join files f on f.sha256 = p.sha256
          where p.tsv @@ to_tsquery('simple', ${tsQuery(words)})
            and f.database_id = ${databaseId} and f.status = 'ready')`
      : sql`(select f.id from content_fts c cross join content_pages p cross join files f
          where c.content_fts match ${ftsMatch(words)} and p.rid = c.rowid
            and f.sha256 = p.sha256 and f.database_id = ${databaseId} and f.status = 'ready')`;
  return sql<SqlBool>`d.entity_type = 'file' and d.id in ${files}`;
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

/**
 * The firm's rows in the scope. `byId` (SQLite): the firm and archived conditions are kept out of
 * the indexes (`+`), so that another condition on `d.id` drives the query.
 */
function scoped(db: Executor, scope: SearchScope, byId = false) {
  const archived = scope.archived ? 1 : 0;
  let query = byId
    ? db
        .selectFrom('search_documents as d')
        .where(sql<SqlBool>`+d.database_id = ${scope.databaseId}`)
        .where(sql<SqlBool>`+d.archived = ${archived}`)
    : db
        .selectFrom('search_documents as d')
        .where('d.database_id', '=', scope.databaseId)
        .where('d.archived', '=', archived);
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
 * The name tiers of an autocomplete as UNION ALL arms, in rank order, each of at most `limit`
 * rows, each row with its `tier` (0 exact, 1 prefix), `sort_key`, `sort_key2` and `tiebreak` (its
 * order within the tier) and `columns`. `condition` narrows every arm (firm, live, visibility).
 * - A query without a dot: one range of the stem B-tree, since a name starts with such a query
 *   exactly when the name without its extension does; the exact stem comes first in that range.
 *   By name without extension, then name, then creation.
 * - A query with a dot (it may run into an extension): the exact stem, then the exact whole name,
 *   then the names starting with it, by name, then creation.
 */
function nameTierArms(
  dialect: SearchDialect,
  key: string,
  columns: ReturnType<typeof sql>,
  condition: ReturnType<typeof sql>,
  limit: number,
) {
  const keyMax = key + MAX_CHAR;
  const tiebreak = dialect === 'sqlite' ? sql`d.rid` : sql`d.id`;
  const select = (tier: ReturnType<typeof sql>, sortKey: ReturnType<typeof sql>) =>
    sql`select ${tier} as tier, ${sortKey} as sort_key, d.name_key as sort_key2,
      ${tiebreak} as tiebreak, ${columns} from search_documents d`;
  if (!key.includes('.')) {
    return [
      sql`select * from (${select(sql`case when d.stem_key = ${key} then 0 else 1 end`, sql`d.stem_key`)}
        where d.stem_key >= ${key} and d.stem_key < ${keyMax} and ${condition}
        order by d.stem_key, d.name_key, ${tiebreak} limit ${limit}) n`,
    ];
  }
  return [
    sql`select * from (${select(sql`0`, sql`d.name_key`)}
      where d.stem_key = ${key} and ${condition}
      order by d.name_key, ${tiebreak} limit ${limit}) e`,
    sql`select * from (${select(sql`0`, sql`d.name_key`)}
      where d.name_key = ${key} and d.stem_key <> ${key} and ${condition}
      order by ${tiebreak} limit ${limit}) w`,
    sql`select * from (${select(sql`1`, sql`d.name_key`)}
      where d.name_key > ${key} and d.name_key < ${keyMax} and d.stem_key <> ${key}
        and ${condition}
      order by d.name_key, ${tiebreak} limit ${limit}) p`,
  ];
}

/** The text tier's arm: live matches of every word not in the name tiers, in the index's order. */
function textTierArm(
  dialect: SearchDialect,
  text: TextQuery,
  columns: ReturnType<typeof sql>,
  condition: ReturnType<typeof sql>,
  limit: number,
) {
  const notNamed = sql`not (d.name_key >= ${text.key} and d.name_key < ${text.key + MAX_CHAR})`;
  return dialect === 'sqlite'
    ? sql`select * from (select 2 as tier, '' as sort_key, '' as sort_key2, d.rid as tiebreak,
        ${columns} from search_fts f join search_documents d on d.rid = f.rowid
        where f.search_fts match ${ftsMatch(text.words)} and ${notNamed} and ${condition}
        limit ${limit}) t`
    : sql`select * from (select 2 as tier, '' as sort_key, '' as sort_key2, d.id as tiebreak,
        ${columns} from search_documents d
        where d.tsv @@ to_tsquery('simple', ${tsQuery(text.words)}) and ${notNamed}
          and ${condition}
        limit ${limit}) t`;
}

/**
 * The content tier's arm: live ready files matching by content only (not by the names' range nor
 * by the text), as {@link contentMatches} finds them, at most `limit`.
 */
function contentTierArm(
  dialect: SearchDialect,
  databaseId: string,
  text: TextQuery,
  columns: ReturnType<typeof sql>,
  condition: ReturnType<typeof sql>,
  limit: number,
) {
  const notNamed = sql`not (d.name_key >= ${text.key} and d.name_key < ${text.key + MAX_CHAR})`;
  const notText =
    dialect === 'postgres'
      ? sql`not (d.tsv @@ to_tsquery('simple', ${tsQuery(text.words)}))`
      : sql`d.rid not in (select rowid from search_fts where search_fts match ${ftsMatch(text.words)})`;
  const tiebreak = dialect === 'sqlite' ? sql`d.rid` : sql`d.id`;
  return sql`select * from (select ${sql.lit(CONTENT_TIER)} as tier, '' as sort_key, '' as sort_key2,
      ${tiebreak} as tiebreak, ${columns} from search_documents d
    where ${contentMatches(dialect, databaseId, text.words)} and ${notNamed} and ${notText}
      and ${condition}
    limit ${limit}) c`;
}

/**
 * An autocomplete candidate read without its path or visibility (SQLite, for the in-memory folder
 * tree of services/folderTree.ts), with the firm's folder tree version its statement saw.
 */
export interface AutocompleteCandidate {
  /** 0 exact name, 1 name prefix, 2 other text match, 3 content only ({@link CONTENT_TIER}). */
  tier: number;
  id: string;
  entity_type: 'file' | 'folder';
  /** The folder holding the item ('' for the root). */
  parent_id: string;
  /** The folder that decides the item's visibility: the folder itself, or the file's folder. */
  scope_id: string;
  name: string;
  extension: string;
  index_text: string;
  contact_text: string;
  tree_version: number;
}

/** The columns of a candidate, with the firm's folder tree version (SQLite). */
function candidateColumns(databaseId: string) {
  return sql`d.id, d.entity_type, d.parent_id, d.scope_id, d.name, d.extension, d.index_text,
    d.contact_text, ${folderTreeVersionSql(databaseId)} as tree_version`;
}

/** The live rows of a firm. */
const liveIn = (databaseId: string) => sql`d.database_id = ${databaseId} and d.archived = 0`;

/**
 * The name tiers of an autocomplete on SQLite by the name B-trees, in rank order (see
 * nameTierArms), each tier of at most `limit` rows, with no visibility condition: the caller
 * filters with its folder tree and reads the exact statement when too many are hidden. A query
 * without a dot, the common case, is one range of the stem B-tree read by a statement with no
 * more columns than the candidates need (each column of each row is an allocation).
 */
export async function autocompleteNameCandidates(
  db: Executor,
  databaseId: string,
  key: string,
  limit: number,
): Promise<AutocompleteCandidate[]> {
  if (key.includes('.')) {
    const arms = nameTierArms(
      'sqlite',
      key,
      candidateColumns(databaseId),
      liveIn(databaseId),
      limit,
    );
    const result = await sql<AutocompleteCandidate>`${sql.join(arms, sql` union all `)}`.execute(
      db,
    );
    return result.rows;
  }
  const result = await db.executeQuery<AutocompleteCandidate & { exact: number }>(
    CompiledQuery.raw(STEM_CANDIDATES_SQL, [
      key,
      databaseId,
      key,
      key + MAX_CHAR,
      databaseId,
      limit,
    ]),
  );
  const rows = result.rows;
  for (const row of rows) row.tier = row.exact ? 0 : 1;
  return rows;
}

/**
 * The statement of {@link autocompleteNameCandidates} for a query without a dot (SQLite), written
 * out once: the keystroke path skips building and compiling it every time. Parameters: key, firm,
 * key, key + U+10FFFF, firm, limit.
 */
const STEM_CANDIDATES_SQL = `select d.stem_key = ? as exact, d.id, d.entity_type, d.parent_id,
    d.scope_id, d.name, d.extension, d.index_text, d.contact_text,
    (select coalesce(max(version), 0) from folder_tree_versions where database_id = ?)
      as tree_version
  from search_documents d
  where d.stem_key >= ? and d.stem_key < ? and d.database_id = ? and d.archived = 0
  order by d.stem_key, d.name_key, d.rid limit ?`;

/**
 * The text tier of an autocomplete on SQLite: live items whose name, index values or linked
 * contact names hold every word (the last as a prefix), in the full-text index's order, at most
 * `limit`; items of the name tiers may be among them (the caller leaves those out).
 */
export async function autocompleteTextCandidates(
  db: Executor,
  databaseId: string,
  words: string[],
  limit: number,
): Promise<AutocompleteCandidate[]> {
  if (words.length === 0) return [];
  const result = await sql<AutocompleteCandidate>`select 2 as tier,
      ${candidateColumns(databaseId)}
    from search_fts f join search_documents d on d.rid = f.rowid
    where f.search_fts match ${ftsMatch(words)} and ${liveIn(databaseId)}
    limit ${limit}`.execute(db);
  return result.rows;
}

/**
 * Every tier of an autocomplete in one statement, for PostgreSQL, where each statement is a round
 * trip: the name tiers (nameTierArms), then the text tier without the names' range, the first
 * `limit` rows in rank order (a later arm is not read once they are found), with no visibility
 * condition (the caller filters with its folder tree).
 */
export async function autocompleteCandidatesAtOnce(
  db: Executor,
  databaseId: string,
  text: TextQuery,
  limit: number,
): Promise<AutocompleteCandidate[]> {
  const columns = candidateColumns(databaseId);
  const live = liveIn(databaseId);
  const arms = nameTierArms('postgres', text.key, columns, live, limit);
  if (text.words.length > 0) arms.push(textTierArm('postgres', text, columns, live, limit));
  const result = await sql<AutocompleteCandidate>`select * from (${sql.join(
    arms,
    sql` union all `,
  )}) u limit ${limit}`.execute(db);
  return result.rows;
}

/** A text match with the keys its autocomplete rank is worked out from. */
export type AutocompleteMatch = AutocompleteCandidate & { stem_key: string; name_key: string };

/**
 * Every live item of a firm whose name, index values or linked contact names hold every word
 * (the last as a prefix), at most `cap` + 1 of them, by one GIN lookup (PostgreSQL). Items whose
 * name starts with the query are among them (their words are the name's first words), so when
 * there are at most `cap`, ranking them answers every tier of an autocomplete. `tier` is 2; the
 * caller ranks.
 */
export async function autocompleteTextMatches(
  db: Executor,
  databaseId: string,
  words: string[],
  cap: number,
): Promise<AutocompleteMatch[]> {
  if (words.length === 0) return [];
  const result = await sql<AutocompleteMatch>`select 2 as tier, d.stem_key, d.name_key,
      ${candidateColumns(databaseId)}
    from search_documents d
    where d.tsv @@ to_tsquery('simple', ${tsQuery(words)}) and ${liveIn(databaseId)}
    limit ${cap + 1}`.execute(db);
  return result.rows;
}

/** One autocomplete hit as {@link autocompleteHits} answers it, in rank order. */
export interface AutocompleteRow {
  /** As {@link AutocompleteCandidate}'s. */
  tier: number;
  id: string;
  entity_type: 'file' | 'folder';
  /** The folder holding the item ('' for the root). */
  parent_id: string;
  name: string;
  extension: string;
  index_text: string;
  contact_text: string;
  /** The ancestors from the top-level folder down to `parent_id`, as [id, name] pairs. */
  path: [string, string][];
}

/** What {@link autocompleteHits} looks for. */
export interface AutocompleteInput {
  databaseId: string;
  text: TextQuery;
  /**
   * The user whose hidden folders (folder permissions, access.ts) are left out with everything in
   * them, or null to leave nothing out (administrators).
   */
  hiddenFor: string | null;
  limit: number;
  /** Also the files matching by content only, after every other tier. */
  content?: boolean;
}

/**
 * The restricted folders a user may not see (as permissions.ts hiddenRootIds decides: no row of
 * the folder names the user or one of the user's teams) and every folder below them, as the
 * recursive CTE `hidden(id)`.
 */
function hiddenTreeCte(dialect: SearchDialect, databaseId: string, userId: string) {
  return sql`hidden_roots(id) as (
      select p.folder_id from folder_permissions p where p.database_id = ${databaseId}
      group by p.folder_id
      having sum(case when (p.permissionable_type = 'user' and p.permissionable_id = ${userId})
        or (p.permissionable_type = 'team' and p.permissionable_id in
          (select team_id from team_members where user_id = ${userId})) then 1 else 0 end) = 0),
    hidden(id) as (
      select id from hidden_roots
      union all
      ${
        dialect === 'postgres'
          ? // A subquery per folder (OFFSET 0 keeps it one), so each level is an index lookup:
            // PostgreSQL hashed all 10,000 folders of a firm per level instead (3 ms for 100).
            sql`select f.id from hidden h cross join lateral (select id from folders
              where database_id = ${databaseId} and parent_id = h.id offset 0) f`
          : sql`select f.id from folders f join hidden h on f.parent_id = h.id
              where f.database_id = ${databaseId}`
      }),`;
}

/**
 * Autocomplete in one statement (one round trip): the ranked hits of a query, each with the path
 * of the folder that holds it. The name tiers (nameTierArms: exact names, then names starting with
 * the query), then the other items whose name, index values or linked contact names hold every
 * word (the last as a prefix), in the full-text index's order, then (with `content`) the files
 * matching by content only; the first `limit` rows are kept and
 * a later tier is not read once they are found. Only live items of the firm, and with `hiddenFor`
 * none in a folder hidden from that user. The paths are read by one recursive query over all hits'
 * folders.
 */
export async function autocompleteHits(
  db: Executor,
  dialect: SearchDialect,
  input: AutocompleteInput,
): Promise<AutocompleteRow[]> {
  const { databaseId, text, limit } = input;
  const visible = input.hiddenFor ? sql`and d.scope_id not in (select id from hidden)` : sql``;
  const columns = sql`d.id, d.entity_type, d.parent_id, d.name, d.extension, d.index_text,
    d.contact_text`;
  const condition = sql`${liveIn(databaseId)} ${visible}`;
  const arms = nameTierArms(dialect, text.key, columns, condition, limit);
  if (text.words.length > 0) {
    arms.push(textTierArm(dialect, text, columns, condition, limit));
    if (input.content) {
      arms.push(contentTierArm(dialect, databaseId, text, columns, condition, limit));
    }
  }
  const hidden = input.hiddenFor ? hiddenTreeCte(dialect, databaseId, input.hiddenFor) : sql``;
  const hits = sql`hits as materialized (select * from (${sql.join(arms, sql` union all `)}) u
    limit ${limit})`;
  const chain = sql`chain(hit_id, id, name, parent_id, depth) as (
      select h.id, f.id, f.name, f.parent_id, 0 from hits h cross join folders f
      where f.id = h.parent_id and f.database_id = ${databaseId}
      union all
      select c.hit_id, f.id, f.name, f.parent_id, c.depth + 1 from chain c cross join folders f
      where f.id = c.parent_id and f.database_id = ${databaseId} and c.depth < 1000)`;
  const aggregate =
    dialect === 'sqlite'
      ? sql`paths as materialized (select hit_id, json_group_array(json_array(id, name)) as path
          from (select hit_id, id, name from chain order by hit_id, depth desc) group by hit_id)`
      : sql`paths as materialized (select hit_id,
            json_agg(json_build_array(id, name) order by depth desc) as path
          from chain group by hit_id)`;
  const result = await sql<Omit<AutocompleteRow, 'path'> & { path: unknown }>`with recursive
    ${hidden} ${hits}, ${chain}, ${aggregate}
    select h.tier, h.id, h.entity_type, h.parent_id, h.name, h.extension, h.index_text,
      h.contact_text, p.path
    from hits h left join paths p on p.hit_id = h.id
    order by h.tier, h.sort_key, h.sort_key2, h.tiebreak`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    path: (typeof row.path === 'string' ? JSON.parse(row.path) : (row.path ?? [])) as [
      string,
      string,
    ][],
  }));
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
  byId = false,
) {
  let query = scoped(db, scope, byId);
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

/** The rank of a row among text matches (0 exact name, 1 name prefix, 2 other text match). */
function nameTier(key: string) {
  return sql<number>`case when d.name_key = ${key} or d.stem_key = ${key} then 0
      when d.name_key >= ${key} and d.name_key < ${key + MAX_CHAR} then 1 else 2 end`;
}

/** The tier of content-only matches, after every name and text tier. */
export const CONTENT_TIER = 3;

/**
 * The two arms of a search that also looks in content, each with `tier`, `sort_stem` and
 * `name_key` to order by: the rows matching the text (as without content) and the ready files
 * matching by content (tier {@link CONTENT_TIER}); a row in both is made one by
 * {@link searchRows}. Both arms carry every other condition.
 */
function searchArms(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery,
) {
  const key = text.key;
  const stemSort = key.includes('.')
    ? sql<string>`''`
    : sql<string>`case when ${nameTier(key)} < 2 then d.stem_key else '' end`;
  const named = filtered(db, dialect, scope, conditions, text).select([
    ...DOCUMENT_COLUMNS,
    'd.name_key',
    nameTier(key).as('tier'),
    stemSort.as('sort_stem'),
  ]);
  // Without a selective condition the content matches drive (SQLite would otherwise scan the
  // firm's documents for them); with one, that condition does, as for the text match.
  const byId = dialect === 'sqlite' && textMatchMode(conditions) === 'drive';
  const content = filtered(db, dialect, scope, conditions, null, byId)
    .where(contentMatches(dialect, scope.databaseId, text.words))
    .select([
      ...DOCUMENT_COLUMNS,
      'd.name_key',
      sql<number>`${sql.lit(CONTENT_TIER)}`.as('tier'),
      sql<string>`''`.as('sort_stem'),
    ]);
  return named.unionAll(content);
}

/**
 * The rows of {@link searchArms}, one per document: its best tier (a text match before a content
 * match) and that arm's stem sort key (a content match's is '', below any other).
 */
function searchRows(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery,
) {
  return db
    .selectFrom(searchArms(db, dialect, scope, conditions, text).as('u'))
    .select([
      'u.id',
      'u.entity_type',
      'u.parent_id',
      'u.name',
      'u.index_text',
      'u.contact_text',
      'u.name_key',
      (eb) => eb.fn.min('u.tier').as('tier'),
      (eb) => eb.fn.max('u.sort_stem').as('sort_stem'),
    ])
    .groupBy([
      'u.id',
      'u.entity_type',
      'u.parent_id',
      'u.name',
      'u.index_text',
      'u.contact_text',
      'u.name_key',
    ]);
}

/**
 * One page of search or filtered results and the number of rows in all pages, by one query (the
 * total is a window count over the same rows; a page past the end counts apart). With a text
 * query: exact name matches first, then name prefix matches (for a query without a dot, both by
 * name without extension first, as autocomplete), then the other matches, then, with `content`,
 * the files matching by their text only, each by name then id. Without: folders first, then by
 * name then id.
 * @param content also answer ready files whose text has a page holding every word
 */
export async function searchDocuments(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery | null,
  offset: number,
  limit: number,
  content = false,
): Promise<{ rows: DocumentRow[]; total: number }> {
  if (text && content && text.words.length > 0) {
    const found = await db
      .selectFrom(searchRows(db, dialect, scope, conditions, text).as('r'))
      .select(['r.id', 'r.entity_type', 'r.parent_id', 'r.name', 'r.index_text', 'r.contact_text'])
      .select(sql<number>`count(*) over ()`.as('total_rows'))
      .orderBy('r.tier')
      .orderBy('r.sort_stem')
      .orderBy('r.name_key')
      .orderBy('r.id')
      .offset(offset)
      .limit(limit)
      .execute();
    const total =
      found.length > 0
        ? Number(found[0]!.total_rows)
        : offset === 0
          ? 0
          : await countDocuments(db, dialect, scope, conditions, text, content);
    return { rows: found.map(({ total_rows: _total, ...row }) => row), total };
  }
  let query = filtered(db, dialect, scope, conditions, text)
    .select(DOCUMENT_COLUMNS)
    .select(sql<number>`count(*) over ()`.as('total_rows'));
  if (text) {
    const key = text.key;
    const tier = nameTier(key);
    query = query.orderBy(tier);
    // As autocomplete orders its name tiers (nameTierArms): for a query without a dot, by the
    // name without its extension first.
    if (!key.includes('.')) {
      query = query.orderBy(sql`case when ${tier} < 2 then d.stem_key else '' end`);
    }
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
async function countDocuments(
  db: Executor,
  dialect: SearchDialect,
  scope: SearchScope,
  conditions: DocumentConditions,
  text: TextQuery | null,
  content = false,
): Promise<number> {
  if (text && content && text.words.length > 0) {
    const row = await db
      .selectFrom(searchRows(db, dialect, scope, conditions, text).as('r'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const row = await filtered(db, dialect, scope, conditions, text)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The best page of some bytes for a query, and its text. */
export interface ContentPageMatch {
  sha256: string;
  page: number;
  text: string;
}

/**
 * For each of these sha256 (the files of a page of results), its page that best matches the
 * words (every word on the page, the last as a prefix): the best full-text rank (FTS5 bm25,
 * PostgreSQL ts_rank), then the lowest page number. Sha256 without a matching page are absent.
 */
export async function bestContentPages(
  db: Executor,
  dialect: SearchDialect,
  sha256s: readonly string[],
  words: string[],
): Promise<Map<string, ContentPageMatch>> {
  const best = new Map<string, ContentPageMatch>();
  if (sha256s.length === 0 || words.length === 0) return best;
  const list = sql.join([...new Set(sha256s)].map((sha) => sql`${sha}`));
  if (dialect === 'postgres') {
    const query = sql`to_tsquery('simple', ${tsQuery(words)})`;
    const result = await sql<ContentPageMatch>`select distinct on (p.sha256) p.sha256, p.page,
        p.text
      from content_pages p where p.sha256 in (${list}) and p.tsv @@ ${query}
      order by p.sha256, ts_rank(p.tsv, ${query}) desc, p.page`.execute(db);
    for (const row of result.rows) best.set(row.sha256, row);
    return best;
  }
  // The pages' ranks first (bm25: lower is better), then the chosen pages' text.
  const ranked = await sql<{ sha256: string; page: number; score: number }>`select p.sha256,
      p.page, bm25(content_fts) as score
    from content_fts join content_pages p on p.rid = content_fts.rowid
    where content_fts match ${ftsMatch(words)} and p.sha256 in (${list})`.execute(db);
  const chosen = new Map<string, { page: number; score: number }>();
  for (const row of ranked.rows) {
    const held = chosen.get(row.sha256);
    if (!held || row.score < held.score || (row.score === held.score && row.page < held.page)) {
      chosen.set(row.sha256, { page: row.page, score: row.score });
    }
  }
  if (chosen.size === 0) return best;
  const pairs = [...chosen].map(([sha, { page }]) => sql`(sha256 = ${sha} and page = ${page})`);
  const texts = await sql<ContentPageMatch>`select sha256, page, text from content_pages
    where ${sql.join(pairs, sql` or `)}`.execute(db);
  for (const row of texts.rows) best.set(row.sha256, row);
  return best;
}

/**
 * Autocomplete candidates matching by content: live ready files of a firm whose bytes have a page
 * holding every word (the last as a prefix), read by one full-text lookup and stopped after
 * `limit` pages (a file with several matching pages comes once per page; the caller keeps the
 * first). With no visibility condition (the caller filters with its folder tree). On SQLite the
 * join order is forced (CROSS JOIN) so the full-text index drives and the LIMIT stops it early.
 */
export async function autocompleteContentCandidates(
  db: Executor,
  dialect: SearchDialect,
  databaseId: string,
  words: string[],
  limit: number,
): Promise<AutocompleteCandidate[]> {
  if (words.length === 0) return [];
  const columns = candidateColumns(databaseId);
  const result =
    dialect === 'postgres'
      ? await sql<AutocompleteCandidate>`select ${sql.lit(CONTENT_TIER)} as tier, ${columns}
          from content_pages p join files f on f.sha256 = p.sha256
            join search_documents d on d.id = f.id
          where p.tsv @@ to_tsquery('simple', ${tsQuery(words)}) and f.database_id = ${databaseId}
            and f.status = 'ready' and ${liveIn(databaseId)}
          limit ${limit}`.execute(db)
      : await sql<AutocompleteCandidate>`select ${sql.lit(CONTENT_TIER)} as tier, ${columns}
          from content_fts c cross join content_pages p cross join files f
            cross join search_documents d
          where c.content_fts match ${ftsMatch(words)} and p.rid = c.rowid
            and f.sha256 = p.sha256 and f.database_id = ${databaseId} and f.status = 'ready'
            and d.id = f.id and ${liveIn(databaseId)}
          limit ${limit}`.execute(db);
  return result.rows;
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
