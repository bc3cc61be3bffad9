/**
 * Sagas of the activity history: load the first page and the stats when the History page's view
 * changes, the next page (by cursor) at the end of the list, the firm's members once, the export,
 * and the per-item panel's pages. Every worker is wrapped with safely().
 */
import { all, call, put, select, takeLatest, takeLeading } from 'typed-redux-saga';
import type { HistoryFilters } from '@common/history';
import { errorMessage } from '@src/api/client';
import { saveFile } from '@src/api/downloads';
import { safely } from '@src/sagas/safely';
import {
  downloadHistoryExport,
  fetchHistory,
  fetchHistoryStats,
  fetchHistoryUsers,
  fetchItemHistory,
} from './historyApi';
import { selectHistoryState } from './historySelectors';
import { historyActions, type HistoryItemTarget } from './historySlice';
import { browserTimeZone, type TimeRange } from './historyView';
import type { Saga } from '@src/sagas/saga';

/** Loads one page of the History page's list and reports it. */
export function* loadHistoryPage(
  page: number,
  filters: HistoryFilters,
  cursor: string | null,
): Saga {
  try {
    const body: HistoryFilters = cursor ? { ...filters, cursor } : filters;
    const result = yield* call(fetchHistory, page, body);
    yield* put(historyActions.pageLoaded(result));
  } catch (error) {
    yield* put(historyActions.pageLoadFailed({ page, message: errorMessage(error) }));
  }
}

/**
 * Loads the stats of the chart's range in the browser's time zone, its days and total limited to
 * the filtered activity types.
 */
export function* loadHistoryStats(range: TimeRange, labels: readonly string[] = []): Saga {
  try {
    const zone = yield* call(browserTimeZone);
    const stats = yield* call(fetchHistoryStats, range.start, range.end, zone, labels);
    yield* put(historyActions.statsLoaded(stats));
  } catch (error) {
    yield* put(historyActions.statsLoadFailed(errorMessage(error)));
  }
}

/** Loads the firm's members for the user filter, once per firm. */
export function* loadHistoryUsers(): Saga {
  const state = yield* select(selectHistoryState);
  if (state.users.status === 'loading' || state.users.status === 'succeeded') return;
  yield* put(historyActions.usersRequested());
  try {
    const users = yield* call(fetchHistoryUsers);
    yield* put(historyActions.usersLoaded(users));
  } catch (error) {
    yield* put(historyActions.usersLoadFailed(errorMessage(error)));
  }
}

/** A new view: first page, stats and (once) the members, side by side. */
export function* openHistoryView(action: ReturnType<typeof historyActions.viewOpened>): Saga {
  const { filters, statsRange } = action.payload;
  yield* all([
    call(loadHistoryPage, 1, filters, null),
    call(loadHistoryStats, statsRange, filters.labels ?? []),
    call(loadHistoryUsers),
  ]);
}

/** Loads the next page when the reducer accepted the request, from the last page's cursor. */
export function* loadNextHistoryPage(): Saga {
  const state = yield* select(selectHistoryState);
  if (state.more.status !== 'loading') return;
  yield* call(loadHistoryPage, state.page + 1, state.filters, state.nextCursor);
}

/** Exports the current filters as CSV and hands the file to the browser. */
export function* exportHistory(): Saga {
  const state = yield* select(selectHistoryState);
  if (state.exporting.status !== 'loading') return;
  try {
    const zone = yield* call(browserTimeZone);
    const file = yield* call(downloadHistoryExport, state.filters, zone);
    yield* call(saveFile, file);
    yield* put(historyActions.exportSucceeded({ fileName: file.fileName }));
  } catch (error) {
    yield* put(historyActions.exportFailed(errorMessage(error)));
  }
}

/** Loads one page of the panel's item. */
export function* loadItemPage(
  target: HistoryItemTarget,
  page: number,
  cursor: string | null,
): Saga {
  try {
    const result = yield* call(fetchItemHistory, target.type, target.id, page, cursor);
    yield* put(historyActions.itemPageLoaded({ id: target.id, page: result }));
  } catch (error) {
    yield* put(
      historyActions.itemPageLoadFailed({ id: target.id, page, message: errorMessage(error) }),
    );
  }
}

/** The panel opened on an item: its first page. */
export function* openItemPanel(action: ReturnType<typeof historyActions.itemPanelOpened>): Saga {
  yield* call(loadItemPage, action.payload, 1, null);
}

/** The panel's next page, when the reducer accepted the request. */
export function* loadNextItemPage(): Saga {
  const { item } = yield* select(selectHistoryState);
  if (!item.target || item.more.status !== 'loading') return;
  yield* call(loadItemPage, item.target, item.page + 1, item.nextCursor);
}

/** Root saga of the history feature. */
export function* historySaga(): Saga {
  yield* all([
    takeLatest(historyActions.viewOpened.type, safely(openHistoryView)),
    takeLeading(historyActions.nextPageRequested.type, safely(loadNextHistoryPage)),
    takeLeading(historyActions.exportRequested.type, safely(exportHistory)),
    takeLatest(historyActions.itemPanelOpened.type, safely(openItemPanel)),
    takeLeading(historyActions.itemNextPageRequested.type, safely(loadNextItemPage)),
  ]);
}
