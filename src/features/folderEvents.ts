/**
 * The folder view's event and selector that other features listen to or read (organise resets its
 * selection when a folder opens and orders the selection by the open folder's items). They live
 * here, not in the entities feature, so that features depend on each other one way only: entities
 * uses organise, and both use this module.
 */
import { createAction } from '@reduxjs/toolkit';
import type { FolderSort } from '@common/sort';
import type { RootState } from '../store/rootReducer';

/**
 * A folder was opened (route /home or /home/folders/:folderId), or opened again in another
 * sort (`sort`: the address's `?sort=&order=`; null: the user's remembered sort; absent: the
 * same folder keeps its sort, another folder takes the remembered one).
 * The same folder opened again keeps its details when they were loaded.
 */
export const folderOpened = createAction<{ folderId: string; sort?: FolderSort | null }>(
  'entities/folderOpened',
);

/** The loaded items of the open folder, in list order. */
export const selectFolderItems = (state: RootState) => state.entities.items;
