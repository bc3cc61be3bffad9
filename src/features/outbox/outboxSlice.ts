/** The mail outbox slice (issue 7). */
import { createSlice } from '@reduxjs/toolkit';

/** State of the mail outbox feature. */
export type OutboxState = Record<string, never>;

const initialState: OutboxState = {};

const slice = createSlice({ name: 'outbox', initialState, reducers: {} });

export const outboxReducer = slice.reducer;
