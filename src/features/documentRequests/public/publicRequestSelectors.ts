/** Selectors of the `publicRequest` slice (the request link page). */
import { createSelector } from '@reduxjs/toolkit';
import type { PublicRequestDto, PublicRequestItemDto } from '@common/documentRequests';
import type { RootState } from '@src/store/rootReducer';
import type { RequestUploadRow } from './publicRequestSlice';

/** The whole slice. */
export const selectPublicRequestState = (state: RootState) => state.publicRequest;
/** The last page answer, or null. */
export const selectPublicRequest = (state: RootState) => state.publicRequest.request;
/** The token of the page shown. */
export const selectPublicRequestToken = (state: RootState) => state.publicRequest.token;
/** Every upload row of the page. */
export const selectRequestUploads = (state: RootState) => state.publicRequest.uploads;

const NO_ROWS: RequestUploadRow[] = [];

/** The upload rows by item id, in pick order. */
export const selectRequestUploadsByItem = createSelector(
  [selectRequestUploads],
  (uploads): Record<string, RequestUploadRow[]> => {
    const byItem: Record<string, RequestUploadRow[]> = {};
    for (const upload of uploads) (byItem[upload.itemId] ??= []).push(upload);
    return byItem;
  },
);

/** The upload rows of one item (a stable empty list for none). */
export function selectItemUploads(state: RootState, itemId: string): RequestUploadRow[] {
  return selectRequestUploadsByItem(state)[itemId] ?? NO_ROWS;
}

/** Names still being sent to each item (for the duplicate check) and the count in use. */
export const selectActiveRequestUploads = createSelector([selectRequestUploads], (uploads) => {
  const namesByItem: Record<string, string[]> = {};
  let count = 0;
  for (const upload of uploads) {
    if (upload.status !== 'uploading' && upload.status !== 'recording') continue;
    (namesByItem[upload.itemId] ??= []).push(upload.name);
    count += 1;
  }
  return { namesByItem, count };
});

/**
 * Whether files may be sent to an item: the request is open and unlocked, and the item is not
 * accepted yet.
 */
export function canUploadTo(request: PublicRequestDto | null, item: PublicRequestItemDto): boolean {
  return (
    request !== null && request.status === 'open' && !request.locked && item.state !== 'accepted'
  );
}
