/** The sharing slice (issue 7). */
import { createSlice } from '@reduxjs/toolkit';

/** State of the sharing feature. */
export type SharingState = Record<string, never>;

const initialState: SharingState = {};

const slice = createSlice({ name: 'sharing', initialState, reducers: {} });

export const sharingReducer = slice.reducer;
