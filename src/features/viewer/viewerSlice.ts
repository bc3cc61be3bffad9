/**
 * The viewer slice: the file the address names (`view=file:<id>`, `page=<n>`, app/viewerLink.ts),
 * what was read of it (name, type, folder path), and where document imaging is with its PDF
 * rendition while the viewer polls. The address is the truth: the slice follows it
 * (`viewer/opened`, `viewer/pageChanged`, `viewer/closed` come from the deep-link hook) and never
 * writes it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FileRenditionDto } from '@common/imaging';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** Where the file shown was read from: the firm's file routes, or a guest's share. */
export type ViewerSource = 'firm' | 'share';

/** What the viewer knows of the file it shows (plain data, from FileDto or SharedEntityDto). */
export interface ViewerFile {
  id: string;
  name: string;
  /** Lowercased, without the dot ('' when none). */
  extension: string;
  contentType: string;
  /** Bytes. */
  size: number;
  /** The folder holding it ('' for the root, or a share's top level). */
  folderId: string;
  source: ViewerSource;
  /** A guest's share allows the download (always true for the firm's files). */
  downloadAllowed: boolean;
}

/** One folder of the path above the file, top level first. */
export interface ViewerCrumb {
  id: string;
  name: string;
}

/**
 * Where the viewer is with the rendition: 'idle' (not needed, or not asked yet), 'polling' (asked
 * and asking again while the derivation is waiting, queued or running), 'settled' (done, failed or
 * unsupported: no more asking), 'failed' (the route could not be read).
 */
export type RenditionPollStatus = 'idle' | 'polling' | 'settled' | 'failed';

/** The viewer slice's state. */
export interface ViewerState {
  /** The file the address names, or null when the viewer is closed. */
  fileId: string | null;
  /** The page the address names (1-based; 1 when it names none). */
  page: number;
  file: ViewerFile | null;
  fileStatus: Status;
  /** Why the file could not be read, or null. */
  fileError: string | null;
  path: ViewerCrumb[];
  rendition: FileRenditionDto | null;
  renditionStatus: RenditionPollStatus;
  /** Why the rendition's state could not be read, or null. */
  renditionError: string | null;
}

/** The closed viewer. */
export const initialViewerState: ViewerState = {
  fileId: null,
  page: 1,
  file: null,
  fileStatus: 'idle',
  fileError: null,
  path: [],
  rendition: null,
  renditionStatus: 'idle',
  renditionError: null,
};

const viewerSlice = createSlice({
  name: 'viewer',
  initialState: initialViewerState,
  reducers: {
    /**
     * The address names a file (another than the one shown): read it, through the share when
     * `via` is 'share' (the Shared page: what was shared with the user), else the firm's routes.
     */
    opened(
      _state,
      action: PayloadAction<{ fileId: string; page: number | null; via?: ViewerSource }>,
    ) {
      return {
        ...initialViewerState,
        fileId: action.payload.fileId,
        page: action.payload.page ?? 1,
        fileStatus: 'loading',
      };
    },
    /** The address names another page of the file shown. */
    pageChanged(state, action: PayloadAction<{ page: number | null }>) {
      state.page = action.payload.page ?? 1;
    },
    /** The address names no file any more. */
    closed() {
      return initialViewerState;
    },
    /** The file and its path were read; ignored when the viewer moved on. */
    fileLoaded(
      state,
      action: PayloadAction<{ fileId: string; file: ViewerFile; path: ViewerCrumb[] }>,
    ) {
      if (action.payload.fileId !== state.fileId) return;
      state.file = action.payload.file;
      state.path = action.payload.path;
      state.fileStatus = 'succeeded';
      state.fileError = null;
    },
    /** The file could not be read (gone, not visible, offline). */
    fileLoadFailed(state, action: PayloadAction<{ fileId: string; message: string }>) {
      if (action.payload.fileId !== state.fileId) return;
      state.fileStatus = 'failed';
      state.fileError = action.payload.message;
    },
    /** The rendition route answered; the saga asks again while the derivation is pending. */
    renditionLoaded(
      state,
      action: PayloadAction<{ fileId: string; rendition: FileRenditionDto; pending: boolean }>,
    ) {
      if (action.payload.fileId !== state.fileId) return;
      state.rendition = action.payload.rendition;
      state.renditionStatus = action.payload.pending ? 'polling' : 'settled';
      state.renditionError = null;
    },
    /** The rendition route could not be read. */
    renditionLoadFailed(state, action: PayloadAction<{ fileId: string; message: string }>) {
      if (action.payload.fileId !== state.fileId) return;
      state.renditionStatus = 'failed';
      state.renditionError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialViewerState)
      .addCase(sessionActions.expired, () => initialViewerState)
      .addCase(sessionActions.endedInAnotherTab, () => initialViewerState)
      .addCase(sessionActions.databaseSwitched, () => initialViewerState);
  },
});

/** Event creators of the viewer slice. */
export const viewerActions = viewerSlice.actions;
/** The viewer slice's reducer. */
export const viewerReducer = viewerSlice.reducer;
