/** Selectors of the collections slice (the Archive, Favorites and Recent pages). */
import { createSelector } from '@reduxjs/toolkit';
import { fileKind, type FileKind } from '@common/files';
import { awaitsThumbnail, isViewable } from '@common/imaging';
import { formatDate, formatSize, relativeDate } from '@common/format';
import type { EntityDto } from '@common/entities';
import type { HistoryAction } from '@common/history';
import type { RootState } from '@src/store/rootReducer';
import type { CollectionKind, FolderPath } from './collectionsSlice';

/** The Archive list. */
export const selectArchive = (state: RootState) => state.collections.archive;
/** The Favorites list. */
export const selectFavorites = (state: RootState) => state.collections.favorites;
/** The Recent list. */
const selectRecent = (state: RootState) => state.collections.recent;
/** One list by kind. */
export const selectCollection = (state: RootState, kind: CollectionKind) => state.collections[kind];
/** Archive page: the selected ids. */
export const selectArchiveSelection = (state: RootState) => state.collections.selected;
/** Ids with a request in flight. */
export const selectPendingIds = (state: RootState) => state.collections.pending;
/** A folder's path, if known or loading. */
export const selectFolderPath = (state: RootState, folderId: string): FolderPath | undefined =>
  state.collections.paths[folderId];

/** Display text of a size that does not apply (folders). */
export const NO_SIZE = '—';

/** What each recent action reads as on the Recent page ("what"). */
const RECENT_ACTION_TEXT: Partial<Record<HistoryAction, string>> = {
  create: 'Added',
  update: 'Updated',
  rename: 'Renamed',
  move: 'Moved',
  copy: 'Copied',
  restore: 'Restored',
  archive: 'Archived',
  download: 'Downloaded',
  preview: 'Previewed',
  add_version: 'New version',
  restore_version: 'Version restored',
};

/** The words of a recent action; unknown actions read as "Changed". */
function recentActionText(action: string): string {
  return RECENT_ACTION_TEXT[action as HistoryAction] ?? 'Changed';
}

/** The parent folder of an item ('' for the root). */
function parentIdOf(item: EntityDto): string {
  return item.type === 'folder' ? item.parent_id : item.folder_id;
}

/** What every collection row shows. */
export interface CollectionRow {
  id: string;
  type: EntityDto['type'];
  name: string;
  kind: FileKind;
  favorite: boolean;
  /** A folder's colour key for the current user, else null. */
  color: string | null;
  /** Formatted size; {@link NO_SIZE} for folders. */
  sizeText: string;
  /** The parent folder's id ('' for the root), for the "where" column. */
  parentId: string;
  /** The parent's path as the server sent it (archived items), else null. */
  parentPath: string | null;
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

/** An Archive row: when the item was archived. */
export interface ArchiveRow extends CollectionRow {
  archivedAt: string;
  archivedText: string;
}

/** A Recent row: when and what. */
export interface RecentRow extends CollectionRow {
  at: string;
  /** Relative date (SPEC section 9: "Just Now", "2 days ago", or the date). */
  whenText: string;
  /** The absolute date, for the tooltip. */
  dateText: string;
  whatText: string;
}

/** A Favorites row: the last change. */
export interface FavoriteRow extends CollectionRow {
  updatedAt: string;
  dateText: string;
}

/** The fields every row shares. */
function toCollectionRow(item: EntityDto & { parent_path?: string }): CollectionRow {
  return {
    id: item.id,
    type: item.type,
    name: item.name,
    kind: item.type === 'folder' ? 'folder' : fileKind({ type: 'file', extension: item.extension }),
    favorite: item.favorite,
    color: item.type === 'folder' ? item.color : null,
    sizeText: item.type === 'folder' ? NO_SIZE : formatSize(item.size),
    parentId: parentIdOf(item),
    parentPath: typeof item.parent_path === 'string' ? item.parent_path : null,
    previewable: item.type === 'file' && isViewable(item.extension, item.content_type ?? ''),
    thumbnail: item.type === 'file' && item.thumbnail === true,
    thumbnailAwaited: item.type === 'file' && awaitsThumbnail(item),
  };
}

/** The Archive rows. */
export const selectArchiveRows = createSelector([selectArchive], (list): ArchiveRow[] =>
  list.items.map((item) => ({
    ...toCollectionRow(item),
    archivedAt: item.archived_at ?? '',
    archivedText: formatDate(item.archived_at),
  })),
);

/** The Favorites rows. */
export const selectFavoriteRows = createSelector([selectFavorites], (list): FavoriteRow[] =>
  list.items.map((item) => ({
    ...toCollectionRow(item),
    updatedAt: item.updated_at,
    dateText: formatDate(item.updated_at),
  })),
);

/**
 * The Recent rows. `now` (epoch ms) is the reference of the relative dates; the page passes the
 * time it rendered at, tests a fixed one.
 */
export const selectRecentRows = createSelector(
  [selectRecent, (_state: RootState, now: number) => now],
  (list, now): RecentRow[] =>
    list.items.map((item) => ({
      ...toCollectionRow(item),
      at: item.recent_at,
      whenText: relativeDate(item.recent_at, now),
      dateText: formatDate(item.recent_at),
      whatText: recentActionText(item.recent_action),
    })),
);

/** Archive page: the selected items as references for the organise events. */
export const selectSelectedArchiveRefs = createSelector(
  [selectArchive, selectArchiveSelection],
  (list, selected) => {
    const chosen = new Set(selected);
    return list.items
      .filter((item) => chosen.has(item.id))
      .map((item) => ({ id: item.id, type: item.type }));
  },
);
