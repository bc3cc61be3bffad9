// Account lockout after wrong passwords on SQLite and PostgreSQL with a settable
// clock: the limit, the same answer for right and wrong passwords while locked, the lock's end
// after LOCKOUT_MINUTES, a run broken by a right password, LOCKOUT_MINUTES=0 until an
// administrator unlocks, the lock and unlock history events, parallel attempts locking once.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { formatMessage, MESSAGES } from '@common/messages';
import type { HistoryAttributes } from '@common/history';
import type { DatabaseUserDto } from '@common/users';
import { loadConfig } from '@server/config';
import {
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';

const MINUTE = 60_000;

/** The lock message with the time left. */
const lockedFor = (minutes: number) =>
  formatMessage(MESSAGES.accountLocked, {
    time: `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  });

function lockoutSuite(kind: 'sqlite' | 'postgres') {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.clock.now = Date.now();
  });

  const attempt = (username: string, password: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username, password },
      remoteAddress: '203.0.113.7',
    });

  const lockEvents = (userId: string) =>
    server.services.db
      .selectFrom('history_events')
      .selectAll()
      .where('entity_type', '=', 'user')
      .where('entity_id', '=', userId)
      .where('action', '=', 'lock')
      .execute();

  const userRow = (userId: string) =>
    server.services.db
      .selectFrom('users')
      .select(['failed_login_count', 'locked_at', 'locked_until'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();

  it('locks after 5 wrong passwords; while locked a right and a wrong password get the same answer', async () => {
    const start = Date.now();
    server.clock.now = start;
    const { userId } = await addUser(server, { username: 'lock-a', password: 'right-pass-a1' });
    for (let i = 1; i <= 4; i += 1) {
      const wrong = await attempt('lock-a', `wrong-${i}`);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({
        message: MESSAGES.invalidCredentials,
        code: 'invalid_credentials',
      });
    }
    expect((await userRow(userId)).failed_login_count).toBe(4);
    const fifth = await attempt('lock-a', 'wrong-5');
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json()).toEqual({ message: lockedFor(15), code: 'account_locked' });

    const right = await attempt('lock-a', 'right-pass-a1');
    const wrong = await attempt('lock-a', 'wrong-6');
    expect(right.statusCode).toBe(401);
    expect(right.body).toBe(wrong.body);
    expect(right.body).toBe(fifth.body);
    expect(right.cookies).toHaveLength(0);
    // Attempts while locked neither count nor extend the lock.
    const row = await userRow(userId);
    expect(row.failed_login_count).toBe(5);
    expect(row.locked_at).toBe(new Date(start).toISOString());
    expect(row.locked_until).toBe(new Date(start + 15 * MINUTE).toISOString());
  });

  it('locks only the guessing address: the owner signs in from another one, the attacker stays blocked', async () => {
    const { userId } = await addUser(server, {
      username: 'lock-owner',
      password: 'owner passphrase 9',
    });
    const from = (ip: string, password: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/rest/private/users/authenticate',
        payload: { username: 'lock-owner', password },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i += 1) await from('203.0.113.66', `guess-${i}`);
    expect((await from('203.0.113.66', 'guess-again')).json()).toEqual({
      message: lockedFor(15),
      code: 'account_locked',
    });
    // The owner, elsewhere, with the right password: signed in.
    const owner = await from('198.51.100.23', 'owner passphrase 9');
    expect(owner.statusCode).toBe(200);
    sessionCookie(owner);
    // The attacking address is still blocked, even with the right password.
    const attacker = await from('203.0.113.66', 'owner passphrase 9');
    expect(attacker.statusCode).toBe(401);
    expect(attacker.json<{ code: string }>().code).toBe('account_locked');
    expect(attacker.cookies).toHaveLength(0);
    // The administrators still see the account as locked (for that address) until they unlock.
    expect((await userRow(userId)).locked_at).not.toBeNull();
    // Wrong passwords from a third address count on their own: 4 do not lock it.
    for (let i = 0; i < 4; i += 1) {
      expect((await from('192.0.2.5', `other-${i}`)).json<{ code: string }>().code).toBe(
        'invalid_credentials',
      );
    }
    expect((await from('192.0.2.5', 'owner passphrase 9')).statusCode).toBe(200);
  });

  it('forgets runs after a day without wrong passwords and ended locks, keeping live ones', async () => {
    const start = Date.now();
    server.clock.now = start;
    const { userId } = await addUser(server, {
      username: 'lock-stale',
      password: 'stale passphrase 8',
    });
    const from = (ip: string, password: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/rest/private/users/authenticate',
        payload: { username: 'lock-stale', password },
        remoteAddress: ip,
      });
    const sources = async () =>
      (
        await server.services.db
          .selectFrom('login_failures')
          .select(['source', 'failed_count'])
          .where('user_id', '=', userId)
          .orderBy('source')
          .execute()
      ).map((r) => `${r.source}:${r.failed_count}`);
    for (let i = 0; i < 5; i += 1) await from('198.51.100.1', `a-${i}`); // locked 15 minutes
    for (let i = 0; i < 2; i += 1) await from('198.51.100.2', `b-${i}`); // a run, no lock
    expect(await sources()).toEqual(['198.51.100.1:5', '198.51.100.2:2']);
    server.clock.now = start + 24 * 60 * MINUTE + 1;
    await from('198.51.100.3', 'c-0');
    expect(await sources()).toEqual(['198.51.100.3:1']);
    // A forgotten run counts from zero again.
    await from('198.51.100.2', 'b-again');
    expect(await sources()).toEqual(['198.51.100.2:1', '198.51.100.3:1']);
  });

  it('records the lock once, as the locked user, with the attempt address, in each of their firms', async () => {
    const first = await addUser(server, {
      username: 'lock-b',
      password: 'right-pass-b1',
      databaseName: 'Lock Firm B',
    });
    // The same user in a second firm.
    const second = await addUser(server, {
      username: 'lock-b-other',
      password: 'other-pass-b1',
      databaseName: 'Lock Firm B2',
    });
    await server.services.db
      .insertInto('memberships')
      .values({
        id: `m-${first.userId}`,
        user_id: first.userId,
        database_id: second.databaseId,
        role: 'read_only',
        created_at: new Date(server.clock.now).toISOString(),
      })
      .execute();
    for (let i = 0; i < 7; i += 1) await attempt('lock-b', `nope-${i}`);
    const events = await lockEvents(first.userId);
    expect(events.map((e) => e.database_id).sort()).toEqual(
      [first.databaseId, second.databaseId].sort(),
    );
    for (const event of events) {
      expect(event.user_id).toBe(first.userId);
      expect(event.user_name).toBe('lock-b Tester');
      expect(event.ip).toBe('203.0.113.7');
      expect(JSON.parse(event.attributes) as HistoryAttributes).toEqual({
        name: 'lock-b Tester',
        user_id: first.userId,
        failed_logins: 5,
        locked_until: new Date(server.clock.now + 15 * MINUTE).toISOString(),
      });
    }
  });

  it('ends the lock after LOCKOUT_MINUTES; the next run counts from zero', async () => {
    const start = Date.now();
    server.clock.now = start;
    const { userId } = await addUser(server, { username: 'lock-c', password: 'right-pass-c1' });
    for (let i = 0; i < 5; i += 1) await attempt('lock-c', `wrong-${i}`);
    server.clock.now = start + 14 * MINUTE + 1;
    const late = await attempt('lock-c', 'right-pass-c1');
    expect(late.json()).toEqual({ message: lockedFor(1), code: 'account_locked' });
    server.clock.now = start + 15 * MINUTE - 1;
    expect((await attempt('lock-c', 'right-pass-c1')).statusCode).toBe(401);

    server.clock.now = start + 15 * MINUTE;
    const wrongAfter = await attempt('lock-c', 'wrong-after');
    expect(wrongAfter.json()).toEqual({
      message: MESSAGES.invalidCredentials,
      code: 'invalid_credentials',
    });
    expect(await userRow(userId)).toEqual({
      failed_login_count: 1,
      locked_at: null,
      locked_until: null,
    });
    const ok = await attempt('lock-c', 'right-pass-c1');
    expect(ok.statusCode).toBe(200);
    expect((await userRow(userId)).failed_login_count).toBe(0);
    expect(await lockEvents(userId)).toHaveLength(1);
  });

  it('counts wrong passwords in a row: a right one clears the run', async () => {
    const { userId } = await addUser(server, { username: 'lock-d', password: 'right-pass-d1' });
    for (let i = 0; i < 4; i += 1) await attempt('lock-d', `wrong-${i}`);
    expect((await attempt('lock-d', 'right-pass-d1')).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) await attempt('lock-d', `again-${i}`);
    expect((await attempt('lock-d', 'right-pass-d1')).statusCode).toBe(200);
    expect(await userRow(userId)).toEqual({
      failed_login_count: 0,
      locked_at: null,
      locked_until: null,
    });
  });

  it('an administrator unlocks a locked member; the unlock is recorded and sign-in works at once', async () => {
    const { userId, databaseId } = await addUser(server, {
      username: 'lock-e',
      password: 'right-pass-e1',
      databaseId: (
        await server.services.db
          .selectFrom('databases')
          .select('id')
          .where('name', '=', 'Demo Advisory')
          .executeTakeFirstOrThrow()
      ).id,
    });
    for (let i = 0; i < 5; i += 1) await attempt('lock-e', `wrong-${i}`);
    const list = await server.app.inject({
      method: 'GET',
      url: '/api/rest/private/users?query=lock-e',
      headers: { cookie: admin },
    });
    const listed = list.json<{ items: DatabaseUserDto[] }>().items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ userId, locked: true, failed_logins: 5 });

    const unlock = await server.app.inject({
      method: 'POST',
      url: `/api/rest/private/users/${userId}/unlock`,
      headers: { cookie: admin },
    });
    expect(unlock.statusCode).toBe(200);
    expect(unlock.json<DatabaseUserDto>()).toMatchObject({
      locked: false,
      locked_at: null,
      locked_until: null,
      failed_logins: 0,
    });
    const events = await server.services.db
      .selectFrom('history_events')
      .selectAll()
      .where('entity_id', '=', userId)
      .where('action', '=', 'unlock')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.database_id).toBe(databaseId);
    expect(events[0]!.user_name).toBe('Demo Administrator');
    expect(JSON.parse(events[0]!.attributes)).toEqual({ name: 'lock-e Tester', user_id: userId });
    const signedIn = await attempt('lock-e', 'right-pass-e1');
    expect(signedIn.statusCode).toBe(200);
    sessionCookie(signedIn);
    // Unlocking again records nothing more.
    await server.app.inject({
      method: 'POST',
      url: `/api/rest/private/users/${userId}/unlock`,
      headers: { cookie: admin },
    });
    expect(
      await server.services.db
        .selectFrom('history_events')
        .select('id')
        .where('entity_id', '=', userId)
        .where('action', '=', 'unlock')
        .execute(),
    ).toHaveLength(1);
  });

  it('locks once when wrong passwords arrive in parallel', async () => {
    const { userId } = await addUser(server, { username: 'lock-f', password: 'right-pass-f1' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => attempt('lock-f', `parallel-${i}`)),
    );
    expect(answers.every((a) => a.statusCode === 401)).toBe(true);
    expect(answers.some((a) => a.json<{ code: string }>().code === 'account_locked')).toBe(true);
    expect(await lockEvents(userId)).toHaveLength(1);
    expect((await userRow(userId)).locked_at).not.toBeNull();
  });

  it('never locks unknown usernames (no account to lock; LOGIN_RATE_LIMIT bounds guessing)', async () => {
    for (let i = 0; i < 7; i += 1) {
      const answer = await attempt('nobody-here', `guess-${i}`);
      expect(answer.json<{ code: string }>().code).toBe('invalid_credentials');
    }
  });
}

describeEachDatabase('account lockout (defaults: 5 failures, 15 minutes)', lockoutSuite);

describeEachDatabase('account lockout until an administrator unlocks', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: { LOGIN_MAX_FAILURES: '2', LOCKOUT_MINUTES: '0' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const attempt = (username: string, password: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username, password },
    });

  it('locks after LOGIN_MAX_FAILURES and stays locked, whatever the time, until unlocked', async () => {
    const start = Date.now();
    server.clock.now = start;
    const demo = await server.services.db
      .selectFrom('databases')
      .select('id')
      .executeTakeFirstOrThrow();
    const { userId } = await addUser(server, {
      username: 'stay-locked',
      password: 'right-pass-s1',
      databaseId: demo.id,
    });
    expect((await attempt('stay-locked', 'wrong-1')).json<{ code: string }>().code).toBe(
      'invalid_credentials',
    );
    const second = await attempt('stay-locked', 'wrong-2');
    expect(second.json()).toEqual({
      message: MESSAGES.accountLockedUntilUnlocked,
      code: 'account_locked',
    });
    server.clock.now = start + 365 * 24 * 60 * MINUTE;
    const right = await attempt('stay-locked', 'right-pass-s1');
    expect(right.body).toBe(second.body);
    const lock = await server.services.db
      .selectFrom('history_events')
      .select('attributes')
      .where('entity_id', '=', userId)
      .where('action', '=', 'lock')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(lock.attributes)).toMatchObject({ failed_logins: 2, locked_until: null });

    server.clock.now = Date.now();
    const admin = await signIn(server);
    const unlock = await server.app.inject({
      method: 'POST',
      url: `/api/rest/private/users/${userId}/unlock`,
      headers: { cookie: admin },
    });
    expect(unlock.json<DatabaseUserDto>().locked).toBe(false);
    expect((await attempt('stay-locked', 'right-pass-s1')).statusCode).toBe(200);
  });
});

describe('lockout and password configuration', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-lockout-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'test', ...env });

  it('defaults to 5 failures, 15 minutes and 12 characters', () => {
    const config = load({});
    expect([config.loginMaxFailures, config.lockoutMs, config.passwordMinLength]).toEqual([
      5,
      15 * MINUTE,
      12,
    ]);
  });

  it('reads LOGIN_MAX_FAILURES, LOCKOUT_MINUTES (0 = until unlocked) and PASSWORD_MIN_LENGTH', () => {
    const config = load({
      LOGIN_MAX_FAILURES: '3',
      LOCKOUT_MINUTES: '0',
      PASSWORD_MIN_LENGTH: '16',
    });
    expect([config.loginMaxFailures, config.lockoutMs, config.passwordMinLength]).toEqual([
      3, 0, 16,
    ]);
    expect(load({ LOGIN_MAX_FAILURES: '0', PASSWORD_MIN_LENGTH: '2' })).toMatchObject({
      loginMaxFailures: 1,
      passwordMinLength: 8,
    });
    expect(() => load({ LOCKOUT_MINUTES: 'soon' })).toThrow(/LOCKOUT_MINUTES/);
  });
});
