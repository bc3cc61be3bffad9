/** History slice: the loaded pages of the activity history, newest first. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { HistoryEventDto, Page } from '../../../common/types';
import type { Status } from '../../store/status';
import { sessionActions } from '../session/sessionSlice';

/** Status and error of one request. */
export interface HistoryRequestState {
  status: Status;
  error: string | null;
}

/** The history slice's state. */
export interface HistoryState {
  events: HistoryEventDto[];
  total: number;
  /** The last page loaded (0 before the first). */
  page: number;
  /** Loading the first page. */
  list: HistoryRequestState;
  /** Loading the next page. */
  more: HistoryRequestState;
}

const idle: HistoryRequestState = { status: 'idle', error: null };

/** The state before the history is opened. */
export const initialHistoryState: HistoryState = {
  events: [],
  total: 0,
  page: 0,
  list: idle,
  more: idle,
};

const historySlice = createSlice({
  name: 'history',
  initialState: initialHistoryState,
  reducers: {
    /** The history page was opened (or "Try again" pressed): reload from the first page. */
    opened() {
      return { ...initialHistoryState, list: { status: 'loading' as const, error: null } };
    },
    /** A page of events arrived. */
    pageLoaded(state, action: PayloadAction<Page<HistoryEventDto>>) {
      const page = action.payload;
      if (page.page !== state.page + 1) return;
      const known = new Set(state.events.map((event) => event.id));
      for (const event of page.items) {
        if (!known.has(event.id)) state.events.push(event);
      }
      state.total = Math.max(page.total, state.events.length);
      state.page = page.page;
      if (page.page === 1) state.list = { status: 'succeeded', error: null };
      else state.more = { status: 'succeeded', error: null };
    },
    /** A page could not be loaded. */
    pageLoadFailed(state, action: PayloadAction<{ page: number; message: string }>) {
      const { page, message } = action.payload;
      if (page === 1) state.list = { status: 'failed', error: message };
      else state.more = { status: 'failed', error: message };
    },
    /** The end of the list was reached: load the next page if any. */
    nextPageRequested(state) {
      if (state.list.status !== 'succeeded' || state.more.status === 'loading') return;
      if (state.events.length >= state.total) return;
      state.more = { status: 'loading', error: null };
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
