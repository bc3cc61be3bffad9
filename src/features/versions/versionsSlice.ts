/**
 * Versions slice: the versions of the file shown in the side panel (docs/architecture.md "File
 * versions"): the list, and a restore or delete in flight or its failure. A restore announces the
 * file as the server now answers it (`versions/restoreSucceeded`), so the lists and the panel show
 * its new size and date without reading the folder again.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FileDto } from '@common/entities';
import type { FileVersionDto } from '@common/versions';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** A restore or a delete of one version, waiting for the server. */
export interface VersionAction {
  kind: 'restore' | 'delete';
  number: number;
}

/** The versions slice's state. */
export interface VersionsState {
  /** The file whose versions are listed; null before any. */
  fileId: string | null;
  status: Status;
  error: string | null;
  /** Newest first. */
  items: FileVersionDto[];
  /** A restore or delete in flight. */
  pending: VersionAction | null;
  /** Why the last restore or delete failed (the server's message), else null. */
  actionError: string | null;
}

/** The state before anything is loaded. */
const initialVersionsState: VersionsState = {
  fileId: null,
  status: 'idle',
  error: null,
  items: [],
  pending: null,
  actionError: null,
};

const slice = createSlice({
  name: 'versions',
  initialState: initialVersionsState,
  reducers: {
    /** The side panel shows a file (or its versions changed): read its versions. */
    versionsRequested(state, action: PayloadAction<{ fileId: string }>) {
      const { fileId } = action.payload;
      if (state.fileId !== fileId) {
        state.items = [];
        state.pending = null;
        state.actionError = null;
      }
      state.fileId = fileId;
      state.status = 'loading';
      state.error = null;
    },
    versionsLoaded(state, action: PayloadAction<{ fileId: string; items: FileVersionDto[] }>) {
      if (state.fileId !== action.payload.fileId) return;
      state.status = 'succeeded';
      state.items = action.payload.items;
    },
    versionsFailed(state, action: PayloadAction<{ fileId: string; error: string }>) {
      if (state.fileId !== action.payload.fileId) return;
      state.status = 'failed';
      state.error = action.payload.error;
    },
    /** "Restore as newest" on version `number`. */
    restoreRequested(state, action: PayloadAction<{ fileId: string; number: number }>) {
      if (state.fileId !== action.payload.fileId || state.pending) return;
      state.pending = { kind: 'restore', number: action.payload.number };
      state.actionError = null;
    },
    /** The restore made `version` the newest; `file` is the file as it is now. */
    restoreSucceeded(
      state,
      action: PayloadAction<{
        fileId: string;
        from: number;
        version: FileVersionDto;
        file: FileDto;
      }>,
    ) {
      if (state.fileId !== action.payload.fileId) return;
      state.pending = null;
      state.items = [
        action.payload.version,
        ...state.items.map((item) => ({ ...item, newest: false })),
      ];
    },
    /** An administrator deletes version `number` (confirmed). */
    deleteRequested(state, action: PayloadAction<{ fileId: string; number: number }>) {
      if (state.fileId !== action.payload.fileId || state.pending) return;
      state.pending = { kind: 'delete', number: action.payload.number };
      state.actionError = null;
    },
    deleteSucceeded(state, action: PayloadAction<{ fileId: string; number: number }>) {
      if (state.fileId !== action.payload.fileId) return;
      state.pending = null;
      state.items = state.items.filter((item) => item.number !== action.payload.number);
    },
    /** The restore or delete was refused or failed. */
    actionFailed(state, action: PayloadAction<{ fileId: string; error: string }>) {
      if (state.fileId !== action.payload.fileId) return;
      state.pending = null;
      state.actionError = action.payload.error;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialVersionsState)
      .addCase(sessionActions.expired, () => initialVersionsState)
      .addCase(sessionActions.databaseSwitched, () => initialVersionsState);
  },
});

/** Event creators of the versions slice. */
export const versionsActions = slice.actions;
/** The versions slice's reducer. */
export const versionsReducer = slice.reducer;
