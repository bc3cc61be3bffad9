/** Selectors of the session slice. */
import { createSelector } from '@reduxjs/toolkit';
import { switchableDatabases } from '@common/session';
import type { RootState } from '@src/store/rootReducer';

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
const selectDatabases = createSelector([selectCurrentUser], (user) => user?.databases ?? []);

/** The id of the current firm database, or null. */
export const selectCurrentDatabaseId = (state: RootState) =>
  state.session.user?.currentDatabaseId ?? null;

/** The current firm database, or null. */
export const selectCurrentDatabase = createSelector(
  [selectDatabases, selectCurrentDatabaseId],
  (databases, id) => databases.find((database) => database.id === id) ?? null,
);

/**
 * The firm switcher's choices (SPEC section 3 "Database"): the databases with a description,
 * duplicates by description removed (switchableDatabases), and the current database first when it
 * has no description of its own, so that the switcher always names where the user is.
 */
export const selectSwitchableDatabases = createSelector(
  [selectDatabases, selectCurrentDatabaseId],
  (databases, currentId) => {
    const kept = switchableDatabases(databases, currentId);
    const current = databases.find((database) => database.id === currentId);
    return current && !kept.includes(current) ? [current, ...kept] : kept;
  },
);

/** Whether the firm switcher is shown: it offers a database other than the current one. */
export const selectCanSwitchDatabase = createSelector(
  [selectSwitchableDatabases, selectCurrentDatabaseId],
  (databases, currentId) => databases.some((database) => database.id !== currentId),
);

/** The user's role in the current firm database, or null when signed out. */
export const selectCurrentRole = createSelector(
  [selectCurrentDatabase],
  (database) => database?.role ?? null,
);

/** Whether the user is an administrator of the current firm database (maintenance mode). */
export const selectIsAdmin = createSelector([selectCurrentRole], (role) => role === 'admin');

/**
 * Whether the signed-in user is an operator (firm provisioning: the Firms section of the admin
 * area). The server checks it again on every call.
 */
export const selectIsOperator = (state: RootState) => state.session.user?.operator === true;
