/** The CRM contacts slice (issue 9). */
import { createSlice } from '@reduxjs/toolkit';

/** State of the CRM contacts feature. */
export type ContactsState = Record<string, never>;

const initialState: ContactsState = {};

const slice = createSlice({ name: 'contacts', initialState, reducers: {} });

export const contactsReducer = slice.reducer;
