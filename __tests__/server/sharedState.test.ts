// What several app instances on one database share (docs/architecture.md "Several instances"),
// on SQLite and PostgreSQL, with two instances on one database (each its own connection, store
// and app) and a shared settable clock: the rate limit counts requests of both, parallel counts
// all add up, a periodic job runs on one instance at a time and continues where the other stopped,
// wrong passwords sent at once to both instances lock the account and a share link exactly once.
import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import {
  countRateLimitHit,
  findJobLease,
  purgeRateLimits,
  readRateLimit,
} from '@server/repositories/instances';
import { runLeasedJob } from '@server/services/jobLeases';
import { runUploadMaintenance, UPLOAD_CLEANUP_JOB } from '@server/services/uploads';
import {
  addUser,
  describeEachDatabase,
  signIn,
  startInstance,
  startTestServer,
  type TestServer,
} from './helpers';
import { adminActor, makeFile } from './organiseHelpers';
import { createLink, signUpGuest } from './sharingHelpers';

const MINUTE = 60_000;

describeEachDatabase('shared instance state', (kind) => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startTestServer(kind, { env: { SSO_RATE_LIMIT: '4' } });
    second = await startInstance(first);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });
  afterEach(() => {
    first.clock.now = Date.now();
  });

  const generateToken = (server: TestServer, ip: string) =>
    server.app.inject({
      method: 'GET',
      url: '/api/rest/private/auth/generate_token',
      headers: { authorization: 'Bearer dsk_guess' },
      remoteAddress: ip,
    });

  it('counts a client’s requests on both instances against one limit, per route, per window', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const server = i % 2 === 0 ? first : second;
      statuses.push((await generateToken(server, '192.0.2.10')).statusCode);
    }
    // SSO_RATE_LIMIT=4: an instance counting alone would have seen 3 and let all 6 through.
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    // Another client and another route have their own counters.
    expect((await generateToken(second, '192.0.2.11')).statusCode).toBe(401);
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { token: 'guess' },
      remoteAddress: '192.0.2.10',
    });
    expect(login.statusCode).toBe(401);
    // The window ends for both instances at once.
    first.clock.now += MINUTE + 1;
    expect((await generateToken(second, '192.0.2.10')).statusCode).toBe(401);
  });

  it('adds up hits counted at once through two connections, and purges ended windows', async () => {
    const now = first.clock.now;
    const hits = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        countRateLimitHit((i % 2 ? first : second).services.db, 'test|parallel', now, MINUTE),
      ),
    );
    expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(new Set(hits.map((h) => h.resetAt))).toEqual(new Set([now + MINUTE]));
    expect(await readRateLimit(second.services.db, 'test|parallel', now)).toEqual({
      hits: 20,
      resetAt: now + MINUTE,
    });
    expect(await purgeRateLimits(first.services.db, now)).toBe(0);
    expect(await purgeRateLimits(first.services.db, now + MINUTE)).toBeGreaterThanOrEqual(1);
    expect(await readRateLimit(second.services.db, 'test|parallel', now)).toBeNull();
  });

  it('runs the upload maintenance on one instance at a time, the other after the lease ends', async () => {
    const leaseMs = 10 * MINUTE;
    const [onFirst, onSecond] = await Promise.all([
      runUploadMaintenance(first.services, 'instance-a', leaseMs),
      runUploadMaintenance(second.services, 'instance-b', leaseMs),
    ]);
    const ran = [onFirst, onSecond].filter((result) => result !== null);
    expect(ran).toHaveLength(1);
    const holder = onFirst ? 'instance-a' : 'instance-b';
    const other = onFirst ? second : first;
    const otherName = onFirst ? 'instance-b' : 'instance-a';
    expect((await findJobLease(first.services.db, UPLOAD_CLEANUP_JOB))?.holder).toBe(holder);
    // Until the lease ends the other instance skips its turns.
    first.clock.now += leaseMs - 1000;
    expect(await runUploadMaintenance(other.services, otherName, leaseMs)).toBeNull();
    first.clock.now += 2000;
    expect(await runUploadMaintenance(other.services, otherName, leaseMs)).not.toBeNull();
    expect((await findJobLease(first.services.db, UPLOAD_CLEANUP_JOB))?.holder).toBe(otherName);
  });

  it('skips a job while another instance runs it and continues from its cursor', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const firstRun = runLeasedJob(first.services, 'test-job', 'instance-a', MINUTE, async (run) => {
      started();
      await held;
      return { cursor: `${run.cursor}after-a;` };
    });
    await running;
    // The first instance holds the lease while its job runs: the second skips.
    const skipped = await runLeasedJob(second.services, 'test-job', 'instance-b', MINUTE, () =>
      Promise.resolve({ cursor: 'never' }),
    );
    expect(skipped).toBeNull();
    release();
    expect(await firstRun).toEqual({ cursor: 'after-a;' });
    first.clock.now += MINUTE;
    const next = await runLeasedJob(second.services, 'test-job', 'instance-b', MINUTE, (run) =>
      Promise.resolve({ cursor: `${run.cursor}after-b;` }),
    );
    expect(next).toEqual({ cursor: 'after-a;after-b;' });
  });

  it('locks an account once when wrong passwords arrive at both instances at once', async () => {
    const { userId } = await addUser(first, { username: 'two-places', password: 'right-pass-2p' });
    const attempt = (server: TestServer, password: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/rest/private/users/authenticate',
        payload: { username: 'two-places', password },
        remoteAddress: '203.0.113.20',
      });
    const max = first.config.loginMaxFailures;
    const answers = await Promise.all(
      Array.from({ length: max * 2 }, (_, i) => attempt(i % 2 ? first : second, `wrong-${i}`)),
    );
    const codes = answers.map((a) => a.json<{ code: string }>().code);
    expect(answers.every((a) => a.statusCode === 401)).toBe(true);
    // Exactly max − 1 attempts are answered on their password; every later one is locked.
    expect(codes.filter((code) => code !== 'account_locked')).toHaveLength(max - 1);
    const locks = await first.services.db
      .selectFrom('history_events')
      .select('id')
      .where('entity_id', '=', userId)
      .where('action', '=', 'lock')
      .execute();
    // One lock event (the user is a member of one firm).
    expect(locks).toHaveLength(1);
    // The right password is refused on both instances while the lock lasts.
    for (const server of [first, second]) {
      const right = await attempt(server, 'right-pass-2p');
      expect(right.json<{ code: string }>().code).toBe('account_locked');
    }
  });

  it('locks a share link once when wrong link passwords arrive at both instances at once', async () => {
    const admin = await adminActor(first);
    const file = await makeFile(first, admin, 'Two places.txt', '', 'shared twice');
    const created = await createLink(first, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      password: 'open sesame',
    });
    const max = first.config.sharePasswordMaxFailures;
    const answers: LightMyRequestResponse[] = await Promise.all(
      Array.from({ length: max * 2 }, (_, i) =>
        signUpGuest(i % 2 ? first : second, created.token, `g${i}@example.com`, {
          link_password: `wrong ${i}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 403)).toHaveLength(max - 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(max + 1);
    for (const server of [first, second]) {
      const right = await signUpGuest(server, created.token, 'late@example.com', {
        link_password: 'open sesame',
      });
      expect(right.statusCode).toBe(429);
    }
    // After the lock the count starts again: one wrong password is answered as wrong.
    first.clock.now += first.config.sharePasswordLockMs + 1000;
    admin.cookie = await signIn(first);
    const wrongAgain = await signUpGuest(second, created.token, 'again@example.com', {
      link_password: 'still wrong',
    });
    expect(wrongAgain.statusCode).toBe(403);
  });
});
