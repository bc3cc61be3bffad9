/** Selectors of the organise slice: the selection (joined with the folder's rows), rename, picker. */
import { createSelector } from '@reduxjs/toolkit';
import type { EntityRef } from '@common/entities';
import type { RootState } from '@src/store/rootReducer';
import { selectFolderItems } from '../folderEvents';
import { selectCurrentRole } from '../session/sessionSelectors';

/** The selected ids (a set). */
const selectSelectedIdSet = (state: RootState) => state.organise.selection.ids;
/** The row a Shift-click or Shift-arrow range starts from, or null before any. */
export const selectSelectionAnchor = (state: RootState) => state.organise.selection.anchorId;
/** Whether one row is selected. */
export const selectIsSelected = (state: RootState, id: string) =>
  state.organise.selection.ids[id] === true;
/** The inline rename in progress. */
export const selectRename = (state: RootState) => state.organise.rename;
/** The folder picker dialog. */
export const selectPickerDialog = (state: RootState) => state.organise.dialog;
/** The folder picker's loaded levels by parent id. */
export const selectPickerLevels = (state: RootState) => state.organise.picker;
/** The organising request in flight. */
export const selectOrganiseRequest = (state: RootState) => state.organise.request;

/**
 * Whether the user may rename, move, copy and archive in the current firm database (a read_only
 * member may not; favorites and colours are personal and stay open to everyone).
 */
export const selectCanOrganise = createSelector(
  [selectCurrentRole],
  (role) => role !== 'read_only',
);

/** The loaded rows' ids in list order (what a Shift-click range and select all work on). */
export const selectOrderedIds = createSelector([selectFolderItems], (items) =>
  items.map((item) => item.id),
);

/** The selected items of the open folder, in list order, as refs with their names. */
export const selectSelectedItems = createSelector(
  [selectFolderItems, selectSelectedIdSet],
  (items, ids): (EntityRef & { name: string })[] =>
    items
      .filter((item) => ids[item.id] === true)
      .map((item) => ({ id: item.id, type: item.type, name: item.name })),
);

/** How many rows are selected. */
export const selectSelectedCount = createSelector(
  [selectSelectedItems],
  (selected) => selected.length,
);

/** The header checkbox: 'all' when every loaded row is selected, 'some', or 'none'. */
export const selectSelectAllState = createSelector(
  [selectFolderItems, selectSelectedCount],
  (items, count): 'all' | 'some' | 'none' =>
    count === 0 ? 'none' : count >= items.length ? 'all' : 'some',
);
