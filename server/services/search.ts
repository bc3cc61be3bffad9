/**
 * Autocomplete, search and filtered lists (SPEC sections 1, 3, 7 "Entities", 9).
 *
 * Text matches item names, applied index values and the names of contacts linked to folders (a
 * file does not inherit its folder's contacts); every word of the query must match a word, the last
 * one as a prefix (repositories/search.ts). Ranking: exact name matches (whole name, or name without its extension) first, then names
 * starting with the query, then the others, then files found only by their text (one page of the
 * text document imaging derived holds every word; `filters.content` false leaves them out). Results are limited to the session's firm, leave out
 * folders hidden from the session (access.ts `visibility`) and everything in them, pending files,
 * and archived items unless `filters.archived`.
 *
 * Cost of an autocomplete: the hidden-roots query (cached per request), up to three index reads
 * of at most 10 rows (exact, prefix, text — a later tier is skipped once 10 hits are found), the
 * rows, favorites and colours of the hits, and one recursive query for all the hits' paths.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { ROOT_FOLDER_ID } from '@common/constants';
import { FILE_CATEGORIES } from '@common/files';
import { datePresetRange } from '@common/history';
import { nameKey } from '@common/names';
import {
  AUTOCOMPLETE_LIMIT,
  normalizeSearchQuery,
  SEARCH_MAX_QUERY_LENGTH,
  SEARCH_MESSAGES,
  SEARCH_MIN_QUERY_LENGTH,
  type AutocompleteHitDto,
  type AutocompleteResponse,
  type SearchFilters,
  type SearchHitDto,
  type SearchMatch,
  type SearchPathItem,
  type SearchResponse,
} from '@common/search';
import type { EntityDto } from '@common/entities';
import { badRequest } from '../errors';
import { findFilesByIds } from '../repositories/files';
import { findFoldersByIds } from '../repositories/folders';
import { folderChains } from '../repositories/lists';
import {
  autocompleteCandidatesAtOnce,
  autocompleteContentCandidates,
  autocompleteHits,
  bestContentPages,
  CONTENT_TIER,
  autocompleteNameCandidates,
  autocompleteTextCandidates,
  autocompleteTextMatches,
  favoriteEntityIds,
  indexValueEntityIds,
  searchDocuments,
  subtreeFolderIds,
  type AutocompleteCandidate,
  type AutocompleteMatch,
  type DocumentConditions,
  type DocumentRow,
  type SearchScope,
  type TextQuery,
} from '../repositories/search';
import { accessibleFolder, assertRole, visibility } from './access';
import {
  folderTreeCacheFor,
  hiddenIn,
  hiddenRootsIn,
  pathOf,
  ROOT_PATH_ITEM,
  type FolderTree,
} from './folderTree';
import type { RequestContext, Services } from './context';
import { contentSnippet } from './contentSnippet';
import { presentEntities } from './lists';
import { pageWindow } from './paging';

dayjs.extend(utc);

/**
 * The words of a query as the index holds them: lowercased, NFC, split on anything that is not a
 * Unicode letter or digit.
 * @param query normalised query text
 * @returns the words, in order, without empties
 */
export function queryWords(query: string): string[] {
  return query
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The text query of a normalised query (its name key and words). */
export function textQuery(query: string): TextQuery {
  return { key: nameKey(query), words: queryWords(query) };
}

/** Whether a character code is a Unicode letter or digit (the index's word characters). */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Whether some word of `text` (lowercased) starts with `word` (lowercased): an occurrence of
 * `word` at the start of `text` or after a character that is not a letter or digit. Found with
 * indexOf rather than by splitting the text into words: this runs for every part of every hit.
 */
function startsAWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at === 0) return true;
    const before = text.charCodeAt(at - 1);
    // ASCII letters and digits directly; anything else by the Unicode classes.
    if (before < 0x80) {
      const ascii = (before | 0x20) >= 0x61 && (before | 0x20) <= 0x7a;
      if (!ascii && !(before >= 0x30 && before <= 0x39)) return true;
    } else {
      // The character before, whole when it is the second half of a surrogate pair.
      const low = before >= 0xdc00 && before <= 0xdfff && at >= 2;
      if (!WORD_CHAR.test(text.slice(low ? at - 2 : at - 1, at))) return true;
    }
  }
  return false;
}

/**
 * Where a row matched the words: a part matches when every word is the start of one of its words
 * (the name), or when any word starts one of its words (index values, contact names).
 * @param row the hit's name, index text and contact text
 * @param words the query's words ({@link queryWords}: lowercased, NFC)
 */
export function matchedIn(
  row: Pick<DocumentRow, 'name' | 'index_text' | 'contact_text'>,
  words: string[],
): SearchMatch[] {
  if (words.length === 0) return [];
  const lower = (text: string) => text.normalize('NFC').toLowerCase();
  const matched: SearchMatch[] = [];
  const name = lower(row.name);
  if (words.every((w) => startsAWord(name, w))) matched.push('name');
  if (row.index_text !== '') {
    const index = lower(row.index_text);
    if (words.some((w) => startsAWord(index, w))) matched.push('index');
  }
  if (row.contact_text !== '') {
    const contacts = lower(row.contact_text);
    if (words.some((w) => startsAWord(contacts, w))) matched.push('contact');
  }
  return matched;
}

/**
 * Reads, presents and decorates rows in their order, with one path query for all of them; with
 * `content`, each file whose text has a page holding every word gets that page and its snippet
 * (one query for the page's files) and 'content' in `matched_in`.
 */
async function hitsFor(
  services: Services,
  ctx: RequestContext,
  rows: DocumentRow[],
  words: string[],
  content = false,
): Promise<SearchHitDto[]> {
  const { db } = services;
  const [folderRows, fileRows, chains] = await Promise.all([
    findFoldersByIds(
      db,
      ctx.databaseId,
      rows.filter((r) => r.entity_type === 'folder').map((r) => r.id),
    ),
    findFilesByIds(
      db,
      ctx.databaseId,
      rows.filter((r) => r.entity_type === 'file').map((r) => r.id),
    ),
    folderChains(
      db,
      ctx.databaseId,
      rows.map((r) => r.parent_id),
    ),
  ]);
  const [{ folders, files }, pages] = await Promise.all([
    presentEntities(services, ctx, folderRows, fileRows),
    content
      ? bestContentPages(
          db,
          services.dialect,
          fileRows.flatMap((f) => (f.sha256 ? [f.sha256] : [])),
          words,
        )
      : null,
  ]);
  const shaOf = new Map(fileRows.map((f) => [f.id, f.sha256]));
  const byId = new Map<string, EntityDto>([...folders, ...files].map((e) => [e.id, e]));
  const hits: SearchHitDto[] = [];
  for (const row of rows) {
    const entity = byId.get(row.id);
    if (!entity) continue;
    const path = [ROOT_PATH_ITEM, ...(chains.get(row.parent_id) ?? [])];
    const hit: SearchHitDto = { ...entity, path, matched_in: matchedIn(row, words) };
    const sha256 = row.entity_type === 'file' ? shaOf.get(row.id) : null;
    const page = sha256 ? pages?.get(sha256) : undefined;
    if (page) {
      hit.matched_in.push('content');
      hit.content = { page: page.page, snippet: contentSnippet(page.text, words) };
    }
    hits.push(hit);
  }
  return hits;
}

/** Refuses a query over the length limit. */
function checkLength(query: string): void {
  if (query.length > SEARCH_MAX_QUERY_LENGTH) {
    throw badRequest(SEARCH_MESSAGES.queryTooLong, 'query_too_long');
  }
}

/**
 * Autocomplete (GET /api/rest/entities/search/autocomplete?query): at most AUTOCOMPLETE_LIMIT live
 * items of the session's firm visible to it, exact name matches first, then name prefix matches,
 * then other text matches; each with its path from Root and where it matched.
 *
 * The hits are read without their paths (the name B-trees, then the full-text index when needed),
 * and their paths and visibility come from the firm's folder tree in memory
 * ({@link autocompleteFromTree}); whenever that cannot answer exactly, one statement
 * (repositories/search.ts autocompleteHits) answers the ranked, visible hits with their paths.
 * @param query the typed text; under SEARCH_MIN_QUERY_LENGTH characters answers no items
 * @throws AppError 400 query_too_long
 */
export async function autocomplete(
  services: Services,
  ctx: RequestContext,
  query: string,
): Promise<AutocompleteResponse> {
  assertRole(ctx, 'read');
  const normalized = normalizeSearchQuery(query);
  checkLength(normalized);
  if (normalized.length < SEARCH_MIN_QUERY_LENGTH) return { query, items: [] };
  const text = textQuery(normalized);
  const fromTree = await autocompleteFromTree(services, ctx, text);
  if (fromTree) return { query, items: fromTree };
  const rows = await autocompleteHits(services.db, services.dialect, {
    databaseId: ctx.databaseId,
    text,
    hiddenFor: ctx.role === 'admin' ? null : ctx.userId,
    limit: AUTOCOMPLETE_LIMIT,
    content: true,
  });
  return {
    query,
    items: rows.map((row) =>
      autocompleteHit(
        row,
        [ROOT_PATH_ITEM, ...row.path.map(([id, name]) => ({ id, name }))],
        text.words,
        Number(row.tier) === CONTENT_TIER,
      ),
    ),
  };
}

/**
 * An autocomplete hit of a row, the path of its folder (Root first, as pathOf makes it; shared, so
 * only read), the query's words and whether it was found by content.
 */
function autocompleteHit(
  row: Pick<
    AutocompleteCandidate,
    'id' | 'entity_type' | 'name' | 'extension' | 'parent_id' | 'index_text' | 'contact_text'
  >,
  path: readonly SearchPathItem[],
  words: string[],
  byContent = false,
): AutocompleteHitDto {
  const matched = matchedIn(row, words);
  if (byContent) matched.push('content');
  return {
    id: row.id,
    type: row.entity_type,
    name: row.name,
    extension: row.extension,
    parent_id: row.parent_id,
    path: path as SearchPathItem[],
    matched_in: matched,
  };
}

/**
 * Most content pages an autocomplete reads (one full-text lookup stopped there): the files they
 * belong to follow the name and text hits, up to AUTOCOMPLETE_LIMIT in all. A file with many
 * matching pages, or many hidden files, may leave fewer content hits than exist: the search box
 * offers a sample, the results page the whole answer.
 */
export const AUTOCOMPLETE_CONTENT_PAGES = 40;

/**
 * Hits of the in-memory path followed, while fewer than AUTOCOMPLETE_LIMIT, by files matching by
 * content (visible per the firm's folder tree), or null when a folder is missing from the tree
 * (the caller then reads the exact statement).
 */
async function withContentHits(
  services: Services,
  ctx: RequestContext,
  text: TextQuery,
  hits: AutocompleteHitDto[],
): Promise<AutocompleteHitDto[] | null> {
  if (hits.length >= AUTOCOMPLETE_LIMIT || text.words.length === 0) return hits;
  const rows = await autocompleteContentCandidates(
    services.db,
    services.dialect,
    ctx.databaseId,
    text.words,
    AUTOCOMPLETE_CONTENT_PAGES,
  );
  const known = new Set(hits.map((h) => h.id));
  const fresh: AutocompleteCandidate[] = [];
  for (const row of rows) {
    if (known.has(row.id)) continue;
    known.add(row.id);
    fresh.push(row);
  }
  if (fresh.length === 0) return hits;
  const view = await treeView(services, ctx, fresh);
  if (!view) return null;
  const all = [...hits];
  for (const candidate of visibleIn(view, fresh)) {
    if (all.length >= AUTOCOMPLETE_LIMIT) break;
    const path = pathOf(view.tree, candidate.parent_id);
    if (!path) return null;
    all.push(autocompleteHit(candidate, path, text.words, true));
  }
  return all;
}

/**
 * Autocomplete with the firm's folder tree in memory (services/folderTree.ts): on SQLite the name
 * tiers by the name B-trees, then, only when they hold fewer than AUTOCOMPLETE_LIMIT visible items,
 * the text tier by the full-text index; on PostgreSQL every tier in one statement (one round trip).
 * Visibility and paths come from the tree at least as new as the version the reads saw. While
 * fewer than AUTOCOMPLETE_LIMIT hits are found, files matching by content follow
 * ({@link withContentHits}: one full-text lookup, at most AUTOCOMPLETE_CONTENT_PAGES pages). The tiers
 * are read with room for the limit (a member's with {@link AUTOCOMPLETE_HIDDEN_SLACK} more); when a
 * member's hidden items leave them short while a tier was cut at that room, they are read again
 * with {@link AUTOCOMPLETE_HIDDEN_ROOM} times the limit; if that is still not enough, or the firm's
 * tree is too large to keep, it answers null and the caller reads the exact statement instead.
 * @returns the hits, or null when this path cannot answer exactly
 */
export async function autocompleteFromTree(
  services: Services,
  ctx: RequestContext,
  text: TextQuery,
): Promise<AutocompleteHitDto[] | null> {
  const rooms =
    ctx.role === 'admin'
      ? [AUTOCOMPLETE_LIMIT]
      : [
          AUTOCOMPLETE_LIMIT + AUTOCOMPLETE_HIDDEN_SLACK,
          AUTOCOMPLETE_LIMIT * AUTOCOMPLETE_HIDDEN_ROOM,
        ];
  for (const room of rooms) {
    const answer = await autocompleteFromTreeWithin(services, ctx, text, room);
    if (answer === 'cut') continue;
    return answer && withContentHits(services, ctx, text, answer);
  }
  return null;
}

/**
 * Rows beyond the limit that a member's autocomplete reads from each tier on its first try on the
 * in-memory path, so that one or two hidden items are no reason to read again (each row read
 * costs about 3 µs; with 1% of the items hidden, 1 in 10 answers of 10 holds a hidden one and 1 in
 * 200 of 11 holds two).
 */
export const AUTOCOMPLETE_HIDDEN_SLACK = 2;

/**
 * How many times the limit a member's autocomplete reads from each tier on its second try on the
 * in-memory path, after hidden items left the first short.
 */
export const AUTOCOMPLETE_HIDDEN_ROOM = 4;

/**
 * One try of {@link autocompleteFromTree}, each tier read with `room` rows at most.
 * @returns the hits; 'cut' when hidden items left them short of the limit while a tier was cut at
 *   `room` (more visible items may follow); null when the tree is too large to keep
 */
async function autocompleteFromTreeWithin(
  services: Services,
  ctx: RequestContext,
  text: TextQuery,
  room: number,
): Promise<AutocompleteHitDto[] | null | 'cut'> {
  const { db } = services;
  const limit = AUTOCOMPLETE_LIMIT;
  if (services.dialect === 'postgres') {
    if (selectiveQuery(text)) {
      // One GIN lookup finds every match of a selective query, name tiers included; ranked here.
      const matches = await autocompleteTextMatches(
        db,
        ctx.databaseId,
        text.words,
        AUTOCOMPLETE_RANKED_MATCHES,
      );
      if (matches.length <= AUTOCOMPLETE_RANKED_MATCHES) {
        if (matches.length === 0) return [];
        const ranked = rankMatches(text.key, matches);
        const view = await treeView(services, ctx, ranked);
        return view ? hitsOf(view, visibleIn(view, ranked), text.words) : null;
      }
    }
    // One round trip for every tier; the text tier leaves the names' range out by itself.
    const rows = await autocompleteCandidatesAtOnce(db, ctx.databaseId, text, room);
    if (rows.length === 0) return [];
    const view = await treeView(services, ctx, rows);
    if (!view) return null;
    const visible = visibleIn(view, rows);
    if (visible.length < limit && rows.length >= room) return 'cut';
    return hitsOf(view, visible, text.words);
  }
  const named = await autocompleteNameCandidates(db, ctx.databaseId, text.key, room);
  let view = named.length > 0 ? await treeView(services, ctx, named) : null;
  if (named.length > 0 && !view) return null;
  let candidates = view ? visibleIn(view, named) : [];
  if (candidates.length < limit) {
    // A tier cut at its room could hold more visible names than were read.
    if (named.length >= room) return 'cut';
    // Every name match is known, so the text matches among them are left out; the text tier is
    // read with room for them.
    const textRoom = room + named.length;
    const texts = await autocompleteTextCandidates(db, ctx.databaseId, text.words, textRoom);
    const known = new Set(named.map((c) => c.id));
    const others = texts.filter((c) => !known.has(c.id));
    if (others.length > 0) {
      view = await treeView(services, ctx, texts, view);
      if (!view) return null;
      candidates = [...visibleIn(view, named), ...visibleIn(view, others)];
    }
    if (candidates.length < limit && texts.length >= textRoom) return 'cut';
  }
  return view ? hitsOf(view, candidates, text.words) : [];
}

/**
 * The first AUTOCOMPLETE_LIMIT visible candidates as hits, with their paths from the tree, or null
 * when a folder is missing from it (the caller then reads the exact statement).
 */
function hitsOf(
  view: TreeView,
  candidates: AutocompleteCandidate[],
  words: string[],
): AutocompleteHitDto[] | null {
  const hits: AutocompleteHitDto[] = [];
  for (let i = 0; i < candidates.length && i < AUTOCOMPLETE_LIMIT; i += 1) {
    const candidate = candidates[i]!;
    const path = pathOf(view.tree, candidate.parent_id);
    if (!path) return null;
    hits.push(autocompleteHit(candidate, path, words));
  }
  return hits;
}

/**
 * Most text matches of a selective query that PostgreSQL autocomplete reads and ranks itself
 * (one GIN lookup); a query matching more reads the tiers instead.
 */
export const AUTOCOMPLETE_RANKED_MATCHES = 200;

/**
 * Whether a query is likely to match few items (several words, or one of four characters or
 * more), so that reading all its text matches is cheaper than reading the tiers apart.
 */
function selectiveQuery(text: TextQuery): boolean {
  return text.words.length >= 2 || (text.words[0]?.length ?? 0) >= 4;
}

/** Compares two strings by code point, as PostgreSQL's "C" collation orders the keys. */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/**
 * Every text match of a query ranked as the tiers rank them (repositories/search.ts
 * nameTierArms): exact names, then names starting with the query, then the others by id. For a
 * query without a dot, by the name without extension, then the name; with a dot, the exact stems
 * by name, then the exact whole names by id, then the prefixes by name. `tier` is set on each.
 */
export function rankMatches(key: string, matches: AutocompleteMatch[]): AutocompleteMatch[] {
  const dotted = key.includes('.');
  // [tier, group within the tier, first key, second key]
  const rank = (m: AutocompleteMatch): [number, number, string, string] => {
    if (!dotted) {
      if (m.stem_key === key) return [0, 0, m.name_key, ''];
      if (m.stem_key.startsWith(key)) return [1, 0, m.stem_key, m.name_key];
      return [2, 0, '', ''];
    }
    if (m.stem_key === key) return [0, 0, m.name_key, ''];
    if (m.name_key === key) return [0, 1, '', ''];
    if (m.name_key.startsWith(key)) return [1, 0, m.name_key, ''];
    return [2, 0, '', ''];
  };
  const ranked = matches.map((m) => ({ m, r: rank(m) }));
  ranked.sort(
    (a, b) =>
      a.r[0] - b.r[0] ||
      a.r[1] - b.r[1] ||
      byCodePoint(a.r[2], b.r[2]) ||
      byCodePoint(a.r[3], b.r[3]) ||
      byCodePoint(a.m.id, b.m.id),
  );
  return ranked.map(({ m, r }) => {
    m.tier = r[0];
    return m;
  });
}

/** A firm's folder tree for some candidates, and the session's hidden roots in it. */
interface TreeView {
  tree: FolderTree;
  hiddenRoots: ReadonlySet<string>;
}

/**
 * The firm's folder tree at least as new as the newest version these candidates' statements saw
 * (and as `previous`, when given), with the session's hidden roots; null when it is too large to
 * keep.
 */
async function treeView(
  services: Services,
  ctx: RequestContext,
  candidates: readonly AutocompleteCandidate[],
  previous: TreeView | null = null,
): Promise<TreeView | null> {
  let version = previous?.tree.version ?? 0;
  for (const c of candidates) version = Math.max(version, Number(c.tree_version));
  if (previous && previous.tree.version >= version) return previous;
  const tree = await folderTreeCacheFor(services.db).tree(services.db, ctx.databaseId, version);
  if (!tree) return null;
  const hiddenRoots = ctx.role === 'admin' ? NOTHING_HIDDEN : hiddenRootsIn(tree, ctx.userId);
  return { tree, hiddenRoots };
}

const NOTHING_HIDDEN: ReadonlySet<string> = new Set();

/** The candidates outside the view's hidden subtrees, in their order. */
function visibleIn(view: TreeView, candidates: AutocompleteCandidate[]): AutocompleteCandidate[] {
  if (view.hiddenRoots.size === 0) return candidates;
  return candidates.filter((c) => !hiddenIn(view.tree, c.scope_id, view.hiddenRoots));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date filter bound as an ISO UTC moment; a bare day is its start, or (as an end) the next. */
function dateBound(value: string, end: boolean): string {
  const parsed = DAY.test(value) ? dayjs.utc(value) : dayjs(value);
  if (!parsed.isValid()) throw badRequest(`Invalid date: ${value}`, 'invalid_date');
  return (end && DAY.test(value) ? parsed.add(1, 'day') : parsed).toISOString();
}

/**
 * Most subtree folder ids, items of index values or favorites passed as a list (beyond, the
 * condition stays a subquery).
 */
const SUBTREE_LIST_CAP = 5000;

const LISTED_EXTENSIONS: string[] = Object.values(FILE_CATEGORIES).flat();

/** Turns the API filters into repository conditions (validating dates and the folder). */
async function conditionsOf(
  services: Services,
  ctx: RequestContext,
  filters: SearchFilters,
): Promise<DocumentConditions> {
  const conditions: DocumentConditions = {};
  if (filters.types && filters.types.length > 0) {
    const types = new Set(filters.types);
    conditions.kinds = {
      folders: types.has('Folder'),
      extensions: (Object.keys(FILE_CATEGORIES) as (keyof typeof FILE_CATEGORIES)[])
        .filter((c) => types.has(c))
        .flatMap((c) => [...FILE_CATEGORIES[c]]),
      otherThan: types.has('Other') ? LISTED_EXTENSIONS : null,
    };
  }
  if (filters.date_from || filters.date_to) {
    if (filters.date_from) conditions.createdFrom = dateBound(filters.date_from, false);
    if (filters.date_to) conditions.createdTo = dateBound(filters.date_to, true);
    if (
      conditions.createdFrom &&
      conditions.createdTo &&
      conditions.createdFrom >= conditions.createdTo
    ) {
      throw badRequest(SEARCH_MESSAGES.invalidDateRange, 'invalid_date_range');
    }
  } else if (filters.date_preset) {
    const range = datePresetRange(filters.date_preset, new Date(services.clock()));
    conditions.createdFrom = range.start;
    conditions.createdTo = range.end;
  }
  if (filters.index_values && filters.index_values.length > 0) {
    const byField = new Map<string, string[]>();
    for (const { index_field_id: fieldId, value } of filters.index_values) {
      byField.set(fieldId, [...(byField.get(fieldId) ?? []), value.trim()]);
    }
    conditions.indexValues = await Promise.all(
      [...byField].map(async ([fieldId, values]) => ({
        fieldId,
        values,
        entityIds: await indexValueEntityIds(
          services.db,
          ctx.databaseId,
          fieldId,
          values,
          SUBTREE_LIST_CAP,
        ),
      })),
    );
  }
  if (filters.favorites_only) {
    conditions.favoritesOf = ctx.userId;
    conditions.favoriteIds = await favoriteEntityIds(
      services.db,
      ctx.databaseId,
      ctx.userId,
      SUBTREE_LIST_CAP,
    );
  }
  if (filters.folder_id && filters.folder_id !== ROOT_FOLDER_ID) {
    await accessibleFolder(services.db, ctx, filters.folder_id, 'read', {
      allowArchived: filters.archived === true,
    });
    conditions.within = {
      folderId: filters.folder_id,
      folderIds: await subtreeFolderIds(
        services.db,
        ctx.databaseId,
        filters.folder_id,
        SUBTREE_LIST_CAP,
      ),
    };
  }
  return conditions;
}

/**
 * Search (POST /api/rest/entities/search) and filtered lists (POST /api/rest/entities/filtered):
 * a page of the session's visible items matching every filter. With a query, ranked as
 * {@link autocomplete} ranks, then by name, then (unless `filters.content` is false) the files found
 * only by their text, by name; every file whose text matched carries its best page and a snippet
 * (`content`). Without a query, folders first, then by name.
 * @param options.requireQuery search: refuse a query under SEARCH_MIN_QUERY_LENGTH characters
 * @throws AppError 400 query_too_short, query_too_long, invalid_date, invalid_date_range; 404 when
 *   filters.folder_id is not a folder the session may see
 */
export async function searchEntities(
  services: Services,
  ctx: RequestContext,
  filters: SearchFilters,
  page: number,
  pageSize: number,
  options: { requireQuery: boolean },
): Promise<SearchResponse> {
  const { db } = services;
  const normalized = normalizeSearchQuery(filters.query);
  checkLength(normalized);
  if (options.requireQuery && normalized.length < SEARCH_MIN_QUERY_LENGTH) {
    throw badRequest(SEARCH_MESSAGES.queryTooShort, 'query_too_short');
  }
  const text = normalized.length > 0 ? textQuery(normalized) : null;
  const conditions = await conditionsOf(services, ctx, filters);
  const { folderVisible } = await visibility(db, ctx);
  const scope: SearchScope = {
    databaseId: ctx.databaseId,
    archived: filters.archived === true,
    folderVisible,
  };
  const { offset, limit } = pageWindow(page, pageSize);
  const content = filters.content !== false && text !== null && text.words.length > 0;
  const { rows, total } = await searchDocuments(
    db,
    services.dialect,
    scope,
    conditions,
    text,
    offset,
    limit,
    content,
  );
  return {
    items: await hitsFor(services, ctx, rows, text?.words ?? [], content),
    page,
    page_size: pageSize,
    total,
  };
}
