/**
 * Sorting the folder view by column (name, modified, size, type), ascending or descending. The
 * server orders `GET /entities` by it, the client keeps it in the address (`?sort=&order=`) and
 * as the user's preference. Folders always come first; folders have no size or type, so those
 * sorts order the folders by name (in the same direction).
 */
import { formatMessage, MESSAGES } from './messages';

/** The columns the folder view sorts by. */
export const FOLDER_SORT_KEYS = ['name', 'modified', 'size', 'type'] as const;
/** A column the folder view sorts by. */
export type FolderSortKey = (typeof FOLDER_SORT_KEYS)[number];

/** The directions of a sort. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
/** A direction of a sort. */
export type SortOrder = (typeof SORT_ORDERS)[number];

/** How the folder view is sorted. */
export interface FolderSort {
  sort: FolderSortKey;
  order: SortOrder;
}

/** The sort of a user without a preference: by name, A to Z. */
export const DEFAULT_FOLDER_SORT: FolderSort = { sort: 'name', order: 'asc' };

/** The name of the folder view's sort among the user's preferences. */
export const FOLDER_SORT_PREFERENCE = 'folder_sort';

/** A value as a message shows it (a string as is, anything else as JSON). */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether a value is a sort column. */
export function isFolderSortKey(value: unknown): value is FolderSortKey {
  return (FOLDER_SORT_KEYS as readonly unknown[]).includes(value);
}

/** Whether a value is a sort direction. */
function isSortOrder(value: unknown): value is SortOrder {
  return (SORT_ORDERS as readonly unknown[]).includes(value);
}

/**
 * Reads a sort and order as sent (query parameters, a stored preference).
 * @param sort the column; absent means `fallback`'s
 * @param order the direction; absent means ascending (or `fallback`'s when `sort` is absent too)
 * @returns the sort, or the message (MESSAGES.invalidSort / invalidOrder) of a value not allowed
 */
export function parseFolderSort(
  sort: unknown,
  order: unknown,
  fallback: FolderSort = DEFAULT_FOLDER_SORT,
): { ok: true; value: FolderSort } | { ok: false; message: string } {
  if (sort !== undefined && !isFolderSortKey(sort)) {
    return {
      ok: false,
      message: formatMessage(MESSAGES.invalidSort, {
        value: shown(sort),
        allowed: FOLDER_SORT_KEYS.join(', '),
      }),
    };
  }
  if (order !== undefined && !isSortOrder(order)) {
    return {
      ok: false,
      message: formatMessage(MESSAGES.invalidOrder, {
        value: shown(order),
        allowed: SORT_ORDERS.join(', '),
      }),
    };
  }
  if (sort === undefined) {
    return { ok: true, value: { sort: fallback.sort, order: order ?? fallback.order } };
  }
  return { ok: true, value: { sort, order: order ?? 'asc' } };
}

/**
 * The sort after a click on a column header: the same column turns around, another column starts
 * ascending.
 */
export function nextFolderSort(current: FolderSort, column: FolderSortKey): FolderSort {
  if (current.sort !== column) return { sort: column, order: 'asc' };
  return { sort: column, order: current.order === 'asc' ? 'desc' : 'asc' };
}

/** GET /api/rest/preferences: the signed-in user's preferences (defaults for those never set). */
export interface PreferencesDto {
  /** How the folder view is sorted when the address names no sort. */
  folder_sort: FolderSort;
}
