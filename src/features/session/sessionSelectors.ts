/** Selectors of the session slice. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '../../store/rootReducer';

/** The whole session slice. */
export const selectSession = (state: RootState) => state.session;
/** The signed-in user, or null. */
export const selectCurrentUser = (state: RootState) => state.session.user;
/** Status of loading the current user at start-up. */
export const selectSessionStatus = (state: RootState) => state.session.status;
/** Why loading the current user failed. */
export const selectSessionError = (state: RootState) => state.session.error;
/** The sign-in request's status and error. */
export const selectSignIn = (state: RootState) => state.session.signIn;
/** The database switch's status and error. */
export const selectSwitchDatabase = (state: RootState) => state.session.switchDatabase;
/** Status of the sign-out flow. */
export const selectSignOutStatus = (state: RootState) => state.session.signOut;
/** Why the user is signed out. */
export const selectSessionEndReason = (state: RootState) => state.session.endReason;

/** The user's display name ("First Last", or the username when both are empty), or ''. */
export const selectUserDisplayName = createSelector([selectCurrentUser], (user) => {
  if (!user) return '';
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.username;
});

/** The firm databases of the signed-in user (empty when signed out). */
export const selectDatabases = createSelector([selectCurrentUser], (user) => user?.databases ?? []);

/** The id of the current firm database, or null. */
export const selectCurrentDatabaseId = (state: RootState) =>
  state.session.user?.currentDatabaseId ?? null;

/** The current firm database, or null. */
export const selectCurrentDatabase = createSelector(
  [selectDatabases, selectCurrentDatabaseId],
  (databases, id) => databases.find((database) => database.id === id) ?? null,
);

/** Whether the firm switcher is shown: the user belongs to more than one database. */
export const selectCanSwitchDatabase = createSelector(
  [selectDatabases],
  (databases) => databases.length > 1,
);

/** The user's role in the current firm database, or null when signed out. */
export const selectCurrentRole = createSelector(
  [selectCurrentDatabase],
  (database) => database?.role ?? null,
);

/** Whether the user is an administrator of the current firm database (maintenance mode). */
export const selectIsAdmin = createSelector([selectCurrentRole], (role) => role === 'admin');
