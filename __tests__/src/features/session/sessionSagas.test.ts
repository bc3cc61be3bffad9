import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { ApiError, get } from '@src/api/client';
import { bootstrapSession } from '@src/features/session/components/SessionGate';
import { sessionActions } from '@src/features/session/sessionSlice';
import type { AppStore } from '@src/store/store';
import { callsTo, makeRecordingStore, makeUser, signedInState, stubRoutes } from '../../fixtures';
import { allowConsoleError } from '../../consoleErrors';

const incorrect = {
  status: 401,
  body: { message: 'The username or password is incorrect.', code: 'invalid_credentials' },
};

describe('session sagas', () => {
  let consoleSpies: jest.SpiedFunction<typeof console.error>[];
  let store: AppStore | undefined;
  beforeEach(() => {
    consoleSpies = [jest.spyOn(console, 'warn').mockImplementation(() => undefined)];
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    store = undefined;
    consoleSpies.forEach((spy) => spy.mockRestore());
  });

  function start(preloaded?: Parameters<typeof makeRecordingStore>[0]) {
    const recording = makeRecordingStore(preloaded);
    store = recording.store;
    return recording;
  }

  it('loads the current user', async () => {
    stubRoutes({ 'GET /api/auth/current-user': { body: makeUser() } });
    const { store, types } = start();
    store.dispatch(sessionActions.currentUserRequested());
    await waitFor(() => expect(store.getState().session.status).toBe('succeeded'));
    expect(store.getState().session.user?.userId).toBe('u1');
    // The session's inactivity timers start with the user (sessionTimeoutSagas.ts).
    expect(types()).toEqual([
      'session/currentUserRequested',
      'session/currentUserLoaded',
      'sessionTimeout/started',
    ]);
  });

  it('at page load with nobody cached, is signed out without asking (no 401 in the console)', async () => {
    const { calls } = stubRoutes({
      'GET /api/auth/current-user': { status: 401, body: { message: 'Please sign in.' } },
      'GET /api/rest/feature_flags': { body: {} },
    });
    const { store } = start();
    bootstrapSession(store.dispatch, false);
    expect(store.getState().session).toMatchObject({ status: 'succeeded', user: null });
    await waitFor(() => expect(callsTo(calls, 'GET /api/rest/feature_flags')).toHaveLength(1));
    expect(callsTo(calls, 'GET /api/auth/current-user')).toHaveLength(0);
  });

  it('at page load with a user cached, asks who is signed in', async () => {
    const { calls } = stubRoutes({
      'GET /api/auth/current-user': { body: makeUser() },
      'GET /api/rest/feature_flags': { body: {} },
    });
    const { store } = start();
    bootstrapSession(store.dispatch, true);
    await waitFor(() => expect(store.getState().session.user?.userId).toBe('u1'));
    expect(callsTo(calls, 'GET /api/auth/current-user')).toHaveLength(1);
  });

  it('treats a 401 from current-user as "signed out" without an expiry', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
    stubRoutes({
      'GET /api/auth/current-user': {
        status: 401,
        body: { message: 'Please sign in.', code: 'x' },
      },
    });
    const { store, types } = start();
    store.dispatch(sessionActions.currentUserRequested());
    await waitFor(() => expect(store.getState().session.status).toBe('succeeded'));
    expect(store.getState().session.user).toBeNull();
    expect(types()).not.toContain('session/expired');
  });

  it('reports other current-user errors as a failure', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 503/);
    stubRoutes({
      'GET /api/auth/current-user': { status: 503, body: { message: 'Try later.', code: 'down' } },
    });
    const { store } = start();
    store.dispatch(sessionActions.currentUserRequested());
    await waitFor(() => expect(store.getState().session.status).toBe('failed'));
    expect(store.getState().session.error).toBe('Try later.');
  });

  it('signs in, then records the login event', async () => {
    const { calls } = stubRoutes({
      'POST /api/rest/private/users/authenticate': { body: makeUser() },
      'GET /api/rest/private/user_event/login': { body: {} },
    });
    const { store, types } = start();
    store.dispatch(sessionActions.signInRequested({ username: 'ada', password: 'pw' }));
    await waitFor(() =>
      expect(callsTo(calls, 'GET /api/rest/private/user_event/login')).toHaveLength(1),
    );
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/rest/private/users/authenticate',
      'GET /api/rest/private/user_event/login',
    ]);
    expect(calls[0]!.body).toEqual({ username: 'ada', password: 'pw' });
    expect(types()).toEqual([
      'session/signInRequested',
      'session/signedIn',
      'sessionTimeout/started',
    ]);
    expect(store.getState().session.user?.username).toBe('ada');
  });

  it("reports the server's message when sign-in fails, without an expiry or login event", async () => {
    allowConsoleError(/^POST \/api\/rest\/private\/users\/authenticate\S* answered 401/);
    const { calls } = stubRoutes({ 'POST /api/rest/private/users/authenticate': incorrect });
    const { store, types } = start();
    store.dispatch(sessionActions.signInRequested({ username: 'ada', password: 'bad' }));
    await waitFor(() => expect(store.getState().session.signIn.status).toBe('failed'));
    expect(store.getState().session.signIn.error).toBe('The username or password is incorrect.');
    expect(types()).toEqual(['session/signInRequested', 'session/signInFailed']);
    expect(callsTo(calls, 'GET /api/rest/private/user_event/login')).toHaveLength(0);
  });

  it('keeps the user signed in when only the login event fails', async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/user_event\/login\S* answered 500/);
    const { calls } = stubRoutes({
      'POST /api/rest/private/users/authenticate': { body: makeUser() },
      'GET /api/rest/private/user_event/login': { status: 500, body: { message: 'x', code: 'x' } },
    });
    const { store } = start();
    store.dispatch(sessionActions.signInRequested({ username: 'ada', password: 'pw' }));
    await waitFor(() =>
      expect(callsTo(calls, 'GET /api/rest/private/user_event/login')).toHaveLength(1),
    );
    expect(store.getState().session.user).not.toBeNull();
  });

  it('signs out: logout event, then server logout, then the local session is cleared', async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/private/user_event/logout': { body: {} },
      'POST /api/auth/logout': { body: {} },
    });
    const { store, types } = start(signedInState());
    store.dispatch(sessionActions.signOutRequested());
    await waitFor(() => expect(store.getState().session.user).toBeNull());
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /api/rest/private/user_event/logout',
      'POST /api/auth/logout',
    ]);
    expect(types()).toEqual(['session/signOutRequested', 'session/signedOut']);
  });

  it('clears the local session even when the server cannot be reached', async () => {
    allowConsoleError(
      /^GET \/api\/rest\/private\/user_event\/logout\S* answered 502/,
      /^POST \/api\/auth\/logout\S* answered 502/,
    );
    stubRoutes({
      'GET /api/rest/private/user_event/logout': { status: 502 },
      'POST /api/auth/logout': { status: 502 },
    });
    const { store } = start(signedInState());
    store.dispatch(sessionActions.signOutRequested());
    await waitFor(() => expect(store.getState().session.signOut).toBe('succeeded'));
    expect(store.getState().session.user).toBeNull();
  });

  it('switches the firm database', async () => {
    const { calls } = stubRoutes({
      'POST /api/auth/switch-database': { body: makeUser({ currentDatabaseId: 'db2' }) },
    });
    const { store } = start(signedInState());
    store.dispatch(sessionActions.databaseSwitchRequested({ databaseId: 'db2' }));
    await waitFor(() => expect(store.getState().session.switchDatabase.status).toBe('succeeded'));
    expect(calls[0]!.body).toEqual({ currentDatabaseId: 'db2' });
    expect(store.getState().session.user?.currentDatabaseId).toBe('db2');
  });

  it('reports a failed switch', async () => {
    allowConsoleError(/^POST \/api\/auth\/switch-database\S* answered 403/);
    stubRoutes({
      'POST /api/auth/switch-database': {
        status: 403,
        body: { message: 'Not a member.', code: 'forbidden' },
      },
    });
    const { store } = start(signedInState());
    store.dispatch(sessionActions.databaseSwitchRequested({ databaseId: 'db9' }));
    await waitFor(() => expect(store.getState().session.switchDatabase.status).toBe('failed'));
    expect(store.getState().session.switchDatabase.error).toBe('Not a member.');
    expect(store.getState().session.user?.currentDatabaseId).toBe('db1');
  });

  it('dispatches session/expired when any other call answers 401', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* answered 401/);
    stubRoutes({
      'GET /api/rest/entities': { status: 401, body: { message: 'Please sign in.', code: 'x' } },
    });
    const { store, types } = start(signedInState());
    await expect(get('/api/rest/entities')).rejects.toBeInstanceOf(ApiError);
    await waitFor(() => expect(types()).toContain('session/expired'));
    expect(store.getState().session).toMatchObject({ user: null, endReason: 'expired' });
  });

  it('stops listening for 401s when the sagas are cancelled', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* answered 401/);
    stubRoutes({
      'GET /api/rest/entities': { status: 401, body: { message: 'Please sign in.', code: 'x' } },
    });
    const { store, types } = start(signedInState());
    store.sagaTask.cancel();
    await expect(get('/api/rest/entities')).rejects.toBeInstanceOf(ApiError);
    expect(types()).not.toContain('session/expired');
    expect(store.getState().session.user).not.toBeNull();
  });
});
