/**
 * The order of a folder's contents, as the server sends it: folders first, then files, each by the
 * list's sort (common/sort.ts) and then by id, all in the sort's direction.
 */
import { nameKey } from '@common/names';
import {
  DEFAULT_FOLDER_SORT,
  isFolderSortKey,
  parseFolderSort,
  type FolderSort,
} from '@common/sort';
import type { EntityDto } from '@common/entities';

/** Code-unit comparison of two keys (the server's keys compare alike in both databases). */
function compareKeys(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The values an item is ordered by under a sort (folders have no size or type: by name). */
function orderValues(item: EntityDto, sort: FolderSort): (string | number)[] {
  if (sort.sort === 'modified') return [item.updated_at];
  if (item.type === 'folder' || sort.sort === 'name') return [nameKey(item.name)];
  if (sort.sort === 'size') return [item.size];
  return [item.extension, nameKey(item.name)];
}

/**
 * Compares two items in list order: folders before files, then by the sort's values, then by id,
 * in the sort's direction (default: by case-insensitive name, A to Z).
 * @returns negative when `a` comes first, positive when `b` does, 0 only for the same id
 */
export function compareEntities(
  a: EntityDto,
  b: EntityDto,
  sort: FolderSort = DEFAULT_FOLDER_SORT,
): number {
  if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
  const sign = sort.order === 'desc' ? -1 : 1;
  const valuesA = [...orderValues(a, sort), a.id];
  const valuesB = [...orderValues(b, sort), b.id];
  for (let i = 0; i < valuesA.length; i += 1) {
    const c = compareKeys(valuesA[i]!, valuesB[i]!);
    if (c !== 0) return sign * c;
  }
  return 0;
}

/**
 * The sort the address names (`?sort=modified&order=desc`), or null when it names none or a value
 * not allowed (the user's preference applies then). A sort without an order is ascending.
 */
export function folderSortFromSearch(search: URLSearchParams | string): FolderSort | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const sort = params.get('sort');
  if (!isFolderSortKey(sort)) return null;
  const parsed = parseFolderSort(sort, params.get('order') ?? undefined);
  return parsed.ok ? parsed.value : { sort, order: 'asc' };
}

/** Whether two sorts are the same. */
export function sameSort(a: FolderSort, b: FolderSort): boolean {
  return a.sort === b.sort && a.order === b.order;
}
