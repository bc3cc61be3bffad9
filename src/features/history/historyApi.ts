/** Calls of the activity history (SPEC section 7 "History and events", per-item history). */
import type {
  HistoryFilters,
  HistoryPageDto,
  HistoryStatsDto,
  HistoryUserDto,
} from '@common/history';
import { REST, buildUrl, get, post } from '@src/api/client';
import { fetchDownload, type DownloadedFile } from '@src/api/downloads';
import { HISTORY_PAGE_SIZE } from './historyView';

/**
 * POST /api/rest/history?page={n}: one page of events, newest first. Pass the previous page's
 * `next_cursor` in `filters.cursor` to read the next one.
 */
export function fetchHistory(
  page: number,
  filters: HistoryFilters = {},
  pageSize: number = HISTORY_PAGE_SIZE,
): Promise<HistoryPageDto> {
  return post<HistoryPageDto>(`${REST}/history`, filters, {
    query: { page, page_size: pageSize },
  });
}

/** GET /api/rest/{folders|files}/{id}/history: one item's events, newest first. */
export function fetchItemHistory(
  kind: 'folder' | 'file',
  id: string,
  page: number,
  cursor: string | null,
  pageSize: number = HISTORY_PAGE_SIZE,
): Promise<HistoryPageDto> {
  return get<HistoryPageDto>(`${REST}/${kind}s/${encodeURIComponent(id)}/history`, {
    query: { page, page_size: pageSize, cursor: cursor ?? undefined },
  });
}

/**
 * GET /api/rest/history/stats?start&end&labels: counts per day (in `timeZone`) and per type; with
 * `labels` (the type filter) the days and the total count only those types.
 */
export function fetchHistoryStats(
  start: string,
  end: string,
  timeZone: string,
  labels: readonly string[] = [],
): Promise<HistoryStatsDto> {
  return get<HistoryStatsDto>(`${REST}/history/stats`, {
    query: {
      start,
      end,
      time_zone: timeZone,
      labels: labels.length > 0 ? labels.join(',') : undefined,
    },
  });
}

/** GET /api/rest/history/users: the firm's members, for the user filter. */
export function fetchHistoryUsers(): Promise<HistoryUserDto[]> {
  return get<HistoryUserDto[]>(`${REST}/history/users`);
}

/**
 * POST /api/rest/history/export: the CSV of the matching events (the same filters as the list).
 * @throws ApiError with the server's message on a non-ok reply or a network failure
 */
export function downloadHistoryExport(
  filters: HistoryFilters,
  timeZone: string,
): Promise<DownloadedFile> {
  const { cursor: _cursor, ...rest } = filters;
  return fetchDownload(buildUrl(`${REST}/history/export`), {
    fallbackName: 'history.csv',
    failure: 'The export failed',
    init: {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/csv, application/json' },
      body: JSON.stringify({ ...rest, time_zone: timeZone }),
    },
  });
}
