/**
 * Autocomplete, search and filtered lists (issue 9 item 5; SPEC sections 1, 3, 7 "Entities", 9).
 *
 * Text matches item names, applied index values and the names of contacts linked to folders (a
 * file does not inherit its folder's contacts); every word of the query must match a word, the last
 * one as a prefix (repositories/search.ts). Ranking: exact name matches (whole name, or name without its extension) first, then names
 * starting with the query, then the others. Results are limited to the session's firm, leave out
 * folders hidden from the session (access.ts `visibility`) and everything in them, pending files,
 * and archived items unless `filters.archived`.
 *
 * Cost of an autocomplete: the hidden-roots query (cached per request), up to three index reads
 * of at most 10 rows (exact, prefix, text — a later tier is skipped once 10 hits are found), the
 * rows, favorites and colours of the hits, and one recursive query for all the hits' paths.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '../../common/constants';
import { FILE_CATEGORIES } from '../../common/files';
import { datePresetRange } from '../../common/history';
import { nameKey } from '../../common/names';
import {
  AUTOCOMPLETE_LIMIT,
  normalizeSearchQuery,
  SEARCH_MAX_QUERY_LENGTH,
  SEARCH_MESSAGES,
  SEARCH_MIN_QUERY_LENGTH,
  type AutocompleteResponse,
  type SearchFilters,
  type SearchHitDto,
  type SearchMatch,
  type SearchPathItem,
  type SearchResponse,
} from '../../common/search';
import type { EntityDto } from '../../common/types';
import { badRequest } from '../errors';
import { findFilesByIds } from '../repositories/files';
import { findFoldersByIds } from '../repositories/folders';
import { folderChains } from '../repositories/lists';
import {
  exactNameHits,
  favoriteEntityIds,
  hiddenFolderList,
  indexValueEntityIds,
  prefixNameHits,
  searchDocuments,
  subtreeFolderIds,
  textHits,
  type DocumentConditions,
  type DocumentRow,
  type SearchScope,
  type TextQuery,
} from '../repositories/search';
import { accessibleFolder, visibility } from './access';
import type { RequestContext, Services } from './context';
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

/**
 * Where a row matched the words: a part matches when every word is the start of one of its words
 * (the name), or when any word starts one of its words (index values, contact names).
 */
export function matchedIn(row: DocumentRow, words: string[]): SearchMatch[] {
  if (words.length === 0) return [];
  const starts = (text: string, word: string) => queryWords(text).some((w) => w.startsWith(word));
  const matched: SearchMatch[] = [];
  if (words.every((w) => starts(row.name, w))) matched.push('name');
  if (words.some((w) => starts(row.index_text, w))) matched.push('index');
  if (words.some((w) => starts(row.contact_text, w))) matched.push('contact');
  return matched;
}

/** Reads, presents and decorates rows in their order, with one path query for all of them. */
async function hitsFor(
  services: Services,
  ctx: RequestContext,
  rows: DocumentRow[],
  words: string[],
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
  const { folders, files } = await presentEntities(services, ctx, folderRows, fileRows);
  const byId = new Map<string, EntityDto>([...folders, ...files].map((e) => [e.id, e]));
  const root: SearchPathItem = { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME };
  const hits: SearchHitDto[] = [];
  for (const row of rows) {
    const entity = byId.get(row.id);
    if (!entity) continue;
    const path = [root, ...(chains.get(row.parent_id) ?? [])];
    hits.push({ ...entity, path, matched_in: matchedIn(row, words) });
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
 * @param query the typed text; under SEARCH_MIN_QUERY_LENGTH characters answers no items
 * @throws AppError 400 query_too_long
 */
export async function autocomplete(
  services: Services,
  ctx: RequestContext,
  query: string,
): Promise<AutocompleteResponse> {
  const normalized = normalizeSearchQuery(query);
  checkLength(normalized);
  if (normalized.length < SEARCH_MIN_QUERY_LENGTH) return { query, items: [] };
  const text = textQuery(normalized);
  const rows = await autocompleteRows(services, ctx, text);
  return { query, items: await hitsFor(services, ctx, rows, text.words) };
}

/**
 * The ranked rows of an autocomplete, before they are read and presented: exact name matches,
 * then name prefixes, then text matches (a tier is skipped once AUTOCOMPLETE_LIMIT are found).
 * Exported for the benchmark, which times it apart from the presentation.
 */
export async function autocompleteRows(
  services: Services,
  ctx: RequestContext,
  text: TextQuery,
): Promise<DocumentRow[]> {
  const { db } = services;
  const { roots, folderVisible } = await visibility(db, ctx);
  const listed =
    roots.length > 0 ? await hiddenFolderList(db, ctx.databaseId, roots, SUBTREE_LIST_CAP) : null;
  const scope: SearchScope = {
    databaseId: ctx.databaseId,
    archived: false,
    folderVisible: listed ?? folderVisible,
  };
  const rows = await exactNameHits(db, scope, text.key, AUTOCOMPLETE_LIMIT);
  if (rows.length < AUTOCOMPLETE_LIMIT) {
    rows.push(
      ...(await prefixNameHits(
        db,
        scope,
        text.key,
        rows.map((r) => r.id),
        AUTOCOMPLETE_LIMIT - rows.length,
      )),
    );
  }
  if (rows.length < AUTOCOMPLETE_LIMIT) {
    rows.push(
      ...(await textHits(
        db,
        services.dialect,
        scope,
        text.words,
        rows.map((r) => r.id),
        AUTOCOMPLETE_LIMIT - rows.length,
      )),
    );
  }
  return rows;
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
 * {@link autocomplete} ranks, then by name; without, folders first, then by name.
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
  const { rows, total } = await searchDocuments(
    db,
    services.dialect,
    scope,
    conditions,
    text,
    offset,
    limit,
  );
  return {
    items: await hitsFor(services, ctx, rows, text?.words ?? []),
    page,
    page_size: pageSize,
    total,
  };
}
