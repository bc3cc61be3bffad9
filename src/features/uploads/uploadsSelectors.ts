/** Selectors of the uploads slice. */
import { createSelector } from '@reduxjs/toolkit';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import type { RootState } from '@src/store/rootReducer';
import { isActiveUpload, type UploadItem } from './uploadsSlice';

/** The accepted files of the upload panel, in the order they were added. */
export const selectUploadFiles = (state: RootState) => state.uploads.files;
/** The refused files with their reasons (SPEC "list of invalid files"). */
export const selectInvalidUploads = (state: RootState) => state.uploads.invalid;
/** Whether the panel is hidden, open or minimised. */
export const selectUploadPanel = (state: RootState) => state.uploads.panel;
/** Whether the browser is online or offline. */
export const selectUploadNetwork = (state: RootState) => state.uploads.network;
/** SPEC "cancel flag": the user cancelled all uploads. */
export const selectUploadsCancelled = (state: RootState) => state.uploads.cancelled;
/** SPEC "total file count": files added since the last reset (accepted and refused). */
const selectUploadTotalCount = (state: RootState) => state.uploads.totalCount;
/** The batch the conflict dialog asks about now (the first queued), or null. */
export const selectConflictPrompt = (state: RootState) => state.uploads.conflicts[0] ?? null;

/** The restrictions in force: the server's once loaded, else the documented defaults. */
export const selectUploadRestrictions = (state: RootState): UploadRestrictions =>
  state.uploads.restrictions ?? DEFAULT_UPLOAD_RESTRICTIONS;

/** Counts and bytes of the upload panel's total line. */
export interface UploadTotals {
  /** Files added since the last reset, accepted and refused (SPEC "total file count"). */
  total: number;
  active: number;
  complete: number;
  failed: number;
  cancelled: number;
  invalid: number;
  bytesTotal: number;
  bytesUploaded: number;
  /** Overall progress of the accepted files, 0-100. */
  percent: number;
  /** Combined speed of the files being sent, bytes per second, or null. */
  speed: number | null;
  /** Seconds until every running file is sent at the current speed, or null. */
  secondsLeft: number | null;
}

/** Seconds left for one file at its current speed, or null when unknown. */
export function secondsLeftOf(item: UploadItem): number | null {
  if (item.status !== 'uploading' || item.speed === null || item.speed <= 0) return null;
  return Math.max(0, Math.ceil((item.size - item.bytesUploaded) / item.speed));
}

/** The panel's totals: counts per status, overall progress, speed and time left. */
export const selectUploadTotals = createSelector(
  [selectUploadFiles, selectInvalidUploads, selectUploadTotalCount],
  (files, invalid, totalCount): UploadTotals => {
    const totals: UploadTotals = {
      total: Math.max(totalCount, files.length + invalid.length),
      active: 0,
      complete: 0,
      failed: 0,
      cancelled: 0,
      invalid: invalid.length,
      bytesTotal: 0,
      bytesUploaded: 0,
      percent: 0,
      speed: null,
      secondsLeft: null,
    };
    let speed = 0;
    let bytesLeft = 0;
    for (const file of files) {
      if (isActiveUpload(file)) totals.active += 1;
      else if (file.status === 'complete') totals.complete += 1;
      else if (file.status === 'failed') totals.failed += 1;
      else totals.cancelled += 1;
      if (file.status === 'cancelled') continue;
      totals.bytesTotal += file.size;
      totals.bytesUploaded += file.status === 'complete' ? file.size : file.bytesUploaded;
      if (isActiveUpload(file)) bytesLeft += file.size - file.bytesUploaded;
      if (file.status === 'uploading' && file.speed !== null) speed += file.speed;
    }
    if (totals.bytesTotal > 0) {
      totals.percent = Math.floor((totals.bytesUploaded / totals.bytesTotal) * 100);
    } else if (files.length > 0 && totals.active === 0) {
      totals.percent = 100;
    }
    if (speed > 0) {
      totals.speed = speed;
      totals.secondsLeft = Math.ceil(bytesLeft / speed);
    }
    return totals;
  },
);

/** Whether any upload is queued, running or waiting (the browser then warns before leaving). */
export const selectIsUploading = createSelector([selectUploadFiles], (files) =>
  files.some(isActiveUpload),
);

/** The ids of the failed files (Retry all). */
export const selectFailedUploadIds = createSelector([selectUploadFiles], (files) =>
  files.filter((file) => file.status === 'failed').map((file) => file.id),
);

/**
 * How many files the current upload holds toward the count restriction: those queued, running,
 * waiting or failed (a failed file still waits for a retry).
 */
export const selectUploadCountInUse = createSelector(
  [selectUploadFiles],
  (files) => files.filter((file) => isActiveUpload(file) || file.status === 'failed').length,
);

/** The names of the files still queued, running or waiting, per target folder id. */
export const selectActiveUploadNamesByFolder = createSelector([selectUploadFiles], (files) => {
  const byFolder: Record<string, string[]> = {};
  for (const file of files) {
    if (!isActiveUpload(file)) continue;
    (byFolder[file.folderId] ??= []).push(file.name);
  }
  return byFolder;
});
