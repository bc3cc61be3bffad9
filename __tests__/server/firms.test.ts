// Firm provisioning (server/services/firms.ts, server/routes/firms.ts) on SQLite and PostgreSQL:
// operators only (firm administrators, members and no session refused), create / rename /
// describe / disable / enable firms with clear refusals, members' roles added, changed and
// removed, each change recorded in the affected firm's history, a disabled firm's sessions ended
// at their next request and the firm gone from sign-in and the firm switcher, and the switcher's
// list of SPEC section 3 (only databases with a description, duplicates by description removed).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import type { FirmDto, FirmMemberDto } from '@common/firms';
import type { Page } from '@common/api';
import type { HistoryAttributes } from '@common/history';
import type { CurrentUserDto, DatabaseDto } from '@common/session';
import { setOperator } from '@server/repositories/firms';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { seededAdmin } from './historyHelpers';

describeEachDatabase('firm provisioning', (kind) => {
  let server: TestServer;
  let admin: string;
  let demoId: string;
  let operator: string;
  let operatorId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server);
    demoId = (await seededAdmin(server.services.db)).databaseId;
    const created = await addUser(server, {
      username: 'op-olga',
      password: 'operator olga passphrase',
      role: 'member',
      databaseId: demoId,
    });
    operatorId = created.userId;
    await setOperator(server.services.db, operatorId, true);
    operator = await signIn(server, 'op-olga', 'operator olga passphrase');
  });
  afterAll(async () => {
    await server.close();
  });

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, cookie: string | null, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const errorOf = (response: LightMyRequestResponse) =>
    response.json<{ code: string; message: string }>();
  const create = (name: string, description?: string | null) =>
    call('POST', '/api/rest/private/firms', operator, { name, description });
  const firms = async () =>
    (await call('GET', '/api/rest/private/firms', operator)).json<Page<FirmDto>>().items;
  const events = (databaseId: string, entityType: string, action: string) =>
    server.services.db
      .selectFrom('history_events')
      .select(['user_id', 'user_name', 'entity_id', 'attributes'])
      .where('database_id', '=', databaseId)
      .where('entity_type', '=', entityType)
      .where('action', '=', action)
      .orderBy('chain_seq')
      .execute();
  const attrs = (row: { attributes: string }) => JSON.parse(row.attributes) as HistoryAttributes;

  it('refuses everyone but operators, firm administrators included', async () => {
    const member = await addUser(server, {
      username: 'firms-mel',
      password: 'firms mel passphrase',
      databaseId: demoId,
    });
    const melCookie = await signIn(server, 'firms-mel', 'firms mel passphrase');
    for (const cookie of [admin, melCookie]) {
      for (const [method, url, payload] of [
        ['GET', '/api/rest/private/firms', undefined],
        ['POST', '/api/rest/private/firms', { name: 'Sneaky' }],
        ['PATCH', `/api/rest/private/firms/${demoId}`, { name: 'Renamed' }],
        ['POST', `/api/rest/private/firms/${demoId}/disable`, undefined],
        ['GET', `/api/rest/private/firms/${demoId}/members`, undefined],
        [
          'POST',
          `/api/rest/private/firms/${demoId}/members`,
          { username: 'admin', role: 'member' },
        ],
        ['DELETE', `/api/rest/private/firms/${demoId}/members/${member.userId}`, undefined],
      ] as const) {
        const response = await call(method, url, cookie, payload);
        expect([url, response.statusCode, errorOf(response).code]).toEqual([
          url,
          403,
          'operator_only',
        ]);
      }
    }
    expect((await call('GET', '/api/rest/private/firms', null)).statusCode).toBe(401);
    expect((await firms()).map((f) => f.name)).not.toContain('Sneaky');
    const me = (await call('GET', '/api/auth/current-user', admin)).json<CurrentUserDto>();
    expect(me.operator).toBe(false);
    const op = (await call('GET', '/api/auth/current-user', operator)).json<CurrentUserDto>();
    expect(op.operator).toBe(true);
  });

  it('creates a firm, refusing blank, too long and duplicate names, and records it', async () => {
    const response = await create('  Harbour Wealth  ', '  Harbour office ');
    expect(response.statusCode).toBe(201);
    const firm = response.json<FirmDto>();
    expect(firm).toEqual({
      id: expect.any(String),
      name: 'Harbour Wealth',
      description: 'Harbour office',
      disabled: false,
      disabledAt: null,
      createdAt: expect.any(String),
      memberCount: 0,
    });
    const duplicate = await create('harbour WEALTH');
    expect(duplicate.statusCode).toBe(409);
    expect(errorOf(duplicate)).toEqual({
      code: 'firm_name_taken',
      message: 'A firm named "harbour WEALTH" already exists.',
    });
    expect(errorOf(await create('Demo advisory')).code).toBe('firm_name_taken');
    const blank = await create('   ');
    expect([blank.statusCode, errorOf(blank)]).toEqual([
      400,
      { code: 'invalid_firm_name', message: 'A firm needs a name.' },
    ]);
    expect(errorOf(await create('x'.repeat(101))).code).toBe('invalid_firm_name');
    expect(errorOf(await create('Fine', 'd'.repeat(201))).code).toBe('invalid_firm_description');
    expect(errorOf(await create('Tab\tName')).code).toBe('invalid_firm_name');

    const created = await events(firm.id, 'database', 'create');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      user_id: operatorId,
      user_name: 'op-olga Tester',
      entity_id: firm.id,
    });
    expect(attrs(created[0]!)).toEqual({
      name: 'Harbour Wealth',
      firm_changes: { description: { next: 'Harbour office' } },
    });
    const listed = (await firms()).find((f) => f.id === firm.id);
    expect(listed).toEqual(firm);
  });

  it('renames and describes a firm, recording each change that happened', async () => {
    const firm = (await create('Rename Me', 'Old words')).json<FirmDto>();
    await create('Taken Name');
    const url = `/api/rest/private/firms/${firm.id}`;
    const taken = await call('PATCH', url, operator, { name: 'TAKEN name' });
    expect([taken.statusCode, errorOf(taken).code]).toEqual([409, 'firm_name_taken']);
    const renamed = await call('PATCH', url, operator, { name: 'Renamed Firm' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<FirmDto>().name).toBe('Renamed Firm');
    // A change of case only is the firm's own name: allowed.
    expect((await call('PATCH', url, operator, { name: 'renamed firm' })).statusCode).toBe(200);
    const described = await call('PATCH', url, operator, { description: 'New words' });
    expect(described.json<FirmDto>().description).toBe('New words');
    const cleared = await call('PATCH', url, operator, { description: '  ' });
    expect(cleared.json<FirmDto>().description).toBeNull();
    // The same values again record nothing.
    await call('PATCH', url, operator, { name: 'renamed firm', description: null });

    const renames = await events(firm.id, 'database', 'rename');
    expect(renames.map(attrs)).toEqual([
      { name: 'Renamed Firm', prev: { name: 'Rename Me' }, next: { name: 'Renamed Firm' } },
      { name: 'renamed firm', prev: { name: 'Renamed Firm' }, next: { name: 'renamed firm' } },
    ]);
    const updates = await events(firm.id, 'database', 'update');
    expect(updates.map(attrs)).toEqual([
      {
        name: 'renamed firm',
        firm_changes: { description: { prev: 'Old words', next: 'New words' } },
      },
      { name: 'renamed firm', firm_changes: { description: { prev: 'New words', next: null } } },
    ]);
    const unknown = await call('PATCH', '/api/rest/private/firms/nope', operator, { name: 'X' });
    expect([unknown.statusCode, errorOf(unknown).code]).toEqual([404, 'firm_not_found']);
  });

  it('adds users with a role, changes and removes it, with clear refusals', async () => {
    const firm = (await create('Roles Firm', 'Roles office')).json<FirmDto>();
    const members = `/api/rest/private/firms/${firm.id}/members`;
    const rita = await addUser(server, {
      username: 'roles-rita',
      password: 'roles rita passphrase',
      databaseId: demoId,
    });
    const unknownUser = await call('POST', members, operator, {
      username: 'nobody',
      role: 'admin',
    });
    expect([unknownUser.statusCode, errorOf(unknownUser)]).toEqual([
      404,
      { code: 'user_not_found', message: 'No user "nobody".' },
    ]);
    const badRole = await call('POST', members, operator, { username: 'roles-rita', role: 'boss' });
    expect([badRole.statusCode, errorOf(badRole)]).toEqual([
      400,
      { code: 'invalid_role', message: 'Unknown role "boss": use admin, member or read_only.' },
    ]);
    const guestRole = await call('POST', members, operator, {
      username: 'roles-rita',
      role: 'guest',
    });
    expect(errorOf(guestRole).code).toBe('invalid_role');
    const added = await call('POST', members, operator, { username: 'Roles-Rita', role: 'admin' });
    expect(added.statusCode).toBe(201);
    expect(added.json<FirmMemberDto>()).toEqual({
      userId: rita.userId,
      username: 'roles-rita',
      firstName: 'roles-rita',
      lastName: 'Tester',
      role: 'admin',
      disabled: false,
    });
    const again = await call('POST', members, operator, { username: 'roles-rita', role: 'member' });
    expect([again.statusCode, errorOf(again).code]).toEqual([409, 'already_member']);
    expect((await firms()).find((f) => f.id === firm.id)?.memberCount).toBe(1);

    // The last administrator stays.
    const member = `${members}/${rita.userId}`;
    const demote = await call('PATCH', member, operator, { role: 'member' });
    expect([demote.statusCode, errorOf(demote).code]).toEqual([409, 'last_admin']);
    expect(errorOf(await call('DELETE', member, operator)).code).toBe('last_admin');
    await call('POST', members, operator, { username: 'admin', role: 'admin' });
    const demoted = await call('PATCH', member, operator, { role: 'read_only' });
    expect(demoted.json<FirmMemberDto>().role).toBe('read_only');
    const listed = await call('GET', members, operator);
    expect(listed.json<Page<FirmMemberDto>>().items.map((m) => [m.username, m.role])).toEqual([
      ['admin', 'admin'],
      ['roles-rita', 'read_only'],
    ]);

    // Rita works in the firm; removing her ends that session at once.
    const ritaCookie = await signIn(server, 'roles-rita', 'roles rita passphrase');
    const switched = await call('POST', '/api/auth/switch-database', ritaCookie, {
      currentDatabaseId: firm.id,
    });
    expect(switched.statusCode).toBe(200);
    expect((await call('DELETE', member, operator)).statusCode).toBe(204);
    expect((await call('GET', '/api/auth/current-user', ritaCookie)).statusCode).toBe(401);
    const notMember = await call('DELETE', member, operator);
    expect([notMember.statusCode, errorOf(notMember).code]).toEqual([404, 'not_member']);
    expect(errorOf(await call('PATCH', member, operator, { role: 'member' })).code).toBe(
      'not_member',
    );

    const userEvents = async (action: string) =>
      (await events(firm.id, 'user', action))
        .filter((e) => e.entity_id === rita.userId)
        .map((e) => ({ by: e.user_id, ...attrs(e) }));
    expect(await userEvents('create')).toEqual([
      {
        by: operatorId,
        name: 'roles-rita Tester',
        user_id: rita.userId,
        user_changes: { role: { next: 'admin' } },
      },
    ]);
    expect(await userEvents('update')).toEqual([
      {
        by: operatorId,
        name: 'roles-rita Tester',
        user_id: rita.userId,
        user_changes: { role: { prev: 'admin', next: 'read_only' } },
      },
    ]);
    expect(await userEvents('delete')).toEqual([
      { by: operatorId, name: 'roles-rita Tester', user_id: rita.userId },
    ]);
  });

  it('disables a firm: its sessions end, it leaves sign-in and the switcher; enable brings it back', async () => {
    const firm = (await create('Closing Firm', 'Closing office')).json<FirmDto>();
    const members = `/api/rest/private/firms/${firm.id}/members`;
    // Cleo belongs only to the closing firm; Dina to it and the demo firm.
    await addUser(server, {
      username: 'close-cleo',
      password: 'close cleo passphrase',
      databaseId: firm.id,
      role: 'admin',
    });
    await addUser(server, {
      username: 'close-dina',
      password: 'close dina passphrase',
      databaseId: demoId,
    });
    await call('POST', members, operator, { username: 'close-dina', role: 'member' });
    const cleoCookie = await signIn(server, 'close-cleo', 'close cleo passphrase');
    const dinaCookie = await signIn(server, 'close-dina', 'close dina passphrase');
    await call('POST', '/api/auth/switch-database', dinaCookie, { currentDatabaseId: demoId });
    const dinaInFirm = await signIn(server, 'close-dina', 'close dina passphrase');
    await call('POST', '/api/auth/switch-database', dinaInFirm, { currentDatabaseId: firm.id });
    const databasesOf = async (cookie: string) =>
      (await call('GET', '/api/rest/private/databases', cookie))
        .json<Page<DatabaseDto>>()
        .items.map((d) => d.name);
    expect(await databasesOf(dinaCookie)).toEqual(['Closing Firm', 'Demo Advisory']);

    const disabled = await call('POST', `/api/rest/private/firms/${firm.id}/disable`, operator);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json<FirmDto>()).toMatchObject({
      disabled: true,
      disabledAt: expect.any(String),
    });
    // Sessions in the firm end at their next request; Dina's other session goes on without it.
    expect((await call('GET', '/api/auth/current-user', cleoCookie)).statusCode).toBe(401);
    expect((await call('GET', '/api/auth/current-user', dinaInFirm)).statusCode).toBe(401);
    const me = await call('GET', '/api/auth/current-user', dinaCookie);
    expect(me.json<CurrentUserDto>().databases.map((d) => d.name)).toEqual(['Demo Advisory']);
    expect(await databasesOf(dinaCookie)).toEqual(['Demo Advisory']);
    const switchBack = await call('POST', '/api/auth/switch-database', dinaCookie, {
      currentDatabaseId: firm.id,
    });
    expect(switchBack.statusCode).toBe(404);
    // Cleo has no other firm: she cannot sign in; Dina signs in to the demo firm.
    const cleoSignIn = await call('POST', '/api/rest/private/users/authenticate', null, {
      username: 'close-cleo',
      password: 'close cleo passphrase',
    });
    expect(cleoSignIn.statusCode).toBe(401);
    const again = await call('POST', `/api/rest/private/firms/${firm.id}/disable`, operator);
    expect([again.statusCode, errorOf(again).code]).toEqual([409, 'firm_disabled']);
    expect((await firms()).find((f) => f.id === firm.id)).toMatchObject({
      disabled: true,
      memberCount: 2,
    });

    const enabled = await call('POST', `/api/rest/private/firms/${firm.id}/enable`, operator);
    expect(enabled.json<FirmDto>()).toMatchObject({ disabled: false, disabledAt: null });
    expect(await databasesOf(dinaCookie)).toEqual(['Closing Firm', 'Demo Advisory']);
    expect(await signIn(server, 'close-cleo', 'close cleo passphrase')).toMatch(
      /^dossier_session=/,
    );
    const twice = await call('POST', `/api/rest/private/firms/${firm.id}/enable`, operator);
    expect([twice.statusCode, errorOf(twice).code]).toEqual([409, 'firm_enabled']);
    expect((await events(firm.id, 'database', 'disable')).map(attrs)).toEqual([
      { name: 'Closing Firm' },
    ]);
    expect((await events(firm.id, 'database', 'enable')).map(attrs)).toEqual([
      { name: 'Closing Firm' },
    ]);
  });

  it('lists exactly the firms with a description, one per description, in the switcher', async () => {
    const user = await addUser(server, {
      username: 'switch-sam',
      password: 'switch sam passphrase',
      databaseId: demoId,
    });
    const made: Record<string, string> = {};
    for (const [name, description] of [
      ['S East', 'East office'],
      ['S North', 'Shared office'],
      ['S South', 'Shared office '],
      ['S West', null],
      ['S Blank', '   '],
      ['S Closed', 'Closed office'],
    ] as const) {
      const firm = (await create(name, description)).json<FirmDto>();
      made[name] = firm.id;
      const added = await call('POST', `/api/rest/private/firms/${firm.id}/members`, operator, {
        username: 'switch-sam',
        role: 'member',
      });
      expect(added.statusCode).toBe(201);
    }
    await call('POST', `/api/rest/private/firms/${made['S Closed']}/disable`, operator);
    const cookie = await signIn(server, 'switch-sam', 'switch sam passphrase');
    const listed = async () => {
      const page = (await call('GET', '/api/rest/private/databases', cookie)).json<
        Page<DatabaseDto>
      >();
      return page.items.map((d) => d.name);
    };
    await call('POST', '/api/auth/switch-database', cookie, { currentDatabaseId: demoId });
    // Of the duplicate description the first by name is kept; no description, blank and
    // disabled firms are left out.
    expect(await listed()).toEqual(['Demo Advisory', 'S East', 'S North']);
    // Of duplicates, the current database is kept.
    await call('POST', '/api/auth/switch-database', cookie, { currentDatabaseId: made['S South'] });
    expect(await listed()).toEqual(['Demo Advisory', 'S East', 'S South']);
    // The firm without a description is reachable only as the current database, never listed.
    await call('POST', '/api/auth/switch-database', cookie, { currentDatabaseId: made['S West'] });
    expect(await listed()).toEqual(['Demo Advisory', 'S East', 'S North']);
    const me = (await call('GET', '/api/auth/current-user', cookie)).json<CurrentUserDto>();
    expect(me.databases.map((d) => d.name)).toEqual([
      'Demo Advisory',
      'S Blank',
      'S East',
      'S North',
      'S South',
      'S West',
    ]);
    expect(user.userId).toBe(me.userId);
  });

  it('refuses a revoked operator at the next request', async () => {
    await addUser(server, {
      username: 'op-otto',
      password: 'operator otto passphrase',
      databaseId: demoId,
      role: 'admin',
    });
    const otto = await server.services.db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', 'op-otto')
      .executeTakeFirstOrThrow();
    await setOperator(server.services.db, otto.id, true);
    const cookie = await signIn(server, 'op-otto', 'operator otto passphrase');
    expect((await call('GET', '/api/rest/private/firms', cookie)).statusCode).toBe(200);
    await setOperator(server.services.db, otto.id, false);
    expect((await call('GET', '/api/rest/private/firms', cookie)).statusCode).toBe(403);
  });
});
