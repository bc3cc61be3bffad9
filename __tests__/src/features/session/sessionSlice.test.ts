import { describe, expect, it } from '@jest/globals';
import {
  initialSessionState,
  sessionActions,
  sessionReducer,
  type SessionState,
} from '@src/features/session/sessionSlice';
import { makeUser } from '../../fixtures';

const signedIn: SessionState = { ...initialSessionState, user: makeUser(), status: 'succeeded' };

describe('sessionSlice', () => {
  it('names its actions as session events', () => {
    expect(sessionActions.signInRequested.type).toBe('session/signInRequested');
    expect(sessionActions.signedIn.type).toBe('session/signedIn');
    expect(sessionActions.expired.type).toBe('session/expired');
  });

  it('loads the current user, or none', () => {
    let state = sessionReducer(initialSessionState, sessionActions.currentUserRequested());
    expect(state.status).toBe('loading');
    state = sessionReducer(state, sessionActions.currentUserLoaded(makeUser()));
    expect(state).toMatchObject({ status: 'succeeded', user: { userId: 'u1' } });
    const none = sessionReducer(initialSessionState, sessionActions.currentUserLoaded(null));
    expect(none).toMatchObject({ status: 'succeeded', user: null });
    const failed = sessionReducer(initialSessionState, sessionActions.currentUserFailed('Down.'));
    expect(failed).toMatchObject({ status: 'failed', error: 'Down.' });
  });

  it('tracks the sign-in request and keeps no password in the state', () => {
    let state = sessionReducer(
      initialSessionState,
      sessionActions.signInRequested({ username: 'ada', password: 'secret' }),
    );
    expect(state.signIn).toEqual({ status: 'loading', error: null });
    expect(JSON.stringify(state)).not.toContain('secret');
    state = sessionReducer(
      state,
      sessionActions.signInFailed('The username or password is incorrect.'),
    );
    expect(state.signIn).toEqual({
      status: 'failed',
      error: 'The username or password is incorrect.',
    });
    state = sessionReducer(state, sessionActions.signedIn(makeUser()));
    expect(state.signIn).toEqual({ status: 'succeeded', error: null });
    expect(state.user?.username).toBe('ada');
    expect(state.endReason).toBe('none');
  });

  it('switches the database', () => {
    let state = sessionReducer(
      signedIn,
      sessionActions.databaseSwitchRequested({ databaseId: 'db2' }),
    );
    expect(state.switchDatabase.status).toBe('loading');
    state = sessionReducer(
      state,
      sessionActions.databaseSwitched(makeUser({ currentDatabaseId: 'db2' })),
    );
    expect(state.user?.currentDatabaseId).toBe('db2');
    expect(state.switchDatabase.status).toBe('succeeded');
    state = sessionReducer(state, sessionActions.databaseSwitchFailed('Not a member.'));
    expect(state.switchDatabase).toEqual({ status: 'failed', error: 'Not a member.' });
  });

  it('clears the user on sign-out and on expiry, remembering why', () => {
    const out = sessionReducer(
      sessionReducer(signedIn, sessionActions.signOutRequested()),
      sessionActions.signedOut(),
    );
    expect(out).toMatchObject({ user: null, signOut: 'succeeded', endReason: 'signedOut' });
    const expired = sessionReducer(signedIn, sessionActions.expired());
    expect(expired).toMatchObject({ user: null, endReason: 'expired' });
  });

  it('ignores an expiry when nobody is signed in', () => {
    const state = { ...initialSessionState, status: 'succeeded' as const };
    expect(sessionReducer(state, sessionActions.expired())).toBe(state);
  });
});
