// Users administration on SQLite and PostgreSQL: every private/users route
// and private/databases, their answers, administrators only (members and read-only members 403,
// no session 401), another firm's user ids 404, the password policy, password changes ending
// other sessions, disable and enable, role changes and the last administrator, and the history
// events they record.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { formatMessage, MESSAGES } from '@common/messages';
import type { Page } from '@common/api';
import type { HistoryAttributes } from '@common/history';
import type { DatabaseDto } from '@common/session';
import type { DatabaseUserDto, UserTeamDto } from '@common/users';
import { newId } from '@server/ids';
import {
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';

const GOOD_PASSWORD = 'a long enough passphrase';

describeEachDatabase('users administration', (kind) => {
  let server: TestServer;
  let admin: string;
  let demoId: string;
  let adminId: string;
  let otherFirm: { userId: string; databaseId: string };
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server);
    const demo = await server.services.db
      .selectFrom('databases')
      .select('id')
      .where('name', '=', 'Demo Advisory')
      .executeTakeFirstOrThrow();
    demoId = demo.id;
    adminId = (
      await server.services.db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    otherFirm = await addUser(server, {
      username: 'other-firm-admin',
      password: 'other-firm-pass-1',
      role: 'admin',
      databaseName: 'Other Firm',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  type Method = 'GET' | 'POST' | 'PATCH';
  const call = (method: Method, url: string, cookie: string | null, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const me = (cookie: string) => call('GET', '/api/auth/current-user', cookie);
  const authenticate = (username: string, password: string) =>
    call('POST', '/api/rest/private/users/authenticate', null, { username, password });

  /** Adds a member of the demo firm and signs them in. */
  async function member(username: string, role: 'admin' | 'member' | 'read_only' = 'member') {
    const password = `pw-${username}-long-enough`;
    const { userId } = await addUser(server, { username, password, role, databaseId: demoId });
    return { userId, password, cookie: await signIn(server, username, password) };
  }

  const userEvents = (userId: string, action: string) =>
    server.services.db
      .selectFrom('history_events')
      .selectAll()
      .where('entity_type', '=', 'user')
      .where('entity_id', '=', userId)
      .where('action', '=', action)
      .execute();

  const errorOf = (response: LightMyRequestResponse) => response.json<{ code: string }>().code;

  it('lists the firm members for an administrator, without secrets, searchable and paged', async () => {
    await member('list-ann');
    await member('list-bob', 'read_only');
    const response = await call('GET', '/api/rest/private/users', admin);
    expect(response.statusCode).toBe(200);
    const page = response.json<Page<DatabaseUserDto>>();
    expect(page.page).toBe(1);
    expect(page.total).toBe(page.items.length);
    expect(page.items.map((u) => u.username)).toEqual(
      expect.arrayContaining(['admin', 'list-ann', 'list-bob']),
    );
    expect(page.items.map((u) => u.username)).not.toContain('other-firm-admin');
    const bob = page.items.find((u) => u.username === 'list-bob')!;
    expect(bob).toEqual({
      id: bob.userId,
      userId: bob.userId,
      firstName: 'list-bob',
      lastName: 'Tester',
      username: 'list-bob',
      email: null,
      role: 'read_only',
      sso: false,
      disabled: false,
      disabled_at: null,
      locked: false,
      locked_at: null,
      locked_until: null,
      failed_logins: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.body).not.toMatch(/password|hash/i);

    const search = await call('GET', '/api/rest/private/users?query=LIST%20ann', admin);
    expect(search.json<Page<DatabaseUserDto>>().items.map((u) => u.username)).toEqual(['list-ann']);
    const wildcard = await call('GET', '/api/rest/private/users?query=%25', admin);
    expect(wildcard.json<Page<DatabaseUserDto>>().total).toBe(0);
    const paged = await call('GET', '/api/rest/private/users?page=2&page_size=1', admin);
    const second = paged.json<Page<DatabaseUserDto>>();
    expect(second.items).toHaveLength(1);
    expect(second.total).toBe(page.total);
    expect(second.items[0]!.id).toBe(page.items[1]!.id);
  });

  it('refuses every route to members and read-only members (403) and to no session (401)', async () => {
    const plain = await member('refused-member');
    const reader = await member('refused-reader', 'read_only');
    const target = plain.userId;
    const routes: [Method, string, object?][] = [
      ['GET', '/api/rest/private/users'],
      [
        'POST',
        '/api/rest/private/users',
        { username: 'x-new', firstName: 'X', lastName: 'Y', password: GOOD_PASSWORD },
      ],
      ['PATCH', `/api/rest/private/users/${target}`, { firstName: 'Changed' }],
      ['PATCH', `/api/rest/private/users/role/${target}`, { role: 'admin' }],
      ['PATCH', `/api/rest/private/users/${target}/update_password`, { password: GOOD_PASSWORD }],
      ['POST', `/api/rest/private/users/${target}/unlock`],
      ['POST', `/api/rest/private/users/${target}/disable`],
      ['POST', `/api/rest/private/users/${target}/enable`],
      ['GET', `/api/rest/private/users/${target}/teams`],
    ];
    for (const [method, url, payload] of routes) {
      for (const cookie of [plain.cookie, reader.cookie]) {
        const response = await call(method, url, cookie, payload);
        expect([method, url, response.statusCode]).toEqual([method, url, 403]);
        expect(response.json()).toEqual({
          message: 'Only administrators of this firm can do this.',
          code: 'admin_only',
        });
      }
      expect((await call(method, url, null, payload)).statusCode).toBe(401);
    }
    // Nothing changed.
    const row = await server.services.db
      .selectFrom('memberships')
      .select(['role', 'disabled_at'])
      .where('user_id', '=', target)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'member', disabled_at: null });
    expect((await me(plain.cookie)).statusCode).toBe(200);
  });

  it("answers 404 for another firm's user and for unknown ids on every id route", async () => {
    for (const id of [otherFirm.userId, newId()]) {
      const routes: [Method, string, object?][] = [
        ['PATCH', `/api/rest/private/users/${id}`, { firstName: 'Changed' }],
        ['PATCH', `/api/rest/private/users/role/${id}`, { role: 'read_only' }],
        ['PATCH', `/api/rest/private/users/${id}/update_password`, { password: GOOD_PASSWORD }],
        ['POST', `/api/rest/private/users/${id}/unlock`],
        ['POST', `/api/rest/private/users/${id}/disable`],
        ['POST', `/api/rest/private/users/${id}/enable`],
        ['GET', `/api/rest/private/users/${id}/teams`],
      ];
      for (const [method, url, payload] of routes) {
        const response = await call(method, url, admin, payload);
        expect([url, response.statusCode]).toEqual([url, 404]);
        expect(response.json()).toEqual({ message: MESSAGES.notFound, code: 'not_found' });
      }
    }
    const other = await server.services.db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['users.first_name', 'memberships.role', 'memberships.disabled_at'])
      .where('users.id', '=', otherFirm.userId)
      .executeTakeFirstOrThrow();
    expect(other).toEqual({ first_name: 'other-firm-admin', role: 'admin', disabled_at: null });
  });

  it('creates a member who can sign in, records it, and refuses taken usernames and weak passwords', async () => {
    const created = await call('POST', '/api/rest/private/users', admin, {
      username: 'New.Person',
      firstName: ' Nora ',
      lastName: 'Person',
      email: 'nora@example.com',
      password: GOOD_PASSWORD,
      role: 'read_only',
    });
    expect(created.statusCode).toBe(201);
    const user = created.json<DatabaseUserDto>();
    expect(user).toMatchObject({
      username: 'New.Person',
      firstName: 'Nora',
      lastName: 'Person',
      email: 'nora@example.com',
      role: 'read_only',
      disabled: false,
    });
    expect(created.body).not.toContain(GOOD_PASSWORD);
    const signedIn = await authenticate('new.person', GOOD_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    const events = await userEvents(user.id, 'create');
    expect(events).toHaveLength(1);
    expect(events[0]!.user_id).toBe(adminId);
    expect(JSON.parse(events[0]!.attributes)).toEqual({
      name: 'Nora Person',
      user_id: user.id,
      user_changes: { role: { next: 'read_only' } },
    });
    expect(events[0]!.attributes).not.toContain(GOOD_PASSWORD);

    const base = { firstName: 'A', lastName: 'B', password: GOOD_PASSWORD };
    const taken = await call('POST', '/api/rest/private/users', admin, {
      ...base,
      username: 'NEW.PERSON',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: MESSAGES.usernameTaken, code: 'username_taken' });
    // A username of another firm's user is taken too (usernames sign in to every firm).
    const takenElsewhere = await call('POST', '/api/rest/private/users', admin, {
      ...base,
      username: 'other-firm-admin',
    });
    expect(takenElsewhere.statusCode).toBe(409);

    const short = await call('POST', '/api/rest/private/users', admin, {
      ...base,
      username: 'short-pw',
      password: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      message: formatMessage(MESSAGES.passwordTooShort, { n: 12 }),
      code: 'weak_password',
    });
    const sameAsName = await call('POST', '/api/rest/private/users', admin, {
      ...base,
      username: 'samesame-name',
      password: 'SameSame-Name',
    });
    expect(sameAsName.json()).toEqual({
      message: MESSAGES.passwordIsUsername,
      code: 'weak_password',
    });
    const blank = await call('POST', '/api/rest/private/users', admin, {
      ...base,
      username: 'blank-pw',
      password: ' '.repeat(20),
    });
    expect(blank.json()).toEqual({ message: MESSAGES.passwordBlank, code: 'weak_password' });
    const badEmail = await call('POST', '/api/rest/private/users', admin, {
      ...base,
      username: 'bad-email',
      email: 'not-an-address',
    });
    expect(badEmail.json()).toEqual({ message: MESSAGES.invalidEmail, code: 'invalid_email' });
    const refused = await server.services.db
      .selectFrom('users')
      .select('id')
      .where('username_key', 'in', ['short-pw', 'samesame-name', 'blank-pw', 'bad-email'])
      .execute();
    expect(refused).toEqual([]);
  });

  it('refuses guessable passwords (password1234, aaaaaaaaaaaa, <username>2024) on create and reset', async () => {
    const weakOnes = (username: string) => ['password1234', 'aaaaaaaaaaaa', `${username}2024`];
    for (const password of weakOnes('mwhitcombe')) {
      const created = await call('POST', '/api/rest/private/users', admin, {
        username: 'mwhitcombe',
        firstName: 'Marguerite',
        lastName: 'Whitcombe',
        password,
      });
      expect(created.statusCode).toBe(400);
      expect(created.json<{ code: string; message: string }>()).toEqual({
        code: 'weak_password',
        message: expect.stringMatching(/^This password is too easy to guess\. /),
      });
    }
    expect(
      await server.services.db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', 'mwhitcombe')
        .execute(),
    ).toEqual([]);
    const target = await member('rhinegold');
    for (const password of weakOnes('rhinegold')) {
      const reset = await call(
        'PATCH',
        `/api/rest/private/users/${target.userId}/update_password`,
        admin,
        { password },
      );
      expect(reset.statusCode).toBe(400);
      expect(reset.json<{ code: string }>().code).toBe('weak_password');
    }
    // The password did not change.
    expect((await authenticate('rhinegold', target.password)).statusCode).toBe(200);
  });

  it('updates profile fields, records which changed, and changes nothing for equal values', async () => {
    const { userId } = await member('profile-pat');
    const updated = await call('PATCH', `/api/rest/private/users/${userId}`, admin, {
      firstName: 'Patricia',
      email: 'pat@example.com',
      lastName: 'Tester',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<DatabaseUserDto>()).toMatchObject({
      firstName: 'Patricia',
      lastName: 'Tester',
      email: 'pat@example.com',
    });
    const events = await userEvents(userId, 'update');
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.attributes)).toEqual({
      name: 'Patricia Tester',
      user_id: userId,
      user_changes: { fields: ['firstName', 'email'] },
    });
    const same = await call('PATCH', `/api/rest/private/users/${userId}`, admin, {
      firstName: 'Patricia',
    });
    expect(same.statusCode).toBe(200);
    expect(await userEvents(userId, 'update')).toHaveLength(1);
    const renamed = await call('PATCH', `/api/rest/private/users/${userId}`, admin, {
      username: 'pat-renamed',
    });
    expect(renamed.json<DatabaseUserDto>().username).toBe('pat-renamed');
    expect((await authenticate('pat-renamed', 'pw-profile-pat-long-enough')).statusCode).toBe(200);
    const clash = await call('PATCH', `/api/rest/private/users/${userId}`, admin, {
      username: 'ADMIN',
    });
    expect(clash.statusCode).toBe(409);
  });

  it('changes roles and keeps at least one administrator in the firm', async () => {
    const { userId, cookie } = await member('role-rita');
    const write = () =>
      call('POST', '/api/rest/folders', cookie, { name: `Rita ${newId()}`, parent_id: '' });
    const promoted = await call('PATCH', `/api/rest/private/users/role/${userId}`, admin, {
      role: 'admin',
    });
    expect(promoted.json<DatabaseUserDto>().role).toBe('admin');
    expect((await call('GET', '/api/rest/private/users', cookie)).statusCode).toBe(200);

    const toReader = await call('PATCH', `/api/rest/private/users/role/${userId}`, admin, {
      role: 'read_only',
    });
    expect(toReader.json<DatabaseUserDto>().role).toBe('read_only');
    expect((await write()).statusCode).toBe(403);
    const events = await userEvents(userId, 'update');
    expect(events.map((e) => (JSON.parse(e.attributes) as HistoryAttributes).user_changes)).toEqual(
      [{ role: { prev: 'member', next: 'admin' } }, { role: { prev: 'admin', next: 'read_only' } }],
    );
    const invalid = await call('PATCH', `/api/rest/private/users/role/${userId}`, admin, {
      role: 'owner',
    });
    expect(invalid.statusCode).toBe(400);

    // The demo firm now has one administrator: the seeded admin, who cannot step down alone.
    const admins = await server.services.db
      .selectFrom('memberships')
      .select('user_id')
      .where('database_id', '=', demoId)
      .where('role', '=', 'admin')
      .execute();
    expect(admins.map((a) => a.user_id)).toEqual([adminId]);
    const last = await call('PATCH', `/api/rest/private/users/role/${adminId}`, admin, {
      role: 'member',
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ message: MESSAGES.lastAdmin, code: 'last_admin' });

    // With a second administrator the seeded admin may become a member, and back.
    const second = await member('role-second-admin', 'admin');
    const stepDown = await call('PATCH', `/api/rest/private/users/role/${adminId}`, admin, {
      role: 'member',
    });
    expect(stepDown.statusCode).toBe(200);
    expect((await call('GET', '/api/rest/private/users', admin)).statusCode).toBe(403);
    const back = await call('PATCH', `/api/rest/private/users/role/${adminId}`, second.cookie, {
      role: 'admin',
    });
    expect(back.json<DatabaseUserDto>().role).toBe('admin');
  });

  it('sets a password under the policy and ends the member’s sessions; an admin’s own keeps the acting one', async () => {
    const target = await member('pw-paul');
    const otherSession = await signIn(server, 'pw-paul', target.password);
    const weak = await call(
      'PATCH',
      `/api/rest/private/users/${target.userId}/update_password`,
      admin,
      {
        password: 'tiny',
      },
    );
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({
      message: formatMessage(MESSAGES.passwordTooShort, { n: 12 }),
      code: 'weak_password',
    });
    expect((await me(target.cookie)).statusCode).toBe(200);

    const set = await call(
      'PATCH',
      `/api/rest/private/users/${target.userId}/update_password`,
      admin,
      {
        password: 'the new passphrase 1',
      },
    );
    expect(set.statusCode).toBe(200);
    expect(set.json<{ sessions_ended: number }>().sessions_ended).toBe(2);
    expect(set.body).not.toContain('the new passphrase 1');
    expect((await me(target.cookie)).statusCode).toBe(401);
    expect((await me(otherSession)).statusCode).toBe(401);
    expect((await authenticate('pw-paul', target.password)).statusCode).toBe(401);
    expect((await authenticate('pw-paul', 'the new passphrase 1')).statusCode).toBe(200);
    const events = await userEvents(target.userId, 'update');
    expect(JSON.parse(events.at(-1)!.attributes)).toEqual({
      name: 'pw-paul Tester',
      user_id: target.userId,
      user_changes: { fields: ['password'] },
    });

    // An administrator changing their own password keeps this session and ends the others.
    const self = await member('pw-self-admin', 'admin');
    const selfOther = await signIn(server, 'pw-self-admin', self.password);
    const own = await call(
      'PATCH',
      `/api/rest/private/users/${self.userId}/update_password`,
      self.cookie,
      {
        password: 'my own new passphrase',
      },
    );
    expect(own.json<{ sessions_ended: number }>().sessions_ended).toBe(1);
    expect((await me(self.cookie)).statusCode).toBe(200);
    expect((await me(selfOther)).statusCode).toBe(401);
  });

  it('refuses sign-in detail changes for a member of another firm where the admin is not admin', async () => {
    const shared = await member('shared-sam');
    await server.services.db
      .insertInto('memberships')
      .values({
        id: newId(),
        user_id: shared.userId,
        database_id: otherFirm.databaseId,
        role: 'admin',
        created_at: new Date().toISOString(),
      })
      .execute();
    const password = await call(
      'PATCH',
      `/api/rest/private/users/${shared.userId}/update_password`,
      admin,
      {
        password: GOOD_PASSWORD,
      },
    );
    expect(password.statusCode).toBe(403);
    expect(password.json()).toEqual({
      message: MESSAGES.sharedUserCredentials,
      code: 'shared_user',
    });
    const username = await call('PATCH', `/api/rest/private/users/${shared.userId}`, admin, {
      username: 'sam-taken-over',
    });
    expect(username.statusCode).toBe(403);
    // Names and the role in this firm stay the firm's to change.
    const names = await call('PATCH', `/api/rest/private/users/${shared.userId}`, admin, {
      firstName: 'Samuel',
    });
    expect(names.statusCode).toBe(200);
    expect((await authenticate('shared-sam', shared.password)).statusCode).toBe(200);
  });

  it('disables a member at once (sessions end, sign-in refused), then enables them', async () => {
    const target = await member('dis-dora');
    const disabled = await call('POST', `/api/rest/private/users/${target.userId}/disable`, admin);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json<DatabaseUserDto>()).toMatchObject({ disabled: true });
    expect(disabled.json<DatabaseUserDto>().disabled_at).not.toBeNull();
    expect((await me(target.cookie)).statusCode).toBe(401);
    const refused = await authenticate('dis-dora', target.password);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      message: MESSAGES.invalidCredentials,
      code: 'invalid_credentials',
    });
    const listed = await call('GET', '/api/rest/private/users?query=dis-dora', admin);
    expect(listed.json<Page<DatabaseUserDto>>().items[0]!.disabled).toBe(true);
    // Disabling again changes nothing and records nothing more.
    await call('POST', `/api/rest/private/users/${target.userId}/disable`, admin);
    expect(await userEvents(target.userId, 'disable')).toHaveLength(1);

    const enabled = await call('POST', `/api/rest/private/users/${target.userId}/enable`, admin);
    expect(enabled.json<DatabaseUserDto>()).toMatchObject({ disabled: false, disabled_at: null });
    expect((await authenticate('dis-dora', target.password)).statusCode).toBe(200);
    expect(await userEvents(target.userId, 'enable')).toHaveLength(1);
  });

  it('disables a member in this firm only: their other firm still signs in', async () => {
    const target = await member('dis-multi');
    await server.services.db
      .insertInto('memberships')
      .values({
        id: newId(),
        user_id: target.userId,
        database_id: otherFirm.databaseId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute();
    await call('POST', `/api/rest/private/users/${target.userId}/disable`, admin);
    const signedIn = await authenticate('dis-multi', target.password);
    expect(signedIn.statusCode).toBe(200);
    const user = signedIn.json<{ currentDatabaseId: string; databases: DatabaseDto[] }>();
    expect(user.currentDatabaseId).toBe(otherFirm.databaseId);
    expect(user.databases.map((d) => d.id)).toEqual([otherFirm.databaseId]);
    // The disabled firm cannot be switched to either.
    const cookie = sessionCookie(signedIn);
    const switched = await call('POST', '/api/auth/switch-database', cookie, {
      currentDatabaseId: demoId,
    });
    expect(switched.statusCode).toBe(404);
    expect((await me(cookie)).json<{ currentDatabaseId: string }>().currentDatabaseId).toBe(
      otherFirm.databaseId,
    );
  });

  it('refuses to disable oneself or the last administrator', async () => {
    const self = await call('POST', `/api/rest/private/users/${adminId}/disable`, admin);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ message: MESSAGES.disableSelf, code: 'disable_self' });
    expect((await me(admin)).statusCode).toBe(200);
    // A firm whose only active admin is disabled would have no administrator left.
    const firm = await addUser(server, {
      username: 'solo-admin',
      password: 'solo-admin-pass-1',
      role: 'admin',
      databaseName: 'Solo Firm',
    });
    const helper = await addUser(server, {
      username: 'solo-helper',
      password: 'solo-helper-pass-1',
      role: 'admin',
      databaseId: firm.databaseId,
    });
    const soloCookie = await signIn(server, 'solo-admin', 'solo-admin-pass-1');
    await server.services.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', helper.userId)
      .execute();
    const demote = await call('PATCH', `/api/rest/private/users/role/${firm.userId}`, soloCookie, {
      role: 'member',
    });
    expect(demote.statusCode).toBe(409);
    expect(errorOf(demote)).toBe('last_admin');
  });

  it("lists a member's teams in the firm", async () => {
    const target = await member('team-tina');
    const none = await call('GET', `/api/rest/private/users/${target.userId}/teams`, admin);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
    const now = new Date().toISOString();
    const teams = [
      { id: newId(), name: 'Wealth' },
      { id: newId(), name: 'Compliance' },
    ];
    for (const team of teams) {
      await server.services.db
        .insertInto('teams')
        .values({
          id: team.id,
          database_id: demoId,
          name: team.name,
          name_key: team.name.toLowerCase(),
          created_by: adminId,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await server.services.db
        .insertInto('team_members')
        .values({ team_id: team.id, user_id: target.userId, created_at: now })
        .execute();
    }
    const listed = await call('GET', `/api/rest/private/users/${target.userId}/teams`, admin);
    expect(listed.json<UserTeamDto[]>()).toEqual([teams[1], teams[0]]);
  });

  it('lists the session user’s databases with a description, de-duplicated by description', async () => {
    const userId = (await member('db-dan')).userId;
    const now = new Date().toISOString();
    const extra = [
      { name: 'A Dup', description: 'Demo Advisory' },
      { name: 'B Blank', description: '  ' },
      { name: 'C None', description: null },
      { name: 'D Own', description: 'Second office' },
      { name: 'E Disabled', description: 'Disabled office' },
    ];
    for (const db of extra) {
      const id = newId();
      await server.services.db
        .insertInto('databases')
        .values({ id, name: db.name, description: db.description, created_at: now })
        .execute();
      await server.services.db
        .insertInto('memberships')
        .values({
          id: newId(),
          user_id: userId,
          database_id: id,
          role: 'member',
          created_at: now,
          ...(db.name === 'E Disabled' ? { disabled_at: now } : {}),
        })
        .execute();
    }
    // Signed in to Demo Advisory (the current database is kept among duplicates).
    const cookie = await signIn(server, 'db-dan', 'pw-db-dan-long-enough');
    await call('POST', '/api/auth/switch-database', cookie, { currentDatabaseId: demoId });
    const response = await call('GET', '/api/rest/private/databases', cookie);
    expect(response.statusCode).toBe(200);
    const page = response.json<Page<DatabaseDto>>();
    expect(page.items.map((d) => [d.name, d.description])).toEqual([
      ['D Own', 'Second office'],
      ['Demo Advisory', 'Demo Advisory'],
    ]);
    expect(page.total).toBe(2);
    expect((await call('GET', '/api/rest/private/databases', null)).statusCode).toBe(401);
  });
});
