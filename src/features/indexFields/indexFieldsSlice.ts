/** The index fields and applied indexes slice (issue 9). */
import { createSlice } from '@reduxjs/toolkit';

/** State of the index fields and applied indexes feature. */
export type IndexFieldsState = Record<string, never>;

const initialState: IndexFieldsState = {};

const slice = createSlice({ name: 'indexFields', initialState, reducers: {} });

export const indexFieldsReducer = slice.reducer;
