/** Selectors of the uploads slice. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '../../store/rootReducer';
import { isActiveUpload } from './uploadsSlice';

/** The accepted files of the upload panel, in the order they were added. */
export const selectUploadFiles = (state: RootState) => state.uploads.files;
/** The refused files with their reasons. */
export const selectInvalidUploads = (state: RootState) => state.uploads.invalid;
/** Whether the panel is hidden, open or minimised. */
export const selectUploadPanel = (state: RootState) => state.uploads.panel;
/** Epoch milliseconds of the last upload progress, or null. */
export const selectLastUploadActivity = (state: RootState) => state.uploads.lastActivityAt;

/** Counts and bytes of the upload panel's total line. */
export interface UploadTotals {
  /** Accepted plus refused files. */
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
}

/** The panel's totals: counts per status and overall progress. */
export const selectUploadTotals = createSelector(
  [selectUploadFiles, selectInvalidUploads],
  (files, invalid): UploadTotals => {
    const totals: UploadTotals = {
      total: files.length + invalid.length,
      active: 0,
      complete: 0,
      failed: 0,
      cancelled: 0,
      invalid: invalid.length,
      bytesTotal: 0,
      bytesUploaded: 0,
      percent: 0,
    };
    for (const file of files) {
      if (isActiveUpload(file)) totals.active += 1;
      else if (file.status === 'complete') totals.complete += 1;
      else if (file.status === 'failed') totals.failed += 1;
      else totals.cancelled += 1;
      if (file.status === 'cancelled') continue;
      totals.bytesTotal += file.size;
      totals.bytesUploaded += file.status === 'complete' ? file.size : file.bytesUploaded;
    }
    if (totals.bytesTotal > 0) {
      totals.percent = Math.floor((totals.bytesUploaded / totals.bytesTotal) * 100);
    } else if (files.length > 0 && totals.active === 0) {
      totals.percent = 100;
    }
    return totals;
  },
);

/** Whether any upload is queued or running (the browser then warns before leaving). */
export const selectIsUploading = createSelector([selectUploadFiles], (files) =>
  files.some(isActiveUpload),
);

/** The names of the files still queued or running, per target folder id. */
export const selectActiveUploadNamesByFolder = createSelector([selectUploadFiles], (files) => {
  const byFolder: Record<string, string[]> = {};
  for (const file of files) {
    if (!isActiveUpload(file)) continue;
    (byFolder[file.folderId] ??= []).push(file.name);
  }
  return byFolder;
});
