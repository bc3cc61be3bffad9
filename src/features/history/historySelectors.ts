/** Selectors of the history slice. */
import { createSelector } from '@reduxjs/toolkit';
import { formatDate } from '../../../common/format';
import { renderHistoryEvent, type HistoryIcon } from '../../../common/history';
import type { RootState } from '../../store/rootReducer';

/** The whole history slice. */
export const selectHistoryState = (state: RootState) => state.history;
/** The loaded events, newest first. */
export const selectHistoryEvents = (state: RootState) => state.history.events;
/** Loading state of the first page. */
export const selectHistoryList = (state: RootState) => state.history.list;
/** Loading state of the next page. */
export const selectHistoryMore = (state: RootState) => state.history.more;
/** How many events the server holds. */
export const selectHistoryTotal = (state: RootState) => state.history.total;

/** Whether more events remain beyond the loaded ones. */
export const selectHasMoreHistory = createSelector(
  [selectHistoryEvents, selectHistoryTotal],
  (events, total) => events.length < total,
);

/** One line of the history list, ready to display. */
export interface HistoryRow {
  id: string;
  summary: string;
  detail: string;
  icon: HistoryIcon;
  /** The event's ISO timestamp and its formatted text. */
  date: string;
  dateText: string;
}

/**
 * The history rows: summary, detail line and icon from `renderHistoryEvent` (relative dates are
 * computed when the events change), and the absolute date.
 */
export const selectHistoryRows = createSelector([selectHistoryEvents], (events) =>
  events.map((event): HistoryRow => {
    const rendered = renderHistoryEvent(event);
    return {
      id: event.id,
      summary: rendered.summary,
      detail: rendered.detail,
      icon: rendered.icon,
      date: event.created_at,
      dateText: formatDate(event.created_at),
    };
  }),
);
