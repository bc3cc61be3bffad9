/**
 * Sagas of the session feature: load the current user, sign in (then record the login event),
 * switch the firm database, sign out (record the logout event, end the server session), turn
 * any 401 reply of the API client into `session/expired`, and keep the cached user data
 * (userCache.ts) in step: written while signed in, removed when the session ends.
 */
import { all, call, fork, put, take, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import type { CurrentUserDto } from '@common/session';
import { ApiError, errorMessage, subscribeUnauthorized } from '@src/api/client';
import { clearPrefetched } from '@src/api/prefetch';
import { subscriptionChannel } from '@src/sagas/channels';
import { safely } from '@src/sagas/safely';
import * as sessionApi from './sessionApi';
import { sessionActions, type SignInRequest } from './sessionSlice';
import { cacheUser, clearCachedUser } from './userCache';
import type { Saga } from '@src/sagas/saga';

/** Reads the current user; a 401 means "signed out", anything else is a failure. */
export function* loadCurrentUser(): Saga {
  try {
    const user = yield* call(sessionApi.fetchCurrentUser);
    yield* put(sessionActions.currentUserLoaded(user));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      yield* put(sessionActions.currentUserLoaded(null));
    } else {
      yield* put(sessionActions.currentUserFailed(errorMessage(error)));
    }
  }
}

/** Authenticates, then records the login event (its failure does not undo the sign-in). */
export function* signIn(action: PayloadAction<SignInRequest>): Saga {
  let user: CurrentUserDto;
  try {
    user = yield* call(sessionApi.authenticate, action.payload);
  } catch (error) {
    yield* put(sessionActions.signInFailed(errorMessage(error)));
    return;
  }
  yield* call(completeSignIn, user);
}

/**
 * Signs in with a partner's single-use token (single sign-on), then records the login event as
 * a password sign-in does.
 */
export function* tokenSignIn(action: PayloadAction<{ token: string }>): Saga {
  let user: CurrentUserDto;
  try {
    user = yield* call(sessionApi.loginWithToken, {
      token: action.payload.token,
    });
  } catch (error) {
    yield* put(sessionActions.signInFailed(errorMessage(error)));
    return;
  }
  yield* call(completeSignIn, user);
}

/** Stores the signed-in user and records the login event (its failure does not undo it). */
function* completeSignIn(user: CurrentUserDto): Saga {
  yield* put(sessionActions.signedIn(user));
  try {
    yield* call(sessionApi.recordLoginEvent);
  } catch (error) {
    console.warn('The login event could not be recorded:', error);
  }
}

/** Makes another firm database current. */
export function* switchDatabase(action: PayloadAction<{ databaseId: string }>): Saga {
  try {
    const user = yield* call(sessionApi.switchDatabase, {
      currentDatabaseId: action.payload.databaseId,
    });
    yield* put(sessionActions.databaseSwitched(user));
  } catch (error) {
    yield* put(sessionActions.databaseSwitchFailed(errorMessage(error)));
  }
}

/**
 * Records the logout event and ends the server session. Both are best effort: the local session
 * is cleared even when the server cannot be reached.
 */
export function* signOut(): Saga {
  try {
    yield* call(sessionApi.recordLogoutEvent);
  } catch (error) {
    console.warn('The logout event could not be recorded:', error);
  }
  try {
    yield* call(sessionApi.logout);
  } catch (error) {
    console.warn('The server session could not be ended:', error);
  }
  yield* put(sessionActions.signedOut());
}

/** Dispatches `session/expired` for every 401 the API client reports. */
export function* watchUnauthorized(): Saga {
  const channel = subscriptionChannel<string>(subscribeUnauthorized);
  try {
    for (;;) {
      yield* take(channel);
      yield* put(sessionActions.expired());
    }
  } finally {
    channel.close();
  }
}

/** The events after which the cached user data is written (a user) or removed (none). */
const USER_CACHE_EVENTS = [
  sessionActions.signedIn.type,
  sessionActions.currentUserLoaded.type,
  sessionActions.databaseSwitched.type,
  sessionActions.signedOut.type,
  sessionActions.expired.type,
  sessionActions.endedInAnotherTab.type,
];

/** Writes the cached user data for a signed-in user, removes it when the session ended. */
export function* syncUserCache(action: Action): Saga {
  if (
    sessionActions.signedIn.match(action) ||
    sessionActions.databaseSwitched.match(action) ||
    (sessionActions.currentUserLoaded.match(action) && action.payload !== null)
  ) {
    yield* call(cacheUser, action.payload as CurrentUserDto);
  } else {
    yield* call(clearCachedUser);
  }
}

/**
 * The session changes that make replies started at page load someone else's (another user, another
 * firm, nobody): they are forgotten, so a folder opened afterwards asks the server again.
 */
export const PREFETCH_RESET_EVENTS = [
  sessionActions.signedIn.type,
  sessionActions.databaseSwitched.type,
  sessionActions.signedOut.type,
  sessionActions.expired.type,
  sessionActions.endedInAnotherTab.type,
];

/** Forgets the replies started at page load (api/prefetch.ts). */
export function* forgetPrefetched(): Saga {
  yield* call(clearPrefetched);
}

/** Root saga of the session feature. */
export function* sessionSaga(): Saga {
  yield* all([
    takeLatest(sessionActions.currentUserRequested.type, safely(loadCurrentUser)),
    takeLeading(sessionActions.signInRequested.type, safely(signIn)),
    takeLeading(sessionActions.tokenSignInRequested.type, safely(tokenSignIn)),
    takeLatest(sessionActions.databaseSwitchRequested.type, safely(switchDatabase)),
    takeLeading(sessionActions.signOutRequested.type, safely(signOut)),
    fork(safely(watchUnauthorized)),
    takeEvery(USER_CACHE_EVENTS, safely(syncUserCache)),
    takeEvery(PREFETCH_RESET_EVENTS, safely(forgetPrefetched)),
  ]);
}
