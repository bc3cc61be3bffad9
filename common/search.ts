/**
 * Search: the filters, answers and limits shared by the client and the server (SPEC
 * section 1 "Search: query, searching flag, search term, filter items", section 3 file-type
 * categories, section 7 "Entities" search routes, section 9 date presets).
 *
 * Routes (all under the session, scoped to the current firm and to the folders it may see):
 * - `GET /api/rest/entities/search/autocomplete?query` → {@link AutocompleteResponse}
 * - `POST /api/rest/entities/search?page` with {@link SearchRequest} → {@link SearchResponse}
 *   (a query of at least {@link SEARCH_MIN_QUERY_LENGTH} characters is required)
 * - `POST /api/rest/entities/filtered?page` with {@link SearchRequest} → {@link SearchResponse}
 *   (the same filters; the query is optional, for a folder view)
 */
import type { FileCategory } from './files';
import { DATE_PRESETS, type DatePreset } from './history';
import type { Page } from './api';
import type { EntityDto } from './entities';

export { DATE_PRESETS, type DatePreset };

/** Most hits one autocomplete answer holds. */
export const AUTOCOMPLETE_LIMIT = 10;

/**
 * Fewest characters (after trimming) a query needs to match anything; a shorter autocomplete query
 * answers no items, and a shorter search query is refused with {@link SEARCH_MESSAGES.queryTooShort}.
 */
export const SEARCH_MIN_QUERY_LENGTH = 2;

/** Most characters of a query; longer queries are refused (400). */
export const SEARCH_MAX_QUERY_LENGTH = 200;

/** Items per page of search and filtered lists. */
export const SEARCH_PAGE_SIZE = 50;

/** The client waits this long after the last keystroke before asking for autocomplete, in ms. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 250;

/** Most index-value conditions one filter may hold. */
export const SEARCH_MAX_INDEX_VALUES = 20;

/**
 * A type filter value: a file-type category of SPEC section 3 ('Video', 'Image', 'Document', 'PDF',
 * 'Spreadsheet', 'Audio', 'Presentation', 'Other'; see `FILE_CATEGORIES` in common/files.ts), or
 * 'Folder' for folders (SPEC: "An item with no extension is a Folder").
 */
export type SearchType = FileCategory | 'Folder';

/** Every {@link SearchType}, in display order. */
export const SEARCH_TYPES: readonly SearchType[] = [
  'Folder',
  'Video',
  'Image',
  'Document',
  'PDF',
  'Spreadsheet',
  'Audio',
  'Presentation',
  'Other',
];

/** One index-field condition: the item has a live applied index of that field with that value. */
export interface SearchIndexValue {
  index_field_id: string;
  /**
   * Compared exactly (after trimming) with the applied value as stored: dates YYYY-MM-DD, numbers
   * as their decimal text, list values as listed (pick it from the field's applied values).
   */
  value: string;
}

/**
 * The filters of search and filtered lists. Every given filter must hold (AND); within `types`
 * and within one index field's values any may hold (OR).
 */
export interface SearchFilters {
  /**
   * Text matched in item names, applied index values and the names of contacts linked to folders
   * (case-insensitive; every word must match, the last one as a prefix).
   */
  query?: string;
  /** Any of these types; absent or empty means every type. */
  types?: SearchType[];
  /**
   * A date preset of SPEC section 9 on the item's created_at, resolved with the server's clock and
   * time zone. A client that knows the user's time zone may send `date_from`/`date_to` instead,
   * computed with `datePresetRange` of common/history.ts. Ignored when date_from or date_to is set.
   */
  date_preset?: DatePreset;
  /** created_at on or after this moment (ISO 8601) or day (YYYY-MM-DD, from its start, UTC). */
  date_from?: string;
  /** created_at before this moment (ISO 8601, exclusive) or on or before this day (YYYY-MM-DD). */
  date_to?: string;
  /** Items carrying these index values (all of the fields must match). */
  index_values?: SearchIndexValue[];
  /** Only the current user's favorites. */
  favorites_only?: boolean;
  /** Only items inside this folder's subtree (not the folder itself); '' or absent: everywhere. */
  folder_id?: string;
  /** true: only archived items; false or absent: only live items. */
  archived?: boolean;
  /**
   * Whether the query is also looked for in the text of files (extracted or recognised by document
   * imaging): true or absent, also in content; false, only in names, index values and contacts.
   * Matching by content needs every word on one page of the file (the last as a prefix).
   */
  content?: boolean;
}

/** Where a hit matched the query ('content': a page of the file's text). */
export type SearchMatch = 'name' | 'index' | 'contact' | 'content';

/**
 * One piece of a snippet: text to show as it is (never HTML), highlighted when `match` (a word of
 * the query).
 */
export interface SnippetSegment {
  text: string;
  match: boolean;
}

/** Where a file's text matched a query: the best page and the words around the match. */
export interface ContentMatchDto {
  /** The page, from 1 (the viewer's page number). */
  page: number;
  /**
   * The words around the best match on that page, in order; `…` starts or ends it where the page
   * text was cut. Whitespace runs are one space.
   */
  snippet: SnippetSegment[];
}

/** One ancestor of a hit, Root first (Root itself has id ''). */
export interface SearchPathItem {
  id: string;
  name: string;
}

/**
 * One search hit: the item as the lists answer it, its path and where it matched. `path` holds the
 * ancestors from Root (inclusive) down to the folder that holds the item (exclusive of the item).
 */
export type SearchHitDto = EntityDto & {
  path: SearchPathItem[];
  /** Empty for a filtered list without a query. */
  matched_in: SearchMatch[];
  /** For a file whose text matched (search with content), the best page and its snippet. */
  content?: ContentMatchDto;
};

/**
 * One autocomplete hit: what the search box shows (icon, name, path) and what opening it needs.
 * Lighter than a {@link SearchHitDto}: the box shows no size, dates, favorite or colour, so the
 * server reads and sends none of them (the results page and the side panel read the whole item).
 */
export interface AutocompleteHitDto {
  id: string;
  type: 'file' | 'folder';
  /** Full display name, with a file's extension. */
  name: string;
  /** A file's extension, lowercased ('' when none, and for folders). */
  extension: string;
  /** The folder holding the item ('' for the root): a file's folder_id, a folder's parent_id. */
  parent_id: string;
  /** Ancestors from Root (inclusive) down to the folder that holds the item. */
  path: SearchPathItem[];
  matched_in: SearchMatch[];
}

/** GET /api/rest/entities/search/autocomplete?query: at most {@link AUTOCOMPLETE_LIMIT} hits. */
export interface AutocompleteResponse {
  /** The query as received (so the client can drop answers to older queries). */
  query: string;
  /**
   * Exact name matches first, then name prefix matches, then the other text matches, then (only
   * when those are fewer than the limit) files matching by content (`matched_in` holds 'content').
   */
  items: AutocompleteHitDto[];
}

/** Body of POST /api/rest/entities/search and /api/rest/entities/filtered. */
export interface SearchRequest {
  filters: SearchFilters;
}

/** Answer of search and filtered lists: a page of hits (search ranks as autocomplete does). */
export type SearchResponse = Page<SearchHitDto>;

/** Messages of the search panel (worded for this product; the spec leaves them open). */
export const SEARCH_MESSAGES = {
  queryTooShort: `Type at least ${SEARCH_MIN_QUERY_LENGTH} characters to search.`,
  queryTooLong: `A search can hold at most ${SEARCH_MAX_QUERY_LENGTH} characters.`,
  noResults: 'No matching documents or folders.',
  searchFailed: 'Could not search. Please try again.',
  invalidDateRange: 'The start date must be before the end date.',
} as const;

/**
 * The query as the server matches it: trimmed, inner whitespace collapsed to one space.
 *
 * @param query raw text typed by the user (may be undefined)
 * @returns the normalised text ('' when blank)
 */
export function normalizeSearchQuery(query: string | undefined | null): string {
  return (query ?? '').trim().replace(/\s+/g, ' ');
}

/**
 * Whether a query is long enough to search (at least {@link SEARCH_MIN_QUERY_LENGTH} characters
 * after {@link normalizeSearchQuery}).
 *
 * @param query raw text
 * @returns true when it may be sent
 */
export function isSearchableQuery(query: string | undefined | null): boolean {
  return normalizeSearchQuery(query).length >= SEARCH_MIN_QUERY_LENGTH;
}
