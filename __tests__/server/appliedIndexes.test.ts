/**
 * Applied indexes and missing indexes: applying values to one item or many
 * (bulk) with type validation, changing, archiving, restoring and deleting them with their history
 * events (applied_index create_many / update / archive / restore / delete with index_values, name
 * and value), update_many renaming a value everywhere in one transaction, the missing-indexes
 * pages (50 a page), permissions (read-only, restricted folders) and firm isolation.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import {
  MISSING_INDEXES_PAGE_SIZE,
  type AppliedIndexDto,
  type ApplyIndexesResponse,
  type IndexFieldDto,
  type MissingIndexesResponse,
  type UpdateManyAppliedIndexesResponse,
} from '@common/indexFields';
import { summarizeHistoryEvent } from '@common/history';
import type { FolderDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import {
  adminActor,
  itemEvents,
  makeFile,
  makeFolder,
  newActor,
  type Actor,
} from './organiseHelpers';
import { fileRow, insertRows } from './seedRows';

describeEachDatabase('applied indexes', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let readOnly: Actor;
  let otherAdmin: Actor;
  let year: IndexFieldDto;
  let due: IndexFieldDto;
  let doc: IndexFieldDto;
  let account: IndexFieldDto;
  let clients: FolderDto;
  let restricted: FolderDto;

  const send = (
    actor: Actor,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method,
      url,
      headers: { cookie: actor.cookie },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const field = async (payload: object, actor = admin) => {
    const response = await send(actor, 'POST', '/api/rest/index_fields', payload);
    expect(response.statusCode).toBe(201);
    return response.json<IndexFieldDto>();
  };
  const apply = (
    actor: Actor,
    entityIds: string[],
    indexes: { indexFieldId: string; value: unknown }[],
  ) => send(actor, 'POST', '/api/rest/applied_indexes', { entity_ids: entityIds, indexes });
  const valuesOf = async (actor: Actor, entityId: string) => {
    const response = await send(actor, 'GET', `/api/rest/applied_indexes?entity_id=${entityId}`);
    expect(response.statusCode).toBe(200);
    return response.json<AppliedIndexDto[]>();
  };
  const indexEvents = async (fileId: string): Promise<HistoryEventDto[]> =>
    (await itemEvents(server, admin, 'file', fileId)).filter(
      (e) => e.entity_type === 'applied_index',
    );
  const message = (response: LightMyRequestResponse) =>
    response.json<{ message: string }>().message;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'ai-member', 'member', admin.databaseId);
    readOnly = await newActor(server, 'ai-reader', 'read_only', admin.databaseId);
    otherAdmin = await newActor(server, 'ai-other', 'admin');
    year = await field({ name: 'Tax year', type: 'number' });
    due = await field({ name: 'Due date', type: 'date' });
    doc = await field({ name: 'Document type', type: 'list', values: ['Invoice', 'Statement'] });
    account = await field({ name: 'Account number' });
    clients = await makeFolder(server, admin, 'Clients');
    restricted = await makeFolder(server, admin, 'Board');
    const permission = await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: restricted.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permission.statusCode).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  it('validates values by the field type with clear 400 messages', async () => {
    const file = await makeFile(server, admin, 'check.pdf', clients.id);
    const cases: [string, unknown, string][] = [
      [year.id, '20x4', 'Tax year: Enter a number, for example 2024 or -12.5.'],
      [due.id, '2024-02-30', 'Due date: Enter a date as YYYY-MM-DD, for example 2024-12-31.'],
      [due.id, '31/12/2024', 'Due date: Enter a date as YYYY-MM-DD, for example 2024-12-31.'],
      [doc.id, 'Receipt', 'Document type: Choose one of the values of the list.'],
      [account.id, '   ', 'Account number: A value is required.'],
      [account.id, 'x'.repeat(251), 'Account number: A value can have at most 250 characters.'],
    ];
    for (const [indexFieldId, value, expected] of cases) {
      const response = await apply(member, [file.id], [{ indexFieldId, value }]);
      expect({ value, status: response.statusCode, message: message(response) }).toEqual({
        value,
        status: 400,
        message: expected,
      });
    }
    const twice = await apply(
      member,
      [file.id],
      [
        { indexFieldId: year.id, value: '2024' },
        { indexFieldId: year.id, value: '2025' },
      ],
    );
    expect(message(twice)).toBe('The index field "Tax year" is listed twice.');
    expect(message(await apply(member, [file.id], []))).toBe(
      'Choose at least one index field and value.',
    );
    expect(await valuesOf(member, file.id)).toEqual([]);
    expect(await indexEvents(file.id)).toEqual([]);
  });

  it('applies many values at once, normalised, with one create_many event', async () => {
    const file = await makeFile(server, admin, 'statement.pdf', clients.id);
    const response = await apply(
      member,
      [file.id],
      [
        { indexFieldId: year.id, value: '+02024' },
        { indexFieldId: due.id, value: '2024-12-31' },
        { indexFieldId: doc.id, value: 'statement' },
        { indexFieldId: account.id, value: ' AC-42 ' },
      ],
    );
    expect(response.statusCode).toBe(201);
    const items = response.json<ApplyIndexesResponse>().items;
    expect(items.map((i) => [i.index_field_name, i.index_field_type, i.value])).toEqual([
      ['Tax year', 'number', '2024'],
      ['Due date', 'date', '2024-12-31'],
      ['Document type', 'list', 'Statement'],
      ['Account number', 'text_field', 'AC-42'],
    ]);
    expect(items.every((i) => i.entity_type === 'file' && i.entity_id === file.id)).toBe(true);
    expect((await valuesOf(readOnly, file.id)).map((i) => i.value)).toEqual([
      '2024',
      '2024-12-31',
      'Statement',
      'AC-42',
    ]);
    const events = await indexEvents(file.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'create_many',
      user_id: member.userId,
      attributes: {
        index_values: [
          { name: 'Tax year', value: '2024' },
          { name: 'Due date', value: '2024-12-31' },
          { name: 'Document type', value: 'Statement' },
          { name: 'Account number', value: 'AC-42' },
        ],
        file_name: 'statement.pdf',
        entity_id: file.id,
      },
    });
    expect(summarizeHistoryEvent(events[0]!).summary).toContain('Tax year: 2024');
    // Applying the same values again changes nothing and records nothing.
    const again = await apply(member, [file.id], [{ indexFieldId: year.id, value: '2024.0' }]);
    expect(again.statusCode).toBe(201);
    expect(await indexEvents(file.id)).toHaveLength(1);
    // A different value replaces the live one: an update with its previous value.
    await apply(member, [file.id], [{ indexFieldId: year.id, value: '2025' }]);
    const values = await valuesOf(member, file.id);
    expect(values.filter((v) => v.index_field_id === year.id).map((v) => v.value)).toEqual([
      '2025',
    ]);
    const [latest] = await indexEvents(file.id);
    expect(latest).toMatchObject({
      action: 'update',
      attributes: {
        name: 'Tax year',
        value: '2025',
        previous_value: '2024',
        index_values: [{ name: 'Tax year', value: '2025' }],
      },
    });
  });

  it('bulk-applies to many files and folders, one event per item', async () => {
    const files = await Promise.all(
      ['a.pdf', 'b.pdf', 'c.pdf'].map((n) => makeFile(server, admin, n, clients.id)),
    );
    const folder = await makeFolder(server, admin, 'Bulk folder', clients.id);
    const response = await apply(
      member,
      [...files.map((f) => f.id), folder.id],
      [{ indexFieldId: doc.id, value: 'Invoice' }],
    );
    expect(response.statusCode).toBe(201);
    const items = response.json<ApplyIndexesResponse>().items;
    expect(items).toHaveLength(4);
    expect(items.find((i) => i.entity_id === folder.id)?.entity_type).toBe('folder');
    for (const file of files) {
      const events = await indexEvents(file.id);
      expect(events.map((e) => [e.action, e.attributes.index_values])).toEqual([
        ['create_many', [{ name: 'Document type', value: 'Invoice' }]],
      ]);
    }
    const folderEvents = (await itemEvents(server, admin, 'folder', folder.id)).filter(
      (e) => e.entity_type === 'applied_index',
    );
    expect(folderEvents[0]?.attributes).toMatchObject({ folder_name: 'Bulk folder' });
  });

  it('changes, archives, restores and deletes a value with history', async () => {
    const file = await makeFile(server, admin, 'life.pdf', clients.id);
    const created = (
      await apply(member, [file.id], [{ indexFieldId: account.id, value: 'A-1' }])
    ).json<ApplyIndexesResponse>();
    const id = created.items[0]!.id;
    const patched = await send(member, 'PATCH', `/api/rest/applied_indexes/${id}`, {
      value: 'A-2',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<AppliedIndexDto>().value).toBe('A-2');
    expect(
      (await send(member, 'PATCH', `/api/rest/applied_indexes/${id}`, { value: '' })).statusCode,
    ).toBe(400);
    expect(
      (await send(readOnly, 'PATCH', `/api/rest/applied_indexes/${id}`, { value: 'A-3' }))
        .statusCode,
    ).toBe(403);
    const archived = await send(member, 'POST', `/api/rest/applied_indexes/${id}/archive`);
    expect(archived.json<AppliedIndexDto>().archived_at).not.toBeNull();
    expect(
      message(await send(member, 'PATCH', `/api/rest/applied_indexes/${id}`, { value: 'A-4' })),
    ).toBe('Restore the index value before changing it.');
    expect((await send(member, 'POST', `/api/rest/applied_indexes/${id}/archive`)).statusCode).toBe(
      400,
    );
    // While archived another live value may be applied; restoring then conflicts.
    const other = (
      await apply(member, [file.id], [{ indexFieldId: account.id, value: 'B-1' }])
    ).json<ApplyIndexesResponse>();
    const conflict = await send(member, 'POST', `/api/rest/applied_indexes/${id}/restore`);
    expect(conflict.statusCode).toBe(400);
    expect(message(conflict)).toBe('The item already has a value for "Account number".');
    expect(
      (await send(member, 'DELETE', `/api/rest/applied_indexes/${other.items[0]!.id}`)).statusCode,
    ).toBe(204);
    const restored = await send(member, 'POST', `/api/rest/applied_indexes/${id}/restore`);
    expect(restored.json<AppliedIndexDto>().archived_at).toBeNull();
    expect((await send(member, 'DELETE', `/api/rest/applied_indexes/${id}`)).statusCode).toBe(204);
    expect((await send(member, 'DELETE', `/api/rest/applied_indexes/${id}`)).statusCode).toBe(404);
    expect(await valuesOf(member, file.id)).toEqual([]);
    const events = (await indexEvents(file.id)).reverse();
    expect(events.map((e) => [e.action, e.attributes.name, e.attributes.value])).toEqual([
      ['create_many', undefined, undefined],
      ['update', 'Account number', 'A-2'],
      ['archive', 'Account number', 'A-2'],
      ['create_many', undefined, undefined],
      ['delete', 'Account number', 'B-1'],
      ['restore', 'Account number', 'A-2'],
      ['delete', 'Account number', 'A-2'],
    ]);
    expect(events[1]!.attributes).toMatchObject({
      previous_value: 'A-1',
      index_values: [{ name: 'Account number', value: 'A-2' }],
    });
    expect(events.every((e) => e.user_id === member.userId)).toBe(true);
  });

  it('renames a value everywhere with update_many, one update per item', async () => {
    const f = await field({ name: 'Custodian' });
    const files = await Promise.all(
      ['u1.pdf', 'u2.pdf', 'u3.pdf'].map((n) => makeFile(server, admin, n, clients.id)),
    );
    const hiddenFile = await makeFile(server, admin, 'u4.pdf', restricted.id);
    await apply(
      admin,
      [...files.map((x) => x.id), hiddenFile.id],
      [{ indexFieldId: f.id, value: 'Schwab' }],
    );
    await apply(admin, [files[2]!.id], [{ indexFieldId: f.id, value: 'Fidelity' }]);
    // A member renames on the items they can see only.
    const renamed = await send(member, 'POST', '/api/rest/applied_indexes/update_many', {
      indexId: f.id,
      oldValue: 'Schwab',
      value: 'Charles Schwab',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<UpdateManyAppliedIndexesResponse>()).toEqual({ updated: 2 });
    expect((await valuesOf(admin, files[0]!.id))[0]!.value).toBe('Charles Schwab');
    expect((await valuesOf(admin, files[2]!.id))[0]!.value).toBe('Fidelity');
    expect((await valuesOf(admin, hiddenFile.id))[0]!.value).toBe('Schwab');
    const [event] = await indexEvents(files[1]!.id);
    expect(event).toMatchObject({
      action: 'update',
      attributes: {
        name: 'Custodian',
        value: 'Charles Schwab',
        previous_value: 'Schwab',
        file_name: 'u2.pdf',
      },
    });
    // The administrator sees the restricted one too.
    const all = await send(admin, 'POST', '/api/rest/applied_indexes/update_many', {
      indexId: f.id,
      oldValue: 'Schwab',
      value: 'Charles Schwab',
    });
    expect(all.json<UpdateManyAppliedIndexesResponse>()).toEqual({ updated: 1 });
    expect(
      message(
        await send(admin, 'POST', '/api/rest/applied_indexes/update_many', {
          indexId: f.id,
          oldValue: 'Fidelity',
          value: ' Fidelity ',
        }),
      ),
    ).toBe('The new value is the same as the old one.');
    expect(
      (
        await send(readOnly, 'POST', '/api/rest/applied_indexes/update_many', {
          indexId: f.id,
          oldValue: 'Fidelity',
          value: 'X',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await send(otherAdmin, 'POST', '/api/rest/applied_indexes/update_many', {
          indexId: f.id,
          oldValue: 'Fidelity',
          value: 'X',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('update_many checks the type, and renames a list value for administrators', async () => {
    const years = await Promise.all(
      ['y1.pdf', 'y2.pdf'].map((n) => makeFile(server, admin, n, clients.id)),
    );
    await apply(
      member,
      years.map((y) => y.id),
      [{ indexFieldId: year.id, value: '2023' }],
    );
    const bad = await send(member, 'POST', '/api/rest/applied_indexes/update_many', {
      indexId: year.id,
      oldValue: '2023',
      value: 'last year',
    });
    expect(bad.statusCode).toBe(400);
    expect(message(bad)).toBe('Tax year: Enter a number, for example 2024 or -12.5.');
    const ok = await send(member, 'POST', '/api/rest/applied_indexes/update_many', {
      indexId: year.id,
      oldValue: '02023',
      value: 2022,
    });
    expect(ok.json<UpdateManyAppliedIndexesResponse>()).toEqual({ updated: 2 });

    const kinds = await field({ name: 'Kind', type: 'list', values: ['Bill', 'Letter'] });
    const file = await makeFile(server, admin, 'k.pdf', clients.id);
    await apply(member, [file.id], [{ indexFieldId: kinds.id, value: 'Bill' }]);
    const notInList = await send(member, 'POST', '/api/rest/applied_indexes/update_many', {
      indexId: kinds.id,
      oldValue: 'Bill',
      value: 'Invoice',
    });
    expect(message(notInList)).toBe('Kind: Choose one of the values of the list.');
    const renamed = await send(admin, 'POST', '/api/rest/applied_indexes/update_many', {
      indexId: kinds.id,
      oldValue: 'Bill',
      value: 'Invoice',
    });
    expect(renamed.json<UpdateManyAppliedIndexesResponse>()).toEqual({ updated: 1 });
    const fields = (await send(admin, 'GET', '/api/rest/index_fields')).json<IndexFieldDto[]>();
    expect(fields.find((x) => x.id === kinds.id)!.values.map((v) => v.value)).toEqual([
      'Invoice',
      'Letter',
    ]);
    expect((await valuesOf(admin, file.id))[0]!.value).toBe('Invoice');
  });

  it('keeps values in restricted folders and other firms out of reach', async () => {
    const hidden = await makeFile(server, admin, 'secret.pdf', restricted.id);
    const open = await makeFile(server, admin, 'open.pdf', clients.id);
    const applied = (
      await apply(admin, [hidden.id], [{ indexFieldId: account.id, value: 'S-1' }])
    ).json<ApplyIndexesResponse>();
    const hiddenId = applied.items[0]!.id;
    expect(
      (await send(member, 'GET', `/api/rest/applied_indexes?entity_id=${hidden.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await apply(member, [open.id, hidden.id], [{ indexFieldId: account.id, value: 'M' }]))
        .statusCode,
    ).toBe(404);
    expect(await valuesOf(member, open.id)).toEqual([]);
    expect(
      (await send(member, 'PATCH', `/api/rest/applied_indexes/${hiddenId}`, { value: 'M' }))
        .statusCode,
    ).toBe(404);
    expect((await send(member, 'DELETE', `/api/rest/applied_indexes/${hiddenId}`)).statusCode).toBe(
      404,
    );
    expect(
      (await apply(readOnly, [open.id], [{ indexFieldId: account.id, value: 'R' }])).statusCode,
    ).toBe(403);
    // Another firm: neither our items nor our fields.
    const theirs = await makeFile(server, otherAdmin, 'theirs.pdf', '');
    const theirField = await field({ name: 'Account number' }, otherAdmin);
    expect(
      (await apply(otherAdmin, [open.id], [{ indexFieldId: theirField.id, value: 'X' }]))
        .statusCode,
    ).toBe(404);
    expect(
      (await apply(otherAdmin, [theirs.id], [{ indexFieldId: account.id, value: 'X' }])).statusCode,
    ).toBe(404);
    expect(
      (await send(otherAdmin, 'GET', `/api/rest/applied_indexes?entity_id=${open.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await send(otherAdmin, 'DELETE', `/api/rest/applied_indexes/${hiddenId}`)).statusCode,
    ).toBe(404);
    expect(
      (await apply(otherAdmin, [theirs.id], [{ indexFieldId: theirField.id, value: 'X' }]))
        .statusCode,
    ).toBe(201);
    // An archived item's values can be read but not changed.
    const archivedFile = await makeFile(server, admin, 'gone.pdf', clients.id);
    await apply(admin, [archivedFile.id], [{ indexFieldId: account.id, value: 'G' }]);
    await server.services.db
      .updateTable('files')
      .set({ archived_at: new Date().toISOString(), archived_root_id: archivedFile.id })
      .where('id', '=', archivedFile.id)
      .execute();
    const kept = await valuesOf(member, archivedFile.id);
    expect(kept.map((v) => v.value)).toEqual(['G']);
    expect(
      (await send(member, 'PATCH', `/api/rest/applied_indexes/${kept[0]!.id}`, { value: 'H' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await apply(member, [archivedFile.id], [{ indexFieldId: account.id, value: 'H' }]))
        .statusCode,
    ).toBe(404);
  });

  it('pages the files missing values, 50 a page, within a folder and visible to the session', async () => {
    const a = await field({ name: 'Backlog A' });
    const b = await field({ name: 'Backlog B', type: 'number' });
    const box = await makeFolder(server, admin, 'Backlog');
    const sub = await makeFolder(server, admin, 'Sub', box.id);
    const firm = { userId: admin.userId, databaseId: admin.databaseId };
    const rows = Array.from({ length: 120 }, (_, i) =>
      fileRow(firm, i % 2 === 0 ? box.id : sub.id, `doc ${String(i).padStart(3, '0')}.pdf`),
    );
    const extra = [
      fileRow(firm, box.id, 'pending.pdf', { status: 'pending' }),
      fileRow(firm, box.id, 'archived.pdf', { archived_at: new Date().toISOString() }),
    ];
    await insertRows(server, { files: [...rows, ...extra] });
    const hiddenFolder = await makeFolder(server, admin, 'Hidden backlog', box.id);
    await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: hiddenFolder.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    const hiddenFile = await makeFile(server, admin, 'doc zzz.pdf', hiddenFolder.id);
    // 10 files have both values, 10 only A, 10 only B (with an archived A), the rest none.
    const ids = rows.map((r) => r.id);
    await apply(admin, ids.slice(0, 20), [{ indexFieldId: a.id, value: 'done' }]);
    await apply(
      admin,
      [...ids.slice(0, 10), ...ids.slice(20, 30)],
      [{ indexFieldId: b.id, value: '1' }],
    );
    const archivedA = (
      await apply(admin, ids.slice(20, 30), [{ indexFieldId: a.id, value: 'old' }])
    ).json<ApplyIndexesResponse>();
    for (const item of archivedA.items.filter((i) => i.index_field_id === a.id)) {
      await send(admin, 'POST', `/api/rest/applied_indexes/${item.id}/archive`);
    }
    const missing = async (actor: Actor, body: object, page = 1) => {
      const response = await send(
        actor,
        'POST',
        `/api/rest/entities/search/missing-indexes?page=${page}`,
        body,
      );
      expect(response.statusCode).toBe(200);
      return response.json<MissingIndexesResponse>();
    };
    const first = await missing(member, { index_field_ids: [a.id, b.id], folder_id: box.id });
    expect(first.page_size).toBe(MISSING_INDEXES_PAGE_SIZE);
    expect(first.total).toBe(110);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]!.name).toBe('doc 010.pdf');
    const third = await missing(member, { index_field_ids: [a.id, b.id], folder_id: box.id }, 3);
    expect(third.items).toHaveLength(10);
    expect(third.items.at(-1)!.name).toBe('doc 119.pdf');
    const names = new Set(
      [
        ...first.items,
        ...(await missing(member, { index_field_ids: [a.id, b.id], folder_id: box.id }, 2)).items,
        ...third.items,
      ].map((f) => f.name),
    );
    expect(names.size).toBe(110);
    expect(names.has('pending.pdf') || names.has('archived.pdf') || names.has('doc zzz.pdf')).toBe(
      false,
    );
    // Only A: files 0-19 have it; 20-29 have it archived, so they are missing it.
    expect((await missing(member, { index_field_ids: [a.id], folder_id: box.id })).total).toBe(100);
    // Within the subfolder only (odd files).
    expect(
      (await missing(member, { index_field_ids: [a.id, b.id], folder_id: sub.id })).total,
    ).toBe(55);
    // The administrator sees the file of the restricted folder too.
    const adminView = await missing(admin, { index_field_ids: [a.id, b.id], folder_id: box.id }, 3);
    expect(adminView.total).toBe(111);
    expect(adminView.items.at(-1)!.id).toBe(hiddenFile.id);
    expect(
      (
        await send(member, 'POST', '/api/rest/entities/search/missing-indexes', {
          index_field_ids: [a.id],
          folder_id: hiddenFolder.id,
        })
      ).statusCode,
    ).toBe(404);
    // The whole firm: at least these, and never another firm's files.
    const firmWide = await missing(member, { index_field_ids: [a.id] });
    expect(firmWide.total).toBeGreaterThanOrEqual(100);
    expect(
      (
        await send(member, 'POST', '/api/rest/entities/search/missing-indexes', {
          index_field_ids: [],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await send(otherAdmin, 'POST', '/api/rest/entities/search/missing-indexes', {
          index_field_ids: [a.id],
        })
      ).statusCode,
    ).toBe(404);
    const theirField = await field({ name: 'Their field' }, otherAdmin);
    const theirs = await missing(otherAdmin, { index_field_ids: [theirField.id] });
    expect(theirs.items.every((f) => f.database_id === otherAdmin.databaseId)).toBe(true);
    expect(theirs.items.some((f) => f.name.startsWith('doc '))).toBe(false);
  });

  it('removes the applied values of files and folders deleted permanently', async () => {
    const folder = await makeFolder(server, admin, 'To destroy', clients.id);
    const file = await makeFile(server, admin, 'destroyed.pdf', folder.id);
    const applied = await apply(
      admin,
      [folder.id, file.id],
      [{ indexFieldId: account.id, value: 'ACC-9' }],
    );
    expect(applied.statusCode).toBe(201);
    const archived = await send(admin, 'POST', `/api/rest/folders/${folder.id}/archive`);
    expect(archived.statusCode).toBe(200);
    const destroyed = await send(admin, 'POST', '/api/rest/bulk/destroy', {
      items: [{ type: 'folder', id: folder.id }],
    });
    expect(destroyed.statusCode).toBe(200);
    const left = await server.services.db
      .selectFrom('applied_indexes')
      .select('id')
      .where('entity_id', 'in', [folder.id, file.id])
      .execute();
    expect(left).toEqual([]);
  });
});
