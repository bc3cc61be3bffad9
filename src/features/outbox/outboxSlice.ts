/**
 * The mail outbox slice: the pages of the firm's outbox read so far (newest
 * first) and the message selected to read (the page keeps its id in the address, ?message=<id>).
 * Sign-out, an ended session and a firm switch empty it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Page } from '@common/api';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';
import type { OutboxMessageDto, OutboxSummaryDto } from '@common/outbox';

/** Shown when the outbox list cannot be read (followed by the server's reason). */
export const COULD_NOT_GET_OUTBOX = 'Could not get the outbox.';
/** Shown when a message cannot be read (followed by the server's reason). */
export const COULD_NOT_GET_MESSAGE = 'Could not get the message.';

/** State of the mail outbox feature. */
export interface OutboxState {
  /** The first page's read. */
  status: Status;
  error: string | null;
  /** The messages read so far, newest first. */
  items: OutboxSummaryDto[];
  /** The last page read (from 1; 0 before any). */
  page: number;
  /** How many messages the firm's outbox holds. */
  total: number;
  /** The read of a further page. */
  more: Status;
  /** The selected message's id, or null. */
  selectedId: string | null;
  /** The selected message's read and, once read, the message. */
  message: { status: Status; error: string | null; item: OutboxMessageDto | null };
}

/** The state before anything is read. */
export const initialOutboxState: OutboxState = {
  status: 'idle',
  error: null,
  items: [],
  page: 0,
  total: 0,
  more: 'idle',
  selectedId: null,
  message: { status: 'idle', error: null, item: null },
};

const slice = createSlice({
  name: 'outbox',
  initialState: initialOutboxState,
  reducers: {
    /** The outbox page is shown (or "Try again"): read the first page. */
    outboxRequested(state) {
      state.status = 'loading';
      state.error = null;
      state.more = 'idle';
    },
    /** The end of the list came into view: read the next page, if there is one. */
    outboxMoreRequested(state) {
      if (state.status !== 'succeeded' || state.more === 'loading') return;
      if (state.items.length >= state.total) return;
      state.more = 'loading';
    },
    /** A page arrived: page 1 replaces the list, later pages are appended. */
    outboxLoaded(state, action: PayloadAction<Page<OutboxSummaryDto>>) {
      const { items, page, total } = action.payload;
      state.status = 'succeeded';
      state.error = null;
      state.more = 'idle';
      state.page = page;
      state.total = total;
      if (page <= 1) {
        state.items = items;
      } else {
        const known = new Set(state.items.map((item) => item.id));
        state.items.push(...items.filter((item) => !known.has(item.id)));
      }
    },
    /** Payload: COULD_NOT_GET_OUTBOX (with the reason). */
    outboxFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
      state.more = 'idle';
    },
    /** A further page could not be read. Payload: COULD_NOT_GET_OUTBOX (with the reason). */
    outboxMoreFailed(state, action: PayloadAction<string>) {
      state.more = 'failed';
      state.error = action.payload;
    },
    /** A message was selected (from the list or the address), or the selection cleared (null). */
    messageSelected(state, action: PayloadAction<string | null>) {
      state.selectedId = action.payload;
      state.message =
        action.payload === null
          ? { status: 'idle', error: null, item: null }
          : { status: 'loading', error: null, item: null };
    },
    /** The selected message arrived. */
    messageLoaded(state, action: PayloadAction<OutboxMessageDto>) {
      if (action.payload.id !== state.selectedId) return;
      state.message = { status: 'succeeded', error: null, item: action.payload };
    },
    /** The selected message could not be read. Payload: its id and COULD_NOT_GET_MESSAGE (with the reason). */
    messageFailed(state, action: PayloadAction<{ id: string; error: string }>) {
      if (action.payload.id !== state.selectedId) return;
      state.message = { status: 'failed', error: action.payload.error, item: null };
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialOutboxState;
    builder
      .addCase(sessionActions.signedOut, reset)
      .addCase(sessionActions.expired, reset)
      .addCase(sessionActions.endedInAnotherTab, reset)
      .addCase(sessionActions.databaseSwitched, reset);
  },
});

/** Event creators of the outbox slice. */
export const outboxActions = slice.actions;
/** The outbox slice's reducer. */
export const outboxReducer = slice.reducer;
