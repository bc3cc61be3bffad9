// Cached user data under one localStorage key, cleared at logout (SPEC section 3).
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { sessionActions } from '@src/features/session/sessionSlice';
import {
  USER_CACHE_KEY,
  cacheUser,
  canCacheUser,
  getCachedPreference,
  readCachedUser,
  setCachedPreference,
} from '@src/features/session/userCache';
import type { AppStore } from '@src/store/store';
import { makeRecordingStore, makeUser, signedInState, stubRoutes } from '../../fixtures';

describe('cached user data', () => {
  let store: AppStore | undefined;
  beforeEach(() => window.localStorage.clear());
  afterEach(() => {
    store?.sagaTask.cancel();
    store = undefined;
  });

  it('tells whether the browser keeps the cached user (a page load asks the server when not)', () => {
    expect(canCacheUser()).toBe(true);
    expect(window.localStorage.length).toBe(0);
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      expect(canCacheUser()).toBe(false);
    } finally {
      setItem.mockRestore();
    }
  });

  it('keeps preferences for the same user and drops them for another', () => {
    cacheUser(makeUser());
    setCachedPreference('listView', 'compact');
    cacheUser(makeUser({ currentDatabaseId: 'db2' }));
    expect(getCachedPreference('listView')).toBe('compact');
    expect(readCachedUser()?.currentDatabaseId).toBe('db2');
    // The role in the current firm: the page load's prefetch skips a guest's folder page.
    expect(readCachedUser()?.role).toBe('member');
    cacheUser(makeUser({ userId: 'u2', username: 'grace' }));
    expect(getCachedPreference('listView')).toBeUndefined();
  });

  it('is written at sign-in under one key and removed at sign-out', async () => {
    stubRoutes({
      'GET /api/rest/private/user_event/logout': { body: {} },
      'POST /api/auth/logout': { body: {} },
    });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    store = makeRecordingStore().store;
    store.dispatch(sessionActions.signedIn(makeUser()));
    const userKeys = () =>
      Object.keys(window.localStorage).filter((key) => key !== 'dossier.activity');
    expect(userKeys()).toEqual([USER_CACHE_KEY]);
    expect(readCachedUser()).toMatchObject({ userId: 'u1', username: 'ada', firstName: 'Ada' });
    expect(window.localStorage.getItem(USER_CACHE_KEY)).not.toMatch(/password/i);
    store.dispatch(sessionActions.signOutRequested());
    await waitFor(() => expect(store!.getState().session.user).toBeNull());
    expect(window.localStorage.getItem(USER_CACHE_KEY)).toBeNull();
  });

  it('is removed when the session expires', () => {
    cacheUser(makeUser());
    store = makeRecordingStore(signedInState()).store;
    store.dispatch(sessionActions.expired());
    expect(readCachedUser()).toBeNull();
  });
});
