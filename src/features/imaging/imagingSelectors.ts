/** Selectors of the imaging feature. */
import type { RootState } from '@src/store/store';
import type { RenditionEntry, RetryEntry } from './imagingSlice';

const NO_RENDITION: RenditionEntry = { status: 'idle', data: null, error: null };
const NO_RETRY: RetryEntry = { status: 'idle', error: null };

/** A file's derivation state as loaded (idle before it is asked for). */
export const selectRendition = (state: RootState, fileId: string): RenditionEntry =>
  state.imaging.renditions[fileId] ?? NO_RENDITION;

/** The files lists wait for a thumbnail of, by file id. */
export const selectWatchedThumbnails = (state: RootState) => state.imaging.watchedThumbnails;

/**
 * What the derivation of a file shown without a thumbnail gave since its list was read: true (a
 * thumbnail), false (none will come), undefined (not settled, or never watched).
 */
export const selectSettledThumbnail = (state: RootState, fileId: string): boolean | undefined =>
  state.imaging.settledThumbnails[fileId];

/** The administrator's status page data. */
export const selectImagingStatus = (state: RootState) => state.imaging.status;

/** A job's retry (idle when none was asked). */
export const selectRetry = (state: RootState, jobId: string | null): RetryEntry =>
  (jobId ? state.imaging.retries[jobId] : undefined) ?? NO_RETRY;

/** How item lists are laid out: 'list' or 'grid'. */
export const selectListLayout = (state: RootState) => state.imaging.layout;
