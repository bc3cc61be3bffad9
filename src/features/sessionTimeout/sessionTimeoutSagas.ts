/**
 * Sagas of the session timeout (SPEC sections 2, 4 and 9; docs/architecture.md
 * "Sessions"). While a session runs in this tab:
 * - activity is user input here (throttled to one per ACTIVITY_THROTTLE_MS), upload progress here
 *   (`uploads/activityReported`), and activity other tabs share through the shared record;
 * - after sessionMs − SESSION_COUNTDOWN_MS without activity (1,680,000 ms for 30 minutes,
 *   28,680,000 ms for 480) the warning opens and counts down in SESSION_COUNTDOWN_STEP_MS steps; at
 *   zero the tab times out and the app goes to /logout;
 * - Extend calls POST /api/auth/extend-session, closes the panel, resets activity (in every tab)
 *   and opens the confirmation panel; Close only hides the panel;
 * - local activity is sent to the server as a keep-alive at most once per KEEP_ALIVE_INTERVAL_MS
 *   (activity inside the interval is sent at its end), so the server's idle limit never ends a
 *   session the client still counts as active;
 * - a tab that wakes to activity after its last activity (its own or the shared one) is older
 *   than the limit times out instead of recording it;
 * - signing out here signs out every tab; signing in here makes the other tabs load the user.
 * The browser handles (window, BroadcastChannel, localStorage) come from a SessionEnvironment in
 * the saga context (tests pass fakes) and are released when the saga is cancelled.
 */
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import { buffers, type Channel, type EventChannel, type Task } from 'redux-saga';
import {
  actionChannel,
  all,
  call,
  cancel,
  delay,
  fork,
  getContext,
  put,
  select,
  take,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import {
  ACTIVITY_THROTTLE_MS,
  KEEP_ALIVE_INTERVAL_MS,
  SESSION_COUNTDOWN_STEP_MS,
} from '@common/constants';
import { MESSAGES } from '@common/messages';
import { countdownLengthMs, sessionExtendedText } from '@common/session';
import type { CurrentUserDto, ExtendSessionResponse } from '@common/session';
import { ApiError, errorMessage } from '@src/api/client';
import { countdownChannel, subscriptionChannel, throttledEventChannel } from '@src/sagas/channels';
import { safely } from '@src/sagas/safely';
import { notificationsActions } from '../notifications/notificationsSlice';
import * as sessionApi from '../session/sessionApi';
import { selectCurrentUser } from '../session/sessionSelectors';
import { sessionActions } from '../session/sessionSlice';
import { uploadsActions } from '../uploads/uploadsSlice';
import { selectSessionTimeout } from './sessionTimeoutSelectors';
import {
  sessionTimeoutActions,
  type ActivityOrigin,
  type SessionTimeoutPhase,
} from './sessionTimeoutSlice';
import {
  openSharedActivity,
  type SharedActivity,
  type SharedSessionMessage,
} from './sharedActivity';
import type { Saga } from '@src/sagas/saga';

/** Saga-context key of the {@link SessionEnvironment} (makeStore's `sagaContext` option). */
export const SESSION_ENVIRONMENT = 'sessionEnvironment';

/** The browser handles the session timeout uses; tests pass fakes through the saga context. */
export interface SessionEnvironment {
  /** Where this tab's user input is heard (window); null: input is not watched. */
  inputTarget: EventTarget | null;
  /** Opens this tab's handle on the record shared by the tabs. */
  openSharedActivity: () => SharedActivity;
}

/** The user input events that count as activity. */
export const ACTIVITY_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'wheel',
  'touchstart',
  'scroll',
] as const;

/** The browser's environment: window events, localStorage and BroadcastChannel. */
export function browserSessionEnvironment(): SessionEnvironment {
  return {
    inputTarget: typeof window === 'undefined' ? null : window,
    openSharedActivity: () => openSharedActivity(),
  };
}

const isRunning = (phase: SessionTimeoutPhase) =>
  phase === 'active' || phase === 'warning' || phase === 'dismissed';

/** Rounds a duration to whole countdown steps. */
const toStep = (ms: number) =>
  Math.max(0, Math.round(ms / SESSION_COUNTDOWN_STEP_MS) * SESSION_COUNTDOWN_STEP_MS);

/** Local activity the server should hear about (input and uploads, not other tabs' activity). */
function isLocalActivity(action: Action): boolean {
  return (
    sessionTimeoutActions.activityRecorded.match(action) && action.payload.origin !== 'otherTab'
  );
}

/**
 * Adopts newer activity another tab stored but whose message has not arrived (a frozen tab).
 * @returns true when it did (the timers restart), false otherwise
 */
function* adoptSharedActivity(shared: SharedActivity): Saga<boolean> {
  const state = yield* select(selectSessionTimeout);
  const stored = yield* call(shared.readLastActivity);
  if (stored === null || stored <= (state.lastActivityAt ?? 0)) return false;
  yield* put(sessionTimeoutActions.activityRecorded({ at: stored, origin: 'otherTab' }));
  return true;
}

/**
 * The timers of one activity period: waits until the warning is due, opens it, counts down and
 * times out at zero. Restarted (cancelled and run again) on every activity and extension.
 */
export function* runTimers(shared: SharedActivity): Saga {
  const state = yield* select(selectSessionTimeout);
  if (!isRunning(state.phase) || state.lastActivityAt === null) return;
  const deadline = state.lastActivityAt + state.sessionMs;
  const wait = deadline - countdownLengthMs(state.sessionMs) - Date.now();
  if (wait > 0) yield* delay(wait);
  if (yield* call(adoptSharedActivity, shared)) return;

  const remaining = deadline - Date.now();
  if (remaining <= 0) {
    yield* put(sessionTimeoutActions.timedOut({ reason: 'countdown' }));
    return;
  }
  yield* put(sessionTimeoutActions.warningOpened({ remainingMs: toStep(remaining) }));
  const countdown = yield* call(countdownChannel, remaining, SESSION_COUNTDOWN_STEP_MS);
  try {
    for (;;) {
      const left = yield* take(countdown);
      yield* put(sessionTimeoutActions.countdownTicked({ remainingMs: left }));
      if (left === 0) {
        if (yield* call(adoptSharedActivity, shared)) return;
        yield* put(sessionTimeoutActions.timedOut({ reason: 'countdown' }));
        return;
      }
    }
  } finally {
    countdown.close();
  }
}

/**
 * Records activity of this tab (input or upload) in the store and the shared record, or times
 * out when the last activity of any tab is already older than the limit (a tab waking up).
 */
export function* recordLocalActivity(
  shared: SharedActivity,
  at: number,
  origin: Exclude<ActivityOrigin, 'otherTab'>,
): Saga {
  const state = yield* select(selectSessionTimeout);
  if (!isRunning(state.phase)) return;
  const stored = yield* call(shared.readLastActivity);
  const last = Math.max(state.lastActivityAt ?? 0, stored ?? 0);
  if (at - last >= state.sessionMs) {
    yield* put(sessionTimeoutActions.timedOut({ reason: 'staleActivity' }));
    return;
  }
  yield* put(sessionTimeoutActions.activityRecorded({ at, origin }));
  yield* call(shared.publishActivity, at);
}

/**
 * Turns this tab's user input into activity. While the warning is open, input is ignored: the
 * user answers the panel (Extend or Close) instead of dismissing it by moving the mouse.
 */
export function* watchInput(target: EventTarget, shared: SharedActivity): Saga {
  const input = yield* call(throttledEventChannel, target, ACTIVITY_EVENTS, ACTIVITY_THROTTLE_MS);
  try {
    for (;;) {
      const at = yield* take(input);
      const { phase } = yield* select(selectSessionTimeout);
      if (phase !== 'active' && phase !== 'dismissed') continue;
      yield* call(safely(recordLocalActivity), shared, at, 'input' as const);
    }
  } finally {
    input.close();
  }
}

/** Upload progress keeps the session alive (the uploads feature reports it every few seconds). */
export function* recordUploadActivity(
  shared: SharedActivity,
  action: PayloadAction<{ at: number }>,
): Saga {
  yield* call(recordLocalActivity, shared, action.payload.at, 'upload' as const);
}

/**
 * Sends the keep-alive: after local activity, at most once per KEEP_ALIVE_INTERVAL_MS since the
 * server's idle clock was last reset; activity inside the interval is sent at its end (the
 * sliding buffer keeps one pending request).
 */
export function* keepAlive(requests: Channel<Action>): Saga {
  for (;;) {
    yield* take(requests);
    const before = yield* select(selectSessionTimeout);
    const wait = (before.serverActivityAt ?? 0) + KEEP_ALIVE_INTERVAL_MS - Date.now();
    if (wait > 0) yield* delay(wait);
    const { phase } = yield* select(selectSessionTimeout);
    if (!isRunning(phase)) continue;
    const at = Date.now();
    try {
      yield* call(sessionApi.extendSession);
      yield* put(sessionTimeoutActions.keepAliveSent({ at }));
    } catch (error) {
      // A 401 already ended the session (session/expired); anything else is retried with the
      // next activity.
      if (!(error instanceof ApiError && error.status === 401)) {
        console.warn('The session keep-alive failed:', error);
      }
    }
  }
}

/**
 * Extend: resets the server's idle clock, closes the panel, resets activity in every tab and
 * opens the confirmation panel titled 'Session timeout' with the 8-hour text for partner
 * single-sign-on sessions, the 30-minute text otherwise (SPEC section 2).
 */
export function* extendSession(shared: SharedActivity): Saga {
  const at = Date.now();
  let answer: ExtendSessionResponse;
  try {
    answer = yield* call(sessionApi.extendSession);
  } catch (error) {
    // A 401 means the session already ended: session/expired shows the sign-in page.
    if (error instanceof ApiError && error.status === 401) return;
    yield* put(sessionTimeoutActions.extendFailed(errorMessage(error)));
    return;
  }
  yield* put(sessionTimeoutActions.extendSucceeded({ at, sessionMinutes: answer.session_minutes }));
  const { phase } = yield* select(selectSessionTimeout);
  if (phase !== 'active') return;
  yield* call(shared.publishActivity, at);
  yield* put(
    notificationsActions.panelOpened({
      title: MESSAGES.sessionTimeoutTitle,
      content: sessionExtendedText(answer.session_minutes),
    }),
  );
}

/**
 * Runs the timers of a session that began in this tab; cancelled when it ends.
 * @param user the current user (session length and idle time left)
 * @param signedInHere true after a sign-in in this tab (its activity is shared), false after the
 *   start-up current-user answer (loading a page is not activity)
 */
export function* runSession(
  user: CurrentUserDto,
  env: SessionEnvironment,
  shared: SharedActivity,
  signedInHere: boolean,
): Saga {
  const now = Date.now();
  const sessionMs = user.sessionIdleSeconds * 1000;
  const serverActivityAt = now - Math.max(0, sessionMs - user.sessionIdleRemainingMs);
  const stored = yield* call(shared.readLastActivity);
  const lastActivityAt = Math.min(now, Math.max(serverActivityAt, stored ?? 0));

  const keepAliveRequests = yield* actionChannel(isLocalActivity, buffers.sliding<Action>(1));
  yield* fork(safely(keepAlive), keepAliveRequests);
  yield* takeLatest(
    [
      sessionTimeoutActions.started.type,
      sessionTimeoutActions.activityRecorded.type,
      sessionTimeoutActions.extendSucceeded.type,
    ],
    safely(runTimers),
    shared,
  );
  yield* takeLeading(sessionTimeoutActions.extendRequested.type, safely(extendSession), shared);
  yield* takeEvery(uploadsActions.activityReported.type, safely(recordUploadActivity), shared);
  if (env.inputTarget) yield* fork(safely(watchInput), env.inputTarget, shared);

  yield* put(
    sessionTimeoutActions.started({
      sessionMs,
      sessionMinutes: user.sessionMinutes,
      lastActivityAt,
      serverActivityAt,
    }),
  );
  if (signedInHere) yield* call(shared.publishActivity, lastActivityAt);
}

/** The events that begin or end a session in this tab. */
const LIFECYCLE_EVENTS = [
  sessionActions.signedIn.type,
  sessionActions.currentUserLoaded.type,
  sessionActions.signedOut.type,
  sessionActions.expired.type,
  sessionActions.endedInAnotherTab.type,
];

/**
 * Starts the session's timers when a session begins (sign-in, or the current user at start-up)
 * and stops them when it ends; a sign-out or expiry here is told to the other tabs.
 */
export function* watchSessionLifecycle(env: SessionEnvironment, shared: SharedActivity): Saga {
  let running: Task | null = null;
  for (;;) {
    const action = yield* take(LIFECYCLE_EVENTS);
    const hadSession = running !== null;
    if (running) {
      yield* cancel(running);
      running = null;
    }
    let user: CurrentUserDto | null = null;
    if (sessionActions.signedIn.match(action)) user = action.payload;
    else if (sessionActions.currentUserLoaded.match(action)) user = action.payload;

    if (user) {
      const signedInHere = sessionActions.signedIn.match(action);
      running = yield* fork(safely(runSession), user, env, shared, signedInHere);
      if (signedInHere) yield* call(shared.publish, { type: 'signedIn' as const });
    } else if (hadSession) {
      yield* put(sessionTimeoutActions.stopped());
      if (sessionActions.signedOut.match(action) || sessionActions.expired.match(action)) {
        yield* call(shared.publish, { type: 'signedOut' as const });
      }
    }
  }
}

/** Handles one message from another tab. */
export function* handleSharedMessage(message: SharedSessionMessage): Saga {
  switch (message.type) {
    case 'activity': {
      const state = yield* select(selectSessionTimeout);
      if (isRunning(state.phase) && message.at > (state.lastActivityAt ?? 0)) {
        yield* put(sessionTimeoutActions.activityRecorded({ at: message.at, origin: 'otherTab' }));
      }
      break;
    }
    case 'signedOut': {
      const user = yield* select(selectCurrentUser);
      if (user) yield* put(sessionActions.endedInAnotherTab());
      break;
    }
    case 'signedIn':
      // The cookie now belongs to the new session: read who it is.
      yield* put(sessionActions.currentUserRequested());
      break;
  }
}

/** Listens to the other tabs. */
export function* watchSharedMessages(messages: EventChannel<SharedSessionMessage>): Saga {
  for (;;) {
    const message = yield* take(messages);
    yield* call(safely(handleSharedMessage), message);
  }
}

/** Root saga of the session timeout: opens the shared record, closes it when cancelled. */
export function* sessionTimeoutSaga(): Saga {
  const given = yield* getContext<SessionEnvironment | undefined>(SESSION_ENVIRONMENT);
  const env = given ?? browserSessionEnvironment();
  const shared = env.openSharedActivity();
  const messages = subscriptionChannel<SharedSessionMessage>((emit) => shared.subscribe(emit));
  try {
    yield* all([
      call(safely(watchSharedMessages), messages),
      call(safely(watchSessionLifecycle), env, shared),
    ]);
  } finally {
    messages.close();
    shared.close();
  }
}
