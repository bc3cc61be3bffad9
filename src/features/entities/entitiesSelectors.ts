/** Selectors of the entities slice (the folder view). */
import { createSelector } from '@reduxjs/toolkit';
import { fileKind, type FileKind } from '@common/files';
import { awaitsThumbnail, isViewable } from '@common/imaging';
import { formatDate, formatSize } from '@common/format';
import type { FolderSortKey } from '@common/sort';
import type { EntityDto } from '@common/entities';
import type { RootState } from '@src/store/rootReducer';
import { selectFolderItems } from '../folderEvents';

/** The whole entities slice. */
export const selectEntitiesState = (state: RootState) => state.entities;
/** The open folder's id and name. */
export const selectCurrentFolder = (state: RootState) => state.entities.folder;
/** Loading state of the open folder's details. */
export const selectFolderDetails = (state: RootState) => state.entities.details;
/** The breadcrumbs from the top-level folder down to the open folder. */
export const selectBreadcrumbs = (state: RootState) => state.entities.breadcrumbs;
/** The loaded items of the open folder, in list order (defined in folderEvents.ts). */
export { selectFolderItems };
/** How many items the open folder holds. */
export const selectFolderTotal = (state: RootState) => state.entities.total;
/** Loading state of the first page. */
export const selectListRequest = (state: RootState) => state.entities.list;
/** Loading state of the next page. */
export const selectMoreRequest = (state: RootState) => state.entities.more;
/** The create-folder dialog's state. */
export const selectCreateFolder = (state: RootState) => state.entities.createFolder;

/** How the open folder is sorted. */
export const selectFolderSort = (state: RootState) => state.entities.sort;

/**
 * The `aria-sort` of a column header showing these sort columns: ascending or descending when the
 * list is sorted by one of them, none otherwise.
 */
export function selectAriaSort(
  state: RootState,
  columns: readonly FolderSortKey[],
): 'ascending' | 'descending' | 'none' {
  const { sort, order } = state.entities.sort;
  if (!columns.includes(sort)) return 'none';
  return order === 'asc' ? 'ascending' : 'descending';
}

/** Whether more items remain on the server beyond the loaded ones. */
export const selectHasMoreItems = createSelector(
  [selectFolderItems, selectFolderTotal],
  (items, total) => items.length < total,
);

/** One row of the folder list, ready to display. */
export interface EntityRow {
  id: string;
  type: EntityDto['type'];
  name: string;
  kind: FileKind;
  /** Formatted size; '—' for folders. */
  sizeText: string;
  /** Formatted date of the last change (or creation). */
  dateText: string;
  /** The ISO timestamp behind `dateText`. */
  date: string;
  /** Derived: the current user has an enabled favorite entry. */
  favorite: boolean;
  /** Folders: the current user's palette colour (a FOLDER_COLORS key); null for none and files. */
  color: string | null;
  /**
   * Whether the item is a file the viewer shows (`isViewable`: the browser shows it safely, or
   * document imaging makes a PDF rendition of it): its name and Preview open the viewer;
   * otherwise it offers a download. Always false for folders.
   */
  previewable: boolean;
  /** A file whose first-page thumbnail is stored (FileDto.thumbnail); false for folders. */
  thumbnail: boolean;
  /** A file without one yet whose type document imaging thumbnails (`makesThumbnail`). */
  thumbnailAwaited: boolean;
}

/** Display text for a size that does not apply (folders). */
export const NO_SIZE = '—';

/** Builds the display row of an item. */
export function toEntityRow(item: EntityDto): EntityRow {
  const date = item.updated_at || item.created_at;
  return {
    id: item.id,
    type: item.type,
    name: item.name,
    kind: item.type === 'folder' ? 'folder' : fileKind({ type: 'file', extension: item.extension }),
    sizeText: item.type === 'folder' ? NO_SIZE : formatSize(item.size),
    dateText: formatDate(date),
    date,
    favorite: item.favorite,
    color: item.type === 'folder' ? item.color : null,
    previewable: item.type === 'file' && isViewable(item.extension, item.content_type ?? ''),
    thumbnail: item.type === 'file' && item.thumbnail === true,
    thumbnailAwaited: item.type === 'file' && awaitsThumbnail(item),
  };
}

/** The rows of the folder list: icon kind, formatted size and date per item. */
export const selectEntityRows = createSelector([selectFolderItems], (items) =>
  items.map(toEntityRow),
);
