/**
 * History slice: the History page (its view of filters, the loaded pages newest first, the stats
 * chart, the user list, the export) and the per-item history panel opened from a folder's rows.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  HistoryEventDto,
  HistoryFilters,
  HistoryPageDto,
  HistoryStatsDto,
  HistoryUserDto,
} from '@common/history';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';
import { EMPTY_VIEW, type HistoryView, type TimeRange } from './historyView';

/** Status and error of one request. */
export interface HistoryRequestState {
  status: Status;
  error: string | null;
}

/** The folder or file whose history the side panel shows. */
export interface HistoryItemTarget {
  type: 'folder' | 'file';
  id: string;
  name: string;
}

/** A paged list of events (the page's and the panel's). */
export interface HistoryListState {
  events: HistoryEventDto[];
  /** Matching events, exact when `totalExact` (else a lower bound). */
  total: number;
  totalExact: boolean;
  /** The last page loaded (0 before the first). */
  page: number;
  /** Cursor of the next page; null when the last page is loaded. */
  nextCursor: string | null;
  /** Loading the first page. */
  list: HistoryRequestState;
  /** Loading the next page. */
  more: HistoryRequestState;
}

/** The history slice's state. */
export interface HistoryState extends HistoryListState {
  /** The filters as chosen (mirrors the URL). */
  view: HistoryView;
  /** The request filters of the view, with its dates resolved when it was opened. */
  filters: HistoryFilters;
  /** The stats chart's range and data. */
  stats: HistoryRequestState & { range: TimeRange | null; data: HistoryStatsDto | null };
  /** The firm's members for the user filter (loaded once per firm). */
  users: HistoryRequestState & { items: HistoryUserDto[] };
  /** The last export. */
  exporting: HistoryRequestState & { fileName: string | null };
  /** The per-item panel. */
  item: HistoryListState & { target: HistoryItemTarget | null };
}

const idle: HistoryRequestState = { status: 'idle', error: null };
const loading: HistoryRequestState = { status: 'loading', error: null };
const succeeded: HistoryRequestState = { status: 'succeeded', error: null };

const emptyList: HistoryListState = {
  events: [],
  total: 0,
  totalExact: true,
  page: 0,
  nextCursor: null,
  list: idle,
  more: idle,
};

/** The state before the history is opened. */
export const initialHistoryState: HistoryState = {
  ...emptyList,
  view: EMPTY_VIEW,
  filters: {},
  stats: { ...idle, range: null, data: null },
  users: { ...idle, items: [] },
  exporting: { ...idle, fileName: null },
  item: { ...emptyList, target: null },
};

/** Adds a page to a list when it is the next one; answers whether it was. */
function addPage(list: HistoryListState, page: HistoryPageDto): boolean {
  if (page.page !== list.page + 1) return false;
  const known = new Set(list.events.map((event) => event.id));
  for (const event of page.items) if (!known.has(event.id)) list.events.push(event);
  list.total = Math.max(page.total, list.events.length);
  list.totalExact = page.total_exact;
  list.page = page.page;
  list.nextCursor = page.next_cursor;
  if (page.page === 1) list.list = succeeded;
  else list.more = succeeded;
  return true;
}

/** Marks a failed page load. */
function failPage(list: HistoryListState, page: number, message: string): void {
  if (page === 1) list.list = { status: 'failed', error: message };
  else list.more = { status: 'failed', error: message };
}

/** Whether a list may load its next page now. */
function canLoadMore(list: HistoryListState): boolean {
  return list.list.status === 'succeeded' && list.more.status !== 'loading' && !!list.nextCursor;
}

const historySlice = createSlice({
  name: 'history',
  initialState: initialHistoryState,
  reducers: {
    /**
     * The History page was opened or its filters changed (the URL query): reload the first page
     * and the stats. The page resolves the dates (`filters`, `statsRange`) when it dispatches.
     */
    viewOpened(
      state,
      action: PayloadAction<{ view: HistoryView; filters: HistoryFilters; statsRange: TimeRange }>,
    ) {
      const { view, filters, statsRange } = action.payload;
      Object.assign(state, emptyList);
      state.view = view;
      state.filters = filters;
      state.list = loading;
      state.stats = { ...loading, range: statsRange, data: state.stats.data };
    },
    /** A page of the History page arrived. */
    pageLoaded(state, action: PayloadAction<HistoryPageDto>) {
      addPage(state, action.payload);
    },
    /** A page of the History page could not be loaded. */
    pageLoadFailed(state, action: PayloadAction<{ page: number; message: string }>) {
      failPage(state, action.payload.page, action.payload.message);
    },
    /** The end of the list was reached: load the next page if any. */
    nextPageRequested(state) {
      if (canLoadMore(state)) state.more = loading;
    },
    /** The stats of the chart's range arrived. */
    statsLoaded(state, action: PayloadAction<HistoryStatsDto>) {
      state.stats = { ...succeeded, range: state.stats.range, data: action.payload };
    },
    /** The stats could not be loaded. */
    statsLoadFailed(state, action: PayloadAction<string>) {
      state.stats = {
        status: 'failed',
        error: action.payload,
        range: state.stats.range,
        data: null,
      };
    },
    /** The user filter's options started loading. */
    usersRequested(state) {
      state.users = { ...loading, items: state.users.items };
    },
    /** The firm's members arrived. */
    usersLoaded(state, action: PayloadAction<HistoryUserDto[]>) {
      state.users = { ...succeeded, items: action.payload };
    },
    /** The members could not be loaded (the user filter stays empty). */
    usersLoadFailed(state, action: PayloadAction<string>) {
      state.users = { status: 'failed', error: action.payload, items: [] };
    },
    /** The Export button was pressed: the CSV of the current filters is requested. */
    exportRequested(state) {
      if (state.exporting.status === 'loading') return;
      state.exporting = { ...loading, fileName: null };
    },
    /** The CSV was handed to the browser. */
    exportSucceeded(state, action: PayloadAction<{ fileName: string }>) {
      state.exporting = { ...succeeded, fileName: action.payload.fileName };
    },
    /** The export failed. */
    exportFailed(state, action: PayloadAction<string>) {
      state.exporting = { status: 'failed', error: action.payload, fileName: null };
    },
    /** The History action of a folder's row was used: show that item's history in the panel. */
    itemPanelOpened(state, action: PayloadAction<HistoryItemTarget>) {
      state.item = { ...emptyList, target: action.payload, list: loading };
    },
    /** The panel was closed. */
    itemPanelClosed(state) {
      state.item = { ...emptyList, target: null };
    },
    /** A page of the panel's item arrived. */
    itemPageLoaded(state, action: PayloadAction<{ id: string; page: HistoryPageDto }>) {
      if (state.item.target?.id !== action.payload.id) return;
      addPage(state.item, action.payload.page);
    },
    /** A page of the panel's item could not be loaded. */
    itemPageLoadFailed(
      state,
      action: PayloadAction<{ id: string; page: number; message: string }>,
    ) {
      if (state.item.target?.id !== action.payload.id) return;
      failPage(state.item, action.payload.page, action.payload.message);
    },
    /** The end of the panel's list was reached. */
    itemNextPageRequested(state) {
      if (canLoadMore(state.item)) state.item.more = loading;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialHistoryState)
      .addCase(sessionActions.expired, () => initialHistoryState)
      .addCase(sessionActions.databaseSwitched, () => initialHistoryState);
  },
});

/** Event creators of the history slice. */
export const historyActions = historySlice.actions;
/** The history slice's reducer. */
export const historyReducer = historySlice.reducer;
