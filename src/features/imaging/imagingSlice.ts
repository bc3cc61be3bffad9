/**
 * Document imaging in the client (docs/architecture.md "Document imaging"): the derivation state
 * of the files the details panel shows, the thumbnails lists wait for (the files shown without one
 * whose derivation is still to come, and what their derivation gave), the administrator's status
 * page (tools, jobs, failures),
 * retries of failed jobs, and the user's choice of list or grid layout for item lists (remembered
 * with the cached user's preferences, see imagingSagas.ts).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FileRenditionDto, ImagingStatusDto } from '@common/imaging';
import type { ListLayout } from '@src/components/listLayout';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** A file's derivation state as loaded. */
export interface RenditionEntry {
  status: Status;
  data: FileRenditionDto | null;
  error: string | null;
}

/** A retry of a job. */
export interface RetryEntry {
  status: Status;
  error: string | null;
}

/** A file a list shows without a thumbnail while its derivation is still to come. */
export interface WatchedThumbnail {
  /** Asked through the guest's share (GET shared/files/{id}/rendition) rather than the firm. */
  shared: boolean;
  /** How many shown items watch it (a file may be in two lists at once). */
  watchers: number;
}

/** The imaging slice's state. */
export interface ImagingState {
  /** By file id. */
  renditions: Record<string, RenditionEntry>;
  /** Files shown without a thumbnail that may still get one, by file id (the saga asks). */
  watchedThumbnails: Record<string, WatchedThumbnail>;
  /**
   * Files whose derivation settled after their list was read, by file id: true when it made a
   * thumbnail (the list shows it without a reload), false when it will not.
   */
  settledThumbnails: Record<string, boolean>;
  /** The status page's data. */
  status: { status: Status; data: ImagingStatusDto | null; error: string | null };
  /** By job id. */
  retries: Record<string, RetryEntry>;
  /** How item lists are laid out. */
  layout: ListLayout;
}

/** The state before anything is loaded. */
const initialImagingState: ImagingState = {
  renditions: {},
  watchedThumbnails: {},
  settledThumbnails: {},
  status: { status: 'idle', data: null, error: null },
  retries: {},
  layout: 'list',
};

/** Message of a derivation state that could not be read. */
export const COULD_NOT_GET_RENDITION = 'Could not get the preview state.';
/** Message of a status page that could not be read. */
export const COULD_NOT_GET_IMAGING_STATUS = 'Could not get the document imaging status.';
/** Message of a retry that failed. */
export const COULD_NOT_RETRY = 'Could not retry.';

const imagingSlice = createSlice({
  name: 'imaging',
  initialState: initialImagingState,
  reducers: {
    /** The details panel shows a file: its derivation state is read (again). */
    renditionRequested(state, action: PayloadAction<{ fileId: string }>) {
      const entry = state.renditions[action.payload.fileId];
      state.renditions[action.payload.fileId] = {
        status: 'loading',
        data: entry?.data ?? null,
        error: null,
      };
    },
    /** The server answered a file's derivation state. */
    renditionLoaded(state, action: PayloadAction<{ fileId: string; rendition: FileRenditionDto }>) {
      state.renditions[action.payload.fileId] = {
        status: 'succeeded',
        data: action.payload.rendition,
        error: null,
      };
    },
    /** A file's derivation state could not be read. */
    renditionFailed(state, action: PayloadAction<{ fileId: string; error: string }>) {
      const entry = state.renditions[action.payload.fileId];
      state.renditions[action.payload.fileId] = {
        status: 'failed',
        data: entry?.data ?? null,
        error: action.payload.error,
      };
    },
    /** A list shows a file without a thumbnail whose derivation is still to come. */
    thumbnailWatched(state, action: PayloadAction<{ fileId: string; shared: boolean }>) {
      const { fileId, shared } = action.payload;
      const watched = state.watchedThumbnails[fileId];
      if (watched) watched.watchers += 1;
      else state.watchedThumbnails[fileId] = { shared, watchers: 1 };
    },
    /** The list no longer shows it (scrolled away, another folder, the page closed). */
    thumbnailUnwatched(state, action: PayloadAction<{ fileId: string }>) {
      const watched = state.watchedThumbnails[action.payload.fileId];
      if (!watched) return;
      watched.watchers -= 1;
      if (watched.watchers <= 0) delete state.watchedThumbnails[action.payload.fileId];
    },
    /** A watched file's derivation settled: with a thumbnail or without. */
    thumbnailSettled(state, action: PayloadAction<{ fileId: string; thumbnail: boolean }>) {
      const { fileId, thumbnail } = action.payload;
      state.settledThumbnails[fileId] = thumbnail;
      delete state.watchedThumbnails[fileId];
    },
    /** The status page opened or was refreshed. */
    statusRequested(state) {
      state.status.status = 'loading';
      state.status.error = null;
    },
    /** The server answered the status. */
    statusLoaded(state, action: PayloadAction<ImagingStatusDto>) {
      state.status = { status: 'succeeded', data: action.payload, error: null };
    },
    /** The status could not be read. */
    statusFailed(state, action: PayloadAction<string>) {
      state.status.status = 'failed';
      state.status.error = action.payload;
    },
    /** An administrator retries a failed job (of `fileId`). */
    retryRequested(state, action: PayloadAction<{ jobId: string; fileId: string }>) {
      state.retries[action.payload.jobId] = { status: 'loading', error: null };
    },
    /** The job is queued again; the file's state is the server's answer. */
    retrySucceeded(
      state,
      action: PayloadAction<{ jobId: string; fileId: string; rendition: FileRenditionDto }>,
    ) {
      const { jobId, fileId, rendition } = action.payload;
      state.retries[jobId] = { status: 'succeeded', error: null };
      state.renditions[fileId] = { status: 'succeeded', data: rendition, error: null };
      const data = state.status.data;
      if (data) {
        const before = data.failed.length;
        data.failed = data.failed.filter((job) => job.job_id !== jobId);
        if (data.failed.length < before) {
          data.jobs.failed = Math.max(0, data.jobs.failed - 1);
          data.jobs.queued += 1;
        }
      }
    },
    /** The retry was refused or failed. */
    retryFailed(state, action: PayloadAction<{ jobId: string; error: string }>) {
      state.retries[action.payload.jobId] = { status: 'failed', error: action.payload.error };
    },
    /** The user chose a layout for item lists (the saga remembers it). */
    layoutChosen(state, action: PayloadAction<ListLayout>) {
      state.layout = action.payload;
    },
    /** The signed-in user's remembered layout was read. */
    layoutRestored(state, action: PayloadAction<ListLayout>) {
      state.layout = action.payload;
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialImagingState;
    builder
      .addCase(sessionActions.signedOut, reset)
      .addCase(sessionActions.expired, reset)
      .addCase(sessionActions.endedInAnotherTab, reset);
  },
});

/** Event creators of the imaging slice. */
export const imagingActions = imagingSlice.actions;
/** The imaging slice's reducer. */
export const imagingReducer = imagingSlice.reducer;
