/** Selectors of the versions feature. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';
import { selectCurrentRole } from '../session/sessionSelectors';

/** The versions of the side panel's file, and what is in flight. */
export const selectVersions = (state: RootState) => state.versions;

/** What the session may do with versions: restore (members and administrators), delete (administrators). */
export const selectVersionRights = createSelector([selectCurrentRole], (role) => ({
  canRestore: role === 'admin' || role === 'member',
  canDelete: role === 'admin',
}));
