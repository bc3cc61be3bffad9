/**
 * The orders the folder view reads its folders and files in (issue "sort by column"): a list of
 * columns ending with the id, all in one direction, each backed by a partial index over live rows
 * (0006 for names, 0022 for the others). A keyset position is the values of those columns of the
 * last row read; the next page is the rows after it, one index range read.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FolderSort } from '@common/sort';

/** A column a folder-view order reads (the id always comes last). */
export type ListColumn = 'name_key' | 'updated_at' | 'size' | 'extension' | 'id';

/** The columns and direction of one list's order. */
export interface ListOrder {
  columns: readonly ListColumn[];
  desc: boolean;
}

/** A keyset position: the values of the order's columns of a row, in the order's column order. */
export type ListPosition = readonly (string | number)[];

/**
 * The order of a folder's subfolders for a sort: by modified time for `modified`, otherwise by
 * name (folders have no size or type), then id, in the sort's direction.
 */
export function folderListOrder(sort: FolderSort): ListOrder {
  const columns: ListColumn[] =
    sort.sort === 'modified' ? ['updated_at', 'id'] : ['name_key', 'id'];
  return { columns, desc: sort.order === 'desc' };
}

/**
 * The order of a folder's files for a sort: name (name_key), modified (updated_at), size, or type
 * (extension, then name_key), then id, in the sort's direction.
 */
export function fileListOrder(sort: FolderSort): ListOrder {
  const byKey: Record<FolderSort['sort'], ListColumn[]> = {
    name: ['name_key', 'id'],
    modified: ['updated_at', 'id'],
    size: ['size', 'id'],
    type: ['extension', 'name_key', 'id'],
  };
  return { columns: byKey[sort.sort], desc: sort.order === 'desc' };
}

/** The position of a row in an order (size as a number, everything else as text). */
export function positionOf(
  order: ListOrder,
  row: { [K in ListColumn]?: string | number | null },
): ListPosition {
  return order.columns.map((c) => (c === 'size' ? Number(row[c] ?? 0) : String(row[c] ?? '')));
}

/**
 * `(columns) > (position)` (ascending) or `<` (descending) on `table`'s columns: the rows after a
 * position. A row-value comparison, which both databases read as an index range.
 */
export function afterPosition(
  table: 'folders' | 'files',
  order: ListOrder,
  position: ListPosition,
): RawBuilder<boolean> {
  const refs = sql.join(order.columns.map((c) => sql.ref(`${table}.${c}`)));
  const values = sql.join(position.map((v) => sql`${v}`));
  return sql<boolean>`(${refs}) ${sql.raw(order.desc ? '<' : '>')} (${values})`;
}
