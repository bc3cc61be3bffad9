/**
 * Uploads slice: what the upload panel shows. It holds only serializable facts (ids, names,
 * sizes, progress, status, error text); the File objects and the Uppy instance live in
 * uppyClient.ts. Spec: SPEC section 3 "Upload state" and section 4 "Uploads: a reset clears the
 * invalid list, total count and cancel flag and cancels all uploads".
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FileDto } from '../../../common/types';
import { sessionActions } from '../session/sessionSlice';

/** Where one accepted file is: waiting, sending bytes, recorded, failed or cancelled. */
export type UploadStatus = 'queued' | 'uploading' | 'complete' | 'failed' | 'cancelled';

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
  /** 'Failed to upload {file}.' when failed, else null. */
  error: string | null;
  /** Why it failed (the server's or the network's message), else null. */
  detail: string | null;
  /** The stored file's id once recorded. */
  fileId: string | null;
}

/** A file refused before upload, with the reason shown in the panel. */
export interface InvalidUpload {
  id: string;
  name: string;
  size: number;
  reason: string;
}

/** Whether the upload panel is hidden, open, or minimised to its title bar. */
export type UploadPanelState = 'hidden' | 'open' | 'minimized';

/** The uploads slice's state. */
export interface UploadsState {
  files: UploadItem[];
  invalid: InvalidUpload[];
  panel: UploadPanelState;
  /** Epoch milliseconds of the last upload progress, or null. */
  lastActivityAt: number | null;
}

/** Payload of `uploads/filesPicked`: the staged batch (see uppyClient.stageFiles) and its target. */
export interface FilesPickedPayload {
  batchId: string;
  folderId: string;
}

/** Payload of `uploads/filesAdded`: the accepted files and the refused ones of one batch. */
export interface FilesAddedPayload {
  folderId: string;
  files: { id: string; name: string; size: number }[];
  invalid: InvalidUpload[];
}

/** The state with no uploads. */
export const initialUploadsState: UploadsState = {
  files: [],
  invalid: [],
  panel: 'hidden',
  lastActivityAt: null,
};

/** Whether an upload still runs (queued or sending). */
export function isActiveUpload(item: UploadItem): boolean {
  return item.status === 'queued' || item.status === 'uploading';
}

function findFile(state: UploadsState, id: string): UploadItem | undefined {
  return state.files.find((item) => item.id === id);
}

const uploadsSlice = createSlice({
  name: 'uploads',
  initialState: initialUploadsState,
  reducers: {
    /** Files were chosen or dropped and staged in the uploader module; the saga checks them. */
    filesPicked(_state, _action: PayloadAction<FilesPickedPayload>) {},
    /** The checked batch: accepted files are queued, refused ones listed with their reason. */
    filesAdded(state, action: PayloadAction<FilesAddedPayload>) {
      const { folderId, files, invalid } = action.payload;
      for (const file of files) {
        state.files.push({
          id: file.id,
          name: file.name,
          size: file.size,
          folderId,
          status: 'queued',
          bytesUploaded: 0,
          error: null,
          detail: null,
          fileId: null,
        });
      }
      state.invalid.push(...invalid);
      if (files.length + invalid.length > 0 && (state.panel === 'hidden' || invalid.length > 0)) {
        state.panel = 'open';
      }
    },
    /** Bytes were sent for a file. */
    progressReported(
      state,
      action: PayloadAction<{ id: string; bytesUploaded: number; bytesTotal: number }>,
    ) {
      const item = findFile(state, action.payload.id);
      if (!item || !isActiveUpload(item)) return;
      item.status = 'uploading';
      item.bytesUploaded = Math.min(action.payload.bytesUploaded, item.size);
    },
    /** An upload made progress; keeps the session alive (the session-timeout feature listens). */
    activityReported(state, action: PayloadAction<{ at: number }>) {
      state.lastActivityAt = action.payload.at;
    },
    /** The file's bytes are stored and the server made it visible. */
    fileRecorded(state, action: PayloadAction<{ id: string; file: FileDto }>) {
      const item = findFile(state, action.payload.id);
      if (!item) return;
      item.status = 'complete';
      item.bytesUploaded = item.size;
      item.fileId = action.payload.file.id;
    },
    /** The upload or the record call failed. */
    fileFailed(
      state,
      action: PayloadAction<{ id: string; message: string; detail: string | null }>,
    ) {
      const item = findFile(state, action.payload.id);
      if (!item || item.status === 'complete' || item.status === 'cancelled') return;
      item.status = 'failed';
      item.error = action.payload.message;
      item.detail = action.payload.detail;
    },
    /** The user cancelled the running uploads. */
    cancelAllRequested(state) {
      for (const item of state.files) {
        if (isActiveUpload(item)) item.status = 'cancelled';
      }
    },
    /** The panel was minimised to its title bar. */
    panelMinimized(state) {
      if (state.panel === 'open') state.panel = 'minimized';
    },
    /** The minimised panel was opened again. */
    panelRestored(state) {
      if (state.panel === 'minimized') state.panel = 'open';
    },
    /** The panel was closed: the reset of SPEC section 4 (the saga cancels what still runs). */
    panelClosed() {
      return initialUploadsState;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialUploadsState)
      .addCase(sessionActions.expired, () => initialUploadsState);
  },
});

/** Event creators of the uploads slice. */
export const uploadsActions = uploadsSlice.actions;
/** The uploads slice's reducer. */
export const uploadsReducer = uploadsSlice.reducer;
