/**
 * The search panel's filter items (SPEC section 2 "Search: query, searching flag, search term,
 * filter items") and their two translations: to and from the URL query of /search (so a search is
 * a deep link that survives a reload) and to the request filters of the API (SearchFilters of
 * common/search.ts, dates resolved at the moment of asking in the browser's time zone).
 *
 * URL query: `q` (the search term), `type` (repeated, Folder or a file type category of SPEC
 * section 3: Video, Image, Document, PDF, Spreadsheet, Audio, Presentation, Other), `date` (a date preset of
 * SPEC section 9: Today … This year), `index` (repeated, `<index field id>:<value>`), `favorites=1`,
 * `folder` and `folder_name` (within a folder), `archived=1`, `content=0` (the term only in
 * names, index values and contacts, not in the text of files; absent: also in file text). Unknown
 * or malformed values, and other parameters (the side panel's, the viewer's), are ignored.
 */
import { DATE_PRESETS, datePresetRange, type DatePreset } from '@common/history';
import {
  SEARCH_TYPES,
  isSearchableQuery,
  type SearchFilters,
  type SearchType,
} from '@common/search';

/** One filter of the search panel; serializable (the store keeps them). */
export type SearchFilterItem =
  | { kind: 'type'; category: SearchType }
  | { kind: 'date'; preset: DatePreset }
  | { kind: 'index'; fieldId: string; value: string }
  | { kind: 'favorites' }
  | { kind: 'folder'; folderId: string; name: string }
  | { kind: 'archived' };

/** What the search page shows: the term and the filter items. */
export interface SearchView {
  term: string;
  filterItems: SearchFilterItem[];
  /**
   * true: the term is looked for only in names, index values and contacts; absent or false: also
   * in the text of files (SearchFilters.content). Not a filter item: it narrows the term only.
   */
  namesOnly?: boolean;
}

/** A stable key of a filter item (list keys, duplicates). */
export function filterItemKey(item: SearchFilterItem): string {
  switch (item.kind) {
    case 'type':
      return `type:${item.category}`;
    case 'date':
      return `date:${item.preset}`;
    case 'index':
      return `index:${item.fieldId}:${item.value}`;
    case 'folder':
      return `folder:${item.folderId}`;
    default:
      return item.kind;
  }
}

/**
 * Adds a filter item, replacing the one it cannot coexist with (one date preset, one folder) and
 * dropping an exact duplicate.
 * @returns a new list
 */
export function withFilterItem(
  items: readonly SearchFilterItem[],
  item: SearchFilterItem,
): SearchFilterItem[] {
  const key = filterItemKey(item);
  const kept = items.filter(
    (existing) =>
      filterItemKey(existing) !== key &&
      !(item.kind === 'date' && existing.kind === 'date') &&
      !(item.kind === 'folder' && existing.kind === 'folder'),
  );
  return [...kept, item];
}

/** Removes the filter item with `key` ({@link filterItemKey}); a new list. */
export function withoutFilterItem(
  items: readonly SearchFilterItem[],
  key: string,
): SearchFilterItem[] {
  return items.filter((item) => filterItemKey(item) !== key);
}

function isCategory(value: string): value is SearchType {
  return (SEARCH_TYPES as readonly string[]).includes(value);
}

function isPreset(value: string): value is DatePreset {
  return (DATE_PRESETS as readonly string[]).includes(value);
}

/**
 * Reads the search view of a URL query (`location.search`, with or without '?').
 * @returns the term (trimmed) and the valid filter items, in a stable order
 */
export function viewFromSearch(search: string): SearchView {
  const params = new URLSearchParams(search);
  let items: SearchFilterItem[] = [];
  for (const category of params.getAll('type')) {
    if (isCategory(category)) items = withFilterItem(items, { kind: 'type', category });
  }
  const date = params.get('date');
  if (date && isPreset(date)) items = withFilterItem(items, { kind: 'date', preset: date });
  for (const entry of params.getAll('index')) {
    const colon = entry.indexOf(':');
    if (colon <= 0) continue;
    const value = entry.slice(colon + 1);
    if (value.trim() === '') continue;
    items = withFilterItem(items, { kind: 'index', fieldId: entry.slice(0, colon), value });
  }
  if (params.get('favorites') === '1') items = withFilterItem(items, { kind: 'favorites' });
  const folder = params.get('folder');
  if (folder) {
    items = withFilterItem(items, {
      kind: 'folder',
      folderId: folder,
      name: params.get('folder_name') ?? '',
    });
  }
  if (params.get('archived') === '1') items = withFilterItem(items, { kind: 'archived' });
  const view: SearchView = { term: (params.get('q') ?? '').trim(), filterItems: items };
  if (params.get('content') === '0') view.namesOnly = true;
  return view;
}

/**
 * The URL query of a search view (without '?'): what {@link viewFromSearch} reads back.
 */
export function searchFromView(view: SearchView): string {
  const params = new URLSearchParams();
  if (view.term.trim()) params.set('q', view.term.trim());
  for (const item of view.filterItems) {
    switch (item.kind) {
      case 'type':
        params.append('type', item.category);
        break;
      case 'date':
        params.set('date', item.preset);
        break;
      case 'index':
        params.append('index', `${item.fieldId}:${item.value}`);
        break;
      case 'favorites':
        params.set('favorites', '1');
        break;
      case 'folder':
        params.set('folder', item.folderId);
        if (item.name) params.set('folder_name', item.name);
        break;
      case 'archived':
        params.set('archived', '1');
        break;
    }
  }
  if (view.namesOnly) params.set('content', '0');
  return params.toString();
}

/** The /search path of a view: `/search?q=…&…`. */
export function searchPath(view: SearchView): string {
  const query = searchFromView(view);
  return query ? `/search?${query}` : '/search';
}

/**
 * The request filters of a view, with a date preset resolved at `now` (local midnight
 * boundaries, exclusive end; common/history.ts datePresetRange).
 * @param view the term and filter items
 * @param now the moment of asking
 * @returns SearchFilters for POST entities/search or entities/filtered
 */
export function filtersForView(view: SearchView, now: Date): SearchFilters {
  const filters: SearchFilters = {};
  const term = view.term.trim();
  if (term) filters.query = term;
  if (term && view.namesOnly) filters.content = false;
  const types = view.filterItems.flatMap((item) => (item.kind === 'type' ? [item.category] : []));
  if (types.length > 0) filters.types = types;
  const indexValues = view.filterItems.flatMap((item) =>
    item.kind === 'index' ? [{ index_field_id: item.fieldId, value: item.value }] : [],
  );
  if (indexValues.length > 0) filters.index_values = indexValues;
  for (const item of view.filterItems) {
    if (item.kind === 'date') {
      const range = datePresetRange(item.preset, now);
      filters.date_from = range.start;
      filters.date_to = range.end;
    } else if (item.kind === 'favorites') filters.favorites_only = true;
    else if (item.kind === 'folder') filters.folder_id = item.folderId;
    else if (item.kind === 'archived') filters.archived = true;
  }
  return filters;
}

/** Whether a view asks for anything (a term or at least one filter). */
export function viewHasCriteria(view: SearchView): boolean {
  return view.term.trim() !== '' || view.filterItems.length > 0;
}

/**
 * Whether a view can be sent: it asks for something, and its term, if any, has at least
 * SEARCH_MIN_QUERY_LENGTH characters (a shorter one is refused by the server).
 */
export function viewIsSearchable(view: SearchView): boolean {
  return viewHasCriteria(view) && (view.term.trim() === '' || isSearchableQuery(view.term));
}
