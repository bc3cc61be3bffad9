import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { BULK_MAX_ITEMS } from '@common/constants';
import { MESSAGES } from '@common/messages';
import type { FileDto } from '@common/entities';
import { newId } from '@server/ids';
import { addUser, describeEachStore, signIn, startTestServer, type TestServer } from './helpers';
import { at, fileRow, firmOf, folderRow, insertRows, storeObject, type Firm } from './seedRows';
import { unzipEntries } from './zipHelpers';

describeEachStore('zip of a selection, and a file copy', (kind, store) => {
  let server: TestServer;
  let cookie: string;
  let firm: Firm;
  let otherCookie: string;
  let otherFirm: Firm;
  let memberCookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { store });
    cookie = await signIn(server);
    firm = await firmOf(server, cookie);
    await addUser(server, {
      username: 'outsider',
      password: 'outsider-pass-1',
      databaseName: 'Other firm',
    });
    otherCookie = await signIn(server, 'outsider', 'outsider-pass-1');
    otherFirm = await firmOf(server, otherCookie);
    await addUser(server, {
      username: 'colleague',
      password: 'colleague-pass-1',
      role: 'member',
      databaseId: firm.databaseId,
    });
    memberCookie = await signIn(server, 'colleague', 'colleague-pass-1');
  });
  afterAll(async () => {
    await server.close();
  });

  const inject = async (method: 'GET' | 'POST', url: string, payload?: object, as = cookie) =>
    server.app.inject({ method, url, headers: { cookie: as }, ...(payload ? { payload } : {}) });

  const askZip = (items: { type: 'file' | 'folder'; id: string }[], as = cookie) =>
    inject('POST', '/api/rest/entities/zip', { items }, as);

  /** A file row with its object stored. */
  const storedFile = async (folderId: string, name: string, body: string, extra = {}) => {
    const row = fileRow(firm, folderId, name, extra);
    await storeObject(server, row, Buffer.from(body));
    return row;
  };

  /** Two "a.pdf" in two folders, a folder with a subtree and an archived file inside. */
  const seed = async () => {
    const left = folderRow(firm, '', `Left ${newId().slice(-6)}`);
    const right = folderRow(firm, '', `Right ${newId().slice(-6)}`);
    const tree = folderRow(firm, left.id, 'Tree');
    const sub = folderRow(firm, tree.id, 'Sub');
    const a1 = await storedFile(left.id, 'a.pdf', 'first a');
    const a2 = await storedFile(right.id, 'A.pdf', 'second a');
    const inTree = await storedFile(tree.id, 'note.txt', 'in the tree');
    const deep = await storedFile(sub.id, 'deep.csv', 'x,y');
    const archived = await storedFile(tree.id, 'old.txt', 'gone', {
      archived_at: at(1),
      archived_root_id: 'x',
    });
    await insertRows(server, {
      folders: [left, right, tree, sub],
      files: [a1, a2, inTree, deep, archived],
    });
    return { left, right, tree, a1, a2, archived };
  };

  it('streams the selected files and folder trees with unique top names, once, and records downloads', async () => {
    const { left, right, tree, a1, a2 } = await seed();
    const asked = await askZip([
      { type: 'file', id: a1.id },
      { type: 'file', id: a2.id },
      { type: 'folder', id: tree.id },
    ]);
    expect(asked.statusCode).toBe(201);
    const { url } = asked.json<{ url: string }>();
    expect(url).toMatch(/^\/api\/rest\/zips\/[A-Za-z0-9_-]{43}$/);
    const response = await inject('GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(
      'attachment; filename="Dossier download.zip"',
    );
    const entries = await unzipEntries(response.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      ['a.pdf', 'A (1).pdf', 'Tree/', 'Tree/note.txt', 'Tree/Sub/', 'Tree/Sub/deep.csv'].sort(),
    );
    expect(entries.get('a.pdf')!.toString()).toBe('first a');
    expect(entries.get('A (1).pdf')!.toString()).toBe('second a');
    expect(entries.get('Tree/Sub/deep.csv')!.toString()).toBe('x,y');

    const events = await server.services.db
      .selectFrom('history_events')
      .select(['entity_id', 'action', 'attributes'])
      .where('entity_id', 'in', [a1.id, a2.id, tree.id])
      .execute();
    expect(events.map((e) => `${e.entity_id}:${e.action}`).sort()).toEqual(
      [`${a1.id}:download`, `${a2.id}:download`, `${tree.id}:download`].sort(),
    );
    const treeEvent = JSON.parse(events.find((e) => e.entity_id === tree.id)!.attributes) as {
      parent: { id: string; name: string };
    };
    expect(treeEvent.parent).toEqual({ id: left.id, name: left.name });
    expect(right.id).toBeTruthy();

    const again = await inject('GET', url);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ code: 'zip_expired', message: MESSAGES.zipLinkExpired });
  });

  it('names the zip after a single selected folder', async () => {
    const { tree } = await seed();
    const { url } = (await askZip([{ type: 'folder', id: tree.id }])).json<{ url: string }>();
    const response = await inject('GET', url);
    expect(response.headers['content-disposition']).toContain('filename="Tree.zip"');
  });

  it("refuses another firm's item, an archived one, none, or too many", async () => {
    const { a1, archived } = await seed();
    const theirs = folderRow(otherFirm, '', 'Theirs');
    await insertRows(server, { folders: [theirs] });
    const foreign = await askZip([
      { type: 'file', id: a1.id },
      { type: 'folder', id: theirs.id },
    ]);
    expect(foreign.statusCode).toBe(404);
    expect((await askZip([{ type: 'file', id: archived.id }])).statusCode).toBe(404);
    const none = await askZip([]);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({
      code: 'zip_nothing_selected',
      message: MESSAGES.zipNothingSelected,
    });
    const many = await askZip(
      Array.from({ length: BULK_MAX_ITEMS + 1 }, () => ({ type: 'file' as const, id: newId() })),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json<{ code: string }>().code).toBe('too_many_items');
  });

  it("answers 404 for another user's link, an expired one, and an item archived meanwhile", async () => {
    const { a1, a2 } = await seed();
    const url = (await askZip([{ type: 'file', id: a1.id }])).json<{ url: string }>().url;
    expect((await inject('GET', url, undefined, memberCookie)).statusCode).toBe(404);
    expect((await inject('GET', url, undefined, otherCookie)).statusCode).toBe(404);
    // Still the owner's to use once.
    expect((await inject('GET', url)).statusCode).toBe(200);

    const late = (await askZip([{ type: 'file', id: a1.id }])).json<{ url: string }>().url;
    server.clock.now += 61_000;
    const expired = await inject('GET', late);
    expect(expired.statusCode).toBe(404);
    expect(expired.json<{ code: string }>().code).toBe('zip_expired');

    const soon = (await askZip([{ type: 'file', id: a2.id }])).json<{ url: string }>().url;
    const archivedNow = await inject('POST', `/api/rest/files/${a2.id}/archive`);
    expect(archivedNow.statusCode).toBe(200);
    expect((await inject('GET', soon)).statusCode).toBe(404);
  });

  it('makes a copy of a file beside it under the next free name, with the same bytes and sha256', async () => {
    const folder = folderRow(firm, '', `Copies ${newId().slice(-6)}`);
    const source = await storedFile(folder.id, 'Statement.pdf', 'statement bytes', {
      sha256: 'a'.repeat(64),
    });
    await insertRows(server, { folders: [folder], files: [source] });
    const first = await inject('POST', `/api/rest/files/${source.id}/copy`, {});
    expect(first.statusCode).toBe(201);
    const copy = first.json<FileDto>();
    expect(copy).toMatchObject({
      name: 'Statement (1).pdf',
      folder_id: folder.id,
      size: source.size,
      sha256: source.sha256,
      content_type: source.content_type,
    });
    expect(copy.id).not.toBe(source.id);
    const second = await inject('POST', `/api/rest/files/${source.id}/copy`, {});
    expect(second.json<FileDto>().name).toBe('Statement (2).pdf');

    const bytes = await inject('GET', `/api/rest/files/${copy.id}/download`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.body).toBe('statement bytes');

    const events = await server.services.db
      .selectFrom('history_events')
      .select(['entity_type', 'action', 'attributes'])
      .where('entity_id', '=', copy.id)
      .where('action', '!=', 'download')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.action).toBe('create');
    expect(JSON.parse(events[0]!.attributes)).toMatchObject({
      name: 'Statement (1).pdf',
      parent: { id: folder.id, name: folder.name },
    });

    // The copy has its own object: deleting the source permanently leaves it readable.
    expect((await inject('POST', `/api/rest/files/${source.id}/archive`)).statusCode).toBe(200);
    const destroyed = await inject('POST', '/api/rest/bulk/destroy', {
      items: [{ type: 'file', id: source.id }],
    });
    expect(destroyed.statusCode).toBe(200);
    const still = await inject('GET', `/api/rest/files/${copy.id}/download`);
    expect(still.body).toBe('statement bytes');
  });

  it('copies into another folder when asked, and refuses an archived file or another firm', async () => {
    const folder = folderRow(firm, '', `From ${newId().slice(-6)}`);
    const target = folderRow(firm, '', `To ${newId().slice(-6)}`);
    const source = await storedFile(folder.id, 'memo.txt', 'memo');
    const old = await storedFile(folder.id, 'old.txt', 'old', { archived_at: at(1) });
    await insertRows(server, { folders: [folder, target], files: [source, old] });
    const moved = await inject('POST', `/api/rest/files/${source.id}/copy`, {
      parent_id: target.id,
    });
    expect(moved.statusCode).toBe(201);
    expect(moved.json<FileDto>()).toMatchObject({ name: 'memo.txt', folder_id: target.id });
    expect((await inject('POST', `/api/rest/files/${old.id}/copy`, {})).statusCode).toBe(404);
    const foreign = await inject('POST', `/api/rest/files/${source.id}/copy`, {}, otherCookie);
    expect(foreign.statusCode).toBe(404);
  });
});
