/** Calls of the activity history (SPEC section 7 "History and events", per-item history). */
import type {
  HistoryFilters,
  HistoryPageDto,
  HistoryStatsDto,
  HistoryUserDto,
} from '@common/history';
import { ApiError, REST, buildUrl, get, post } from '@src/api/client';
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

/** An export as the browser received it. */
export interface ExportedFile {
  blob: Blob;
  fileName: string;
}

/** The file name of a Content-Disposition header (filename* first), or a fallback. */
function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain =
    /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/**
 * POST /api/rest/history/export: the CSV of the matching events (the same filters as the list).
 * @throws ApiError with the server's message on a non-ok reply or a network failure
 */
export async function downloadHistoryExport(
  filters: HistoryFilters,
  timeZone: string,
): Promise<ExportedFile> {
  const { cursor: _cursor, ...rest } = filters;
  const url = buildUrl(`${REST}/history/export`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/csv, application/json' },
      body: JSON.stringify({ ...rest, time_zone: timeZone }),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Please try again.');
  }
  if (!response.ok) {
    let message = `The export failed (HTTP ${response.status}).`;
    let code = 'http_error';
    try {
      const body = (await response.json()) as { message?: string; code?: string };
      if (body.message) message = body.message;
      if (body.code) code = body.code;
    } catch {
      // not JSON: keep the generic message
    }
    throw new ApiError(response.status, code, message);
  }
  const blob = await response.blob();
  return {
    blob,
    fileName: fileNameOf(response.headers.get('Content-Disposition'), 'history.csv'),
  };
}

/** Hands a file to the browser's download manager (an object URL and a temporary link). */
export function saveFile(file: ExportedFile): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
