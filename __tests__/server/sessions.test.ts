// Server-enforced session expiry on SQLite and PostgreSQL with a controlled clock: idle
// limit, what counts as activity, extension, absolute lifetime, partner single-sign-on length,
// ending sessions (logout, endSessionsOfUser, disabled user) and a new id at every sign-in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { MESSAGES } from '@common/messages';
import { SESSION_MINUTES, SSO_SESSION_MAX_AGE_HOURS, SSO_SESSION_MINUTES } from '@common/constants';
import type { CurrentUserDto, ExtendSessionResponse } from '@common/session';
import { endSessionsOfUser, sessionIdFor } from '@server/services/auth';
import {
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describeEachDatabase('session expiry', (kind) => {
  let server: TestServer;
  let start: number;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.clock.now = Date.now();
  });

  /** Sets the clock to `ms` after the test's start. */
  const at = (ms: number) => {
    server.clock.now = start + ms;
  };
  const begin = () => {
    start = Date.now();
    server.clock.now = start;
  };
  const me = (cookie: string) =>
    server.app.inject({ method: 'GET', url: '/api/auth/current-user', headers: { cookie } });
  const extend = (cookie: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/extend-session', headers: { cookie } });
  const sessionRows = async (userId: string) =>
    server.services.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
  const tokenOf = (cookie: string) => cookie.split('=')[1]!;

  async function makeSso(username: string): Promise<string> {
    const { userId } = await addUser(server, { username, password: `pw-${username}-1` });
    await server.services.db
      .updateTable('users')
      .set({ sso: 1 })
      .where('id', '=', userId)
      .execute();
    return userId;
  }

  it('ends a session at its idle limit of 30 minutes and removes it', async () => {
    begin();
    const { userId } = await addUser(server, { username: 'idle-1', password: 'pw-idle-1' });
    const cookie = await signIn(server, 'idle-1', 'pw-idle-1');
    at(30 * MINUTE - 1);
    expect((await me(cookie)).statusCode).toBe(200);
    at(30 * MINUTE);
    const ended = await me(cookie);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual({ message: MESSAGES.notSignedIn, code: 'unauthorized' });
    expect(await sessionRows(userId)).toHaveLength(0);
    // The stale cookie is cleared.
    expect(ended.cookies.find((c) => c.name === 'dossier_session')?.value).toBe('');
  });

  it('records the logout of a session that timed out when its client asks to record it (401)', async () => {
    begin();
    const { userId } = await addUser(server, { username: 'idle-event', password: 'pw-idle-event' });
    const cookie = await signIn(server, 'idle-event', 'pw-idle-event');
    const logouts = () =>
      server.services.db
        .selectFrom('history_events')
        .select(['user_id', 'action'])
        .where('entity_type', '=', 'user')
        .where('action', '=', 'logout')
        .where('user_id', '=', userId)
        .execute();
    at(30 * MINUTE);
    // The timeout's logout page records the event: the session has just ended, so 401...
    const late = await server.app.inject({
      method: 'GET',
      url: '/api/rest/private/user_event/logout',
      headers: { cookie },
    });
    expect(late.statusCode).toBe(401);
    // ...but ending it recorded the logout, once.
    expect(await logouts()).toEqual([{ user_id: userId, action: 'logout' }]);
    expect(await sessionRows(userId)).toHaveLength(0);
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await logouts()).toHaveLength(1);

    // A session whose logout was recorded already (the client's own logout event) adds none.
    const second = await signIn(server, 'idle-event', 'pw-idle-event');
    const recorded = await server.app.inject({
      method: 'GET',
      url: '/api/rest/private/user_event/logout',
      headers: { cookie: second },
    });
    expect(recorded.statusCode).toBe(204);
    expect(await logouts()).toHaveLength(2);
    at(61 * MINUTE);
    expect((await me(second)).statusCode).toBe(401);
    expect(await logouts()).toHaveLength(2);
  });

  it('does not count reads or changes as activity: only extend-session resets the idle clock', async () => {
    begin();
    const cookie = await signIn(server);
    at(10 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(200);
    at(20 * MINUTE);
    const folder = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie },
      payload: { name: `Busy ${start}` },
    });
    expect(folder.statusCode).toBe(201);
    at(29 * MINUTE);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/rest/entities', headers: { cookie } }))
        .statusCode,
    ).toBe(200);
    at(30 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('tells the client its session length and the idle time left', async () => {
    begin();
    const cookie = await signIn(server);
    at(10 * MINUTE);
    const user = (await me(cookie)).json<CurrentUserDto>();
    expect(user.sessionMinutes).toBe(SESSION_MINUTES);
    expect(user.sessionIdleSeconds).toBe(1800);
    expect(user.sessionIdleRemainingMs).toBe(20 * MINUTE);
  });

  it('extends the session: the idle clock restarts and the answer tells the new end', async () => {
    begin();
    const cookie = await signIn(server);
    at(25 * MINUTE);
    const answer = await extend(cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<ExtendSessionResponse>()).toEqual({
      expires_at: new Date(start + 55 * MINUTE).toISOString(),
      session_minutes: 30,
      idle_seconds: 1800,
    });
    at(54 * MINUTE);
    const user = (await me(cookie)).json<CurrentUserDto>();
    expect(user.sessionIdleRemainingMs).toBe(MINUTE);
    at(55 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(401);
    // An ended session cannot be extended.
    expect((await extend(cookie)).statusCode).toBe(401);
  });

  it('ends a session at its absolute lifetime however often it is extended', async () => {
    begin();
    const cookie = await signIn(server);
    const lifetime = server.config.sessionMaxAgeMs;
    expect(lifetime).toBe(12 * HOUR);
    let now = 0;
    while (now + 25 * MINUTE < lifetime) {
      now += 25 * MINUTE;
      at(now);
      expect((await extend(cookie)).statusCode).toBe(200);
    }
    // Within 30 minutes of the end, the answer is capped by the lifetime.
    expect((await extend(cookie)).json<ExtendSessionResponse>().expires_at).toBe(
      new Date(start + lifetime).toISOString(),
    );
    at(lifetime - 1);
    expect((await me(cookie)).statusCode).toBe(200);
    at(lifetime);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('gives partner single-sign-on users 480 idle minutes and a 7-day lifetime', async () => {
    begin();
    await makeSso('sso-user');
    const cookie = await signIn(server, 'sso-user', 'pw-sso-user-1');
    const user = (await me(cookie)).json<CurrentUserDto>();
    expect(user.sso).toBe(true);
    expect(user.sessionMinutes).toBe(SSO_SESSION_MINUTES);
    expect(user.sessionIdleSeconds).toBe(480 * 60);
    at(479 * MINUTE);
    const extended = (await extend(cookie)).json<ExtendSessionResponse>();
    expect(extended.session_minutes).toBe(480);
    expect(extended.expires_at).toBe(new Date(start + 959 * MINUTE).toISOString());
    at(959 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(401);

    // The lifetime: extended every 7 hours, it still ends after 168 hours.
    begin();
    const second = await signIn(server, 'sso-user', 'pw-sso-user-1');
    const lifetime = SSO_SESSION_MAX_AGE_HOURS * HOUR;
    expect(server.config.ssoSessionMaxAgeMs).toBe(lifetime);
    for (let now = 7 * HOUR; now < lifetime; now += 7 * HOUR) {
      at(now);
      expect((await extend(second)).statusCode).toBe(200);
    }
    at(lifetime);
    expect((await me(second)).statusCode).toBe(401);
  });

  it('issues a new session id at sign-in and ends the session the browser presented', async () => {
    begin();
    const first = await signIn(server);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      headers: { cookie: first },
      payload: { username: 'admin', password: 'correct horse battery staple' },
    });
    const second = sessionCookie(response);
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it('logout ends that session only', async () => {
    begin();
    await addUser(server, { username: 'two-tabs', password: 'pw-two-tabs' });
    const laptop = await signIn(server, 'two-tabs', 'pw-two-tabs');
    const phone = await signIn(server, 'two-tabs', 'pw-two-tabs');
    const out = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: laptop },
    });
    expect(out.statusCode).toBe(204);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(200);
  });

  it('endSessionsOfUser ends every session of the user, except one when asked', async () => {
    begin();
    const a = await addUser(server, { username: 'ends-a', password: 'pw-ends-a' });
    await addUser(server, { username: 'ends-b', password: 'pw-ends-b' });
    const keep = await signIn(server, 'ends-a', 'pw-ends-a');
    const other1 = await signIn(server, 'ends-a', 'pw-ends-a');
    const other2 = await signIn(server, 'ends-a', 'pw-ends-a');
    const bystander = await signIn(server, 'ends-b', 'pw-ends-b');

    const ended = await endSessionsOfUser(server.services.db, a.userId, {
      except: sessionIdFor(tokenOf(keep)),
    });
    expect(ended).toBe(2);
    expect((await me(keep)).statusCode).toBe(200);
    expect((await me(other1)).statusCode).toBe(401);
    expect((await me(other2)).statusCode).toBe(401);
    expect((await me(bystander)).statusCode).toBe(200);

    expect(await endSessionsOfUser(server.services.db, a.userId)).toBe(1);
    expect((await me(keep)).statusCode).toBe(401);
    expect(await sessionRows(a.userId)).toHaveLength(0);
    expect((await me(bystander)).statusCode).toBe(200);
  });

  it('ends the sessions of a disabled user at their next request', async () => {
    begin();
    const { userId } = await addUser(server, { username: 'disabled', password: 'pw-disabled' });
    const cookie = await signIn(server, 'disabled', 'pw-disabled');
    await server.services.db
      .updateTable('users')
      .set({ disabled_at: new Date(start).toISOString() })
      .where('id', '=', userId)
      .execute();
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await sessionRows(userId)).toHaveLength(0);
  });

  it('purges sessions past their lifetime at the next sign-in', async () => {
    begin();
    const { userId } = await addUser(server, { username: 'forgotten', password: 'pw-forgotten' });
    await signIn(server, 'forgotten', 'pw-forgotten');
    expect(await sessionRows(userId)).toHaveLength(1);
    at(server.config.sessionMaxAgeMs + MINUTE);
    await signIn(server);
    expect(await sessionRows(userId)).toHaveLength(0);
  });
});

describe('SESSION_IDLE_SECONDS (tests only) shortens the idle limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { SESSION_IDLE_SECONDS: '150' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reports and enforces the shorter limit, keeping the nominal 30 minutes for the texts', async () => {
    const start = Date.now();
    server.clock.now = start;
    const cookie = await signIn(server);
    const me = () =>
      server.app.inject({ method: 'GET', url: '/api/auth/current-user', headers: { cookie } });
    const user = (await me()).json<CurrentUserDto>();
    expect(user.sessionMinutes).toBe(30);
    expect(user.sessionIdleSeconds).toBe(150);
    expect(user.sessionIdleRemainingMs).toBe(150_000);
    server.clock.now = start + 100_000;
    const extended = await server.app.inject({
      method: 'POST',
      url: '/api/auth/extend-session',
      headers: { cookie },
    });
    expect(extended.json<ExtendSessionResponse>()).toEqual({
      expires_at: new Date(start + 250_000).toISOString(),
      session_minutes: 30,
      idle_seconds: 150,
    });
    server.clock.now = start + 249_999;
    expect((await me()).statusCode).toBe(200);
    server.clock.now = start + 250_000;
    expect((await me()).statusCode).toBe(401);
  });
});
