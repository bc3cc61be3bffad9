/**
 * Details slice: the entity side panel (SPEC section 2 "Entity side panel"; issue 3 item 11). Any
 * list opens it for one item with `details/panelOpened`; the panel loads the item and shows its
 * details and actions.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { EntityRef } from '../../../common/types';

/** The details slice's state. */
export interface DetailsState {
  /** The item the panel shows; null when it is closed. */
  target: EntityRef | null;
}

export const initialDetailsState: DetailsState = { target: null };

const detailsSlice = createSlice({
  name: 'details',
  initialState: initialDetailsState,
  reducers: {
    panelOpened(state, action: PayloadAction<EntityRef>) {
      state.target = { id: action.payload.id, type: action.payload.type };
    },
    panelClosed(state) {
      state.target = null;
    },
  },
});

export const detailsActions = detailsSlice.actions;
export const detailsReducer = detailsSlice.reducer;
