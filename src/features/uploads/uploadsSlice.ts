/**
 * Uploads slice: what the upload panel shows. It holds only serializable facts (ids, names,
 * sizes, progress, status, error text); the File objects, the Uppy instance and the collected
 * failures (error, response, file) live in uppyClient.ts and failedUploads.ts. Spec: SPEC section 3
 * "Upload state: list of invalid files, total file count, cancel flag" and section 4 "Uploads: a
 * reset clears the invalid list, total count and cancel flag and cancels all uploads".
 *
 * Events the session-timeout feature listens to: `uploads/activityReported` is dispatched while
 * uploads progress (at most every ACTIVITY_REPORT_INTERVAL_MS, see uploadsSagas.ts) with the time
 * of the progress; SPEC section 4 "While an upload runs, last activity is refreshed so the session
 * does not expire".
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FileDto } from '@common/entities';
import type { ConflictChoice } from '@common/versions';
import type { UploadRestrictions } from '@common/uploads';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';
import type { RestoredUpload } from './uploader';

/**
 * Where one accepted file is: waiting its turn, sending bytes, waiting for the connection to come
 * back, recorded, failed (retry or cancel) or cancelled.
 */
export type UploadStatus = 'queued' | 'uploading' | 'waiting' | 'complete' | 'failed' | 'cancelled';

/** One accepted file of the upload panel. */
export interface UploadItem {
  /** The uploader's id of the file (Uppy file id). */
  id: string;
  name: string;
  /** Size in bytes. */
  size: number;
  /** The folder the file goes to ('' for the root). */
  folderId: string;
  status: UploadStatus;
  bytesUploaded: number;
  /** Epoch ms and byte count of the last progress of the current attempt (speed), or null. */
  progressAt: number | null;
  progressBytes: number;
  /** Smoothed sending speed in bytes per second, or null before it is known. */
  speed: number | null;
  /** 'Failed to upload {file}.' when failed, else null. */
  error: string | null;
  /** Why it failed (the stall message, the server's or the network's message), else null. */
  detail: string | null;
  /** The stored file's id once recorded. */
  fileId: string | null;
  /**
   * The name the server saved the file under, when it differs from `name` (a file of the same
   * name was there: "smile (1).png"), else null.
   */
  savedName: string | null;
  /** The file this upload is a new version of (its id), else null. */
  versionOf: string | null;
}

/** A picked file whose name a file of the target folder already has. */
export interface UploadConflict {
  /** The picked file's index in its batch (the saga's own key). */
  key: number;
  /** The picked name. */
  name: string;
  /** The file of the folder with that name, and its name there. */
  fileId: string;
  fileName: string;
}

/**
 * A batch waiting for the user's choice (SPEC section 5 keeps both; a file of the same name may
 * instead get the upload as a new version): the conflict dialog shows the first one queued.
 */
export interface ConflictPrompt {
  batchId: string;
  folderId: string;
  conflicts: UploadConflict[];
}

/** A file refused before upload, with the reason shown in the panel. */
export interface InvalidUpload {
  id: string;
  name: string;
  size: number;
  reason: string;
}

/** Whether the upload panel is hidden, open, or minimised to a small pill. */
export type UploadPanelState = 'hidden' | 'open' | 'minimized';

/** Whether the browser is online (SPEC section 8: "No Internet connection."). */
export type NetworkStatus = 'online' | 'offline';

/** The uploads slice's state. */
export interface UploadsState {
  files: UploadItem[];
  /** SPEC "list of invalid files": refused files with their reasons. */
  invalid: InvalidUpload[];
  /** SPEC "total file count": files added (accepted and refused) since the last reset. */
  totalCount: number;
  /** SPEC "cancel flag": the user cancelled all uploads (cleared by new files or a reset). */
  cancelled: boolean;
  panel: UploadPanelState;
  network: NetworkStatus;
  /** The server's restrictions, once loaded. */
  restrictions: UploadRestrictions | null;
  restrictionsStatus: Status;
  /** Epoch milliseconds of the last upload progress, or null. */
  lastActivityAt: number | null;
  /** Batches waiting for the conflict dialog's answer, first shown first. */
  conflicts: ConflictPrompt[];
}

/** Payload of `uploads/filesPicked`: the staged batch (see uppyClient.stageFiles) and its target. */
export interface FilesPickedPayload {
  batchId: string;
  folderId: string;
}

/** Payload of `uploads/filesAdded`: the accepted files and the refused ones of one batch. */
export interface FilesAddedPayload {
  folderId: string;
  /** `versionOf`: the file an upload is a new version of (absent: a new file). */
  files: { id: string; name: string; size: number; versionOf?: string }[];
  invalid: InvalidUpload[];
}

/** Payload of `uploads/conflictsResolved`: the choice per conflict key of one batch. */
export interface ConflictsResolvedPayload {
  batchId: string;
  choices: Record<number, ConflictChoice>;
}

/** Payload of `uploads/progressReported`; `at` is the epoch ms of the progress. */
export interface ProgressPayload {
  id: string;
  bytesUploaded: number;
  bytesTotal: number;
  at: number;
}

/** The state with no uploads. */
export const initialUploadsState: UploadsState = {
  files: [],
  invalid: [],
  totalCount: 0,
  cancelled: false,
  panel: 'hidden',
  network: 'online',
  restrictions: null,
  restrictionsStatus: 'idle',
  lastActivityAt: null,
  conflicts: [],
};

/** Whether an upload still runs (queued, sending, or waiting for the connection). */
export function isActiveUpload(item: UploadItem): boolean {
  return item.status === 'queued' || item.status === 'uploading' || item.status === 'waiting';
}

/** Weight of the newest speed sample in the smoothed speed. */
const SPEED_SMOOTHING = 0.3;

function findFile(state: UploadsState, id: string): UploadItem | undefined {
  return state.files.find((item) => item.id === id);
}

function newItem(
  file: { id: string; name: string; size: number; versionOf?: string },
  folderId: string,
  status: UploadStatus = 'queued',
): UploadItem {
  return {
    id: file.id,
    name: file.name,
    size: file.size,
    folderId,
    status,
    bytesUploaded: 0,
    progressAt: null,
    progressBytes: 0,
    speed: null,
    error: null,
    detail: null,
    fileId: null,
    savedName: null,
    versionOf: file.versionOf ?? null,
  };
}

/** Back to the start of an attempt: queued, no speed yet, no error. */
function restart(item: UploadItem): void {
  item.status = 'queued';
  item.progressAt = null;
  item.speed = null;
  item.error = null;
  item.detail = null;
}

/**
 * The reset of SPEC section 4, keeping what is not upload state (network, restrictions) and the
 * batches still waiting for the conflict dialog (their files were not added yet).
 */
function reset(state: UploadsState): UploadsState {
  return {
    ...initialUploadsState,
    network: state.network,
    restrictions: state.restrictions,
    restrictionsStatus: state.restrictionsStatus,
    conflicts: state.conflicts,
  };
}

const uploadsSlice = createSlice({
  name: 'uploads',
  initialState: initialUploadsState,
  reducers: {
    /** Files were chosen or dropped and staged in the uploader module; the saga checks them. */
    filesPicked(_state, _action: PayloadAction<FilesPickedPayload>) {},
    /**
     * Files of a batch have the names of files of the target folder: the dialog asks, for each,
     * "upload as a new version" or "keep both" (the saga waits for the answer).
     */
    conflictsFound(state, action: PayloadAction<ConflictPrompt>) {
      state.conflicts.push(action.payload);
    },
    /** The user answered the dialog for a batch (a skipped file is not uploaded). */
    conflictsResolved(state, action: PayloadAction<ConflictsResolvedPayload>) {
      state.conflicts = state.conflicts.filter((c) => c.batchId !== action.payload.batchId);
    },
    /** The checked batch: accepted files are queued, refused ones listed with their reason. */
    filesAdded(state, action: PayloadAction<FilesAddedPayload>) {
      const { folderId, files, invalid } = action.payload;
      for (const file of files) {
        const known = findFile(state, file.id);
        if (known) {
          // The same file again (its bytes were lost in a reload): it starts over.
          restart(known);
          continue;
        }
        state.files.push(newItem(file, folderId));
      }
      state.invalid.push(...invalid);
      state.totalCount += files.length + invalid.length;
      if (files.length > 0) state.cancelled = false;
      if (files.length + invalid.length > 0 && (state.panel === 'hidden' || invalid.length > 0)) {
        state.panel = 'open';
      }
    },
    /** Files of an earlier page were found again after a reload. */
    filesRestored(state, action: PayloadAction<RestoredUpload[]>) {
      for (const file of action.payload) {
        if (findFile(state, file.id)) continue;
        const item = newItem(file, file.folderId, file.state === 'failed' ? 'failed' : 'queued');
        item.bytesUploaded = Math.min(file.bytesUploaded, file.size);
        if (file.state === 'uploaded') {
          item.status = 'uploading';
          item.bytesUploaded = file.size;
        }
        if (file.state === 'failed') item.detail = file.message;
        state.files.push(item);
        state.totalCount += 1;
      }
      if (action.payload.length > 0 && state.panel === 'hidden') state.panel = 'open';
    },
    /** Bytes were sent for a file. */
    progressReported(state, action: PayloadAction<ProgressPayload>) {
      const { id, bytesUploaded, at } = action.payload;
      const item = findFile(state, id);
      if (!item || !isActiveUpload(item)) return;
      item.status = 'uploading';
      const bytes = Math.min(bytesUploaded, item.size);
      if (item.progressAt !== null && at > item.progressAt && bytes >= item.progressBytes) {
        const sample = ((bytes - item.progressBytes) * 1000) / (at - item.progressAt);
        item.speed =
          item.speed === null ? sample : item.speed + SPEED_SMOOTHING * (sample - item.speed);
      }
      // The first progress of an attempt (e.g. the parts already stored of a resumed upload) is
      // the baseline of the speed, not a sample.
      item.progressAt = at;
      item.progressBytes = bytes;
      item.bytesUploaded = bytes;
    },
    /**
     * An upload made progress; keeps the session alive. The session-timeout feature listens to
     * this event (payload: epoch ms of the progress).
     */
    activityReported(state, action: PayloadAction<{ at: number }>) {
      state.lastActivityAt = action.payload.at;
    },
    /** The file's bytes are stored and the server made it visible. */
    fileRecorded(state, action: PayloadAction<{ id: string; file: FileDto }>) {
      const item = findFile(state, action.payload.id);
      if (!item || item.status === 'cancelled') return;
      item.status = 'complete';
      item.bytesUploaded = item.size;
      item.fileId = action.payload.file.id;
      // A new version keeps its file's name: the name is kept to say what it became.
      item.savedName =
        item.versionOf || action.payload.file.name !== item.name ? action.payload.file.name : null;
      item.error = null;
      item.detail = null;
    },
    /** The upload or the record call failed: "Failed to upload {file}." with the reason. */
    fileFailed(
      state,
      action: PayloadAction<{ id: string; message: string; detail: string | null }>,
    ) {
      const item = findFile(state, action.payload.id);
      if (!item || item.status === 'complete' || item.status === 'cancelled') return;
      item.status = 'failed';
      item.error = action.payload.message;
      item.detail = action.payload.detail;
      item.progressAt = null;
      item.speed = null;
    },
    /** The connection dropped while the file was sent; it resumes when back online. */
    fileWaiting(state, action: PayloadAction<{ id: string }>) {
      const item = findFile(state, action.payload.id);
      if (!item || !isActiveUpload(item)) return;
      item.status = 'waiting';
      item.progressAt = null;
      item.speed = null;
    },
    /** The browser went offline: the panel says "No Internet connection.". */
    connectionLost(state) {
      state.network = 'offline';
    },
    /** The browser is online again: waiting files resume. */
    connectionRestored(state) {
      state.network = 'online';
      for (const item of state.files) {
        if (item.status === 'waiting') item.status = 'queued';
      }
    },
    /** The user retried one failed file. */
    retryRequested(state, action: PayloadAction<{ id: string }>) {
      const item = findFile(state, action.payload.id);
      if (item?.status === 'failed') restart(item);
    },
    /** The user retried every failed file; `ids` are the failed files' ids (selectFailedUploadIds). */
    retryAllRequested(state, action: PayloadAction<{ ids: string[] }>) {
      for (const id of action.payload.ids) {
        const item = findFile(state, id);
        if (item?.status === 'failed') restart(item);
      }
    },
    /** The user cancelled one file (running or failed). */
    cancelRequested(state, action: PayloadAction<{ id: string }>) {
      const item = findFile(state, action.payload.id);
      if (item && (isActiveUpload(item) || item.status === 'failed')) {
        item.status = 'cancelled';
        item.speed = null;
      }
    },
    /** The user cancelled every running or failed upload: the cancel flag is set. */
    cancelAllRequested(state) {
      for (const item of state.files) {
        if (isActiveUpload(item) || item.status === 'failed') {
          item.status = 'cancelled';
          item.speed = null;
        }
      }
      state.cancelled = true;
    },
    /**
     * The user dismissed the refused files after reading them: the invalid list is cleared (and
     * they leave the total count); the panel closes when no accepted file is left to show.
     */
    refusalsDismissed(state) {
      state.totalCount = Math.max(0, state.totalCount - state.invalid.length);
      state.invalid = [];
      if (state.files.length === 0) state.panel = 'hidden';
    },
    /** The panel was minimised to a small pill. */
    panelMinimized(state) {
      if (state.panel === 'open') state.panel = 'minimized';
    },
    /** The minimised panel was opened again. */
    panelRestored(state) {
      if (state.panel === 'minimized') state.panel = 'open';
    },
    /**
     * The panel was closed: the reset of SPEC section 4 (invalid list, total count and cancel flag
     * cleared; the saga cancels every upload).
     */
    panelClosed(state) {
      return reset(state);
    },
    /** The restrictions are being loaded. */
    restrictionsRequested(state) {
      state.restrictionsStatus = 'loading';
    },
    /** The server's restrictions arrived. */
    restrictionsLoaded(state, action: PayloadAction<UploadRestrictions>) {
      state.restrictions = action.payload;
      state.restrictionsStatus = 'succeeded';
    },
    /** The restrictions could not be loaded (the defaults apply; the server still enforces). */
    restrictionsFailed(state) {
      state.restrictionsStatus = 'failed';
    },
  },
  extraReducers: (builder) => {
    builder
      // Signing out drops the batches waiting for the conflict dialog too.
      .addCase(sessionActions.signedOut, (state) => ({ ...reset(state), conflicts: [] }))
      .addCase(sessionActions.expired, (state) => ({ ...reset(state), conflicts: [] }));
  },
});

/** Event creators of the uploads slice. */
export const uploadsActions = uploadsSlice.actions;
/** The uploads slice's reducer. */
export const uploadsReducer = uploadsSlice.reducer;
