/**
 * Organising one item, on SQLite and PostgreSQL: rename and move (PATCH), copy of a
 * folder tree with its objects, archive and restore (subtrees, restore to the root, unique names),
 * favourites and colours; each with its history event, another firm's 404 and read-only's 403.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { formatMessage, MESSAGES } from '@common/messages';
import type { Page } from '@common/api';
import type { EntityDto, FileDto, FolderDto } from '@common/entities';
import type { BulkResultDto, RestoreResultDto } from '@common/organise';
import { fingerprintsSettled } from '@server/services/fingerprints';
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

describeEachDatabase('organising one item', (kind) => {
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

  const list = async (folderId: string): Promise<string[]> => {
    const response = await call(server, admin, 'GET', `/api/rest/entities?folder_id=${folderId}`);
    return response.json<Page<EntityDto>>().items.map((i) => i.name);
  };

  it('renames a folder with the unique-name rule and records rename prev/next', async () => {
    const parent = await makeFolder(server, admin, 'Rename parent');
    await makeFolder(server, admin, 'Invoices', parent.id);
    const folder = await makeFolder(server, admin, 'Drafts', parent.id);
    const response = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
      name: '  invoices ',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<FolderDto>()).toMatchObject({ id: folder.id, name: 'invoices (1)' });
    const [event] = await itemEvents(server, admin, 'folder', folder.id);
    expect(event).toMatchObject({
      action: 'rename',
      entity_type: 'folder',
      attributes: {
        name: 'invoices (1)',
        prev: { name: 'Drafts' },
        next: { name: 'invoices (1)' },
        parent: { id: parent.id, name: 'Rename parent' },
      },
    });
    // A change of case only is the item's own name, not a clash.
    const caseOnly = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
      name: 'Invoices (1)',
    });
    expect(caseOnly.json<FolderDto>().name).toBe('Invoices (1)');
    const before = await eventCount(server, admin.databaseId);
    const same = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
      name: 'Invoices (1)',
    });
    expect(same.statusCode).toBe(200);
    expect(await eventCount(server, admin.databaseId)).toBe(before);
  });

  it('gives two renames to one name at the same time different names', async () => {
    const parent = await makeFolder(server, admin, 'Race parent');
    const one = await makeFolder(server, admin, 'One', parent.id);
    const two = await makeFolder(server, admin, 'Two', parent.id);
    const answers = await Promise.all(
      [one, two].map((f) =>
        call(server, admin, 'PATCH', `/api/rest/folders/${f.id}`, { name: 'Same' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json<FolderDto>().name).sort()).toEqual(['Same', 'Same (1)']);
  });

  it('renames a file keeping its extension and refuses invalid names', async () => {
    const parent = await makeFolder(server, admin, 'File renames');
    await makeFile(server, admin, 'Jan.pdf', parent.id);
    const file = await makeFile(server, admin, 'scan.pdf', parent.id);
    const renamed = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, {
      name: 'Feb',
    });
    expect(renamed.json<FileDto>()).toMatchObject({ name: 'Feb.pdf', extension: 'pdf' });
    const clash = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, {
      name: 'JAN.PDF',
    });
    expect(clash.json<FileDto>().name).toBe('JAN (1).PDF');
    const [event] = await itemEvents(server, admin, 'file', file.id);
    expect(event).toMatchObject({
      action: 'rename',
      attributes: { prev: { name: 'Feb.pdf' }, next: { name: 'JAN (1).PDF' } },
    });
    for (const name of ['', '  ', 'a/b.pdf']) {
      const bad = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, { name });
      expect(bad.statusCode).toBe(400);
    }
    expect((await fileRow(server, file.id))?.name).toBe('JAN (1).PDF');
  });

  it('moves a folder with move history and refuses a move into itself or below', async () => {
    const from = await makeFolder(server, admin, 'Move from');
    const to = await makeFolder(server, admin, 'Move to');
    await makeFolder(server, admin, 'Client A', to.id);
    const folder = await makeFolder(server, admin, 'Client A', from.id);
    const child = await makeFolder(server, admin, 'Child', folder.id);
    const moved = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
      parent_id: to.id,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<FolderDto>()).toMatchObject({ parent_id: to.id, name: 'Client A (1)' });
    const [event] = await itemEvents(server, admin, 'folder', folder.id);
    expect(event).toMatchObject({
      action: 'move',
      attributes: {
        name: 'Client A (1)',
        changes: {
          prevParent: { id: from.id, name: 'Move from' },
          nextParent: { id: to.id, name: 'Move to' },
        },
      },
    });
    const before = await eventCount(server, admin.databaseId);
    for (const target of [folder.id, child.id]) {
      const refused = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
        parent_id: target,
        name: 'Renamed too',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(MESSAGES.moveIntoItself);
    }
    expect(await folderRow(server, folder.id)).toMatchObject({
      parent_id: to.id,
      name: 'Client A (1)',
    });
    expect(await eventCount(server, admin.databaseId)).toBe(before);
    // A file moves to the root.
    const file = await makeFile(server, admin, 'loose.txt', from.id);
    const toRoot = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, {
      parent_id: '',
    });
    expect(toRoot.json<FileDto>().folder_id).toBe('');
    const [fileEvent] = await itemEvents(server, admin, 'file', file.id);
    expect(fileEvent?.attributes.changes?.nextParent).toEqual({ id: '', name: 'Root' });
  });

  it('answers a PATCH without changes unchanged and refuses an archived target', async () => {
    const folder = await makeFolder(server, admin, 'Unchanged');
    const empty = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json<FolderDto>().name).toBe('Unchanged');
    const noBody = await server.app.inject({
      method: 'PATCH',
      url: `/api/rest/folders/${folder.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(noBody.statusCode).toBe(400);
    const shelf = await makeFolder(server, admin, 'Shelf');
    await call(server, admin, 'POST', `/api/rest/folders/${shelf.id}/archive`);
    const intoArchived = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
      parent_id: shelf.id,
    });
    expect(intoArchived.statusCode).toBe(404);
    const renameArchived = await call(server, admin, 'PATCH', `/api/rest/folders/${shelf.id}`, {
      name: 'Renamed shelf',
    });
    expect(renameArchived.statusCode).toBe(404);
    expect(await folderRow(server, folder.id)).toMatchObject({ parent_id: '' });
  });

  it('fingerprints copies of files that have no sha256 yet, after the copy', async () => {
    const source = await makeFolder(server, admin, 'Unfingerprinted');
    const file = await makeFile(server, admin, 'scan.pdf', source.id, 'scanned bytes');
    // As a large upload is until its background hash has run.
    await server.services.db
      .updateTable('files')
      .set({ sha256: null })
      .where('id', '=', file.id)
      .execute();
    rmSync(path.join(server.dataDir, 'objects', `${file.storageKey}.sha256`));
    const response = await call(server, admin, 'POST', `/api/rest/folders/${source.id}/copy`, {});
    expect(response.statusCode).toBe(201);
    await fingerprintsSettled(server.services);
    const copied = await server.services.db
      .selectFrom('files')
      .select('sha256')
      .where('folder_id', '=', response.json<FolderDto>().id)
      .executeTakeFirstOrThrow();
    expect(copied.sha256).toBe(createHash('sha256').update('scanned bytes').digest('hex'));
  });

  it('copies a folder tree with new objects, a unique name and one copy event', async () => {
    const parent = await makeFolder(server, admin, 'Copy parent');
    const source = await makeFolder(server, admin, 'Smith', parent.id);
    const sub = await makeFolder(server, admin, '2026', source.id);
    await makeFolder(server, admin, 'Empty', sub.id);
    const top = await makeFile(server, admin, 'top.txt', source.id, 'top bytes');
    const deep = await makeFile(server, admin, 'deep.txt', sub.id, 'deep bytes');
    const archived = await makeFolder(server, admin, 'Gone', source.id);
    await call(server, admin, 'POST', `/api/rest/folders/${archived.id}/archive`);

    const response = await call(server, admin, 'POST', `/api/rest/folders/${source.id}/copy`, {});
    expect(response.statusCode).toBe(201);
    const copy = response.json<FolderDto>();
    expect(copy).toMatchObject({ name: 'Smith (1)', parent_id: parent.id });
    expect(copy.id).not.toBe(source.id);
    expect(await list(copy.id)).toEqual(['2026', 'top.txt']);
    const copySub = (
      await call(server, admin, 'GET', `/api/rest/entities?folder_id=${copy.id}`)
    ).json<Page<EntityDto>>().items[0]!;
    expect(copySub.id).not.toBe(sub.id);
    expect(await list(copySub.id)).toEqual(['Empty', 'deep.txt']);
    const copiedFiles = await server.services.db
      .selectFrom('files')
      .select(['id', 'storage_key', 'name'])
      .where('folder_id', 'in', [copy.id, copySub.id])
      .execute();
    expect(copiedFiles).toHaveLength(2);
    for (const f of copiedFiles) {
      expect([top.storageKey, deep.storageKey]).not.toContain(f.storage_key);
      expect(await objectText(server, f.storage_key)).toBe(
        f.name === 'top.txt' ? 'top bytes' : 'deep bytes',
      );
    }
    const [event] = await itemEvents(server, admin, 'folder', source.id);
    expect(event).toMatchObject({
      action: 'copy',
      attributes: {
        name: 'Smith',
        copy: { id: copy.id, name: 'Smith (1)' },
        changes: { nextParent: { id: parent.id, name: 'Copy parent' } },
      },
    });

    // Into another folder, and refused into itself or below with nothing created.
    const other = await makeFolder(server, admin, 'Copy target');
    const elsewhere = await call(server, admin, 'POST', `/api/rest/folders/${source.id}/copy`, {
      parent_id: other.id,
    });
    expect(elsewhere.json<FolderDto>()).toMatchObject({ name: 'Smith', parent_id: other.id });
    const folderCount = async () =>
      Number(
        (
          await server.services.db
            .selectFrom('folders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await folderCount();
    for (const target of [source.id, sub.id]) {
      const refused = await call(server, admin, 'POST', `/api/rest/folders/${source.id}/copy`, {
        parent_id: target,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(MESSAGES.copyIntoItself);
    }
    expect(await folderCount()).toBe(before);
  });

  it('leaves no row and no copied object when an object of the tree is missing', async () => {
    const source = await makeFolder(server, admin, 'Broken copy');
    const good = await makeFile(server, admin, 'good.txt', source.id);
    const lost = await makeFile(server, admin, 'lost.txt', source.id);
    await server.store.delete(lost.storageKey);
    const objectsBefore = await server.services.db
      .selectFrom('files')
      .select('storage_key')
      .execute();
    const response = await call(server, admin, 'POST', `/api/rest/folders/${source.id}/copy`, {});
    expect(response.statusCode).toBe(500);
    expect(await list('')).not.toContain('Broken copy (1)');
    const rows = await server.services.db.selectFrom('files').select('storage_key').execute();
    expect(rows).toHaveLength(objectsBefore.length);
    const { readdir } = await import('node:fs/promises');
    const stored = await readdir(`${server.dataDir}/objects/${admin.databaseId}`);
    const known = new Set(rows.map((r) => r.storage_key.split('/')[1]));
    expect(stored.filter((f) => !f.endsWith('.sha256') && !known.has(f))).toEqual([]);
    expect(await objectText(server, good.storageKey)).toBe('content of good.txt');
  });

  it('archives a folder with its contents and restores exactly what went with it', async () => {
    const parent = await makeFolder(server, admin, 'Archive parent');
    const folder = await makeFolder(server, admin, 'Old client', parent.id);
    const sub = await makeFolder(server, admin, 'Letters', folder.id);
    const file = await makeFile(server, admin, 'letter.txt', sub.id);
    const deeper = await makeFolder(server, admin, '2025', sub.id);
    const deepest = await makeFolder(server, admin, 'Q4', deeper.id);
    const deepFile = await makeFile(server, admin, 'deep.txt', deepest.id);
    const earlier = await makeFile(server, admin, 'earlier.txt', folder.id);
    await call(server, admin, 'POST', `/api/rest/files/${earlier.id}/archive`);

    const response = await call(server, admin, 'POST', `/api/rest/folders/${folder.id}/archive`);
    expect(response.statusCode).toBe(200);
    expect(response.json<BulkResultDto>()).toEqual({
      count: 1,
      items: [{ id: folder.id, type: 'folder', name: 'Old client' }],
    });
    expect(await folderRow(server, folder.id)).toMatchObject({ archived_root_id: folder.id });
    expect(await folderRow(server, sub.id)).toMatchObject({ archived_root_id: folder.id });
    expect((await fileRow(server, file.id))?.archived_root_id).toBe(folder.id);
    expect(await folderRow(server, deepest.id)).toMatchObject({ archived_root_id: folder.id });
    expect((await fileRow(server, deepFile.id))?.archived_root_id).toBe(folder.id);
    expect((await fileRow(server, earlier.id))?.archived_root_id).toBe(earlier.id);
    expect(await list(parent.id)).toEqual([]);
    const [event] = await itemEvents(server, admin, 'folder', folder.id);
    expect(event).toMatchObject({
      action: 'archive',
      attributes: {
        name: 'Old client',
        folder_name: 'Old client',
        parent: { id: parent.id, name: 'Archive parent' },
      },
    });
    // The contents have no event of their own.
    expect((await itemEvents(server, admin, 'folder', sub.id))[0]?.action).toBe('create');

    const restored = await call(server, admin, 'POST', `/api/rest/folders/${folder.id}/restore`);
    expect(restored.json<RestoreResultDto>()).toMatchObject({
      restored_to_root: false,
      item: { id: folder.id, parent_id: parent.id, archived_at: null },
    });
    expect((await fileRow(server, file.id))?.archived_at).toBeNull();
    expect(await fileRow(server, deepFile.id)).toMatchObject({
      archived_at: null,
      archived_root_id: null,
    });
    expect((await fileRow(server, earlier.id))?.archived_at).not.toBeNull();
    expect(await list(folder.id)).toEqual(['Letters']);
    const [restoreEvent] = await itemEvents(server, admin, 'folder', folder.id);
    expect(restoreEvent).toMatchObject({
      action: 'restore',
      attributes: { parent: { id: parent.id, name: 'Archive parent' } },
    });
  });

  it('restores to the root when the folder is archived, with a unique name', async () => {
    const folder = await makeFolder(server, admin, 'Closed accounts');
    const file = await makeFile(server, admin, 'statement.pdf', folder.id);
    await makeFile(server, admin, 'statement.pdf', '');
    await call(server, admin, 'POST', `/api/rest/files/${file.id}/archive`);
    await call(server, admin, 'POST', `/api/rest/folders/${folder.id}/archive`);
    const response = await call(server, admin, 'POST', `/api/rest/files/${file.id}/restore`);
    expect(response.statusCode).toBe(200);
    const body = response.json<RestoreResultDto>();
    expect(body.restored_to_root).toBe(true);
    expect(body.item).toMatchObject({ folder_id: '', name: 'statement (1).pdf' });
    expect(formatMessage(MESSAGES.restoredToRoot, { name: body.item.name })).toContain(
      'statement (1).pdf was restored to Root',
    );
    const [event] = await itemEvents(server, admin, 'file', file.id);
    expect(event).toMatchObject({
      action: 'restore',
      attributes: { name: 'statement (1).pdf', parent: { id: '', name: 'Root' } },
    });
    // Restoring a live item changes nothing.
    const again = await call(server, admin, 'POST', `/api/rest/files/${file.id}/restore`);
    expect(again.json<RestoreResultDto>().restored_to_root).toBe(false);
  });

  it('restores alone an item that went with its folder, with what went with it below', async () => {
    const outer = await makeFolder(server, admin, 'Outer');
    const inner = await makeFolder(server, admin, 'Inner', outer.id);
    const file = await makeFile(server, admin, 'inside.txt', inner.id);
    await call(server, admin, 'POST', `/api/rest/folders/${outer.id}/archive`);
    const response = await call(server, admin, 'POST', `/api/rest/folders/${inner.id}/restore`);
    expect(response.json<RestoreResultDto>()).toMatchObject({
      restored_to_root: true,
      item: { parent_id: '', archived_at: null },
    });
    expect((await fileRow(server, file.id))?.archived_at).toBeNull();
    expect((await folderRow(server, outer.id))?.archived_at).not.toBeNull();
  });

  it('marks favourites per user; folders and files record favorited once per change', async () => {
    const folder = await makeFolder(server, admin, 'Starred');
    const file = await makeFile(server, admin, 'starred.txt', folder.id);
    const on = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}/favorite`, {
      enabled: true,
    });
    expect(on.json<FolderDto>()).toMatchObject({
      favorite: true,
      favorites: [{ user_id: admin.userId, enabled: true }],
    });
    const [event] = await itemEvents(server, admin, 'folder', folder.id);
    expect(event).toMatchObject({
      action: 'update',
      attributes: { changes: { favorites: [{ user_id: admin.userId, enabled: true }] } },
    });
    const off = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}/favorite`, {
      enabled: false,
    });
    expect(off.json<FolderDto>().favorite).toBe(false);
    expect((await itemEvents(server, admin, 'folder', folder.id))[0]?.attributes).toMatchObject({
      changes: { favorites: [{ user_id: admin.userId, enabled: false }] },
    });
    const before = await eventCount(server, admin.databaseId);
    const fileOn = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}/favorite`, {
      enabled: true,
    });
    expect(fileOn.json<FileDto>().favorite).toBe(true);
    // A file's favourite is recorded too (replay shows past favourites), once per change.
    expect(await eventCount(server, admin.databaseId)).toBe(before + 1);
    expect((await itemEvents(server, admin, 'file', file.id))[0]).toMatchObject({
      action: 'update',
      attributes: { changes: { favorites: [{ user_id: admin.userId, enabled: true }] } },
    });
    await call(server, admin, 'PATCH', `/api/rest/files/${file.id}/favorite`, { enabled: true });
    expect(await eventCount(server, admin.databaseId)).toBe(before + 1);
    // Personal: a read-only member may, and sees only their own entry.
    const readerOn = await call(server, reader, 'PATCH', `/api/rest/files/${file.id}/favorite`, {
      enabled: true,
    });
    expect(readerOn.statusCode).toBe(200);
    const readerView = (
      await call(server, reader, 'GET', `/api/rest/files/${file.id}`)
    ).json<FileDto>();
    expect(readerView.favorites).toEqual([{ user_id: reader.userId, enabled: true }]);
  });

  it('sets and clears the user’s folder colour', async () => {
    const folder = await makeFolder(server, admin, 'Coloured');
    const set = await call(server, admin, 'PATCH', '/api/rest/colors', {
      folder_id: folder.id,
      color: 'dark_green',
    });
    expect(set.statusCode).toBe(200);
    expect(set.json<FolderDto>().color).toBe('dark_green');
    const readerView = (
      await call(server, reader, 'GET', `/api/rest/folders/${folder.id}`)
    ).json<FolderDto>();
    expect(readerView.color).toBeNull();
    const readerSet = await call(server, reader, 'PATCH', '/api/rest/colors', {
      folder_id: folder.id,
      color: 'grey',
    });
    expect(readerSet.json<FolderDto>().color).toBe('grey');
    const cleared = await call(server, admin, 'PATCH', '/api/rest/colors', {
      folder_id: folder.id,
      color: 'default',
    });
    expect(cleared.json<FolderDto>().color).toBeNull();
    const rows = await server.services.db
      .selectFrom('folder_colors')
      .selectAll()
      .where('folder_id', '=', folder.id)
      .execute();
    expect(rows.map((r) => r.user_id)).toEqual([reader.userId]);
    const unknown = await call(server, admin, 'PATCH', '/api/rest/colors', {
      folder_id: folder.id,
      color: 'plaid',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toBe(MESSAGES.unknownColor);
  });

  it('answers 404 to another firm and 403 to a read-only member, changing nothing', async () => {
    const folder = await makeFolder(server, admin, 'Guarded');
    const file = await makeFile(server, admin, 'guarded.txt', folder.id);
    const target = await makeFolder(server, admin, 'Guarded target');
    const requests: ['POST' | 'PATCH', string, unknown][] = [
      ['PATCH', `/api/rest/folders/${folder.id}`, { name: 'Taken over' }],
      ['PATCH', `/api/rest/files/${file.id}`, { parent_id: target.id }],
      ['POST', `/api/rest/folders/${folder.id}/copy`, {}],
      ['POST', `/api/rest/folders/${folder.id}/archive`, undefined],
      ['POST', `/api/rest/files/${file.id}/archive`, undefined],
      ['POST', `/api/rest/folders/${folder.id}/restore`, undefined],
    ];
    const before = await eventCount(server, admin.databaseId);
    for (const [method, url, payload] of requests) {
      const foreign = await call(server, stranger, method, url, payload);
      expect([url, foreign.statusCode]).toEqual([url, 404]);
      const readOnly = await call(server, reader, method, url, payload);
      expect([url, readOnly.statusCode]).toEqual([url, 403]);
    }
    for (const [url, payload] of [
      [`/api/rest/folders/${folder.id}/favorite`, { enabled: true }],
      [`/api/rest/files/${file.id}/favorite`, { enabled: true }],
      ['/api/rest/colors', { folder_id: folder.id, color: 'grey' }],
    ] as const) {
      expect((await call(server, stranger, 'PATCH', url, payload)).statusCode).toBe(404);
    }
    expect(await eventCount(server, admin.databaseId)).toBe(before);
    expect(await folderRow(server, folder.id)).toMatchObject({
      name: 'Guarded',
      archived_at: null,
    });
    expect((await fileRow(server, file.id))?.folder_id).toBe(folder.id);
    // Moving into another firm's folder is 404 too.
    const theirs = await makeFolder(server, stranger, 'Theirs');
    const intoTheirs = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, {
      parent_id: theirs.id,
    });
    expect(intoTheirs.statusCode).toBe(404);
  });
});

describeEachDatabase('folder colours behind the flag', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { FEATURE_FLAGS: 'folderColors=0' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 404 to colour calls when folderColors is off', async () => {
    const admin = await adminActor(server);
    const folder = await makeFolder(server, admin, 'No colours');
    const single = await call(server, admin, 'PATCH', '/api/rest/colors', {
      folder_id: folder.id,
      color: 'grey',
    });
    expect(single.statusCode).toBe(404);
    const bulk = await call(server, admin, 'POST', '/api/rest/bulk/color', {
      items: [{ id: folder.id, type: 'folder' }],
      color: 'grey',
    });
    expect(bulk.statusCode).toBe(404);
    const rows = await server.services.db.selectFrom('folder_colors').selectAll().execute();
    expect(rows).toEqual([]);
  });
});
