// CRM contacts and folder contacts on SQLite and PostgreSQL: the partner upsert
// with an integration key (created/updated by crm_id, refused contacts by index, key checks), the
// administrator's CSV import (counts, rejected lines with phone error kinds), the contact search
// (case-insensitive contains, exact then prefix first, at most 50, firm-scoped), and linking and
// unlinking contacts and folders with their history events in the same transaction, and an
// administrator's edit of a contact's phone numbers (the spec's four phone error kinds).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import type {
  ContactDto,
  ContactImportResult,
  ContactSearchResponse,
  FolderContactDto,
  FolderContactsResponse,
} from '@common/contacts';
import { summarizeHistoryEvent } from '@common/history';
import { PHONE_ERROR_MESSAGES, PHONE_INPUT_MAX_LENGTH } from '@common/phone';
import type { HistoryAttributes, HistoryEventDto } from '@common/history';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { createKey, me, switchIntegrations } from './integrationHelpers';

describeEachDatabase('contacts and folder contacts', (kind) => {
  let server: TestServer;
  let admin: string;
  let firmId: string;
  let member: string;
  let readOnly: string;
  let other: string;
  let key: string;
  let otherKey: string;

  const call = (
    cookie: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method,
      url,
      headers: { ...(cookie ? { cookie } : {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const upsert = (k: string | null, contacts: unknown[]) =>
    call(
      null,
      'PUT',
      '/api/integrations/contacts',
      { contacts },
      k ? { authorization: `Bearer ${k}` } : {},
    );

  const search = async (cookie: string, name: string) => {
    const response = await call(cookie, 'POST', '/api/rest/private/contacts/search', { name });
    expect(response.statusCode).toBe(200);
    return response.json<ContactSearchResponse>().items;
  };

  const folder = async (cookie: string, name: string) => {
    const response = await call(cookie, 'POST', '/api/rest/folders', { name, parent_id: '' });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string; name: string }>();
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server);
    firmId = (await me(server, admin)).currentDatabaseId;
    await addUser(server, { username: 'c-member', password: 'pw-c-member', databaseId: firmId });
    member = await signIn(server, 'c-member', 'pw-c-member');
    await addUser(server, {
      username: 'c-reader',
      password: 'pw-c-reader',
      role: 'read_only',
      databaseId: firmId,
    });
    readOnly = await signIn(server, 'c-reader', 'pw-c-reader');
    const o = await addUser(server, {
      username: 'c-other',
      password: 'pw-c-other',
      role: 'admin',
      databaseName: 'Other Contacts Firm',
    });
    other = await signIn(server, 'c-other', 'pw-c-other');
    expect((await switchIntegrations(server, admin, firmId, true)).statusCode).toBe(200);
    key = (await createKey(server, admin, 'crm')).key;
    expect((await switchIntegrations(server, other, o.databaseId, true)).statusCode).toBe(200);
    otherKey = (await createKey(server, other, 'crm')).key;
  });
  afterAll(async () => {
    await server.close();
  });

  it('upserts partner contacts by crm_id with an integration key, formatting phones', async () => {
    const first = await upsert(key, [
      {
        crm_id: 'p-1',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phones: ['+1 213 373 4253'],
      },
      { crm_id: 'p-2', name: 'Alan Turing', phones: [{ country_code: 44, number: '2079460958' }] },
      { crm_id: 'p-3', name: 'Bad Phone', phones: ['+1'] },
      { crm_id: 'p-4', name: 'Bad Mail', email: 'not-an-address' },
      { crm_id: 'p-1', name: 'Twice' },
      { crm_id: '   ', name: 'No id' },
    ]);
    expect(first.statusCode).toBe(200);
    const answer = first.json<ContactImportResult>();
    expect(answer.created).toBe(2);
    expect(answer.updated).toBe(0);
    expect(answer.rejected.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(answer.rejected[0]!.reason).toMatch(/TOO_SHORT/);
    expect(answer.rejected[1]!.reason).toBe('The e-mail address is not valid.');
    expect(answer.rejected[2]!.reason).toBe('This CRM id appears more than once.');
    expect(answer.rejected[3]!.reason).toBe('A CRM id is required.');

    const [ada] = await search(admin, 'ada lovelace');
    expect(ada).toMatchObject({
      crm_id: 'p-1',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phones: [{ country_code: 1, number: '2133734253' }],
      phones_display: ['(213) 373-4253'],
    });
    const [alan] = await search(admin, 'Alan');
    expect(alan!.phones_display).toEqual(['+44 20 7946 0958']);

    // Update by crm_id: a field left out keeps its value, a given one replaces it.
    const second = await upsert(key, [{ crm_id: 'p-1', name: 'Ada King', phones: [] }]);
    expect(second.json<ContactImportResult>()).toEqual({ created: 0, updated: 1, rejected: [] });
    const [king] = await search(admin, 'Ada King');
    expect(king).toMatchObject({ id: ada!.id, email: 'ada@example.com', phones: [] });
    expect(await search(admin, 'lovelace')).toEqual([]);
  });

  it("edits a contact's phone numbers (administrators), refusing each phone error kind", async () => {
    const created = await upsert(key, [{ crm_id: 'ph-1', name: 'Grace Phones', phones: [] }]);
    expect(created.json<ContactImportResult>().created).toBe(1);
    const [grace] = await search(admin, 'Grace Phones');
    const url = `/api/rest/private/contacts/${grace!.id}`;

    const saved = await call(admin, 'PATCH', url, {
      phones: [
        '+1 (213) 373-4253',
        '  ',
        { country_code: 44, number: '2079460958' },
        '+12133734253',
      ],
    });
    expect(saved.statusCode).toBe(200);
    // Blank ones are left out, a duplicate kept once; national display for code 1.
    expect(saved.json<ContactDto>()).toMatchObject({
      id: grace!.id,
      name: 'Grace Phones',
      phones: [
        { country_code: 1, number: '2133734253' },
        { country_code: 44, number: '2079460958' },
      ],
      phones_display: ['(213) 373-4253', '+44 20 7946 0958'],
    });
    expect((await search(admin, 'Grace Phones'))[0]!.phones_display).toEqual([
      '(213) 373-4253',
      '+44 20 7946 0958',
    ]);

    const refusals: [string, string, keyof typeof PHONE_ERROR_MESSAGES][] = [
      ['call me maybe', 'phone_not_a_number', 'NOT_A_NUMBER'],
      ['+44 1', 'phone_too_short', 'TOO_SHORT'],
      ['+1 2133734253999999999', 'phone_too_long', 'TOO_LONG'],
      [`+1 ${'2'.repeat(PHONE_INPUT_MAX_LENGTH)}`, 'phone_too_long', 'TOO_LONG'],
      ['2133734253', 'phone_invalid_country', 'INVALID_COUNTRY'],
    ];
    for (const [text, code, kind] of refusals) {
      const refused = await call(admin, 'PATCH', url, { phones: ['+1 213 373 4253', text] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ code, message: `Phone 2: ${PHONE_ERROR_MESSAGES[kind]}` });
    }
    const tooMany = await call(admin, 'PATCH', url, {
      phones: Array.from({ length: 11 }, (_, i) => `+1 213 373 42${String(i).padStart(2, '0')}`),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ code: string }>().code).toBe('too_many_phones');
    // Nothing refused was stored.
    expect((await search(admin, 'Grace Phones'))[0]!.phones).toHaveLength(2);

    // Members and read-only members may not; another firm's administrator does not see it.
    expect((await call(member, 'PATCH', url, { phones: [] })).statusCode).toBe(403);
    expect((await call(readOnly, 'PATCH', url, { phones: [] })).statusCode).toBe(403);
    expect((await call(other, 'PATCH', url, { phones: [] })).statusCode).toBe(404);
    expect((await call(null, 'PATCH', url, { phones: [] })).statusCode).toBe(401);
    expect((await call(admin, 'PATCH', url, {})).statusCode).toBe(400);
    // An empty list removes every phone.
    const cleared = await call(admin, 'PATCH', url, { phones: [] });
    expect(cleared.json<ContactDto>().phones).toEqual([]);
  });

  it('refuses the partner upsert without a valid key, while integrations are off, and over 1000', async () => {
    expect((await upsert(null, [])).statusCode).toBe(401);
    expect((await upsert('dsk_not_a_key', [])).statusCode).toBe(401);
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ crm_id: `x${i}`, name: `X ${i}` }));
    expect((await upsert(key, tooMany)).statusCode).toBe(400);
    expect((await switchIntegrations(server, admin, firmId, false)).statusCode).toBe(200);
    const off = await upsert(key, [{ crm_id: 'off', name: 'Off' }]);
    expect(off.statusCode).toBe(403);
    expect(off.json<{ code: string }>().code).toBe('integrations_disabled');
    expect((await switchIntegrations(server, admin, firmId, true)).statusCode).toBe(200);
    expect(await search(admin, 'Off')).toEqual([]);
    // The uses are recorded on the key.
    const uses = await server.services.db
      .selectFrom('integration_key_uses')
      .select(['outcome'])
      .where('action', '=', 'contacts_upsert')
      .execute();
    expect(uses.map((u) => u.outcome)).toContain('integrations_disabled');
  });

  it('imports contacts from CSV (administrators), answering counts and rejected lines', async () => {
    const csv = [
      'Name,Email,Phone,CRM_ID',
      'Grace Hopper,grace@example.com,+1 (202) 555-0143;+33 1 42 68 53 00,g-1',
      ',nobody@example.com,,',
      'Phone Too Long,,+1 2133734253999999999,',
      'Phone No Country,,2133734253,',
      'Phone Not A Number,,call me,',
      'Phone Bad Country,,+999 12345,',
      '"Quoted, Name",,,q-1',
      '',
    ].join('\n');
    const response = await call(admin, 'POST', '/api/rest/private/contacts/import', { csv });
    expect(response.statusCode).toBe(200);
    const result = response.json<ContactImportResult>();
    expect(result.created).toBe(2);
    expect(result.updated).toBe(0);
    expect(result.rejected).toEqual([
      { line: 3, reason: 'A contact name is required.' },
      { line: 4, reason: expect.stringMatching(/TOO_LONG/) },
      { line: 5, reason: expect.stringMatching(/INVALID_COUNTRY/) },
      { line: 6, reason: expect.stringMatching(/NOT_A_NUMBER/) },
      { line: 7, reason: expect.stringMatching(/INVALID_COUNTRY/) },
    ]);
    const [grace] = await search(admin, 'grace');
    expect(grace!.phones_display).toEqual(['(202) 555-0143', '+33 1 42 68 53 00']);
    expect((await search(admin, 'quoted, name'))[0]!.crm_id).toBe('q-1');

    // A text/csv body works too; re-importing updates by crm_id, and a CSV row without one by
    // its name and e-mail.
    const again = await server.app.inject({
      method: 'POST',
      url: '/api/rest/private/contacts/import',
      headers: { cookie: admin, 'content-type': 'text/csv' },
      payload: 'name,email,crm_id\nGrace B. Hopper,grace@example.com,g-1\nNo Id,,\nNo Id,,\n',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<ContactImportResult>()).toEqual({
      created: 1,
      updated: 1,
      rejected: [{ line: 4, reason: expect.stringMatching(/more than once/) }],
    });
    const [updated] = await search(admin, 'grace b');
    expect(updated).toMatchObject({ id: grace!.id, phones: grace!.phones });
    const noId = await call(admin, 'POST', '/api/rest/private/contacts/import', {
      csv: 'name,phone\nno id,+44 20 7946 0958\n',
    });
    expect(noId.json<ContactImportResult>()).toMatchObject({ created: 0, updated: 1 });

    expect(
      (await call(admin, 'POST', '/api/rest/private/contacts/import', { csv: 'email\na@b.co\n' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(admin, 'POST', '/api/rest/private/contacts/import', { csv: 'name\n' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(member, 'POST', '/api/rest/private/contacts/import', { csv: 'name\nX\n' }))
        .statusCode,
    ).toBe(403);
  });

  it('searches by name: contains, case-insensitive, exact then prefix first, at most 50, firm-scoped', async () => {
    const contacts = [
      { crm_id: 's-1', name: 'Mr Smith' },
      { crm_id: 's-2', name: 'Smithers' },
      { crm_id: 's-3', name: 'SMITH' },
      { crm_id: 's-4', name: 'Agent Smith' },
      { crm_id: 's-5', name: 'Smith & Sons' },
      { crm_id: 's-6', name: '50%_off' },
      ...Array.from({ length: 60 }, (_, i) => ({ crm_id: `bulk-${i}`, name: `Zed ${1000 + i}` })),
    ];
    expect((await upsert(key, contacts)).statusCode).toBe(200);
    expect(
      (await upsert(otherKey, [{ crm_id: 's-1', name: 'Smith of another firm' }])).statusCode,
    ).toBe(200);
    const names = (await search(member, 'smith')).map((c) => c.name);
    expect(names).toEqual(['SMITH', 'Smith & Sons', 'Smithers', 'Agent Smith', 'Mr Smith']);
    expect(await search(member, 'zed')).toHaveLength(50);
    // LIKE wildcards in the text are literal.
    expect((await search(member, '%_')).map((c) => c.name)).toEqual(['50%_off']);
    const theirs = (await search(other, 'smith')).map((c) => c.name);
    expect(theirs).toEqual(['Smith of another firm']);
    expect(
      (await call(readOnly, 'POST', '/api/rest/private/contacts/search', { name: 'a' })).statusCode,
    ).toBe(403);
  });

  it('links and unlinks contacts and folders, with history in the same transaction', async () => {
    const f = await folder(admin, 'Lovelace family');
    const [ada] = await search(admin, 'Ada King');
    const linked = await call(member, 'POST', '/api/rest/folder_contacts', {
      folder_id: f.id,
      contact_id: ada!.id,
    });
    expect(linked.statusCode).toBe(201);
    const link = linked.json<FolderContactDto>();
    expect(link).toMatchObject({ folder_id: f.id, contact_id: ada!.id, contact_name: 'Ada King' });
    const again = await call(member, 'POST', '/api/rest/folder_contacts', {
      folder_id: f.id,
      contact_id: ada!.id,
    });
    expect(again.statusCode).toBe(409);

    const list = await call(readOnly, 'GET', `/api/rest/folders/${f.id}/folder_contacts`);
    expect(list.statusCode).toBe(200);
    const items = list.json<FolderContactsResponse>().items;
    expect(items.map((i) => [i.id, i.contact.email])).toEqual([[link.id, 'ada@example.com']]);

    // Another firm's contact, another firm's folder, the root, a read-only member.
    const [theirs] = await search(other, 'smith');
    expect(
      (
        await call(member, 'POST', '/api/rest/folder_contacts', {
          folder_id: f.id,
          contact_id: theirs!.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(other, 'POST', '/api/rest/folder_contacts', {
          folder_id: f.id,
          contact_id: theirs!.id,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call(other, 'GET', `/api/rest/folders/${f.id}/folder_contacts`)).statusCode).toBe(
      404,
    );
    expect(
      (
        await call(member, 'POST', '/api/rest/folder_contacts', {
          folder_id: '',
          contact_id: ada!.id,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call(readOnly, 'POST', '/api/rest/folder_contacts', {
          folder_id: f.id,
          contact_id: ada!.id,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(readOnly, 'DELETE', `/api/rest/folder_contacts/${link.id}`)).statusCode,
    ).toBe(403);
    expect((await call(other, 'DELETE', `/api/rest/folder_contacts/${link.id}`)).statusCode).toBe(
      404,
    );

    // Unlink by folder id and contact_id.
    const unlinked = await call(
      member,
      'DELETE',
      `/api/rest/folder_contacts/${f.id}?contact_id=${ada!.id}`,
    );
    expect(unlinked.statusCode).toBe(204);
    expect(
      (
        await call(member, 'GET', `/api/rest/folders/${f.id}/folder_contacts`)
      ).json<FolderContactsResponse>().items,
    ).toEqual([]);
    expect((await call(member, 'DELETE', `/api/rest/folder_contacts/${link.id}`)).statusCode).toBe(
      404,
    );

    const events = await server.services.db
      .selectFrom('history_events')
      .selectAll()
      .where('entity_type', '=', 'folder_contact')
      .where('entity_id', '=', link.id)
      .orderBy('chain_seq')
      .execute();
    expect(events.map((e) => [e.action, e.item_id, e.user_name])).toEqual([
      ['create', f.id, 'c-member Tester'],
      ['delete', f.id, 'c-member Tester'],
    ]);
    const attributes = JSON.parse(events[0]!.attributes) as HistoryAttributes;
    expect(attributes).toMatchObject({
      contact_name: 'Ada King',
      changes: { folder: { name: 'Lovelace family' } },
    });
    const dto = {
      ...events[1]!,
      attributes: JSON.parse(events[1]!.attributes) as HistoryAttributes,
    } as unknown as HistoryEventDto;
    expect(summarizeHistoryEvent(dto).summary).toMatch(
      /unlinked .*Ada King.* from .*Lovelace family/,
    );

    // Unlinking by link id works too.
    const relinked = await call(admin, 'POST', '/api/rest/folder_contacts', {
      folder_id: f.id,
      contact_id: ada!.id,
    });
    expect(
      (await call(admin, 'DELETE', `/api/rest/folder_contacts/${relinked.json<ContactDto>().id}`))
        .statusCode,
    ).toBe(204);
  });

  it('keeps restricted folders hidden: members get 404 linking, listing or unlinking there', async () => {
    const secret = await folder(admin, 'Secret contacts');
    const permission = await call(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: secret.id,
      permissionables: [
        { permissionable_id: (await me(server, admin)).userId, permissionable_type: 'user' },
      ],
    });
    expect(permission.statusCode).toBe(201);
    const [grace] = await search(admin, 'grace');
    const link = await call(admin, 'POST', '/api/rest/folder_contacts', {
      folder_id: secret.id,
      contact_id: grace!.id,
    });
    expect(link.statusCode).toBe(201);
    expect(
      (await call(member, 'GET', `/api/rest/folders/${secret.id}/folder_contacts`)).statusCode,
    ).toBe(404);
    expect(
      (
        await call(member, 'POST', '/api/rest/folder_contacts', {
          folder_id: secret.id,
          contact_id: grace!.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(
          member,
          'DELETE',
          `/api/rest/folder_contacts/${link.json<FolderContactDto>().id}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(admin, 'GET', `/api/rest/folders/${secret.id}/folder_contacts`)
      ).json<FolderContactsResponse>().items,
    ).toHaveLength(1);
  });
});
