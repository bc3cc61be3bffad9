/**
 * Session slice: who is signed in, in which firm database, and the state of the sign-in,
 * database-switch and sign-out flows. Actions are events (`session/signInRequested`,
 * `session/signedIn`, ...); the sagas in sessionSagas.ts do the calls.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CurrentUserDto } from '@common/session';
import type { Status } from '@src/store/status';

/**
 * Why there is no user: never signed in, signed out on request, the session ended on the server
 * (a call answered 401), the inactivity timeout signed the user out, or another tab signed out.
 */
export type SessionEndReason = 'none' | 'signedOut' | 'expired' | 'timedOut' | 'signedOutElsewhere';

/** Why /logout signs out: the user asked, or the inactivity timeout sent them there. */
export type SignOutReason = 'user' | 'timedOut';

/** State of one request flow. */
export interface FlowState {
  status: Status;
  error: string | null;
}

/** The session slice's state. */
export interface SessionState {
  /** The signed-in user, or null. */
  user: CurrentUserDto | null;
  /** Loading the current user at start-up ('succeeded' with user null means signed out). */
  status: Status;
  /** Why loading the current user failed (other than "not signed in"). */
  error: string | null;
  /** The sign-in form's request. */
  signIn: FlowState;
  /** The firm switcher's request. */
  switchDatabase: FlowState;
  /** The sign-out flow of /logout. */
  signOut: Status;
  /** Why the current sign-out flow runs. */
  signOutReason: SignOutReason;
  /** Why the user is signed out; 'expired' shows a notice on the sign-in page. */
  endReason: SessionEndReason;
}

/** Credentials of `session/signInRequested`. The password only travels in the action. */
export interface SignInRequest {
  username: string;
  password: string;
}

const idleFlow: FlowState = { status: 'idle', error: null };

/** The state before anything is known. */
export const initialSessionState: SessionState = {
  user: null,
  status: 'idle',
  error: null,
  signIn: idleFlow,
  switchDatabase: idleFlow,
  signOut: 'idle',
  signOutReason: 'user',
  endReason: 'none',
};

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    /** The app asks who is signed in (start-up, or "Try again"). */
    currentUserRequested(state) {
      state.status = 'loading';
      state.error = null;
    },
    /** The server answered with the current user, or null when nobody is signed in. */
    currentUserLoaded(state, action: PayloadAction<CurrentUserDto | null>) {
      state.status = 'succeeded';
      state.user = action.payload;
    },
    /** The current user could not be read (server unreachable, 5xx). */
    currentUserFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    /** The sign-in form was submitted. */
    signInRequested(state, _action: PayloadAction<SignInRequest>) {
      state.signIn = { status: 'loading', error: null };
    },
    /** The single-sign-on page (/sso?token=…) received a partner's sign-in token. */
    tokenSignInRequested(state, _action: PayloadAction<{ token: string }>) {
      state.signIn = { status: 'loading', error: null };
    },
    /** The server accepted the credentials. */
    signedIn(state, action: PayloadAction<CurrentUserDto>) {
      state.user = action.payload;
      state.status = 'succeeded';
      state.error = null;
      state.signIn = { status: 'succeeded', error: null };
      state.signOut = 'idle';
      state.endReason = 'none';
    },
    /** The server refused the credentials or could not be reached; payload is the message. */
    signInFailed(state, action: PayloadAction<string>) {
      state.signIn = { status: 'failed', error: action.payload };
    },
    /** The user picked another firm database in the header. */
    databaseSwitchRequested(state, _action: PayloadAction<{ databaseId: string }>) {
      state.switchDatabase = { status: 'loading', error: null };
    },
    /** The server made the database current; payload is the updated user. */
    databaseSwitched(state, action: PayloadAction<CurrentUserDto>) {
      state.user = action.payload;
      state.switchDatabase = { status: 'succeeded', error: null };
    },
    /** Switching failed; payload is the message. */
    databaseSwitchFailed(state, action: PayloadAction<string>) {
      state.switchDatabase = { status: 'failed', error: action.payload };
    },
    /** The user opened /logout, or the inactivity timeout sent them there (`reason: 'timedOut'`). */
    signOutRequested(state, action: PayloadAction<{ reason?: SignOutReason } | undefined>) {
      state.signOut = 'loading';
      state.signOutReason = action.payload?.reason ?? 'user';
    },
    /** The session was ended on the server (or could not be reached) and cleared here. */
    signedOut(state) {
      state.user = null;
      state.status = 'succeeded';
      state.signIn = idleFlow;
      state.switchDatabase = idleFlow;
      state.signOut = 'succeeded';
      state.endReason = state.signOutReason === 'timedOut' ? 'timedOut' : 'signedOut';
    },
    /** A call answered 401: the server session is gone. */
    expired(state) {
      if (state.user === null) return;
      state.user = null;
      state.status = 'succeeded';
      state.signIn = idleFlow;
      state.switchDatabase = idleFlow;
      state.endReason = 'expired';
    },
    /** Another tab of this browser signed out (or its session ended): this tab signs out too. */
    endedInAnotherTab(state) {
      if (state.user === null) return;
      state.user = null;
      state.status = 'succeeded';
      state.signIn = idleFlow;
      state.switchDatabase = idleFlow;
      state.endReason = 'signedOutElsewhere';
    },
  },
});

/** Event creators of the session slice. */
export const sessionActions = sessionSlice.actions;
/** The session slice's reducer. */
export const sessionReducer = sessionSlice.reducer;
