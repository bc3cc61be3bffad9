/** Selectors of the folder tree slice. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';

/** The loaded levels by parent id ('' for the root). */
export const selectTreeLevels = (state: RootState) => state.folderTree.levels;
/** The expanded folders (a set; '' is the root). */
const selectTreeExpanded = (state: RootState) => state.folderTree.expanded;

/** The expanded folders' ids as a list. */
export const selectTreeExpandedIds = createSelector([selectTreeExpanded], (expanded) =>
  Object.keys(expanded),
);
