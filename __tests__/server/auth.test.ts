import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from '@common/api';
import type { HistoryEventDto } from '@common/history';
import type { CurrentUserDto } from '@common/session';
import { MESSAGES } from '@common/messages';
import {
  addUser,
  ADMIN_PASSWORD,
  describeEachDatabase,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';

describeEachDatabase('sign-in and sessions', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  const authenticate = (username: string, password: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username, password },
    });

  it('signs in with the right password and sets an HttpOnly, SameSite=Lax cookie', async () => {
    const response = await authenticate('admin', ADMIN_PASSWORD);
    expect(response.statusCode).toBe(200);
    const user = response.json<CurrentUserDto>();
    expect(user.firstName).toBe('Demo');
    expect(user.databases.map((d) => d.name)).toEqual(['Demo Advisory']);
    expect(user.currentDatabaseId).toBe(user.databases[0]!.id);
    const cookie = response.cookies.find((c) => c.name === 'dossier_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(response.body).not.toContain('password');
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const wrong = await authenticate('admin', 'not the password');
    const unknown = await authenticate('nobody', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      message: MESSAGES.invalidCredentials,
      code: 'invalid_credentials',
    });
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.cookies).toHaveLength(0);
  });

  it('answers 401 without a session and with a forged cookie', async () => {
    const none = await server.app.inject({ method: 'GET', url: '/api/auth/current-user' });
    expect(none.statusCode).toBe(401);
    expect(none.json<{ code: string }>().code).toBe('unauthorized');
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie: 'dossier_session=forged' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('issues a new session id at every sign-in', async () => {
    const a = await signIn(server);
    const b = await signIn(server);
    expect(a).not.toBe(b);
  });

  it('answers the current user and switches only to databases the user belongs to', async () => {
    const cookie = await signIn(server);
    const me = (
      await server.app.inject({ method: 'GET', url: '/api/auth/current-user', headers: { cookie } })
    ).json<CurrentUserDto>();
    const other = await addUser(server, { username: 'outsider', password: 'pw-outsider-1' });
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/auth/switch-database',
      headers: { cookie },
      payload: { currentDatabaseId: other.databaseId },
    });
    expect(refused.statusCode).toBe(404);
    const same = await server.app.inject({
      method: 'POST',
      url: '/api/auth/switch-database',
      headers: { cookie },
      payload: { currentDatabaseId: me.currentDatabaseId },
    });
    expect(same.statusCode).toBe(200);
    expect(same.json<CurrentUserDto>().currentDatabaseId).toBe(me.currentDatabaseId);
  });

  it('switches between two firm databases for a user in both', async () => {
    const first = await addUser(server, {
      username: 'multi',
      password: 'pw-multi-123',
      databaseName: 'Alpha Wealth',
    });
    const second = await addUser(server, {
      username: 'helper-b',
      password: 'pw-helper-123',
      databaseName: 'Beta Capital',
    });
    await server.services.db
      .insertInto('memberships')
      .values({
        id: `m-${second.databaseId}`,
        user_id: first.userId,
        database_id: second.databaseId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute();
    const cookie = await signIn(server, 'multi', 'pw-multi-123');
    const switched = await server.app.inject({
      method: 'POST',
      url: '/api/auth/switch-database',
      headers: { cookie },
      payload: { currentDatabaseId: second.databaseId },
    });
    expect(switched.json<CurrentUserDto>().currentDatabaseId).toBe(second.databaseId);
    const folder = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie },
      payload: { name: 'In Beta' },
    });
    expect(folder.statusCode).toBe(201);
    const helperCookie = await signIn(server, 'helper-b', 'pw-helper-123');
    const seen = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie: helperCookie },
    });
    expect(seen.json<Page<{ name: string }>>().items.map((i) => i.name)).toContain('In Beta');
  });

  it('records login and logout once each, and logout ends the session', async () => {
    const cookie = await signIn(server);
    for (let i = 0; i < 2; i += 1) {
      const r = await server.app.inject({
        method: 'GET',
        url: '/api/rest/private/user_event/login',
        headers: { cookie },
      });
      expect(r.statusCode).toBe(204);
    }
    await server.app.inject({
      method: 'GET',
      url: '/api/rest/private/user_event/logout',
      headers: { cookie },
    });
    const out = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(out.statusCode).toBe(204);
    const after = await server.app.inject({
      method: 'GET',
      url: '/api/auth/current-user',
      headers: { cookie },
    });
    expect(after.statusCode).toBe(401);

    const reader = await signIn(server);
    const history = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history?page=1&page_size=500',
      headers: { cookie: reader },
      payload: { entity_type: 'user' },
    });
    const events = history.json<Page<HistoryEventDto>>().items;
    expect(events.filter((e) => e.action === 'login')).toHaveLength(1);
    expect(events.filter((e) => e.action === 'logout')).toHaveLength(1);
    expect(events[0]!.user_name).toBe('Demo Administrator');
  });

  it('ends a session after the idle limit', async () => {
    const cookie = await signIn(server);
    server.clock.now += 31 * 60_000;
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/auth/current-user',
      headers: { cookie },
    });
    server.clock.now = Date.now();
    expect(response.statusCode).toBe(401);
  });

  it('refuses a state-changing request from another origin (CSRF)', async () => {
    const cookie = await signIn(server);
    const cross = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie, origin: 'https://evil.example', host: 'localhost:3000' },
      payload: { name: 'Evil' },
    });
    expect(cross.statusCode).toBe(403);
    expect(cross.json<{ code: string }>().code).toBe('cross_origin');
    const same = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie, origin: 'http://localhost:3000', host: 'localhost:3000' },
      payload: { name: 'Same origin' },
    });
    expect(same.statusCode).toBe(201);
  });

  it('sends the security headers and serves the OpenAPI document', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const doc = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/rest/files');
  });
});
