// Integrations and partner integration user keys on SQLite and PostgreSQL: the
// per-firm switch (admins of that firm only, another firm's database 404), keys shown once and
// stored as a sha256 with a visible prefix, listed without the key, rotated (old key refused),
// deleted (refused), every use recorded with its time and IP.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type {
  CreatedIntegrationKeyDto,
  IntegrationDto,
  IntegrationKeysResponse,
  IntegrationsResponse,
} from '@common/integrations';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import {
  createKey,
  generateToken,
  me,
  postKey,
  switchIntegrations,
  tokenFor,
} from './integrationHelpers';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describeEachDatabase('integrations and partner keys', (kind) => {
  let server: TestServer;
  let admin: string;
  let firmId: string;
  let member: { cookie: string; userId: string };
  let readOnly: { cookie: string; userId: string };
  let other: { cookie: string; userId: string; databaseId: string };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server);
    firmId = (await me(server, admin)).currentDatabaseId;
    const m = await addUser(server, {
      username: 'int-member',
      password: 'pw-int-member',
      databaseId: firmId,
    });
    member = { userId: m.userId, cookie: await signIn(server, 'int-member', 'pw-int-member') };
    const r = await addUser(server, {
      username: 'int-reader',
      password: 'pw-int-reader',
      role: 'read_only',
      databaseId: firmId,
    });
    readOnly = { userId: r.userId, cookie: await signIn(server, 'int-reader', 'pw-int-reader') };
    const o = await addUser(server, {
      username: 'int-other',
      password: 'pw-int-other',
      role: 'admin',
      databaseName: 'Other Firm',
    });
    other = { ...o, cookie: await signIn(server, 'int-other', 'pw-int-other') };
  });
  afterAll(async () => {
    await server.close();
  });

  const listIntegrations = (cookie: string) =>
    server.app.inject({
      method: 'GET',
      url: '/api/rest/private/integrations',
      headers: { cookie },
    });
  const listKeys = (cookie: string, partner?: string) =>
    server.app.inject({
      method: 'GET',
      url:
        '/api/rest/private/integrations/userkey' +
        (partner ? `?partner_app_id=${encodeURIComponent(partner)}` : ''),
      headers: { cookie },
    });
  const rotate = (cookie: string, userId: string, partner: string) =>
    server.app.inject({
      method: 'POST',
      url: `/api/rest/private/integrations/users/${userId}?partner_app_id=${partner}`,
      headers: { cookie },
    });
  const remove = (cookie: string, userId: string, partner?: string) =>
    server.app.inject({
      method: 'DELETE',
      url:
        `/api/rest/private/integrations/users/${userId}` +
        (partner ? `?partner_app_id=${partner}` : ''),
      headers: { cookie },
    });
  const keyRows = () => server.services.db.selectFrom('integration_keys').selectAll().execute();

  describe('the per-firm switch', () => {
    it('lists the firms the admin administers, disabled until enabled', async () => {
      const response = await listIntegrations(admin);
      expect(response.statusCode).toBe(200);
      const { integrations } = response.json<IntegrationsResponse>();
      expect(integrations).toEqual([
        {
          databaseId: firmId,
          databaseName: 'Demo Advisory',
          description: expect.anything(),
          enabled: false,
          updatedAt: null,
        },
      ]);
      const others = (await listIntegrations(other.cookie)).json<IntegrationsResponse>();
      expect(others.integrations.map((i) => i.databaseId)).toEqual([other.databaseId]);
    });

    it('enables and disables a firm for its admin, and GET reflects it', async () => {
      const enabled = await switchIntegrations(server, admin, firmId, true);
      expect(enabled.statusCode).toBe(200);
      expect(enabled.json<IntegrationDto>()).toMatchObject({ databaseId: firmId, enabled: true });
      expect(enabled.json<IntegrationDto>().updatedAt).toBe(
        new Date(server.clock.now).toISOString(),
      );
      let list = (await listIntegrations(admin)).json<IntegrationsResponse>();
      expect(list.integrations[0]!.enabled).toBe(true);
      // Idempotent.
      expect((await switchIntegrations(server, admin, firmId, true)).statusCode).toBe(200);
      const disabled = await switchIntegrations(server, admin, firmId, false);
      expect(disabled.json<IntegrationDto>().enabled).toBe(false);
      list = (await listIntegrations(admin)).json<IntegrationsResponse>();
      expect(list.integrations[0]!.enabled).toBe(false);
    });

    it("answers 404 for another firm's database and leaves it alone", async () => {
      const response = await switchIntegrations(server, admin, other.databaseId, true);
      expect(response.statusCode).toBe(404);
      const theirs = (await listIntegrations(other.cookie)).json<IntegrationsResponse>();
      expect(theirs.integrations[0]!.enabled).toBe(false);
      expect((await switchIntegrations(server, other.cookie, firmId, true)).statusCode).toBe(404);
      expect((await switchIntegrations(server, admin, 'no-such-db', true)).statusCode).toBe(404);
    });

    it('refuses members and read-only members with 403 and no session with 401', async () => {
      for (const cookie of [member.cookie, readOnly.cookie]) {
        const list = await listIntegrations(cookie);
        expect(list.statusCode).toBe(403);
        expect(list.json<{ code: string }>().code).toBe('admin_only');
        expect((await switchIntegrations(server, cookie, firmId, true)).statusCode).toBe(403);
      }
      const none = await server.app.inject({
        method: 'GET',
        url: '/api/rest/private/integrations',
      });
      expect(none.statusCode).toBe(401);
      const after = (await listIntegrations(admin)).json<IntegrationsResponse>();
      expect(after.integrations[0]!.enabled).toBe(false);
    });

    it('lets an admin of two firms switch the one that is not current, and no member of it', async () => {
      const { databaseId: shared } = await addUser(server, {
        username: 'int-shared-admin',
        password: 'pw-int-shared-admin',
        role: 'admin',
        databaseName: 'Shared Firm',
      });
      // The seeded admin becomes a plain member of the second firm: 403 there.
      const adminId = (await me(server, admin)).userId;
      await server.services.db
        .insertInto('memberships')
        .values({
          id: `m-${shared}`,
          user_id: adminId,
          database_id: shared,
          role: 'member',
          created_at: new Date(server.clock.now).toISOString(),
        })
        .execute();
      const refused = await switchIntegrations(server, admin, shared, true);
      expect(refused.statusCode).toBe(403);
      await server.services.db
        .updateTable('memberships')
        .set({ role: 'admin' })
        .where('id', '=', `m-${shared}`)
        .execute();
      const ok = await switchIntegrations(server, admin, shared, true);
      expect(ok.statusCode).toBe(200);
      expect(ok.json<IntegrationDto>()).toMatchObject({ databaseId: shared, enabled: true });
      const list = (await listIntegrations(admin)).json<IntegrationsResponse>();
      expect(list.integrations.map((i) => [i.databaseName, i.enabled])).toEqual([
        ['Demo Advisory', false],
        ['Shared Firm', true],
      ]);
    });
  });

  describe('user keys', () => {
    beforeAll(async () => {
      await switchIntegrations(server, admin, firmId, true);
    });

    it('shows a new key once and stores only its sha256 and a short prefix', async () => {
      const created = await createKey(server, admin, 'crm', member.userId);
      expect(created.key).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
      expect(created.prefix).toBe(created.key.slice(0, 12));
      expect(created).toMatchObject({
        userId: member.userId,
        username: 'int-member',
        partnerAppId: 'crm',
        rotatedAt: null,
        lastUsedAt: null,
      });
      const rows = await keyRows();
      const row = rows.find((r) => r.id === created.id)!;
      expect(row.key_hash).toBe(sha256(created.key));
      expect(row.key_prefix).toBe(created.prefix);
      expect(JSON.stringify(rows)).not.toContain(created.key);

      const listed = await listKeys(admin);
      expect(listed.statusCode).toBe(200);
      expect(listed.body).not.toContain(created.key);
      const { keys } = listed.json<IntegrationKeysResponse>();
      const { key: _shownOnce, ...withoutKey } = created;
      expect(keys).toContainEqual(withoutKey);
    });

    it("defaults to the session's user, and filters the list by partner app", async () => {
      const mine = await createKey(server, admin, 'billing.app');
      expect(mine.userId).toBe((await me(server, admin)).userId);
      const billing = (await listKeys(admin, 'billing.app')).json<IntegrationKeysResponse>();
      expect(billing.keys.map((k) => k.id)).toEqual([mine.id]);
      const crm = (await listKeys(admin, 'crm')).json<IntegrationKeysResponse>();
      expect(crm.keys.every((k) => k.partnerAppId === 'crm')).toBe(true);
      expect(crm.keys.length).toBeGreaterThan(0);
      // No body at all also means the session's user.
      const bare = await server.app.inject({
        method: 'POST',
        url: '/api/rest/private/integrations/userkey?partner_app_id=bare-app',
        headers: { cookie: admin },
      });
      expect(bare.statusCode).toBe(201);
      expect(bare.json<CreatedIntegrationKeyDto>().userId).toBe(mine.userId);
      // Another firm sees none of them.
      const theirs = (await listKeys(other.cookie)).json<IntegrationKeysResponse>();
      expect(theirs.keys).toEqual([]);
    });

    it("refuses a second key for the same user and partner (409), another firm's user (404), bad ids (400)", async () => {
      const again = await postKey(server, admin, 'crm', member.userId);
      expect(again.statusCode).toBe(409);
      expect(again.json<{ code: string }>().code).toBe('key_exists');
      expect((await postKey(server, admin, 'crm', other.userId)).statusCode).toBe(404);
      expect((await postKey(server, admin, 'crm', 'no-such-user')).statusCode).toBe(404);
      expect((await postKey(server, admin, 'bad id!')).statusCode).toBe(400);
      const missing = await server.app.inject({
        method: 'POST',
        url: '/api/rest/private/integrations/userkey',
        headers: { cookie: admin },
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
    });

    it('refuses key management to members and read-only members (403)', async () => {
      for (const cookie of [member.cookie, readOnly.cookie]) {
        expect((await listKeys(cookie)).statusCode).toBe(403);
        expect((await postKey(server, cookie, 'crm')).statusCode).toBe(403);
        expect((await rotate(cookie, member.userId, 'crm')).statusCode).toBe(403);
        expect((await remove(cookie, member.userId, 'crm')).statusCode).toBe(403);
      }
      const none = await server.app.inject({
        method: 'GET',
        url: '/api/rest/private/integrations/userkey',
      });
      expect(none.statusCode).toBe(401);
    });

    it('rotates a key: the new one is shown once and works, the old one is refused', async () => {
      const first = await createKey(server, admin, 'rotating', readOnly.userId);
      expect((await generateToken(server, first.key)).statusCode).toBe(200);
      server.clock.now += 1000;
      const response = await rotate(admin, readOnly.userId, 'rotating');
      expect(response.statusCode).toBe(200);
      const rotated = response.json<CreatedIntegrationKeyDto>();
      expect(rotated.id).toBe(first.id);
      expect(rotated.key).not.toBe(first.key);
      expect(rotated.prefix).toBe(rotated.key.slice(0, 12));
      expect(rotated.rotatedAt).toBe(new Date(server.clock.now).toISOString());
      const old = await generateToken(server, first.key);
      expect(old.statusCode).toBe(401);
      expect(old.json<{ code: string }>().code).toBe('invalid_key');
      expect((await generateToken(server, rotated.key)).statusCode).toBe(200);
      const row = (await keyRows()).find((r) => r.id === first.id)!;
      expect(row.key_hash).toBe(sha256(rotated.key));
      // No such key: 404, also for another firm's admin.
      expect((await rotate(admin, readOnly.userId, 'never-created')).statusCode).toBe(404);
      expect((await rotate(other.cookie, readOnly.userId, 'rotating')).statusCode).toBe(404);
    });

    it('deletes a key: refused from then on; a second delete and another firm get 404', async () => {
      const key = await createKey(server, admin, 'deleting', readOnly.userId);
      expect((await generateToken(server, key.key)).statusCode).toBe(200);
      expect((await remove(other.cookie, readOnly.userId, 'deleting')).statusCode).toBe(404);
      const response = await remove(admin, readOnly.userId, 'deleting');
      expect(response.statusCode).toBe(204);
      expect((await generateToken(server, key.key)).statusCode).toBe(401);
      expect((await keyRows()).some((r) => r.id === key.id)).toBe(false);
      expect((await remove(admin, readOnly.userId, 'deleting')).statusCode).toBe(404);
    });

    it("deletes all of a user's keys when no partner app is given", async () => {
      const { userId } = await addUser(server, {
        username: 'int-many-keys',
        password: 'pw-int-many-keys',
        databaseId: firmId,
      });
      const a = await createKey(server, admin, 'app-a', userId);
      const b = await createKey(server, admin, 'app-b', userId);
      expect((await remove(admin, userId)).statusCode).toBe(204);
      expect((await generateToken(server, a.key)).statusCode).toBe(401);
      expect((await generateToken(server, b.key)).statusCode).toBe(401);
    });

    it('records every use with its time, IP and outcome, and shows the last use', async () => {
      const { userId } = await addUser(server, {
        username: 'int-used',
        password: 'pw-int-used',
        databaseId: firmId,
      });
      const key = await createKey(server, admin, 'crm', userId);
      const t1 = server.clock.now + 5_000;
      server.clock.now = t1;
      expect((await generateToken(server, key.key, { ip: '203.0.113.7' })).statusCode).toBe(200);
      const t2 = t1 + 5_000;
      server.clock.now = t2;
      expect((await generateToken(server, key.key, { ip: '198.51.100.9' })).statusCode).toBe(200);
      await switchIntegrations(server, admin, firmId, false);
      const t3 = t2 + 5_000;
      server.clock.now = t3;
      expect((await generateToken(server, key.key, { ip: '198.51.100.10' })).statusCode).toBe(403);
      await switchIntegrations(server, admin, firmId, true);

      const uses = await server.services.db
        .selectFrom('integration_key_uses')
        .select(['action', 'outcome', 'used_at', 'ip'])
        .where('key_id', '=', key.id)
        .orderBy('used_at')
        .execute();
      expect(uses).toEqual([
        {
          action: 'generate_token',
          outcome: 'ok',
          used_at: new Date(t1).toISOString(),
          ip: '203.0.113.7',
        },
        {
          action: 'generate_token',
          outcome: 'ok',
          used_at: new Date(t2).toISOString(),
          ip: '198.51.100.9',
        },
        {
          action: 'generate_token',
          outcome: 'integrations_disabled',
          used_at: new Date(t3).toISOString(),
          ip: '198.51.100.10',
        },
      ]);
      const listed = (await listKeys(admin, 'crm')).json<IntegrationKeysResponse>();
      const shown = listed.keys.find((k) => k.id === key.id)!;
      // The refused use is recorded but is not the key's last successful use.
      expect(shown.lastUsedAt).toBe(new Date(t2).toISOString());
      expect(shown.lastUsedIp).toBe('198.51.100.9');
    });

    it('never answers a key outside its creation and rotation', async () => {
      const key = await createKey(server, admin, 'quiet', member.userId);
      const token = await tokenFor(server, key.key);
      expect(JSON.stringify(token)).not.toContain(key.key);
      const listed = await listKeys(admin);
      expect(listed.body).not.toContain(key.key);
      const integrations = await listIntegrations(admin);
      expect(integrations.body).not.toContain(key.key);
    });
  });
});
