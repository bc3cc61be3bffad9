/**
 * Bulk organising, on SQLite and PostgreSQL: move, colour, archive, restore and
 * destroy through POST /api/rest/bulk/*; one transaction per call with one history event per item,
 * 10,000 items in one call, a failure part-way (one foreign id among thousands) leaves nothing
 * changed, destroy removes rows, favorites, colours, recent items and objects.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { BULK_MAX_ITEMS } from '@common/constants';
import { formatMessage, MESSAGES } from '@common/messages';
import type { EntityRef } from '@common/entities';
import type { BulkResultDto } from '@common/organise';
import { newId } from '@server/ids';
import { insertFiles } from '@server/repositories/organise';
import { FolderNames } from '@server/services/folderNames';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import {
  adminActor,
  call,
  eventCount,
  fileRow,
  folderRow,
  itemEvents,
  makeFile,
  makeFolder,
  newActor,
  objectText,
  type Actor,
} from './organiseHelpers';

describeEachDatabase('bulk organising', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let stranger: Actor;
  let reader: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    stranger = await newActor(server, 'stranger', 'admin');
    reader = await newActor(server, 'reader', 'read_only', admin.databaseId);
  });
  afterAll(async () => {
    await server.close();
  });

  /** `count` ready files in a folder, written straight to the database (no objects). */
  async function seedFiles(actor: Actor, folderId: string, count: number): Promise<EntityRef[]> {
    const at = new Date(server.clock.now).toISOString();
    const rows = Array.from({ length: count }, (_, i) => {
      const id = newId();
      const name = `file ${String(i).padStart(5, '0')}.txt`;
      return {
        id,
        database_id: actor.databaseId,
        folder_id: folderId,
        name,
        name_key: name.toLowerCase(),
        extension: 'txt',
        size: 10,
        content_type: 'text/plain',
        storage_key: `${actor.databaseId}/${id}`,
        status: 'ready' as const,
        sha256: null,
        created_by: actor.userId,
        created_at: at,
        updated_at: at,
        archived_at: null,
        archived_root_id: null,
      };
    });
    await insertFiles(server.services.db, rows);
    return rows.map((r) => ({ id: r.id, type: 'file' }));
  }

  async function countFiles(folderId: string, archived: boolean): Promise<number> {
    const row = await server.services.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('folder_id', '=', folderId)
      .where('archived_at', archived ? 'is not' : 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function eventsOf(action: string, entityIds: string[]): Promise<number> {
    const row = await server.services.db
      .selectFrom('history_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', action)
      .where('entity_id', 'in', entityIds.slice(0, 500))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('archives, restores, moves and destroys 10,000 items, each in one call', async () => {
    const folder = await makeFolder(server, admin, 'Ten thousand');
    const target = await makeFolder(server, admin, 'Ten thousand target');
    const items = await seedFiles(admin, folder.id, BULK_MAX_ITEMS);
    const ids = items.map((i) => i.id);
    const events = await eventCount(server, admin.databaseId);

    const archived = await call(server, admin, 'POST', '/api/rest/bulk/archive', { items });
    expect(archived.statusCode).toBe(200);
    expect(archived.json<BulkResultDto>().count).toBe(BULK_MAX_ITEMS);
    expect(await countFiles(folder.id, true)).toBe(BULK_MAX_ITEMS);
    expect(await eventCount(server, admin.databaseId)).toBe(events + BULK_MAX_ITEMS);
    expect(await eventsOf('archive', ids)).toBe(500);

    const restored = await call(server, admin, 'POST', '/api/rest/bulk/restore', { items });
    expect(restored.json<BulkResultDto>().items.every((i) => i.restored_to_root === false)).toBe(
      true,
    );
    expect(await countFiles(folder.id, false)).toBe(BULK_MAX_ITEMS);
    expect(await eventCount(server, admin.databaseId)).toBe(events + 2 * BULK_MAX_ITEMS);

    const moved = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items,
      folder_id: target.id,
    });
    expect(moved.statusCode).toBe(200);
    const movedBody = moved.json<BulkResultDto>();
    expect(movedBody.count).toBe(BULK_MAX_ITEMS);
    expect(movedBody.items[0]).toMatchObject({ prev_parent_id: folder.id, type: 'file' });
    expect(await countFiles(target.id, false)).toBe(BULK_MAX_ITEMS);
    expect(await eventsOf('move', ids)).toBe(500);

    await call(server, admin, 'POST', '/api/rest/bulk/archive', { items });
    const destroyed = await call(server, admin, 'POST', '/api/rest/bulk/destroy', { items });
    expect(destroyed.statusCode).toBe(200);
    expect(await countFiles(target.id, true)).toBe(0);
    expect(await eventsOf('delete', ids)).toBe(500);
  });

  it('changes nothing when one id among thousands is another firm’s', async () => {
    const folder = await makeFolder(server, admin, 'All or nothing');
    const target = await makeFolder(server, admin, 'All or nothing target');
    const items = await seedFiles(admin, folder.id, 3000);
    const theirs = await makeFolder(server, stranger, 'Not yours');
    const foreign = await makeFile(server, stranger, 'foreign.txt', theirs.id);
    const mixed = [
      ...items.slice(0, 2000),
      { id: foreign.id, type: 'file' as const },
      ...items.slice(2000),
    ];
    const events = await eventCount(server, admin.databaseId);
    for (const [path, extra] of [
      ['archive', {}],
      ['move', { folder_id: target.id }],
    ] as const) {
      const response = await call(server, admin, 'POST', `/api/rest/bulk/${path}`, {
        items: mixed,
        ...extra,
      });
      expect([path, response.statusCode]).toEqual([path, 404]);
    }
    expect(await countFiles(folder.id, false)).toBe(3000);
    expect(await eventCount(server, admin.databaseId)).toBe(events);

    await call(server, admin, 'POST', '/api/rest/bulk/archive', { items });
    for (const path of ['restore', 'destroy']) {
      const response = await call(server, admin, 'POST', `/api/rest/bulk/${path}`, {
        items: mixed,
      });
      expect([path, response.statusCode]).toEqual([path, 404]);
    }
    expect(await countFiles(folder.id, true)).toBe(3000);
    expect(await eventCount(server, admin.databaseId)).toBe(events + 3000);
    expect((await fileRow(server, foreign.id))?.archived_at).toBeNull();
  });

  it('refuses more than BULK_MAX_ITEMS items with the spec’s message', async () => {
    const items = Array.from({ length: BULK_MAX_ITEMS + 1 }, () => ({
      id: newId(),
      type: 'file' as const,
    }));
    const response = await call(server, admin, 'POST', '/api/rest/bulk/archive', { items });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      formatMessage(MESSAGES.tooManyItems, { n: BULK_MAX_ITEMS }),
    );
  });

  it('moves items with unique names and move events, never a folder into itself', async () => {
    const from = await makeFolder(server, admin, 'Bulk from');
    const to = await makeFolder(server, admin, 'Bulk to');
    await makeFile(server, admin, 'report.pdf', to.id);
    const a = await makeFolder(server, admin, 'A', from.id);
    const aChild = await makeFolder(server, admin, 'A child', a.id);
    const report = await makeFile(server, admin, 'REPORT.pdf', from.id);
    const already = await makeFile(server, admin, 'already.txt', to.id);
    const response = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: [
        { id: a.id, type: 'folder' },
        { id: report.id, type: 'file' },
        { id: already.id, type: 'file' },
      ],
      folder_id: to.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<BulkResultDto>()).toEqual({
      count: 3,
      items: [
        { id: a.id, type: 'folder', name: 'A', prev_parent_id: from.id },
        { id: report.id, type: 'file', name: 'REPORT (1).pdf', prev_parent_id: from.id },
        { id: already.id, type: 'file', name: 'already.txt', prev_parent_id: to.id },
      ],
    });
    const [event] = await itemEvents(server, admin, 'file', report.id);
    expect(event).toMatchObject({
      action: 'move',
      attributes: {
        name: 'REPORT (1).pdf',
        changes: {
          prevParent: { id: from.id, name: 'Bulk from' },
          nextParent: { id: to.id, name: 'Bulk to' },
        },
      },
    });
    expect((await itemEvents(server, admin, 'file', already.id))[0]?.action).not.toBe('move');

    // Undo: each back to its prev_parent_id.
    const back = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: [{ id: report.id, type: 'file' }],
      folder_id: from.id,
    });
    expect(back.json<BulkResultDto>().items[0]).toMatchObject({ prev_parent_id: to.id });

    const events = await eventCount(server, admin.databaseId);
    const refused = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: [
        { id: report.id, type: 'file' },
        { id: a.id, type: 'folder' },
      ],
      folder_id: aChild.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(MESSAGES.moveIntoItself);
    expect((await fileRow(server, report.id))?.folder_id).toBe(from.id);
    expect(await eventCount(server, admin.databaseId)).toBe(events);
  });

  it('picks free counters against the names in the target and in the same call', async () => {
    const to = await makeFolder(server, admin, 'Counters to');
    const from1 = await makeFolder(server, admin, 'Counters from 1');
    const from2 = await makeFolder(server, admin, 'Counters from 2');
    for (const name of ['a.txt', 'a (2).txt', '50%_off.pdf', '50%_off (1).pdf']) {
      await makeFile(server, admin, name, to.id);
    }
    const a = await makeFile(server, admin, 'A.txt', from1.id);
    const a1 = await makeFile(server, admin, 'a (1).txt', from2.id);
    const sale = await makeFile(server, admin, '50%_OFF.pdf', from1.id);
    const response = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: [a, a1, sale].map((f) => ({ id: f.id, type: 'file' })),
      folder_id: to.id,
    });
    expect(response.json<BulkResultDto>().items.map((i) => i.name)).toEqual([
      'A (1).txt',
      'a (1) (1).txt',
      '50%_OFF (2).pdf',
    ]);

    // Many clashes: after 20 prefix reads the whole folder is read once; same answers.
    const crowded = await makeFolder(server, admin, 'Crowded');
    const source = await makeFolder(server, admin, 'Crowd source');
    const moving: EntityRef[] = [];
    for (let i = 0; i < 25; i += 1) {
      await makeFile(server, admin, `dup ${i}.txt`, crowded.id);
      await makeFile(server, admin, `dup ${i} (1).txt`, crowded.id);
      moving.push({
        id: (await makeFile(server, admin, `dup ${i}.txt`, source.id)).id,
        type: 'file',
      });
    }
    const crowdedMove = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: moving,
      folder_id: crowded.id,
    });
    expect(crowdedMove.json<BulkResultDto>().items.map((i) => i.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `dup ${i} (2).txt`),
    );
  });

  it('finds free names in a 2,000-item folder without reading every name', async () => {
    const big = await makeFolder(server, admin, 'Big names');
    await seedFiles(admin, big.id, 2000);
    let statements = 0;
    const counting = server.services.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const names = new FolderNames(counting, admin.databaseId, big.id);
    await names.want(['new.txt', 'file 00007.txt']);
    expect(await names.claim('new.txt', true)).toBe('new.txt');
    expect(await names.claim('FILE 00007.txt', true)).toBe('FILE 00007 (1).txt');
    // One exact lookup and one prefix read, each a folders and a files statement.
    expect(statements).toBe(4);
  });

  it('colours folders with the previous colour for the undo, folders only', async () => {
    const one = await makeFolder(server, admin, 'Colour one');
    const two = await makeFolder(server, admin, 'Colour two');
    await call(server, admin, 'PATCH', '/api/rest/colors', { folder_id: one.id, color: 'grey' });
    const events = await eventCount(server, admin.databaseId);
    const items: EntityRef[] = [
      { id: one.id, type: 'folder' },
      { id: two.id, type: 'folder' },
    ];
    const response = await call(server, reader, 'POST', '/api/rest/bulk/color', {
      items,
      color: 'light_blue',
    });
    expect(response.statusCode).toBe(200);
    const mine = await call(server, admin, 'POST', '/api/rest/bulk/color', {
      items,
      color: 'dark_red',
    });
    expect(mine.json<BulkResultDto>().items.map((i) => i.prev_color)).toEqual(['grey', 'default']);
    const colours = await server.services.db
      .selectFrom('folder_colors')
      .select(['folder_id', 'color'])
      .where('user_id', '=', admin.userId)
      .where('folder_id', 'in', [one.id, two.id])
      .orderBy('color')
      .execute();
    expect(colours.map((c) => c.color)).toEqual(['dark_red', 'dark_red']);
    // One colour event per folder whose colour changed, for each user (replay shows colours).
    expect(await eventCount(server, admin.databaseId)).toBe(events + 4);
    const [latest] = await itemEvents(server, admin, 'folder', one.id);
    expect(latest).toMatchObject({
      action: 'update',
      user_id: admin.userId,
      attributes: { replay: { color: { user_id: admin.userId, color: 'dark_red' } } },
    });
    await call(server, admin, 'POST', '/api/rest/bulk/color', { items, color: 'dark_red' });
    expect(await eventCount(server, admin.databaseId)).toBe(events + 4);
    const file = await makeFile(server, admin, 'no colour.txt', one.id);
    const refused = await call(server, admin, 'POST', '/api/rest/bulk/color', {
      items: [...items, { id: file.id, type: 'file' }],
      color: 'grey',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(MESSAGES.colorFoldersOnly);
    const unknown = await call(server, admin, 'POST', '/api/rest/bulk/color', {
      items,
      color: 'plaid',
    });
    expect(unknown.json<{ message: string }>().message).toBe(MESSAGES.unknownColor);
  });

  it('restores a folder and a file archived before it back into it', async () => {
    const folder = await makeFolder(server, admin, 'Together');
    const file = await makeFile(server, admin, 'first.txt', folder.id);
    await call(server, admin, 'POST', '/api/rest/bulk/archive', {
      items: [{ id: file.id, type: 'file' }],
    });
    await makeFile(server, admin, 'first.txt', folder.id);
    await call(server, admin, 'POST', `/api/rest/folders/${folder.id}/archive`);
    const response = await call(server, admin, 'POST', '/api/rest/bulk/restore', {
      items: [
        { id: file.id, type: 'file' },
        { id: folder.id, type: 'folder' },
      ],
    });
    expect(response.json<BulkResultDto>().items).toEqual([
      { id: file.id, type: 'file', name: 'first (1).txt', restored_to_root: false },
      { id: folder.id, type: 'folder', name: 'Together', restored_to_root: false },
    ]);
    expect(await fileRow(server, file.id)).toMatchObject({
      folder_id: folder.id,
      archived_at: null,
    });
  });

  it('gives items restored into one folder distinct names', async () => {
    const one = await makeFolder(server, admin, 'Restore one');
    const two = await makeFolder(server, admin, 'Restore two');
    const first = await makeFile(server, admin, 'same name.txt', one.id);
    const second = await makeFile(server, admin, 'Same Name.txt', two.id);
    await call(server, admin, 'POST', '/api/rest/bulk/archive', {
      items: [
        { id: first.id, type: 'file' },
        { id: second.id, type: 'file' },
      ],
    });
    await call(server, admin, 'POST', '/api/rest/bulk/archive', {
      items: [
        { id: one.id, type: 'folder' },
        { id: two.id, type: 'folder' },
      ],
    });
    const response = await call(server, admin, 'POST', '/api/rest/bulk/restore', {
      items: [
        { id: first.id, type: 'file' },
        { id: second.id, type: 'file' },
      ],
    });
    expect(response.json<BulkResultDto>().items).toEqual([
      { id: first.id, type: 'file', name: 'same name.txt', restored_to_root: true },
      { id: second.id, type: 'file', name: 'Same Name (1).txt', restored_to_root: true },
    ]);
    expect(await fileRow(server, second.id)).toMatchObject({ folder_id: '', archived_at: null });
    const events = await itemEvents(server, admin, 'file', second.id);
    expect(events[0]).toMatchObject({
      action: 'restore',
      attributes: { name: 'Same Name (1).txt', parent: { id: '', name: 'Root' } },
    });
  });

  it('destroys what a folder holds, items archived on their own before it too', async () => {
    const folder = await makeFolder(server, admin, 'Destroy all');
    const early = await makeFile(server, admin, 'early.txt', folder.id);
    await call(server, admin, 'POST', `/api/rest/files/${early.id}/archive`);
    await call(server, admin, 'POST', `/api/rest/folders/${folder.id}/archive`);
    const response = await call(server, admin, 'POST', '/api/rest/bulk/destroy', {
      items: [{ id: folder.id, type: 'folder' }],
    });
    expect(response.statusCode).toBe(200);
    expect(await fileRow(server, early.id)).toBeUndefined();
    expect(await objectText(server, early.storageKey)).toBeNull();
  });

  it('destroys archived trees with their favorites, colours, recent items and objects', async () => {
    const folder = await makeFolder(server, admin, 'To destroy');
    const sub = await makeFolder(server, admin, 'Sub', folder.id);
    const inner = await makeFile(server, admin, 'inner.txt', sub.id);
    const loose = await makeFile(server, admin, 'loose.txt', '');
    await call(server, admin, 'PATCH', `/api/rest/folders/${sub.id}/favorite`, { enabled: true });
    await call(server, reader, 'PATCH', `/api/rest/files/${inner.id}/favorite`, { enabled: true });
    await call(server, admin, 'PATCH', '/api/rest/colors', { folder_id: sub.id, color: 'grey' });
    await call(server, admin, 'PATCH', `/api/rest/files/${inner.id}`, { name: 'renamed' });
    const items: EntityRef[] = [
      { id: folder.id, type: 'folder' },
      { id: loose.id, type: 'file' },
    ];

    const live = await call(server, admin, 'POST', '/api/rest/bulk/destroy', { items });
    expect(live.statusCode).toBe(400);
    expect(live.json<{ message: string }>().message).toBe(MESSAGES.destroyNotArchived);
    expect(await objectText(server, inner.storageKey)).not.toBeNull();

    await call(server, admin, 'POST', '/api/rest/bulk/archive', { items });
    const readOnly = await call(server, reader, 'POST', '/api/rest/bulk/destroy', { items });
    expect(readOnly.statusCode).toBe(403);
    const response = await call(server, admin, 'POST', '/api/rest/bulk/destroy', { items });
    expect(response.statusCode).toBe(200);
    expect(response.json<BulkResultDto>().count).toBe(2);
    expect(await folderRow(server, folder.id)).toBeUndefined();
    expect(await folderRow(server, sub.id)).toBeUndefined();
    expect(await fileRow(server, inner.id)).toBeUndefined();
    expect(await fileRow(server, loose.id)).toBeUndefined();
    expect(await objectText(server, inner.storageKey)).toBeNull();
    expect(await objectText(server, loose.storageKey)).toBeNull();
    const ids = [folder.id, sub.id, inner.id, loose.id];
    const { db } = server.services;
    expect(
      await db.selectFrom('favorites').selectAll().where('entity_id', 'in', ids).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('folder_colors').selectAll().where('folder_id', 'in', ids).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('recent_items').selectAll().where('entity_id', 'in', ids).execute(),
    ).toEqual([]);
    const deletes = await db
      .selectFrom('history_events')
      .select(['entity_id', 'entity_type', 'attributes'])
      .where('action', '=', 'delete')
      .where('entity_id', 'in', ids)
      .execute();
    expect(deletes.map((d) => d.entity_id).sort()).toEqual([folder.id, loose.id].sort());
    const folderDelete = deletes.find((d) => d.entity_id === folder.id)!;
    expect(JSON.parse(folderDelete.attributes)).toMatchObject({
      name: 'To destroy',
      folder_name: 'To destroy',
      parent: { id: '', name: 'Root' },
    });
  });

  it('answers 404 to another firm and 403 to read-only members for changes', async () => {
    const folder = await makeFolder(server, admin, 'Bulk guarded');
    const items: EntityRef[] = [{ id: folder.id, type: 'folder' }];
    const events = await eventCount(server, admin.databaseId);
    for (const [path, extra] of [
      ['move', { folder_id: '' }],
      ['archive', {}],
      ['restore', {}],
      ['destroy', {}],
      ['color', { color: 'grey' }],
    ] as const) {
      const foreign = await call(server, stranger, 'POST', `/api/rest/bulk/${path}`, {
        items,
        ...extra,
      });
      expect([path, foreign.statusCode]).toEqual([path, 404]);
      if (path !== 'color') {
        const readOnly = await call(server, reader, 'POST', `/api/rest/bulk/${path}`, {
          items,
          ...extra,
        });
        expect([path, readOnly.statusCode]).toEqual([path, 403]);
      }
    }
    expect(await folderRow(server, folder.id)).toMatchObject({ archived_at: null, parent_id: '' });
    expect(await eventCount(server, admin.databaseId)).toBe(events);
  });
});
