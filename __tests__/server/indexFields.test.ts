/**
 * Index fields: create with types and list values, names unique per firm in any
 * case, update and reorder, archive/restore, delete with undo-delete until destroyed (a second
 * DELETE, or INDEX_FIELD_UNDO_MS passing), administrators only, firm isolation.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import {
  INDEX_FIELD_UNDO_MS,
  INDEX_MESSAGES,
  type AppliedValuesDto,
  type ApplyIndexesResponse,
  type IndexFieldDto,
} from '@common/indexFields';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, makeFile, newActor, type Actor } from './organiseHelpers';

function send(
  server: TestServer,
  actor: Actor,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url,
    headers: { cookie: actor.cookie },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

describeEachDatabase('index fields', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let readOnly: Actor;
  let otherAdmin: Actor;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'if-member', 'member', admin.databaseId);
    readOnly = await newActor(server, 'if-reader', 'read_only', admin.databaseId);
    otherAdmin = await newActor(server, 'if-other', 'admin');
  });
  afterAll(async () => {
    await server.close();
  });

  const create = async (payload: object, actor = admin) => {
    const response = await send(server, actor, 'POST', '/api/rest/index_fields', payload);
    return response;
  };
  const list = async (actor = admin, query = '') =>
    (await send(server, actor, 'GET', `/api/rest/index_fields${query}`)).json<IndexFieldDto[]>();

  it('creates fields of every type, text_field by default, ordered by position', async () => {
    const text = await create({ name: 'Account number', description: 'From the CRM' });
    expect(text.statusCode).toBe(201);
    expect(text.json<IndexFieldDto>()).toMatchObject({
      name: 'Account number',
      type: 'text_field',
      description: 'From the CRM',
      values: [],
      archived_at: null,
      deleted_at: null,
    });
    const year = (await create({ name: 'Tax year', type: 'number' })).json<IndexFieldDto>();
    const due = (await create({ name: 'Due date', type: 'date' })).json<IndexFieldDto>();
    const doc = await create({
      name: 'Document type',
      type: 'list',
      values: ['Invoice', 'Statement'],
    });
    expect(doc.statusCode).toBe(201);
    expect(doc.json<IndexFieldDto>().values.map((v) => [v.value, v.position])).toEqual([
      ['Invoice', 0],
      ['Statement', 1],
    ]);
    expect(year.position).toBeLessThan(due.position);
    const names = (await list()).map((f) => f.name);
    expect(names).toEqual(['Account number', 'Tax year', 'Due date', 'Document type']);
    // Members and read-only members read the fields (they apply values with them).
    expect((await list(member)).map((f) => f.name)).toEqual(names);
    expect((await list(readOnly)).length).toBe(4);
    // Another firm sees none of them.
    expect(await list(otherAdmin)).toEqual([]);
  });

  it('refuses invalid definitions with clear messages', async () => {
    const cases: [object, string][] = [
      [{ name: '   ' }, INDEX_MESSAGES.nameRequired],
      [{ name: 'x'.repeat(101) }, INDEX_MESSAGES.nameTooLong],
      [{ name: 'tax YEAR' }, 'An index field named "tax YEAR" already exists.'],
      [{ name: 'Kind', type: 'list' }, INDEX_MESSAGES.listValuesRequired],
      [{ name: 'Kind', type: 'list', values: ['A', 'a'] }, 'The list already has the value "a".'],
      [{ name: 'Kind', type: 'number', values: ['1'] }, INDEX_MESSAGES.listValuesOnlyForList],
    ];
    for (const [payload, message] of cases) {
      const response = await create(payload);
      expect({
        payload,
        status: response.statusCode,
        message: response.json<{ message: string }>().message,
      }).toEqual({
        payload,
        status: 400,
        message,
      });
    }
    expect((await create({ name: 'Kind', type: 'colour' })).statusCode).toBe(400);
    // The same name is free in another firm.
    expect((await create({ name: 'Tax year', type: 'number' }, otherAdmin)).statusCode).toBe(201);
  });

  it('is managed by administrators only; another firm gets 404', async () => {
    expect((await create({ name: 'By member' }, member)).statusCode).toBe(403);
    expect((await create({ name: 'By reader' }, readOnly)).statusCode).toBe(403);
    const field = (await list()).find((f) => f.name === 'Account number')!;
    for (const [method, url] of [
      ['PATCH', `/api/rest/index_fields/${field.id}`],
      ['DELETE', `/api/rest/index_fields/${field.id}`],
      ['POST', `/api/rest/index_fields/${field.id}/archive`],
      ['POST', `/api/rest/index_fields/${field.id}/restore`],
      ['POST', `/api/rest/index_fields/${field.id}/undo-delete`],
    ] as const) {
      const payload = method === 'PATCH' ? { name: 'Hijacked' } : undefined;
      expect((await send(server, member, method, url, payload)).statusCode).toBe(403);
      expect((await send(server, readOnly, method, url, payload)).statusCode).toBe(403);
      expect((await send(server, otherAdmin, method, url, payload)).statusCode).toBe(404);
    }
    expect((await list()).find((f) => f.id === field.id)).toMatchObject({
      name: 'Account number',
      archived_at: null,
      deleted_at: null,
    });
  });

  it('renames, moves and edits list values (reorder by drag)', async () => {
    const fields = await list();
    const doc = fields.find((f) => f.name === 'Document type')!;
    const renamed = await send(server, admin, 'PATCH', `/api/rest/index_fields/${doc.id}`, {
      name: 'Kind of document',
      description: 'What the paper is',
      position: 0,
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<IndexFieldDto>()).toMatchObject({
      name: 'Kind of document',
      description: 'What the paper is',
      position: 0,
    });
    expect((await list()).map((f) => f.name)).toEqual([
      'Kind of document',
      'Account number',
      'Tax year',
      'Due date',
    ]);
    const [invoice, statement] = doc.values;
    const reordered = await send(
      server,
      admin,
      'PATCH',
      `/api/rest/index_fields/${doc.id}/values`,
      {
        values: [
          { id: statement!.id, value: 'Statement' },
          { value: 'Receipt' },
          { id: invoice!.id, value: 'Invoice' },
        ],
      },
    );
    expect(reordered.statusCode).toBe(200);
    const values = reordered.json<IndexFieldDto>().values;
    expect(values.map((v) => v.value)).toEqual(['Statement', 'Receipt', 'Invoice']);
    expect(values[0]!.id).toBe(statement!.id);
    expect(values[2]!.id).toBe(invoice!.id);
    const unknown = await send(server, admin, 'PATCH', `/api/rest/index_fields/${doc.id}/values`, {
      values: [{ id: 'not-a-value', value: 'X' }],
    });
    expect(unknown.statusCode).toBe(400);
    // Renaming to a name another field has (any case) is refused.
    const taken = await send(server, admin, 'PATCH', `/api/rest/index_fields/${doc.id}`, {
      name: 'TAX year',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json<{ message: string }>().message).toBe(
      'An index field named "TAX year" already exists.',
    );
  });

  it('changes the type only while no value is applied', async () => {
    const field = (await create({ name: 'Reference' })).json<IndexFieldDto>();
    const toNumber = await send(server, admin, 'PATCH', `/api/rest/index_fields/${field.id}`, {
      type: 'number',
    });
    expect(toNumber.json<IndexFieldDto>().type).toBe('number');
    const file = await makeFile(server, admin, 'ref.pdf', '');
    const applied = await send(server, admin, 'POST', '/api/rest/applied_indexes', {
      entity_id: file.id,
      indexes: [{ indexFieldId: field.id, value: '42' }],
    });
    expect(applied.statusCode).toBe(201);
    const refused = await send(server, admin, 'PATCH', `/api/rest/index_fields/${field.id}`, {
      type: 'date',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      'The type of "Reference" cannot change while values are applied with it.',
    );
    const toList = await send(
      server,
      admin,
      'PATCH',
      `/api/rest/index_fields/${(await create({ name: 'Grade' })).json<IndexFieldDto>().id}`,
      {
        type: 'list',
      },
    );
    expect(toList.statusCode).toBe(400);
    expect(toList.json<{ message: string }>().message).toBe(INDEX_MESSAGES.listValuesRequired);
  });

  it('archives and restores: an archived field keeps its values but cannot be applied', async () => {
    const field = (await create({ name: 'Branch' })).json<IndexFieldDto>();
    const file = await makeFile(server, admin, 'branch.pdf', '');
    const applied = await send(server, admin, 'POST', '/api/rest/applied_indexes', {
      entity_id: file.id,
      indexes: [{ indexFieldId: field.id, value: 'North' }],
    });
    expect(applied.statusCode).toBe(201);
    const archived = await send(
      server,
      admin,
      'POST',
      `/api/rest/index_fields/${field.id}/archive`,
    );
    expect(archived.statusCode).toBe(200);
    expect(archived.json<IndexFieldDto>().archived_at).not.toBeNull();
    expect(
      (await send(server, admin, 'POST', `/api/rest/index_fields/${field.id}/archive`)).statusCode,
    ).toBe(400);
    // Listed unless archived=false.
    expect((await list(admin)).some((f) => f.id === field.id)).toBe(true);
    expect((await list(admin, '?archived=false')).some((f) => f.id === field.id)).toBe(false);
    // Its applied value stays on the item.
    const values = await send(
      server,
      member,
      'GET',
      `/api/rest/applied_indexes?entity_id=${file.id}`,
    );
    expect(values.json<{ value: string }[]>().map((v) => v.value)).toEqual(['North']);
    const other = await makeFile(server, admin, 'branch2.pdf', '');
    const refused = await send(server, member, 'POST', '/api/rest/applied_indexes', {
      entity_id: other.id,
      indexes: [{ indexFieldId: field.id, value: 'South' }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      'The index field "Branch" is archived and cannot be applied.',
    );
    const restored = await send(
      server,
      admin,
      'POST',
      `/api/rest/index_fields/${field.id}/restore`,
    );
    expect(restored.json<IndexFieldDto>().archived_at).toBeNull();
    expect(
      (await send(server, admin, 'POST', `/api/rest/index_fields/${field.id}/restore`)).statusCode,
    ).toBe(400);
    const again = await send(server, member, 'POST', '/api/rest/applied_indexes', {
      entity_id: other.id,
      indexes: [{ indexFieldId: field.id, value: 'South' }],
    });
    expect(again.statusCode).toBe(201);
  });

  it('deletes undoably, then destroys with its applied values on a second DELETE', async () => {
    const field = (await create({ name: 'Advisor' })).json<IndexFieldDto>();
    const file = await makeFile(server, admin, 'advisor.pdf', '');
    await send(server, admin, 'POST', '/api/rest/applied_indexes', {
      entity_id: file.id,
      indexes: [{ indexFieldId: field.id, value: 'Jane' }],
    });
    const deleted = await send(server, admin, 'DELETE', `/api/rest/index_fields/${field.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<IndexFieldDto>().deleted_at).not.toBeNull();
    expect((await list()).some((f) => f.id === field.id)).toBe(false);
    expect(
      (await list(admin, '?deleted=true')).find((f) => f.id === field.id)?.deleted_at,
    ).not.toBeNull();
    expect((await list(member, '?deleted=true')).some((f) => f.id === field.id)).toBe(false);
    // Its values are hidden while deleted, and it cannot be applied or changed.
    const hidden = await send(
      server,
      admin,
      'GET',
      `/api/rest/applied_indexes?entity_id=${file.id}`,
    );
    expect(hidden.json<unknown[]>()).toEqual([]);
    expect(
      (await send(server, admin, 'PATCH', `/api/rest/index_fields/${field.id}`, { name: 'X' }))
        .statusCode,
    ).toBe(404);
    // Its name is free meanwhile; undo is then refused until the new field is renamed.
    const twin = (await create({ name: 'advisor' })).json<IndexFieldDto>();
    const clash = await send(
      server,
      admin,
      'POST',
      `/api/rest/index_fields/${field.id}/undo-delete`,
    );
    expect(clash.statusCode).toBe(400);
    expect(clash.json<{ message: string }>().message).toBe(
      'An index field named "Advisor" already exists.',
    );
    await send(server, admin, 'PATCH', `/api/rest/index_fields/${twin.id}`, { name: 'Advisor 2' });
    const undone = await send(
      server,
      admin,
      'POST',
      `/api/rest/index_fields/${field.id}/undo-delete`,
    );
    expect(undone.statusCode).toBe(200);
    expect(undone.json<IndexFieldDto>().deleted_at).toBeNull();
    const back = await send(server, admin, 'GET', `/api/rest/applied_indexes?entity_id=${file.id}`);
    expect(back.json<{ value: string }[]>().map((v) => v.value)).toEqual(['Jane']);
    expect(
      (await send(server, admin, 'POST', `/api/rest/index_fields/${field.id}/undo-delete`))
        .statusCode,
    ).toBe(400);
    // Delete twice: destroyed with its applied values.
    expect(
      (await send(server, admin, 'DELETE', `/api/rest/index_fields/${field.id}`)).statusCode,
    ).toBe(200);
    expect(
      (await send(server, admin, 'DELETE', `/api/rest/index_fields/${field.id}`)).statusCode,
    ).toBe(204);
    expect(
      (await send(server, admin, 'POST', `/api/rest/index_fields/${field.id}/undo-delete`))
        .statusCode,
    ).toBe(404);
    const rows = await server.services.db
      .selectFrom('applied_indexes')
      .select('id')
      .where('index_field_id', '=', field.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('destroys a deleted field once INDEX_FIELD_UNDO_MS has passed', async () => {
    const late = (await create({ name: 'Temporary' })).json<IndexFieldDto>();
    const recent = (await create({ name: 'Recent' })).json<IndexFieldDto>();
    for (const field of [late, recent]) {
      expect(
        (await send(server, admin, 'DELETE', `/api/rest/index_fields/${field.id}`)).statusCode,
      ).toBe(200);
    }
    // Time passes (the rows' delete times are moved back; a session would not last 30 days).
    const at = (ms: number) => new Date(server.clock.now - ms).toISOString();
    const db = server.services.db;
    await db
      .updateTable('index_fields')
      .set({ deleted_at: at(INDEX_FIELD_UNDO_MS + 60_000) })
      .where('id', '=', late.id)
      .execute();
    await db
      .updateTable('index_fields')
      .set({ deleted_at: at(INDEX_FIELD_UNDO_MS - 60_000) })
      .where('id', '=', recent.id)
      .execute();
    const deleted = (await list(admin, '?deleted=true')).map((f) => f.id);
    expect(deleted).toContain(recent.id);
    expect(deleted).not.toContain(late.id);
    expect(
      (await send(server, admin, 'POST', `/api/rest/index_fields/${late.id}/undo-delete`))
        .statusCode,
    ).toBe(404);
    expect(
      await db.selectFrom('index_fields').select('id').where('id', '=', late.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      (await send(server, admin, 'POST', `/api/rest/index_fields/${recent.id}/undo-delete`))
        .statusCode,
    ).toBe(200);
  });

  it('lists the distinct applied values of a field with counts', async () => {
    const field = (
      await create({ name: 'Region', type: 'list', values: ['East', 'West'] })
    ).json<IndexFieldDto>();
    const files = await Promise.all(
      ['r1.pdf', 'r2.pdf', 'r3.pdf'].map((n) => makeFile(server, admin, n, '')),
    );
    const apply = async (ids: string[], value: string) =>
      (
        await send(server, member, 'POST', '/api/rest/applied_indexes', {
          entity_ids: ids,
          indexes: [{ indexFieldId: field.id, value }],
        })
      ).json<ApplyIndexesResponse>();
    await apply([files[0]!.id, files[1]!.id], 'east');
    await apply([files[2]!.id], 'West');
    const counts = await send(
      server,
      member,
      'GET',
      `/api/rest/index_fields/${field.id}/applied_values`,
    );
    expect(counts.json<AppliedValuesDto>()).toEqual({
      index_field_id: field.id,
      items: [
        { value: 'East', count: 2 },
        { value: 'West', count: 1 },
      ],
    });
    expect(
      (await send(server, otherAdmin, 'GET', `/api/rest/index_fields/${field.id}/applied_values`))
        .statusCode,
    ).toBe(404);
  });
});
