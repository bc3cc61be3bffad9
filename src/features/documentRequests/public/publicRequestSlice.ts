/**
 * The `publicRequest` slice: the request link page a recipient opens (/r/:token), its unlock form
 * and the files being sent to its items. Holds only what the wire gives and plain upload rows
 * (ids, names, sizes, progress, status); the files and the uploader stay in requestUploader.ts,
 * the unlock grant in sessionStorage (requestAccess.ts).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PublicRequestDto } from '@common/documentRequests';

/** Where the page's load stands. */
export type PublicRequestLoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/** Where the password form stands. */
export type UnlockStatus = 'idle' | 'submitting' | 'failed';

/** Where one file sent to an item stands. */
export type RequestUploadStatus =
  /** Handed to the uploader, bytes being sent. */
  | 'uploading'
  /** Bytes stored, being recorded to the item. */
  | 'recording'
  /** Refused by the client checks before anything was sent. */
  | 'invalid'
  /** The upload or its record failed. */
  | 'failed';

/** One file sent (or refused) for an item. */
export interface RequestUploadRow {
  /** The uploader's id, or a local id for a refused file. */
  id: string;
  itemId: string;
  name: string;
  size: number;
  status: RequestUploadStatus;
  bytesUploaded: number;
  /** Why it was refused or failed, else null. */
  error: string | null;
}

/** State of the slice. */
export interface PublicRequestState {
  /** The token of the page shown (or being loaded). */
  token: string | null;
  status: PublicRequestLoadStatus;
  /** The last page answer for `token`. */
  request: PublicRequestDto | null;
  /** Why the load failed: the HTTP status (0 without a reply) and the server's message. */
  error: { status: number; message: string } | null;
  unlock: { status: UnlockStatus; error: string | null };
  /** Files sent or refused on this page, in the order they were picked. */
  uploads: RequestUploadRow[];
}

/** The slice's state before any page is opened. */
export const initialPublicRequestState: PublicRequestState = {
  token: null,
  status: 'idle',
  request: null,
  error: null,
  unlock: { status: 'idle', error: null },
  uploads: [],
};

/** Payload of `publicRequest/filesPicked`: the staged batch (requestUploader.ts) for one item. */
export interface RequestFilesPickedPayload {
  itemId: string;
  batchId: string;
}

/** Payload of `publicRequest/filesAdded`: what the uploader took and what was refused. */
export interface RequestFilesAddedPayload {
  itemId: string;
  files: { id: string; name: string; size: number }[];
  refused: { id: string; name: string; size: number; reason: string }[];
}

const slice = createSlice({
  name: 'publicRequest',
  initialState: initialPublicRequestState,
  reducers: {
    /** The page of a link was opened (or asked again after a failure). */
    pageOpened(state, action: PayloadAction<{ token: string }>) {
      if (state.token !== action.payload.token) {
        state.request = null;
        state.uploads = [];
        state.unlock = { status: 'idle', error: null };
      }
      state.token = action.payload.token;
      state.status = 'loading';
      state.error = null;
    },
    /** The page answered (possibly `locked`). */
    pageLoaded(state, action: PayloadAction<{ token: string; request: PublicRequestDto }>) {
      if (state.token !== action.payload.token) return;
      state.status = 'loaded';
      state.request = action.payload.request;
      state.error = null;
    },
    /** The page could not be read: 404, 410, or another failure. */
    pageFailed(state, action: PayloadAction<{ token: string; status: number; message: string }>) {
      if (state.token !== action.payload.token) return;
      state.status = 'failed';
      state.error = { status: action.payload.status, message: action.payload.message };
    },
    /** The page was left: its uploads are cancelled. */
    pageClosed() {
      return initialPublicRequestState;
    },
    /** The recipient sent the password (kept out of the dev-tools log, see the sagas). */
    unlockRequested(state, _action: PayloadAction<{ token: string; password: string }>) {
      state.unlock = { status: 'submitting', error: null };
    },
    /** The password was taken; the grant is kept in sessionStorage and the page read again. */
    unlockSucceeded(state) {
      state.unlock = { status: 'idle', error: null };
      state.status = 'loading';
    },
    /** The password was refused (wrong, too many tries) or could not be sent. */
    unlockFailed(state, action: PayloadAction<{ message: string }>) {
      state.unlock = { status: 'failed', error: action.payload.message };
    },
    /** Files were picked for an item (staged in requestUploader.ts under `batchId`). */
    filesPicked(_state, _action: PayloadAction<RequestFilesPickedPayload>) {},
    /** The picked files were checked: the accepted ones are uploading, the others refused. */
    filesAdded(state, action: PayloadAction<RequestFilesAddedPayload>) {
      const { itemId, files, refused } = action.payload;
      for (const file of files) {
        state.uploads.push({ ...file, itemId, status: 'uploading', bytesUploaded: 0, error: null });
      }
      for (const { reason, ...file } of refused) {
        state.uploads.push({ ...file, itemId, status: 'invalid', bytesUploaded: 0, error: reason });
      }
    },
    /** Bytes of a file were sent. */
    uploadProgressed(state, action: PayloadAction<{ id: string; bytesUploaded: number }>) {
      const row = state.uploads.find((upload) => upload.id === action.payload.id);
      if (row && row.status === 'uploading') row.bytesUploaded = action.payload.bytesUploaded;
    },
    /** A file's bytes are stored; it is being recorded. */
    uploadStored(state, action: PayloadAction<{ id: string }>) {
      const row = state.uploads.find((upload) => upload.id === action.payload.id);
      if (row && row.status === 'uploading') {
        row.status = 'recording';
        row.bytesUploaded = row.size;
      }
    },
    /** A file was recorded to its item: the refreshed page replaces the old one. */
    uploadRecorded(state, action: PayloadAction<{ id: string; request: PublicRequestDto }>) {
      state.uploads = state.uploads.filter((upload) => upload.id !== action.payload.id);
      state.request = action.payload.request;
    },
    /** A file's upload or record failed. */
    uploadFailed(state, action: PayloadAction<{ id: string; message: string }>) {
      const row = state.uploads.find((upload) => upload.id === action.payload.id);
      if (row && row.status !== 'invalid') {
        row.status = 'failed';
        row.error = action.payload.message;
      }
    },
    /** The recipient asked to send a failed file again. */
    retryRequested(state, action: PayloadAction<{ id: string }>) {
      const row = state.uploads.find((upload) => upload.id === action.payload.id);
      if (row && row.status === 'failed') {
        row.status = 'uploading';
        row.error = null;
        row.bytesUploaded = 0;
      }
    },
    /** The recipient removed a file from the list (a running one is cancelled). */
    uploadRemoved(state, action: PayloadAction<{ id: string }>) {
      state.uploads = state.uploads.filter((upload) => upload.id !== action.payload.id);
    },
  },
});

/** The slice's events. */
export const publicRequestActions = slice.actions;
/** The slice's reducer (`publicRequest` in the root reducer). */
export const publicRequestReducer = slice.reducer;
