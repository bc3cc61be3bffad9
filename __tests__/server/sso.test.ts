// Single sign-on through partner integration keys on SQLite and PostgreSQL:
// generate_token by Bearer key, the token's single use and expiry, the browser sign-in on both
// paths (same cookie session as a password sign-in, in the key's firm), the configured partner's
// 480-minute session and sso flag, disabling integrations stopping keys and tokens at once, and the
// rate limit of the token endpoints.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { SESSION_MINUTES, SSO_SESSION_MINUTES } from '@common/constants';
import type { GenerateTokenResponse } from '@common/integrations';
import type { CurrentUserDto } from '@common/session';
import { sessionIdFor } from '@server/services/auth';
import {
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';
import {
  createKey,
  generateToken,
  loginWithToken,
  me,
  switchIntegrations,
  tokenFor,
} from './integrationHelpers';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const PARTNER = 'crm';

describeEachDatabase('single sign-on', (kind) => {
  let server: TestServer;
  let admin: string;
  let firmId: string;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: { SSO_PARTNER_APP_ID: PARTNER, SSO_TOKEN_TTL_SECONDS: '60' },
    });
    admin = await signIn(server);
    firmId = (await me(server, admin)).currentDatabaseId;
    await switchIntegrations(server, admin, firmId, true);
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    server.clock.now = Date.now();
    await switchIntegrations(server, admin, firmId, true);
  });

  let n = 0;
  /** A new member of the firm with a key for `partner`. */
  async function userWithKey(partner = PARTNER) {
    n += 1;
    const username = `sso-user-${n}`;
    const { userId } = await addUser(server, {
      username,
      password: `pw-${username}`,
      databaseId: firmId,
    });
    const { key } = await createKey(server, admin, partner, userId);
    return { userId, username, key };
  }
  const ssoFlag = async (userId: string) =>
    (
      await server.services.db
        .selectFrom('users')
        .select('sso')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).sso;

  describe('generate_token', () => {
    it('answers a single-use token for the key user, valid 60 s, stored only as its sha256', async () => {
      const { key, userId } = await userWithKey();
      const response = await generateToken(server, key);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json<GenerateTokenResponse>();
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.expiresIn).toBe(60);
      expect(body.expiresAt).toBe(new Date(server.clock.now + 60_000).toISOString());
      const rows = await server.services.db.selectFrom('sso_tokens').selectAll().execute();
      const row = rows.find((r) => r.id === sha256(body.token))!;
      expect(row).toMatchObject({ user_id: userId, database_id: firmId, used_at: null });
      expect(JSON.stringify(rows)).not.toContain(body.token);
    });

    it('refuses a missing, malformed or unknown key with 401 invalid_key', async () => {
      const { key } = await userWithKey();
      for (const response of [
        await generateToken(server, null),
        await generateToken(server, null, { authorization: `Basic ${key}` }),
        await generateToken(server, null, { authorization: 'Bearer' }),
        await generateToken(server, `${key}x`),
        await generateToken(server, 'dsk_not-a-key'),
      ]) {
        expect(response.statusCode).toBe(401);
        expect(response.json<{ code: string }>().code).toBe('invalid_key');
        expect(response.body).not.toContain(key);
      }
    });

    it('refuses a disabled user and a user removed from the firm (403 user_unavailable), not a locked one', async () => {
      const disabled = await userWithKey();
      await server.services.db
        .updateTable('users')
        .set({ disabled_at: new Date(server.clock.now).toISOString() })
        .where('id', '=', disabled.userId)
        .execute();
      const refused = await generateToken(server, disabled.key);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ code: string }>().code).toBe('user_unavailable');

      // A lockout stops only the address that guessed passwords, never the partner's key.
      const locked = await userWithKey();
      await server.services.db
        .updateTable('users')
        .set({
          locked_at: new Date(server.clock.now).toISOString(),
          locked_until: new Date(server.clock.now + 15 * 60_000).toISOString(),
        })
        .where('id', '=', locked.userId)
        .execute();
      expect((await generateToken(server, locked.key)).statusCode).toBe(200);

      const removed = await userWithKey();
      await server.services.db
        .deleteFrom('memberships')
        .where('user_id', '=', removed.userId)
        .execute();
      expect((await generateToken(server, removed.key)).statusCode).toBe(403);
    });
  });

  describe('token sign-in', () => {
    it('signs the browser in once with the same session cookie as a password sign-in', async () => {
      const { key, userId } = await userWithKey('other-partner');
      const { token } = await tokenFor(server, key);
      const response = await loginWithToken(server, token);
      expect(response.statusCode).toBe(200);
      const user = response.json<CurrentUserDto>();
      expect(user.userId).toBe(userId);
      expect(user.currentDatabaseId).toBe(firmId);
      const cookie = sessionCookie(response);
      const raw = response.cookies.find((c) => c.name === 'dossier_session')!;
      expect(raw.httpOnly).toBe(true);
      expect(raw.sameSite).toBe('Lax');
      expect((await me(server, cookie)).userId).toBe(userId);
      const session = await server.services.db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', sessionIdFor(raw.value))
        .executeTakeFirstOrThrow();
      expect(session.user_id).toBe(userId);
      // Not the configured partner: the normal session, no sso flag.
      expect(user.sso).toBe(false);
      expect(user.sessionMinutes).toBe(SESSION_MINUTES);
      expect(session.idle_minutes).toBe(SESSION_MINUTES);
      expect(await ssoFlag(userId)).toBe(0);

      const again = await loginWithToken(server, token);
      expect(again.statusCode).toBe(401);
      expect(again.json<{ code: string }>().code).toBe('invalid_token');
      expect(again.cookies.find((c) => c.name === 'dossier_session')).toBeUndefined();
    });

    it("gives the configured partner's users the 480-minute session and sets their sso flag", async () => {
      const { key, userId } = await userWithKey(PARTNER);
      expect(await ssoFlag(userId)).toBe(0);
      const { token } = await tokenFor(server, key);
      const response = await loginWithToken(server, token, '/api/rest/private/auth/login');
      expect(response.statusCode).toBe(200);
      const user = response.json<CurrentUserDto>();
      expect(user.sso).toBe(true);
      expect(user.sessionMinutes).toBe(SSO_SESSION_MINUTES);
      expect(await ssoFlag(userId)).toBe(1);
      const cookie = sessionCookie(response);
      const current = await me(server, cookie);
      expect(current.sso).toBe(true);
      expect(current.sessionMinutes).toBe(SSO_SESSION_MINUTES);
      // The session outlives the normal 30 idle minutes.
      server.clock.now += (SESSION_MINUTES + 1) * 60_000;
      expect((await me(server, cookie)).userId).toBe(userId);
    });

    it('refuses an expired token and accepts one just before it expires', async () => {
      const { key } = await userWithKey();
      const start = server.clock.now;
      const early = await tokenFor(server, key);
      const late = await tokenFor(server, key);
      server.clock.now = start + 60_000 - 1;
      expect((await loginWithToken(server, early.token)).statusCode).toBe(200);
      server.clock.now = start + 60_000;
      const expired = await loginWithToken(server, late.token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json<{ code: string }>().code).toBe('invalid_token');
    });

    it('refuses unknown tokens and records each sign-in as a use of the key', async () => {
      expect((await loginWithToken(server, 'not-a-token')).statusCode).toBe(401);
      const { key } = await userWithKey();
      const { token } = await tokenFor(server, key);
      expect(
        (await loginWithToken(server, token, '/api/auth/login', { ip: '192.0.2.44' })).statusCode,
      ).toBe(200);
      const keyId = (
        await server.services.db
          .selectFrom('integration_keys')
          .select('id')
          .where('key_hash', '=', sha256(key))
          .executeTakeFirstOrThrow()
      ).id;
      const uses = await server.services.db
        .selectFrom('integration_key_uses')
        .select(['action', 'outcome', 'ip'])
        .where('key_id', '=', keyId)
        .orderBy('used_at')
        .orderBy('id')
        .execute();
      expect(uses.map((u) => [u.action, u.outcome])).toEqual([
        ['generate_token', 'ok'],
        ['token_login', 'ok'],
      ]);
      expect(uses[1]!.ip).toBe('192.0.2.44');
    });

    it('ends the session the browser still presented and issues a new one', async () => {
      const { key, userId } = await userWithKey();
      const { token } = await tokenFor(server, key);
      const previous = await signIn(server);
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { token },
        headers: { cookie: previous },
      });
      expect(response.statusCode).toBe(200);
      expect(sessionCookie(response)).not.toBe(previous);
      const ended = await server.app.inject({
        method: 'GET',
        url: '/api/auth/current-user',
        headers: { cookie: previous },
      });
      expect(ended.statusCode).toBe(401);
      expect((await me(server, sessionCookie(response))).userId).toBe(userId);
    });

    it('refuses a token after its key is rotated or deleted', async () => {
      const rotated = await userWithKey();
      const beforeRotation = await tokenFor(server, rotated.key);
      await server.app.inject({
        method: 'POST',
        url: `/api/rest/private/integrations/users/${rotated.userId}?partner_app_id=${PARTNER}`,
        headers: { cookie: admin },
      });
      expect((await loginWithToken(server, beforeRotation.token)).statusCode).toBe(401);

      const deleted = await userWithKey();
      const beforeDeletion = await tokenFor(server, deleted.key);
      await server.app.inject({
        method: 'DELETE',
        url: `/api/rest/private/integrations/users/${deleted.userId}`,
        headers: { cookie: admin },
      });
      expect((await loginWithToken(server, beforeDeletion.token)).statusCode).toBe(401);
    });

    it('refuses a cross-origin sign-in post without using up the token', async () => {
      const { key } = await userWithKey();
      const { token } = await tokenFor(server, key);
      const cross = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { token },
        headers: { origin: 'https://partner.example', host: 'localhost:3000' },
      });
      expect(cross.statusCode).toBe(403);
      expect(cross.json<{ code: string }>().code).toBe('cross_origin');
      const same = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { token },
        headers: { origin: 'http://localhost:3000', host: 'localhost:3000' },
      });
      expect(same.statusCode).toBe(200);
    });

    it('refuses a token whose user was disabled after it was issued', async () => {
      const { key, userId } = await userWithKey();
      const { token } = await tokenFor(server, key);
      await server.services.db
        .updateTable('users')
        .set({ disabled_at: new Date(server.clock.now).toISOString() })
        .where('id', '=', userId)
        .execute();
      const response = await loginWithToken(server, token);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ code: string }>().code).toBe('invalid_token');
    });
  });

  describe('disabling integrations', () => {
    it("stops the firm's keys and outstanding tokens at once, and enabling brings keys back", async () => {
      const { key } = await userWithKey();
      const outstanding = await tokenFor(server, key);
      const disabled = await switchIntegrations(server, admin, firmId, false);
      expect(disabled.statusCode).toBe(200);

      const refusedKey = await generateToken(server, key);
      expect(refusedKey.statusCode).toBe(403);
      expect(refusedKey.json<{ code: string }>().code).toBe('integrations_disabled');
      const refusedToken = await loginWithToken(server, outstanding.token);
      expect(refusedToken.statusCode).toBe(401);
      expect(refusedToken.json<{ code: string }>().code).toBe('invalid_token');

      await switchIntegrations(server, admin, firmId, true);
      // The token issued before disabling stays dead; the key works again.
      expect((await loginWithToken(server, outstanding.token)).statusCode).toBe(401);
      const fresh = await tokenFor(server, key);
      expect((await loginWithToken(server, fresh.token)).statusCode).toBe(200);
    });

    it('refuses a token checked after the switch even if it was not removed (race with disable)', async () => {
      const { key } = await userWithKey();
      const { token } = await tokenFor(server, key);
      // Disable without the service (as a concurrent disable would look to a sign-in in flight).
      await server.services.db
        .updateTable('integrations')
        .set({ enabled: 0 })
        .where('database_id', '=', firmId)
        .execute();
      expect((await loginWithToken(server, token)).statusCode).toBe(401);
    });

    it("leaves other firms' keys working", async () => {
      const { databaseId: otherFirm } = await addUser(server, {
        username: 'sso-other-admin',
        password: 'pw-sso-other-admin',
        role: 'admin',
        databaseName: 'SSO Other Firm',
      });
      const otherAdmin = await signIn(server, 'sso-other-admin', 'pw-sso-other-admin');
      await switchIntegrations(server, otherAdmin, otherFirm, true);
      const { key } = await createKey(server, otherAdmin, PARTNER);
      await switchIntegrations(server, admin, firmId, false);
      const { token } = await tokenFor(server, key);
      const response = await loginWithToken(server, token);
      expect(response.statusCode).toBe(200);
      expect(response.json<CurrentUserDto>().currentDatabaseId).toBe(otherFirm);
    });
  });
});

describeEachDatabase('single sign-on rate limit', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SSO_RATE_LIMIT: '3' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 429 past SSO_RATE_LIMIT requests per IP per minute on the token endpoints', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await generateToken(server, 'dsk_guess', { ip: '192.0.2.1' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another IP has its own allowance.
    expect((await generateToken(server, 'dsk_guess', { ip: '192.0.2.2' })).statusCode).toBe(401);
    const logins: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      logins.push(
        (await loginWithToken(server, 'guess', '/api/auth/login', { ip: '192.0.2.3' })).statusCode,
      );
    }
    expect(logins).toEqual([401, 401, 401, 429]);
  });
});
