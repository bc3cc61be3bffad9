/**
 * Session-timeout slice (SPEC sections 2, 4 and 9): the inactivity timers of this tab.
 * While a session runs, `lastActivityAt` (the shared record's lastTimeStamp) is the last user
 * activity in any tab; the warning opens SESSION_COUNTDOWN_MS before the idle limit and counts
 * down to it; at zero the tab goes to /logout. All times are epoch milliseconds (numbers, never
 * Date objects); the sagas in sessionTimeoutSagas.ts drive every transition.
 *
 * Phases: 'inactive' (no session) → 'active' → 'warning' (panel open, counting down) → either
 * 'active' again (activity here or in another tab, an upload, or Extend) or 'timedOut'.
 * Close turns 'warning' into 'dismissed': the panel hides, the countdown keeps running, and the
 * user's next activity makes the phase 'active' again.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Status } from '@src/store/status';

/** Where this tab is in the session's inactivity cycle. */
export type SessionTimeoutPhase = 'inactive' | 'active' | 'warning' | 'dismissed' | 'timedOut';

/**
 * What the activity was: user input in this tab, upload progress in this tab, or activity another
 * tab shared.
 */
export type ActivityOrigin = 'input' | 'upload' | 'otherTab';

/** Why the session timed out here: the countdown ran out, or a stale tab woke to new activity. */
export type TimeoutReason = 'countdown' | 'staleActivity';

/** The session-timeout slice's state. */
export interface SessionTimeoutState {
  phase: SessionTimeoutPhase;
  /** The idle limit in ms (the current user's sessionIdleSeconds × 1000). */
  sessionMs: number;
  /** Nominal idle length in minutes (30 or 480): picks the confirmation text. */
  sessionMinutes: number;
  /** Last activity in any tab (the shared lastTimeStamp), or null without a session. */
  lastActivityAt: number | null;
  /** When the server's idle clock was last reset (sign-in, keep-alive, Extend), client clock. */
  serverActivityAt: number | null;
  /** Time left on the warning's countdown, in ms. */
  remainingMs: number;
  /** The Extend request. */
  extend: Status;
  /** Why Extend failed. */
  extendError: string | null;
  /** Why the session timed out, once it did. */
  timeoutReason: TimeoutReason | null;
}

/** Payload of `sessionTimeout/started`. */
export interface SessionTimeoutStart {
  sessionMs: number;
  sessionMinutes: number;
  lastActivityAt: number;
  serverActivityAt: number;
}

/** The state without a session. */
export const initialSessionTimeoutState: SessionTimeoutState = {
  phase: 'inactive',
  sessionMs: 0,
  sessionMinutes: 0,
  lastActivityAt: null,
  serverActivityAt: null,
  remainingMs: 0,
  extend: 'idle',
  extendError: null,
  timeoutReason: null,
};

const isRunning = (phase: SessionTimeoutPhase) =>
  phase === 'active' || phase === 'warning' || phase === 'dismissed';

const sessionTimeoutSlice = createSlice({
  name: 'sessionTimeout',
  initialState: initialSessionTimeoutState,
  reducers: {
    /** A session began in this tab (sign-in, or the current user at start-up). */
    started(_state, action: PayloadAction<SessionTimeoutStart>) {
      return { ...initialSessionTimeoutState, phase: 'active', ...action.payload };
    },
    /** The session ended (sign-out, expiry, another tab): no timers run. */
    stopped() {
      return initialSessionTimeoutState;
    },
    /** Activity here or in another tab: the warning closes and the timers restart. */
    activityRecorded(state, action: PayloadAction<{ at: number; origin: ActivityOrigin }>) {
      if (!isRunning(state.phase)) return;
      state.lastActivityAt = Math.max(state.lastActivityAt ?? 0, action.payload.at);
      state.phase = 'active';
      state.extend = 'idle';
      state.extendError = null;
    },
    /** The inactivity limit is near: the panel opens with the time left. */
    warningOpened(state, action: PayloadAction<{ remainingMs: number }>) {
      if (!isRunning(state.phase)) return;
      state.phase = 'warning';
      state.remainingMs = action.payload.remainingMs;
    },
    /** One countdown step passed. */
    countdownTicked(state, action: PayloadAction<{ remainingMs: number }>) {
      if (!isRunning(state.phase)) return;
      state.remainingMs = action.payload.remainingMs;
    },
    /** The user pressed Close: the panel hides, the countdown goes on. */
    warningClosed(state) {
      if (state.phase === 'warning') state.phase = 'dismissed';
    },
    /** The user pressed Extend. */
    extendRequested(state) {
      state.extend = 'loading';
      state.extendError = null;
    },
    /** The server reset its idle clock at `at`: the panel closes and activity restarts. */
    extendSucceeded(state, action: PayloadAction<{ at: number; sessionMinutes: number }>) {
      if (!isRunning(state.phase)) return;
      state.phase = 'active';
      state.lastActivityAt = Math.max(state.lastActivityAt ?? 0, action.payload.at);
      state.serverActivityAt = action.payload.at;
      state.sessionMinutes = action.payload.sessionMinutes;
      state.extend = 'succeeded';
    },
    /** Extending failed (not a 401: that ends the session); payload is the message. */
    extendFailed(state, action: PayloadAction<string>) {
      state.extend = 'failed';
      state.extendError = action.payload;
    },
    /** A keep-alive reset the server's idle clock at `at`. */
    keepAliveSent(state, action: PayloadAction<{ at: number }>) {
      state.serverActivityAt = Math.max(state.serverActivityAt ?? 0, action.payload.at);
    },
    /** The session is over for inactivity: the app goes to /logout. */
    timedOut(state, action: PayloadAction<{ reason: TimeoutReason }>) {
      if (!isRunning(state.phase)) return;
      state.phase = 'timedOut';
      state.remainingMs = 0;
      state.timeoutReason = action.payload.reason;
    },
  },
});

/** Event creators of the session-timeout slice. */
export const sessionTimeoutActions = sessionTimeoutSlice.actions;
/** The session-timeout slice's reducer. */
export const sessionTimeoutReducer = sessionTimeoutSlice.reducer;
