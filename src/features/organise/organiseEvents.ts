/**
 * The organising events any feature may dispatch or listen to: the folder page, the
 * Archive, Favorites and Recent pages and the side panel all ask for the same actions, and the
 * organise saga (organiseSagas.ts) calls the API, shows the success toast with Undo, and announces
 * what changed with `organise/itemsChanged` so every list can update itself.
 * Payloads are plain JSON (ids, names), never DTO instances with Dates.
 */
import { createAction } from '@reduxjs/toolkit';
import type { EntityDto, EntityRef } from '@common/entities';
import type { BulkItemResult, FolderColorKey } from '@common/organise';

/** What an organising action did, for the lists that show the items. */
export type OrganiseChange =
  | 'renamed'
  | 'moved'
  | 'copied'
  | 'archived'
  | 'restored'
  | 'destroyed'
  | 'favorited'
  | 'unfavorited'
  | 'colored';

/** Announced after the server confirmed a change (and again after its undo). */
export interface ItemsChanged {
  change: OrganiseChange;
  /** The items as the server answered them, when it answered whole items (rename, favorite…). */
  entities: EntityDto[];
  /** The items a bulk call changed, with what their undo needs. */
  results: BulkItemResult[];
  /** Move and copy: the target folder ('' for the root). */
  targetFolderId?: string;
  /** True when this change is the undo of an earlier one. */
  undo?: boolean;
  /** 'colored': the colour the items now have ('default': none of the user's own). */
  color?: FolderColorKey;
}

export const organiseEvents = {
  /** Renames one item; `previousName` (the name shown) is what Undo renames it back to. */
  renameRequested: createAction<{ item: EntityRef; name: string; previousName?: string }>(
    'organise/renameRequested',
  ),
  moveRequested: createAction<{ items: EntityRef[]; folderId: string; folderName: string }>(
    'organise/moveRequested',
  ),
  copyRequested: createAction<{ folderId: string; parentId: string }>('organise/copyRequested'),
  archiveRequested: createAction<{ items: EntityRef[] }>('organise/archiveRequested'),
  restoreRequested: createAction<{ items: EntityRef[] }>('organise/restoreRequested'),
  destroyRequested: createAction<{ items: EntityRef[] }>('organise/destroyRequested'),
  favoriteRequested: createAction<{ item: EntityRef; enabled: boolean }>(
    'organise/favoriteRequested',
  ),
  colorRequested: createAction<{ items: EntityRef[]; color: FolderColorKey }>(
    'organise/colorRequested',
  ),
  /** Opens the "Move to…" folder picker for these items. */
  moveDialogOpened: createAction<{ items: EntityRef[] }>('organise/moveDialogOpened'),
  /** Starts a zip download of a folder (the browser downloads GET folders/{id}/download). */
  folderDownloadRequested: createAction<{ folderId: string }>('organise/folderDownloadRequested'),
  /** Downloads the selected items as one zip (POST entities/zip, then the browser GETs it). */
  selectionDownloadRequested: createAction<{ items: EntityRef[] }>(
    'organise/selectionDownloadRequested',
  ),
  /** "Make a copy": copies each file beside itself under the next free name. */
  fileCopyRequested: createAction<{ items: EntityRef[] }>('organise/fileCopyRequested'),
  itemsChanged: createAction<ItemsChanged>('organise/itemsChanged'),
  /** A request failed; `message` is the server's (or the spec's) text. */
  actionFailed: createAction<{ action: string; message: string }>('organise/actionFailed'),
};
