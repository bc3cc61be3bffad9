// The session timeout with Jest's fake timers (SPEC sections 2, 4 and 9): warning at 28
// minutes, countdown to logout, Extend with both confirmation texts, Close, user input, keep-alive,
// activity and sign-out across tabs (two stores sharing a fake BroadcastChannel), stale activity
// when a tab wakes, and the upload keep-alive.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  KEEP_ALIVE_INTERVAL_MS,
  SESSION_COUNTDOWN_MS,
  SESSION_COUNTDOWN_STEP_MS,
  SESSION_WARNING_MS,
  SSO_SESSION_WARNING_MS,
} from '@common/constants';
import { MESSAGES } from '@common/messages';
import type { ExtendSessionResponse } from '@common/session';
import { sessionTimeoutActions } from '@src/features/sessionTimeout/sessionTimeoutSlice';
import { ACTIVITY_STORAGE_KEY } from '@src/features/sessionTimeout/sharedActivity';
import { sessionActions } from '@src/features/session/sessionSlice';
import { uploadsActions } from '@src/features/uploads/uploadsSlice';
import { callsTo, makeUser, stubRoutes, type FetchCall, type StubRoutes } from '../../fixtures';
import { FakeBroadcastChannel, loadUserInTab, openTab, signInTab, type Tab } from './fakeTabs';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const T0 = Date.UTC(2024, 2, 5, 9, 0, 0);
const MINUTE = 60_000;
const EXTEND = 'POST /api/auth/extend-session';

const ssoUser = makeUser({
  sso: true,
  sessionMinutes: 480,
  sessionIdleSeconds: 480 * 60,
  sessionIdleRemainingMs: 480 * MINUTE,
});

function extendAnswer(minutes: number) {
  return (): { body: ExtendSessionResponse } => ({
    body: {
      expires_at: new Date(Date.now() + minutes * MINUTE).toISOString(),
      session_minutes: minutes,
      idle_seconds: minutes * 60,
    },
  });
}

/** Advances the fake clock, running timers and the promise callbacks between them. */
async function advance(ms: number): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

describe('session timeout', () => {
  let tabs: Tab[];
  let calls: FetchCall[];
  let consoleSpies: jest.SpiedFunction<typeof console.warn>[];

  function routes(extra: StubRoutes = {}) {
    calls = stubRoutes({ [EXTEND]: extendAnswer(30), ...extra }).calls;
  }
  function tab(): Tab {
    const opened = openTab();
    tabs.push(opened);
    return opened;
  }
  const timeout = (t: Tab) => t.state().sessionTimeout;

  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
    window.localStorage.clear();
    tabs = [];
    routes();
    consoleSpies = [jest.spyOn(console, 'warn').mockImplementation(() => undefined)];
  });
  afterEach(() => {
    for (const t of tabs) t.store.sagaTask.cancel();
    jest.useRealTimers();
    consoleSpies.forEach((spy) => spy.mockRestore());
  });

  it('opens the warning 28 minutes after the last activity, with 2:00 to go', async () => {
    const a = tab();
    signInTab(a, makeUser());
    expect(timeout(a)).toMatchObject({ phase: 'active', sessionMs: 1_800_000, lastActivityAt: T0 });
    await advance(SESSION_WARNING_MS - 1);
    expect(timeout(a).phase).toBe('active');
    await advance(1);
    expect(timeout(a)).toMatchObject({ phase: 'warning', remainingMs: SESSION_COUNTDOWN_MS });
    expect(Date.now() - T0).toBe(1_680_000);
  });

  it('counts down from 120000 ms in 1000 ms steps and times out at zero', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS);
    await advance(SESSION_COUNTDOWN_STEP_MS);
    expect(timeout(a).remainingMs).toBe(119_000);
    await advance(58 * SESSION_COUNTDOWN_STEP_MS);
    expect(timeout(a).remainingMs).toBe(61_000);
    await advance(60 * SESSION_COUNTDOWN_STEP_MS);
    expect(timeout(a)).toMatchObject({ phase: 'warning', remainingMs: 1_000 });
    await advance(SESSION_COUNTDOWN_STEP_MS);
    expect(timeout(a)).toMatchObject({ phase: 'timedOut', timeoutReason: 'countdown' });
    expect(Date.now() - T0).toBe(30 * MINUTE);
    const ticks = a.types().filter((type) => type === 'sessionTimeout/countdownTicked');
    expect(ticks).toHaveLength(120);
    // The countdown channel is closed: nothing ticks afterwards.
    await advance(10_000);
    expect(a.types().filter((type) => type === 'sessionTimeout/countdownTicked')).toHaveLength(120);
  });

  it('extends: the panel closes, activity restarts and the 30-minute confirmation opens', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS + 30_000);
    expect(timeout(a).phase).toBe('warning');
    a.store.dispatch(sessionTimeoutActions.extendRequested());
    await advance(0);
    expect(callsTo(calls, EXTEND)).toHaveLength(1);
    const extendedAt = T0 + SESSION_WARNING_MS + 30_000;
    expect(timeout(a)).toMatchObject({
      phase: 'active',
      lastActivityAt: extendedAt,
      serverActivityAt: extendedAt,
      extend: 'succeeded',
    });
    expect(a.state().notifications.panel).toEqual({
      status: 'open',
      title: 'Session timeout',
      content: 'Your session has been extended for 30 minutes.',
    });
    expect(JSON.parse(window.localStorage.getItem(ACTIVITY_STORAGE_KEY)!)).toEqual({
      lastTimeStamp: extendedAt,
    });
    // The next warning comes 28 minutes after the extension, not before.
    await advance(SESSION_WARNING_MS - 1);
    expect(timeout(a).phase).toBe('active');
    await advance(1);
    expect(timeout(a).phase).toBe('warning');
  });

  it('extends a partner single-sign-on session: warning after 28,680,000 ms, 8-hour text', async () => {
    routes({ [EXTEND]: extendAnswer(480) });
    const a = tab();
    signInTab(a, ssoUser);
    await advance(SSO_SESSION_WARNING_MS - 1);
    expect(timeout(a).phase).toBe('active');
    await advance(1);
    expect(timeout(a)).toMatchObject({ phase: 'warning', remainingMs: 120_000 });
    a.store.dispatch(sessionTimeoutActions.extendRequested());
    await advance(0);
    expect(timeout(a).phase).toBe('active');
    expect(a.state().notifications.panel).toMatchObject({
      status: 'open',
      title: MESSAGES.sessionTimeoutTitle,
      content: 'Your session has been extended for 8 hours.',
    });
  });

  it('keeps the panel open with the reason when Extend fails', async () => {
    allowConsoleError(/^POST \/api\/auth\/extend-session\S* answered 503/);
    routes({ [EXTEND]: { status: 503, body: { message: 'Try later.', code: 'down' } } });
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS);
    a.store.dispatch(sessionTimeoutActions.extendRequested());
    await advance(0);
    expect(timeout(a)).toMatchObject({
      phase: 'warning',
      extend: 'failed',
      extendError: 'Try later.',
    });
    expect(a.state().notifications.panel.status).toBe('closed');
  });

  it('Close hides the panel but the countdown still ends the session', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS + 5_000);
    a.store.dispatch(sessionTimeoutActions.warningClosed());
    expect(timeout(a).phase).toBe('dismissed');
    await advance(114_000);
    expect(timeout(a)).toMatchObject({ phase: 'dismissed', remainingMs: 1_000 });
    await advance(1_000);
    expect(timeout(a).phase).toBe('timedOut');
  });

  it('after Close, the next user input counts as activity again', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS);
    a.store.dispatch(sessionTimeoutActions.warningClosed());
    await advance(10_000);
    a.act('keydown');
    expect(timeout(a)).toMatchObject({ phase: 'active', lastActivityAt: Date.now() });
    await advance(SESSION_COUNTDOWN_MS);
    expect(timeout(a).phase).toBe('active');
  });

  it('counts user input as activity at most once per second and restarts the timers', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(20 * MINUTE);
    for (let i = 0; i < 10; i += 1) a.act(i % 2 ? 'mousemove' : 'wheel');
    await advance(999);
    a.act('keydown');
    const recorded = () =>
      a.types().filter((type) => type === 'sessionTimeout/activityRecorded').length;
    expect(recorded()).toBe(1);
    await advance(1);
    a.act('mousedown');
    expect(recorded()).toBe(2);
    expect(timeout(a).lastActivityAt).toBe(T0 + 20 * MINUTE + 1_000);
    // The warning now comes 28 minutes after that input.
    await advance(SESSION_WARNING_MS - 1);
    expect(timeout(a).phase).toBe('active');
    await advance(1);
    expect(timeout(a).phase).toBe('warning');
  });

  it('ignores user input while the panel is open: Extend or Close decides', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS);
    a.act();
    await advance(5_000);
    a.act('keydown');
    expect(timeout(a).phase).toBe('warning');
    expect(a.types()).not.toContain('sessionTimeout/activityRecorded');
  });

  it('sends a keep-alive at most once a minute while the user is active, none while idle', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(10_000);
    a.act();
    await advance(0);
    // Sign-in reset the server's clock 10 s ago: the keep-alive waits for the minute to pass.
    expect(callsTo(calls, EXTEND)).toHaveLength(0);
    await advance(KEEP_ALIVE_INTERVAL_MS - 10_000);
    expect(callsTo(calls, EXTEND)).toHaveLength(1);
    expect(timeout(a).serverActivityAt).toBe(T0 + KEEP_ALIVE_INTERVAL_MS);

    // Five minutes of continuous input: one keep-alive per minute.
    for (let second = 0; second < 300; second += 1) {
      a.act();
      await advance(1_000);
    }
    const sent = callsTo(calls, EXTEND).length;
    expect(sent).toBeGreaterThanOrEqual(5);
    expect(sent).toBeLessThanOrEqual(6);

    // Idle: nothing more than the last pending keep-alive.
    await advance(KEEP_ALIVE_INTERVAL_MS);
    const afterIdle = callsTo(calls, EXTEND).length;
    await advance(20 * MINUTE);
    expect(callsTo(calls, EXTEND)).toHaveLength(afterIdle);
  });

  it('ends the session when the keep-alive answers 401', async () => {
    allowConsoleError(/^POST \/api\/auth\/extend-session\S* answered 401/);
    routes({
      [EXTEND]: { status: 401, body: { message: 'Please sign in.', code: 'unauthorized' } },
    });
    const a = tab();
    signInTab(a, makeUser());
    await advance(KEEP_ALIVE_INTERVAL_MS);
    a.act();
    await advance(0);
    expect(a.types()).toContain('session/expired');
    expect(a.state().session.user).toBeNull();
    expect(timeout(a).phase).toBe('inactive');
  });

  it('activity in another tab restarts this tab’s timers and closes its warning', async () => {
    const a = tab();
    const b = tab();
    signInTab(a, makeUser());
    loadUserInTab(b, makeUser());
    await advance(0);
    expect(timeout(b).lastActivityAt).toBe(T0);

    // Input in A at 20 minutes: B counts from there too.
    await advance(20 * MINUTE);
    a.act();
    await advance(0);
    expect(timeout(b).lastActivityAt).toBe(T0 + 20 * MINUTE);
    await advance(SESSION_WARNING_MS - 1);
    expect(timeout(a).phase).toBe('active');
    expect(timeout(b).phase).toBe('active');
    await advance(1);
    expect(timeout(a).phase).toBe('warning');
    expect(timeout(b).phase).toBe('warning');

    // Extend in A closes B's warning; only A called the server.
    a.store.dispatch(sessionTimeoutActions.extendRequested());
    await advance(0);
    expect(timeout(b)).toMatchObject({ phase: 'active', lastActivityAt: Date.now() });
    expect(callsTo(calls, EXTEND)).toHaveLength(2); // A's keep-alive after input, then Extend
    expect(b.types()).not.toContain('sessionTimeout/extendRequested');
    expect(b.state().notifications.panel.status).toBe('closed');
    await advance(SESSION_WARNING_MS - 1);
    expect(timeout(b).phase).toBe('active');
  });

  it('a tab whose timer fires late adopts newer activity stored by another tab', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(10 * MINUTE);
    // Another tab was active, but its message never arrived (a frozen tab): only the record.
    window.localStorage.setItem(
      ACTIVITY_STORAGE_KEY,
      JSON.stringify({ lastTimeStamp: T0 + 10 * MINUTE }),
    );
    await advance(SESSION_WARNING_MS - 10 * MINUTE);
    expect(timeout(a)).toMatchObject({ phase: 'active', lastActivityAt: T0 + 10 * MINUTE });
    await advance(10 * MINUTE);
    expect(timeout(a).phase).toBe('warning');
  });

  it('a tab waking after the limit logs out on its next activity', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(5 * MINUTE);
    // The computer slept: the clock moved 31 minutes while no timer ran.
    jest.setSystemTime(T0 + 36 * MINUTE);
    a.act();
    expect(timeout(a)).toMatchObject({ phase: 'timedOut', timeoutReason: 'staleActivity' });
    expect(a.types()).not.toContain('sessionTimeout/activityRecorded');
  });

  it('a waking tab keeps the session when another tab was active meanwhile', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(5 * MINUTE);
    window.localStorage.setItem(
      ACTIVITY_STORAGE_KEY,
      JSON.stringify({ lastTimeStamp: T0 + 20 * MINUTE }),
    );
    jest.setSystemTime(T0 + 36 * MINUTE);
    a.act();
    expect(timeout(a)).toMatchObject({ phase: 'active', lastActivityAt: T0 + 36 * MINUTE });
  });

  it('keeps the session alive while an upload runs, then warns 28 minutes after it', async () => {
    const a = tab();
    signInTab(a, makeUser());
    for (let elapsed = 0; elapsed < 40 * MINUTE; elapsed += 5_000) {
      a.store.dispatch(uploadsActions.activityReported({ at: Date.now() }));
      await advance(5_000);
    }
    expect(timeout(a).phase).toBe('active');
    expect(a.types()).not.toContain('sessionTimeout/warningOpened');
    // The server heard about it too: one keep-alive per minute.
    expect(callsTo(calls, EXTEND).length).toBeGreaterThanOrEqual(39);
    expect(callsTo(calls, EXTEND).length).toBeLessThanOrEqual(41);
    const lastUpload = timeout(a).lastActivityAt!;
    expect(lastUpload).toBe(T0 + 40 * MINUTE - 5_000);
    await advance(lastUpload + SESSION_WARNING_MS - Date.now() - 1);
    expect(timeout(a).phase).toBe('active');
    await advance(1);
    expect(timeout(a).phase).toBe('warning');
  });

  it('upload progress closes an open warning', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS + 3_000);
    a.store.dispatch(uploadsActions.activityReported({ at: Date.now() }));
    expect(timeout(a)).toMatchObject({ phase: 'active', lastActivityAt: Date.now() });
  });

  it('signing out in one tab signs out the others', async () => {
    routes({
      'GET /api/rest/private/user_event/logout': { body: {} },
      'POST /api/auth/logout': { body: {} },
    });
    const a = tab();
    const b = tab();
    signInTab(a, makeUser());
    loadUserInTab(b, makeUser());
    await advance(0);
    a.store.dispatch(sessionActions.signOutRequested());
    await advance(0);
    expect(a.state().session.user).toBeNull();
    expect(b.types()).toContain('session/endedInAnotherTab');
    expect(b.state().session).toMatchObject({ user: null, endReason: 'signedOutElsewhere' });
    expect(timeout(b).phase).toBe('inactive');
    // B did not call the server: A ended the session.
    expect(callsTo(calls, 'POST /api/auth/logout')).toHaveLength(1);
  });

  it('a session that ends with 401 in one tab ends in the others', async () => {
    const a = tab();
    const b = tab();
    signInTab(a, makeUser());
    loadUserInTab(b, makeUser());
    await advance(0);
    a.store.dispatch(sessionActions.expired());
    await advance(0);
    expect(b.state().session).toMatchObject({ user: null, endReason: 'signedOutElsewhere' });
  });

  it('signing in in one tab makes a signed-out tab load the user', async () => {
    routes({ 'GET /api/auth/current-user': { body: makeUser() } });
    const a = tab();
    const b = tab();
    loadUserInTab(b, null as never);
    signInTab(a, makeUser());
    await advance(0);
    expect(b.types()).toContain('session/currentUserRequested');
    expect(b.state().session.user?.userId).toBe('u1');
    expect(timeout(b).phase).toBe('active');
  });

  it('starts from the server’s idle clock after a reload', async () => {
    const a = tab();
    loadUserInTab(a, makeUser({ sessionIdleRemainingMs: 10 * MINUTE }));
    expect(timeout(a)).toMatchObject({
      lastActivityAt: T0 - 20 * MINUTE,
      serverActivityAt: T0 - 20 * MINUTE,
    });
    await advance(8 * MINUTE);
    expect(timeout(a).phase).toBe('warning');
  });

  it('releases the channel and the input listeners when the sagas are cancelled', async () => {
    const a = tab();
    signInTab(a, makeUser());
    expect(FakeBroadcastChannel.open.size).toBe(1);
    a.store.sagaTask.cancel();
    expect(FakeBroadcastChannel.open.size).toBe(0);
    a.act();
    await advance(SESSION_WARNING_MS);
    expect(a.types()).not.toContain('sessionTimeout/activityRecorded');
    expect(a.types()).not.toContain('sessionTimeout/warningOpened');
  });

  it('stops the timers at sign-out', async () => {
    routes({
      'GET /api/rest/private/user_event/logout': { body: {} },
      'POST /api/auth/logout': { body: {} },
    });
    const a = tab();
    signInTab(a, makeUser());
    a.store.dispatch(sessionActions.signOutRequested());
    await advance(0);
    expect(timeout(a).phase).toBe('inactive');
    await advance(SESSION_WARNING_MS + SESSION_COUNTDOWN_MS);
    expect(a.types()).not.toContain('sessionTimeout/warningOpened');
  });

  it('keeps the store serializable: numbers, strings and plain objects only', async () => {
    const a = tab();
    signInTab(a, makeUser());
    await advance(SESSION_WARNING_MS + 2_000);
    const json = JSON.parse(JSON.stringify(a.state().sessionTimeout)) as unknown;
    expect(json).toEqual(a.state().sessionTimeout);
    for (const action of a.actions) {
      expect(JSON.parse(JSON.stringify(action))).toEqual(action);
    }
  });
});
