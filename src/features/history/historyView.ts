/**
 * The History page's filters as the user sees them (a "view"), and their two translations: to and
 * from the URL query (so a filtered view can be shared and survives a reload) and to the request
 * filters of the API (dates resolved at the moment of asking, in the browser's time zone).
 *
 * URL query: `date` (today, yesterday, this-week, this-month, this-quarter, this-year or custom),
 * `from` and `to` (YYYY-MM-DD, inclusive, with date=custom), `type` (repeated, one per activity
 * type: added, log-in, permission-added, ...), `user` (a user id), `entity` (an entity type),
 * `item` and `item_name` (one folder or file). Unknown or malformed values are ignored.
 */
import dayjs from 'dayjs';
import {
  DATE_PRESETS,
  datePresetRange,
  HISTORY_FILTER_LABELS,
  type DatePreset,
  type HistoryLabel,
} from '@common/history';
import type { HistoryEntityType, HistoryFilters } from '@common/history';

/** Page size of the history list and of the per-item panel. */
export const HISTORY_PAGE_SIZE = 50;
/** Days the stats chart covers when no date filter is chosen. */
export const DEFAULT_STATS_DAYS = 30;

/** The date filter: a preset, a custom range, or none (all time). */
export type DateChoice = DatePreset | 'custom' | null;

/** The filters of the History page, serializable (the store keeps it). */
export interface HistoryView {
  date: DateChoice;
  /** First day of a custom range, YYYY-MM-DD. */
  from: string | null;
  /** Last day of a custom range (inclusive), YYYY-MM-DD. */
  to: string | null;
  /** Activity-type labels, in the spec's order. */
  types: HistoryLabel[];
  user: string | null;
  entity: HistoryEntityType | null;
  /** One folder or file, and its name for display. */
  item: string | null;
  itemName: string | null;
}

/** The view with no filter. */
export const EMPTY_VIEW: HistoryView = {
  date: null,
  from: null,
  to: null,
  types: [],
  user: null,
  entity: null,
  item: null,
  itemName: null,
};

/** Entity types the "Item type" filter offers, with their labels. */
export const ENTITY_TYPE_OPTIONS: readonly { value: HistoryEntityType; label: string }[] = [
  { value: 'folder', label: 'Folders' },
  { value: 'file', label: 'Files' },
  { value: 'user', label: 'Users' },
  { value: 'folder_contact', label: 'Contacts' },
  { value: 'folder_permission', label: 'Permissions' },
  { value: 'share_link', label: 'Invites' },
  { value: 'external_share', label: 'Shares' },
  { value: 'applied_index', label: 'Indexes' },
];

/** URL form of a label or preset: "This week" → "this-week". */
export function slug(text: string): string {
  return text.toLowerCase().replace(/\s+/g, '-');
}

const PRESET_BY_SLUG = new Map<string, DatePreset>(DATE_PRESETS.map((p) => [slug(p), p]));
const LABEL_BY_SLUG = new Map<string, HistoryLabel>(
  HISTORY_FILTER_LABELS.map(({ label }) => [slug(label), label]),
);
const LABEL_ORDER = new Map<string, number>(
  HISTORY_FILTER_LABELS.map(({ label }, i) => [label, i]),
);
const ENTITY_TYPES = new Set<string>(ENTITY_TYPE_OPTIONS.map((o) => o.value));

/** Whether a text is a real calendar date written YYYY-MM-DD. */
function isDay(text: string | null): text is string {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return dayjs(text).format('YYYY-MM-DD') === text;
}

/** Sorts labels in the spec's order, without duplicates. */
export function orderLabels(labels: Iterable<HistoryLabel>): HistoryLabel[] {
  return [...new Set(labels)].sort((a, b) => LABEL_ORDER.get(a)! - LABEL_ORDER.get(b)!);
}

/**
 * Reads the view from a URL query.
 * @param search the query, with or without its leading '?'
 * @returns the view; what is unknown or malformed is left out
 */
export function viewFromSearch(search: string): HistoryView {
  const params = new URLSearchParams(search);
  const view: HistoryView = { ...EMPTY_VIEW };
  const date = params.get('date');
  if (date === 'custom') {
    const from = params.get('from');
    const to = params.get('to');
    if (isDay(from) && isDay(to) && from <= to) Object.assign(view, { date: 'custom', from, to });
  } else if (date && PRESET_BY_SLUG.has(date)) {
    view.date = PRESET_BY_SLUG.get(date)!;
  }
  view.types = orderLabels(
    params
      .getAll('type')
      .map((t) => LABEL_BY_SLUG.get(t))
      .filter((l): l is HistoryLabel => l !== undefined),
  );
  view.user = params.get('user') || null;
  const entity = params.get('entity');
  view.entity = entity && ENTITY_TYPES.has(entity) ? (entity as HistoryEntityType) : null;
  view.item = params.get('item') || null;
  view.itemName = view.item ? params.get('item_name') || null : null;
  return view;
}

/**
 * Writes the view as a URL query (without '?'), in a stable order; an empty view gives ''.
 * `viewFromSearch(searchFromView(v))` equals `v` for every valid view.
 */
export function searchFromView(view: HistoryView): string {
  const params = new URLSearchParams();
  if (view.date === 'custom' && view.from && view.to) {
    params.set('date', 'custom');
    params.set('from', view.from);
    params.set('to', view.to);
  } else if (view.date && view.date !== 'custom') {
    params.set('date', slug(view.date));
  }
  for (const label of orderLabels(view.types)) params.append('type', slug(label));
  if (view.user) params.set('user', view.user);
  if (view.entity) params.set('entity', view.entity);
  if (view.item) {
    params.set('item', view.item);
    if (view.itemName) params.set('item_name', view.itemName);
  }
  return params.toString();
}

/** Whether the view filters anything. */
export function hasFilters(view: HistoryView): boolean {
  return searchFromView(view) !== '';
}

/** A time range as the API takes it: ISO UTC, start inclusive, end exclusive. */
export interface TimeRange {
  start: string;
  end: string;
}

/**
 * The date range of the view, resolved at `now` in the browser's time zone, or null for all time.
 * A custom range runs from local midnight of its first day to local midnight after its last.
 */
function rangeOfView(view: HistoryView, now: Date): TimeRange | null {
  if (view.date === 'custom' && view.from && view.to) {
    return {
      start: dayjs(view.from).startOf('day').toISOString(),
      end: dayjs(view.to).add(1, 'day').startOf('day').toISOString(),
    };
  }
  if (view.date && view.date !== 'custom') return datePresetRange(view.date, now);
  return null;
}

/** The request filters of a view at `now` (POST REST/history and the export). */
export function filtersForView(view: HistoryView, now: Date): HistoryFilters {
  const filters: HistoryFilters = {};
  const range = rangeOfView(view, now);
  if (range) Object.assign(filters, range);
  if (view.types.length > 0) filters.labels = [...view.types];
  if (view.user) filters.user_id = view.user;
  if (view.entity) filters.entity_type = view.entity;
  if (view.item) filters.item_id = view.item;
  return filters;
}

/** The range of the stats chart: the view's dates, or the last 30 days up to today. */
export function statsRangeForView(view: HistoryView, now: Date): TimeRange {
  const range = rangeOfView(view, now);
  if (range) return range;
  const tomorrow = dayjs(now).startOf('day').add(1, 'day');
  return {
    start: tomorrow.subtract(DEFAULT_STATS_DAYS, 'day').toISOString(),
    end: tomorrow.toISOString(),
  };
}

/** The browser's IANA time zone (UTC when it cannot tell). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
