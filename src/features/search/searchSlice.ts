/** The search slice (issue 9). */
import { createSlice } from '@reduxjs/toolkit';

/** State of the search feature. */
export type SearchState = Record<string, never>;

const initialState: SearchState = {};

const slice = createSlice({ name: 'search', initialState, reducers: {} });

export const searchReducer = slice.reducer;
