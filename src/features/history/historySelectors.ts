/** Selectors of the history slice. */
import { createSelector } from '@reduxjs/toolkit';
import { formatDate } from '@common/format';
import { renderHistoryEvent, type HistoryIcon } from '@common/history';
import type { HistoryEventDto } from '@common/history';
import type { RootState } from '@src/store/rootReducer';

/** The whole history slice. */
export const selectHistoryState = (state: RootState) => state.history;
/** The loaded events, newest first. */
const selectHistoryEvents = (state: RootState) => state.history.events;
/** Loading state of the first page. */
export const selectHistoryList = (state: RootState) => state.history.list;
/** Loading state of the next page. */
export const selectHistoryMore = (state: RootState) => state.history.more;
/** How many events match (a lower bound when not exact). */
const selectHistoryTotal = (state: RootState) => state.history.total;
/** Whether the total is exact. */
const selectHistoryTotalExact = (state: RootState) => state.history.totalExact;
/** The stats chart's state. */
export const selectHistoryStats = (state: RootState) => state.history.stats;
/** The user filter's options and their loading state. */
export const selectHistoryUsers = (state: RootState) => state.history.users;
/** The export's state. */
export const selectHistoryExport = (state: RootState) => state.history.exporting;
/** The per-item panel's state. */
export const selectItemHistory = (state: RootState) => state.history.item;

/** Whether more events remain beyond the loaded ones. */
export const selectHasMoreHistory = (state: RootState) => state.history.nextCursor !== null;

/** One line of a history list, ready to display. */
export interface HistoryRow {
  id: string;
  summary: string;
  detail: string;
  icon: HistoryIcon;
  /** The event's ISO timestamp and its formatted text. */
  date: string;
  dateText: string;
}

/** Renders events as rows (relative dates are computed when the events change). */
function toRows(events: HistoryEventDto[]): HistoryRow[] {
  const now = new Date();
  return events.map((event): HistoryRow => {
    const rendered = renderHistoryEvent(event, now);
    return {
      id: event.id,
      summary: rendered.summary,
      detail: rendered.detail,
      icon: rendered.icon,
      date: event.created_at,
      dateText: formatDate(event.created_at),
    };
  });
}

/** The History page's rows: summary, detail line and icon from `renderHistoryEvent`. */
export const selectHistoryRows = createSelector([selectHistoryEvents], toRows);

/** The per-item panel's rows. */
export const selectItemHistoryRows = createSelector(
  [(state: RootState) => state.history.item.events],
  toRows,
);

/** "12 events", "1 event" or "10,000+ events". */
export const selectHistoryCountText = createSelector(
  [selectHistoryTotal, selectHistoryTotalExact],
  (total, exact) =>
    `${total.toLocaleString('en-US')}${exact ? '' : '+'} ${total === 1 && exact ? 'event' : 'events'}`,
);

/** The user filter's options, for a select. */
export const selectHistoryUserOptions = createSelector([selectHistoryUsers], (users) =>
  users.items.map((user) => ({ value: user.id, label: user.name })),
);
