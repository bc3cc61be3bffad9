/**
 * Calls of replay (docs/architecture/replay.md): a folder as it was at a moment with a window of
 * its timeline, and the case file of a period (JSON for the printable page, or the CSV to save).
 * The folder is named by its id, the root by '' (sent as REPLAY_ROOT_ID).
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import {
  REPLAY_CASE_FILE_ROUTE,
  REPLAY_ROOT_ID,
  REPLAY_VIEW_ROUTE,
  type CaseFileDto,
  type ReplayViewDto,
  type ReplayViewQuery,
} from '@common/replayViews';
import { buildUrl, get } from '@src/api/client';
import { fetchDownload, type DownloadedFile } from '@src/api/downloads';

/** The `:id` of the replay routes for a folder id ('' is the root). */
export function replayRouteId(folderId: string): string {
  return folderId === ROOT_FOLDER_ID ? REPLAY_ROOT_ID : folderId;
}

/** The folder id of a replay route's `:id` (REPLAY_ROOT_ID is the root, ''). */
export function folderIdOfRouteId(routeId: string): string {
  return routeId === REPLAY_ROOT_ID ? ROOT_FOLDER_ID : routeId;
}

/** A route of common/replayViews.ts with its `:id` filled in for `folderId`. */
function routeFor(route: string, folderId: string): string {
  return route.replace(':id', encodeURIComponent(replayRouteId(folderId)));
}

/**
 * GET /api/rest/replay/folders/{id}: the folder `folderId` at the moment `query` names (now when
 * empty), with a window of its timeline.
 */
export function fetchReplayView(folderId: string, query: ReplayViewQuery): Promise<ReplayViewDto> {
  return get<ReplayViewDto>(routeFor(REPLAY_VIEW_ROUTE, folderId), {
    query: { as_of: query.as_of, event: query.event, before_event: query.before_event },
  });
}

/** GET /api/rest/replay/folders/{id}/case_file?format=json: the printable page's case file. */
export function fetchCaseFile(folderId: string, from: string, to: string): Promise<CaseFileDto> {
  return get<CaseFileDto>(routeFor(REPLAY_CASE_FILE_ROUTE, folderId), {
    query: { from, to, format: 'json' },
  });
}

/**
 * GET /api/rest/replay/folders/{id}/case_file?format=csv: the case file's CSV as a file to save
 * (the server records it).
 * @throws ApiError with the server's message (a bad period, too many events) or a network failure
 */
export function downloadCaseFileCsv(
  folderId: string,
  from: string,
  to: string,
): Promise<DownloadedFile> {
  const url = buildUrl(routeFor(REPLAY_CASE_FILE_ROUTE, folderId), { from, to, format: 'csv' });
  return fetchDownload(url, {
    fallbackName: 'case-file.csv',
    init: { headers: { Accept: 'text/csv, application/json' } },
  });
}
