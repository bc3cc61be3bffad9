/** Calls of the activity history. */
import type { HistoryEventDto, HistoryFilters, Page } from '../../../common/types';
import { REST, post } from '../../api/client';

/** POST /api/rest/history?page={n}: one page of events, newest first. */
export function fetchHistory(
  page: number,
  filters: HistoryFilters = {},
): Promise<Page<HistoryEventDto>> {
  return post<Page<HistoryEventDto>>(`${REST}/history`, filters, { query: { page } });
}
