/**
 * Organise slice: the folder page's selection (click, Ctrl/Cmd-click, Shift-click range,
 * select all), the inline rename in progress, the "Move to…"/"Copy to…" folder picker dialog and
 * the folders it has loaded, and the status of the organising request in flight. The requests
 * themselves are the shared events of organiseEvents.ts; the saga is organiseSagas.ts.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { EntityRef } from '@common/entities';
import type { Status } from '@src/store/status';
import { folderOpened } from '../folderEvents';
import { sessionActions } from '../session/sessionSlice';
import { organiseEvents } from './organiseEvents';

/** How a click changes the selection: plain click, Ctrl/Cmd-click, Shift-click. */
export type SelectModifier = 'none' | 'toggle' | 'range';

/** The selected rows of the open folder. */
export interface SelectionState {
  /** Selected item ids (a set: every value is true). */
  ids: Record<string, true>;
  /** Where a Shift-click range starts: the last row clicked without Shift; null before any. */
  anchorId: string | null;
}

/** The inline rename of one row. */
export interface RenameState {
  /** The row being renamed; null when no rename is open. */
  itemId: string | null;
  status: Status;
}

/** Which folder picker is open. */
export type PickerKind = 'move' | 'copy';

/** The "Move to…" / "Copy to…" dialog. */
export interface PickerDialogState {
  kind: PickerKind | null;
  /** What is moved (or the one folder copied). */
  items: EntityRef[];
}

/** A folder as the picker shows it. */
export interface PickerFolder {
  id: string;
  name: string;
}

/** The subfolders of one folder, as loaded for the picker. */
export interface PickerLevel {
  status: Status;
  folders: PickerFolder[];
  error: string | null;
}

/** The organising request in flight (move, archive, colour…), for the toolbar's busy state. */
export interface OrganiseRequest {
  action: string | null;
  status: Status;
}

/** The organise slice's state. */
export interface OrganiseState {
  selection: SelectionState;
  rename: RenameState;
  dialog: PickerDialogState;
  /** Picker levels by parent folder id ('' for the root); cleared when the dialog closes. */
  picker: Record<string, PickerLevel>;
  request: OrganiseRequest;
}

/** Nothing selected, nothing open. */
export const initialOrganiseState: OrganiseState = {
  selection: { ids: {}, anchorId: null },
  rename: { itemId: null, status: 'idle' },
  dialog: { kind: null, items: [] },
  picker: {},
  request: { action: null, status: 'idle' },
};

/** Removes ids from the selection (items moved away, archived or deleted). */
function unselect(state: OrganiseState, ids: readonly string[]): void {
  for (const id of ids) delete state.selection.ids[id];
  if (state.selection.anchorId && ids.includes(state.selection.anchorId)) {
    state.selection.anchorId = null;
  }
}

/** Marks a request as started. */
function started(state: OrganiseState, action: string): void {
  state.request = { action, status: 'loading' };
}

const organiseSlice = createSlice({
  name: 'organise',
  initialState: initialOrganiseState,
  reducers: {
    /**
     * A row (or its checkbox) was clicked. 'none' selects only that row and makes it the anchor;
     * 'toggle' adds or removes it and makes it the anchor; 'range' selects the rows from the anchor
     * to it in list order (replacing the selection) and keeps the anchor.
     * @param orderedIds the loaded rows' ids in list order (needed for 'range')
     */
    rowClicked(
      state,
      action: PayloadAction<{
        id: string;
        modifier: SelectModifier;
        orderedIds: readonly string[];
      }>,
    ) {
      const { id, modifier, orderedIds } = action.payload;
      const selection = state.selection;
      if (modifier === 'toggle') {
        if (selection.ids[id]) delete selection.ids[id];
        else selection.ids[id] = true;
        selection.anchorId = id;
        return;
      }
      if (modifier === 'range' && selection.anchorId !== null) {
        const from = orderedIds.indexOf(selection.anchorId);
        const to = orderedIds.indexOf(id);
        if (from >= 0 && to >= 0) {
          const ids: Record<string, true> = {};
          for (let index = Math.min(from, to); index <= Math.max(from, to); index += 1) {
            ids[orderedIds[index]!] = true;
          }
          selection.ids = ids;
          return;
        }
      }
      selection.ids = { [id]: true };
      selection.anchorId = id;
    },
    /** Select all (header checkbox, Ctrl/Cmd-A): every loaded row. */
    allSelected(state, action: PayloadAction<{ ids: readonly string[] }>) {
      const ids: Record<string, true> = {};
      for (const id of action.payload.ids) ids[id] = true;
      state.selection.ids = ids;
    },
    /** Esc, the toolbar's close button, or the header checkbox unticked. */
    selectionCleared(state) {
      state.selection = { ids: {}, anchorId: null };
    },
    /** F2 or the row menu's Rename opened the inline editor of a row. */
    renameStarted(state, action: PayloadAction<{ id: string }>) {
      state.rename = { itemId: action.payload.id, status: 'idle' };
    },
    /** Esc (or leaving the editor) closed it without saving. */
    renameCancelled(state) {
      state.rename = { itemId: null, status: 'idle' };
    },
    /** The row menu's "Copy to…" opened the picker for one folder. */
    copyDialogOpened(state, action: PayloadAction<{ item: EntityRef }>) {
      const { id, type } = action.payload.item;
      state.dialog = { kind: 'copy', items: [{ id, type }] };
      state.picker = {};
    },
    /** The picker was closed without choosing. */
    dialogClosed(state) {
      state.dialog = { kind: null, items: [] };
      state.picker = {};
    },
    /** The picker needs a folder's subfolders. */
    pickerLevelRequested(state, action: PayloadAction<{ parentId: string }>) {
      const known = state.picker[action.payload.parentId];
      if (known?.status === 'loading' || known?.status === 'succeeded') return;
      state.picker[action.payload.parentId] = { status: 'loading', folders: [], error: null };
    },
    /** A folder's subfolders arrived (every page). */
    pickerLevelLoaded(state, action: PayloadAction<{ parentId: string; folders: PickerFolder[] }>) {
      if (state.dialog.kind === null) return;
      state.picker[action.payload.parentId] = {
        status: 'succeeded',
        folders: action.payload.folders,
        error: null,
      };
    },
    /** A folder's subfolders could not be read. */
    pickerLevelFailed(state, action: PayloadAction<{ parentId: string; message: string }>) {
      if (state.dialog.kind === null) return;
      state.picker[action.payload.parentId] = {
        status: 'failed',
        folders: [],
        error: action.payload.message,
      };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(folderOpened, (state) => ({
        ...initialOrganiseState,
        request: state.request,
      }))
      .addCase(organiseEvents.moveDialogOpened, (state, action) => {
        state.dialog = {
          kind: 'move',
          items: action.payload.items.map(({ id, type }) => ({ id, type })),
        };
        state.picker = {};
      })
      .addCase(organiseEvents.renameRequested, (state) => {
        state.rename.status = 'loading';
      })
      .addCase(organiseEvents.moveRequested, (state) => {
        state.dialog = { kind: null, items: [] };
        state.picker = {};
        started(state, 'move');
      })
      .addCase(organiseEvents.copyRequested, (state) => {
        state.dialog = { kind: null, items: [] };
        state.picker = {};
        started(state, 'copy');
      })
      .addCase(organiseEvents.fileCopyRequested, (state) => started(state, 'duplicate'))
      .addCase(organiseEvents.archiveRequested, (state) => started(state, 'archive'))
      .addCase(organiseEvents.restoreRequested, (state) => started(state, 'restore'))
      .addCase(organiseEvents.destroyRequested, (state) => started(state, 'destroy'))
      .addCase(organiseEvents.colorRequested, (state) => started(state, 'color'))
      .addCase(organiseEvents.itemsChanged, (state, action) => {
        const { change, entities, results, undo } = action.payload;
        if (change === 'renamed') {
          if (entities.some((item) => item.id === state.rename.itemId)) {
            state.rename = { itemId: null, status: 'succeeded' };
          }
          return;
        }
        if (change === 'moved' || change === 'archived' || change === 'destroyed') {
          unselect(
            state,
            results.map((result) => result.id),
          );
        }
        if (change !== 'favorited' && change !== 'unfavorited' && !undo) {
          state.request = { action: state.request.action, status: 'succeeded' };
        }
      })
      .addCase(organiseEvents.actionFailed, (state, action) => {
        if (action.payload.action === 'rename') state.rename.status = 'failed';
        else if (state.request.action === action.payload.action) {
          state.request = { action: action.payload.action, status: 'failed' };
        }
      })
      .addCase(sessionActions.signedOut, () => initialOrganiseState)
      .addCase(sessionActions.expired, () => initialOrganiseState)
      .addCase(sessionActions.databaseSwitched, () => initialOrganiseState);
  },
});

/** Event creators of the organise slice. */
export const organiseActions = organiseSlice.actions;
/** The organise slice's reducer. */
export const organiseReducer = organiseSlice.reducer;
