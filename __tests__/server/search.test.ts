/**
 * Search, on SQLite and PostgreSQL: autocomplete ranking (exact name, then
 * prefix, then the others), at most 10 hits with their paths, firm and restricted-folder
 * isolation, pending files left out, the index kept in step by the triggers after rename, move,
 * archive, restore, upload verification, index value changes, contact link/unlink, contact rename
 * and deletion; 2-character and long queries; and each filter of search and filtered lists.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AUTOCOMPLETE_LIMIT,
  normalizeSearchQuery,
  type AutocompleteHitDto,
  type AutocompleteResponse,
  type SearchFilters,
  type SearchResponse,
} from '@common/search';
import type { FolderDto } from '@common/entities';
import { newId } from '@server/ids';
import {
  autocompleteHits,
  type AutocompleteMatch,
  TEXT_PROBE_MAX_ROWS,
  textMatchMode,
} from '@server/repositories/search';
import { FolderTreeCache } from '@server/services/folderTree';
import {
  AUTOCOMPLETE_HIDDEN_ROOM,
  autocompleteFromTree,
  rankMatches,
  textQuery,
} from '@server/services/search';
import { contextFor } from './historyHelpers';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFile, makeFolder, newActor, type Actor } from './organiseHelpers';

describeEachDatabase('search', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let otherFirm: Actor;
  let clients: FolderDto;
  let restricted: FolderDto;
  let fieldId: string;

  const complete = async (actor: Actor, query: string): Promise<AutocompleteHitDto[]> => {
    const response = await call(
      server,
      actor,
      'GET',
      `/api/rest/entities/search/autocomplete?query=${encodeURIComponent(query)}`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json<AutocompleteResponse>();
    expect(body.query).toBe(query);
    return body.items;
  };
  const names = async (actor: Actor, query: string) =>
    (await complete(actor, query)).map((h) => h.name);
  const search = async (
    actor: Actor,
    filters: SearchFilters,
    route: 'search' | 'filtered' = 'filtered',
    query = '',
  ): Promise<SearchResponse> => {
    const response = await call(server, actor, 'POST', `/api/rest/entities/${route}${query}`, {
      filters,
    });
    expect(response.statusCode).toBe(200);
    return response.json<SearchResponse>();
  };
  const searchNames = async (actor: Actor, filters: SearchFilters) =>
    (await search(actor, filters)).items.map((h) => h.name).sort();
  const now = () => new Date(server.clock.now).toISOString();
  const db = () => server.services.db;

  /** An applied index row written straight to the table (the triggers are what is tested). */
  const applyIndex = async (entityId: string, value: string, field = fieldId) => {
    const id = newId();
    await db()
      .insertInto('applied_indexes')
      .values({
        id,
        database_id: admin.databaseId,
        entity_type: 'file',
        entity_id: entityId,
        index_field_id: field,
        value,
        archived_at: null,
        created_by: admin.userId,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    return id;
  };
  const addContact = async (name: string) => {
    const id = newId();
    await db()
      .insertInto('contacts')
      .values({
        id,
        database_id: admin.databaseId,
        crm_id: null,
        name,
        name_key: name.toLowerCase(),
        email: null,
        phones: '[]',
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    return id;
  };
  const link = async (folderId: string, contactId: string) => {
    const id = newId();
    await db()
      .insertInto('folder_contacts')
      .values({
        id,
        database_id: admin.databaseId,
        folder_id: folderId,
        contact_id: contactId,
        created_by: admin.userId,
        created_at: now(),
      })
      .execute();
    return id;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'search-member', 'member', admin.databaseId);
    otherFirm = await newActor(server, 'search-other', 'admin');
    clients = await makeFolder(server, admin, 'Clients');
    restricted = await makeFolder(server, admin, 'Board');
    const permit = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: restricted.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permit.statusCode).toBe(201);
    fieldId = newId();
    await db()
      .insertInto('index_fields')
      .values({
        id: fieldId,
        database_id: admin.databaseId,
        name: 'Account number',
        name_key: 'account number',
        type: 'text_field',
        description: '',
        position: 0,
        archived_at: null,
        deleted_at: null,
        created_by: admin.userId,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
  });
  afterAll(async () => {
    await server.close();
  });

  it('ranks exact name matches first, then name prefixes, then the others; paths from Root', async () => {
    const nested = await makeFolder(server, admin, 'Kestrel holdings', clients.id);
    await makeFile(server, admin, 'My kestrel notes.txt', clients.id);
    await makeFile(server, admin, 'Kestrel report.pdf', nested.id);
    await makeFile(server, admin, 'kestrel.pdf', nested.id);
    await makeFolder(server, admin, 'Kestrel');
    const hits = await complete(admin, 'kestrel');
    expect(hits.map((h) => h.name)).toEqual([
      'Kestrel',
      'kestrel.pdf',
      'Kestrel holdings',
      'Kestrel report.pdf',
      'My kestrel notes.txt',
    ]);
    const report = hits.find((h) => h.name === 'Kestrel report.pdf')!;
    expect(report.path).toEqual([
      { id: '', name: 'Root' },
      { id: clients.id, name: 'Clients' },
      { id: nested.id, name: 'Kestrel holdings' },
    ]);
    expect(report.matched_in).toEqual(['name']);
    // The light item of the search box: no size, dates, favorite or colour.
    expect(report).toEqual({
      id: report.id,
      type: 'file',
      name: 'Kestrel report.pdf',
      extension: 'pdf',
      parent_id: nested.id,
      path: report.path,
      matched_in: ['name'],
    });
    expect(hits[0]).toMatchObject({ type: 'folder', extension: '', parent_id: '' });
    expect(hits[0]!.path).toEqual([{ id: '', name: 'Root' }]);
    // Search answers the same order, paged.
    const page = await search(admin, { query: 'kestrel' }, 'search', '?page=2&page_size=2');
    expect(page).toMatchObject({ page: 2, page_size: 2, total: 5 });
    expect(page.items.map((h) => h.name)).toEqual(['Kestrel holdings', 'Kestrel report.pdf']);
  });

  it('orders name prefixes by the name without its extension, then the name, in both answers', async () => {
    const box = await makeFolder(server, admin, 'Merlin box', clients.id);
    await makeFile(server, admin, 'Merlin 2 notes.pdf', box.id);
    await makeFile(server, admin, 'Merlin 2.pdf', box.id);
    await makeFile(server, admin, 'Merlin 2.docx', box.id);
    await makeFile(server, admin, 'merlin.txt', box.id);
    const expected = [
      'merlin.txt',
      'Merlin 2.docx',
      'Merlin 2.pdf',
      'Merlin 2 notes.pdf',
      'Merlin box',
    ];
    expect(await names(admin, 'merlin')).toEqual(expected);
    expect(await names(member, 'merlin')).toEqual(expected);
    expect((await search(admin, { query: 'merlin' }, 'search')).items.map((h) => h.name)).toEqual(
      expected,
    );
    // With a dot the query may run into an extension: names by the whole name, then text matches.
    expect(await names(admin, 'merlin 2.')).toEqual([
      'Merlin 2.docx',
      'Merlin 2.pdf',
      'Merlin 2 notes.pdf',
    ]);
  });

  it('answers at most 10 hits; 2-character and long queries; short and too long queries', async () => {
    for (let i = 0; i < 12; i += 1) await makeFile(server, admin, `Zq memo ${i}.txt`, clients.id);
    const long = 'Quarterly statement 2023 Marlowe Brothers account summary final.pdf';
    await makeFile(server, admin, long, clients.id);
    expect(await complete(admin, 'zq')).toHaveLength(10);
    expect((await search(admin, { query: 'zq' }, 'search')).total).toBe(12);
    expect(await names(admin, 'statement marlowe 2023 summ')).toEqual([long]);
    expect(await names(admin, 'Quarterly statement 2023 Marlowe')).toEqual([long]);
    expect(await names(admin, 'marlowe zebra')).toEqual([]);
    expect(await complete(admin, 'z')).toEqual([]);
    const short = await call(server, admin, 'POST', '/api/rest/entities/search', {
      filters: { query: ' z ' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ message: 'Type at least 2 characters to search.' });
    const tooLong = await call(
      server,
      admin,
      'GET',
      `/api/rest/entities/search/autocomplete?query=${'a'.repeat(201)}`,
    );
    expect(tooLong.statusCode).toBe(400);
  });

  it("never answers another firm's items nor items in folders hidden from the session", async () => {
    await makeFile(server, admin, 'Osprey minutes.pdf', restricted.id);
    const inner = await makeFolder(server, admin, 'Osprey inner', restricted.id);
    await makeFile(server, admin, 'Osprey open.pdf', clients.id);
    const elsewhere = await makeFolder(server, otherFirm, 'Osprey elsewhere');
    await makeFile(server, otherFirm, 'Osprey other firm.pdf', elsewhere.id);
    expect((await names(admin, 'osprey')).sort()).toEqual([
      'Osprey inner',
      'Osprey minutes.pdf',
      'Osprey open.pdf',
    ]);
    expect(await names(member, 'osprey')).toEqual(['Osprey open.pdf']);
    expect(await names(member, 'board')).toEqual([]);
    expect((await search(member, { query: 'osprey' }, 'search')).total).toBe(1);
    expect((await names(otherFirm, 'osprey')).sort()).toEqual([
      'Osprey elsewhere',
      'Osprey other firm.pdf',
    ]);
    // Within a hidden folder or another firm's folder: 404.
    const hidden = await call(server, member, 'POST', '/api/rest/entities/filtered', {
      filters: { folder_id: inner.id },
    });
    expect(hidden.statusCode).toBe(404);
    const foreign = await call(server, admin, 'POST', '/api/rest/entities/filtered', {
      filters: { folder_id: elsewhere.id },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('answers from the folder tree in memory as the statement does, and follows each change at once', async () => {
    const top = await makeFolder(server, admin, 'Kinglet clients');
    const deep = await makeFolder(server, admin, 'Kinglet deep', top.id);
    const room = await makeFolder(server, admin, 'Kinglet team room', top.id);
    await makeFile(server, admin, 'Kinglet notes.txt', deep.id);
    await makeFile(server, admin, 'Kinglet plan.pdf', room.id);
    await makeFile(server, admin, 'kinglet.pdf', top.id);
    const team = (
      await call(server, admin, 'POST', '/api/rest/private/teams', { name: 'Kinglet team' })
    ).json<{ id: string }>();
    const permitted = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: room.id,
      permissionables: [{ permissionable_id: team.id, permissionable_type: 'team' }],
    });
    expect(permitted.statusCode).toBe(201);

    // The exact statement's answer, projected as the route's hits are below.
    const project = (hits: { id: string; path: { name: string }[] }[]) =>
      hits.map((h) => `${h.path.map((p) => p.name).join('/')}: ${h.id}`);
    const exact = async (actor: Actor, query: string) =>
      project(
        (
          await autocompleteHits(server.services.db, kind, {
            databaseId: actor.databaseId,
            text: textQuery(normalizeSearchQuery(query)),
            hiddenFor: actor === admin ? null : actor.userId,
            limit: AUTOCOMPLETE_LIMIT,
          })
        ).map((row) => ({
          id: row.id,
          path: [{ name: 'Root' }, ...row.path.map(([, name]) => ({ name }))],
        })),
      );
    const same = async (actor: Actor, query: string) => {
      const answered = project(await complete(actor, query));
      expect({ query, answered }).toEqual({ query, answered: await exact(actor, query) });
      return answered;
    };
    for (const query of [
      'kinglet',
      'ki',
      'kinglet plan',
      'notes kinglet',
      'kinglet.pdf',
      'team room',
    ]) {
      await same(admin, query);
      await same(member, query);
    }
    expect(await names(admin, 'kinglet plan')).toEqual(['Kinglet plan.pdf']);
    expect(await names(member, 'kinglet plan')).toEqual([]);
    expect(await names(member, 'team room')).toEqual([]);

    // Joining the team shows the room at once, leaving it hides it again.
    const joined = await call(server, admin, 'POST', `/api/rest/private/teams/${team.id}/members`, {
      user_ids: [member.userId],
    });
    expect(joined.statusCode).toBe(200);
    expect(await names(member, 'kinglet plan')).toEqual(['Kinglet plan.pdf']);
    await same(member, 'kinglet');
    const left = await call(
      server,
      admin,
      'DELETE',
      `/api/rest/private/teams/${team.id}/members/${member.userId}`,
    );
    expect(left.statusCode).toBe(204);
    expect(await names(member, 'kinglet plan')).toEqual([]);

    // A rename and a move show in the paths at once.
    const renamed = await call(server, admin, 'PATCH', `/api/rest/folders/${top.id}`, {
      name: 'Kinglet accounts',
    });
    expect(renamed.statusCode).toBe(200);
    expect((await complete(member, 'kinglet notes'))[0]!.path.map((p) => p.name)).toEqual([
      'Root',
      'Kinglet accounts',
      'Kinglet deep',
    ]);
    const moved = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: [{ type: 'folder', id: deep.id }],
      folder_id: room.id,
    });
    expect(moved.statusCode).toBe(200);
    // Now inside the team's room: hidden from the member, with its new path for the admin.
    expect(await names(member, 'kinglet notes')).toEqual([]);
    expect((await complete(admin, 'kinglet notes'))[0]!.path.map((p) => p.name)).toEqual([
      'Root',
      'Kinglet accounts',
      'Kinglet team room',
      'Kinglet deep',
    ]);
    await same(member, 'kinglet');
    // Removing the room's permission opens it to everyone.
    const perms = await call(server, admin, 'GET', `/api/rest/folders/${room.id}/permissions`);
    for (const p of perms.json<{ id: string }[]>()) {
      expect(
        (await call(server, admin, 'DELETE', `/api/rest/folder_permissions/${p.id}`)).statusCode,
      ).toBe(204);
    }
    expect(await names(member, 'kinglet notes')).toEqual(['Kinglet notes.txt']);

    // Hidden matches ahead of the visible one: the in-memory path reads its tiers again with more
    // room, and past that room the route reads the exact statement; the same answer either way.
    const locked = await makeFolder(server, admin, 'Shrike locked');
    const lock = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: locked.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(lock.statusCode).toBe(201);
    const hide = async (from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        await makeFile(server, admin, `Shrike ${String(i).padStart(2, '0')}.txt`, locked.id);
      }
    };
    await makeFile(server, admin, 'Shrike visible.txt', clients.id);
    const ctx = contextFor({ ...member, role: 'member' });
    // Three characters: read tier by tier (a longer query is read whole on PostgreSQL and ranked).
    const fromTree = () => autocompleteFromTree(server.services, ctx, textQuery('shr'));
    await hide(0, AUTOCOMPLETE_LIMIT * 2);
    expect(await names(member, 'shr')).toEqual(['Shrike visible.txt']);
    expect(await same(member, 'shr')).toHaveLength(1);
    expect((await fromTree())!.map((h) => h.name)).toEqual(['Shrike visible.txt']);
    await hide(AUTOCOMPLETE_LIMIT * 2, AUTOCOMPLETE_LIMIT * AUTOCOMPLETE_HIDDEN_ROOM + 5);
    expect(await names(member, 'shr')).toEqual(['Shrike visible.txt']);
    expect(await same(member, 'shr')).toHaveLength(1);
    expect(await same(member, 'shrike')).toHaveLength(1);
    expect(await names(admin, 'shr')).toHaveLength(AUTOCOMPLETE_LIMIT);
    {
      // Past the second room the in-memory path declines and the route falls back.
      expect(await fromTree()).toBeNull();
      expect(await autocompleteFromTree(server.services, ctx, textQuery('kinglet'))).not.toBeNull();
      // A firm with more folders than the cache keeps is not copied.
      const tiny = new FolderTreeCache(1);
      expect(await tiny.tree(server.services.db, admin.databaseId, 0)).toBeNull();
      expect(
        await new FolderTreeCache().tree(server.services.db, admin.databaseId, 0),
      ).not.toBeNull();
    }
  });

  it('keeps the index in step: upload verified, rename, move, archive, restore, delete', async () => {
    const file = await makeFile(server, admin, 'Heron draft.txt', clients.id);
    // A pending file is not found until it is ready.
    const pendingId = newId();
    await db()
      .insertInto('files')
      .values({
        id: pendingId,
        database_id: admin.databaseId,
        folder_id: clients.id,
        name: 'Heron pending.txt',
        name_key: 'heron pending.txt',
        extension: 'txt',
        size: 1,
        content_type: 'text/plain',
        storage_key: `${admin.databaseId}/${pendingId}`,
        status: 'pending',
        sha256: null,
        created_by: admin.userId,
        created_at: now(),
        updated_at: now(),
        archived_at: null,
        archived_root_id: null,
      })
      .execute();
    expect(await names(admin, 'heron')).toEqual(['Heron draft.txt']);
    await db().updateTable('files').set({ status: 'ready' }).where('id', '=', pendingId).execute();
    expect((await names(admin, 'heron')).sort()).toEqual(['Heron draft.txt', 'Heron pending.txt']);
    await db().deleteFrom('files').where('id', '=', pendingId).execute();

    const renamed = await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, {
      name: 'Egret final.txt',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await names(admin, 'heron')).toEqual([]);
    expect(await names(admin, 'egret')).toEqual(['Egret final.txt']);

    const folder = await makeFolder(server, admin, 'Egret box', clients.id);
    const target = await makeFolder(server, admin, 'Archive shelf');
    const moved = await call(server, admin, 'POST', '/api/rest/bulk/move', {
      items: [
        { type: 'file', id: file.id },
        { type: 'folder', id: folder.id },
      ],
      folder_id: target.id,
    });
    expect(moved.statusCode).toBe(200);
    const afterMove = await complete(admin, 'egret');
    expect(afterMove.map((h) => h.path.map((p) => p.name))).toEqual([
      ['Root', 'Archive shelf'],
      ['Root', 'Archive shelf'],
    ]);
    expect((await searchNames(admin, { folder_id: target.id })).sort()).toEqual([
      'Egret box',
      'Egret final.txt',
    ]);

    const renameFolder = await call(server, admin, 'PATCH', `/api/rest/folders/${target.id}`, {
      name: 'Shelf two',
    });
    expect(renameFolder.statusCode).toBe(200);
    expect((await complete(admin, 'egret box'))[0]!.path[1]).toEqual({
      id: target.id,
      name: 'Shelf two',
    });
    expect(await names(admin, 'shelf two')).toEqual(['Shelf two']);

    // Archiving a folder archives what it holds; restoring brings it back.
    const archived = await call(server, admin, 'POST', `/api/rest/folders/${target.id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(await names(admin, 'egret')).toEqual([]);
    expect(
      (await search(admin, { query: 'egret', archived: true }, 'search')).items
        .map((h) => h.name)
        .sort(),
    ).toEqual(['Egret box', 'Egret final.txt']);
    const restored = await call(server, admin, 'POST', `/api/rest/folders/${target.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect((await names(admin, 'egret')).sort()).toEqual(['Egret box', 'Egret final.txt']);
    expect((await search(admin, { query: 'egret', archived: true }, 'search')).total).toBe(0);

    await db().deleteFrom('files').where('id', '=', file.id).execute();
    expect(await names(admin, 'egret')).toEqual(['Egret box']);
  });

  it('follows archive and restore statements that name archived_at alone or with the name (0014)', async () => {
    const files = [
      await makeFile(server, admin, 'Plover one.txt', clients.id),
      await makeFile(server, admin, 'Plover two.txt', clients.id),
      await makeFile(server, admin, 'Plover three.txt', clients.id),
    ];
    const ids = files.map((f) => f.id);
    // One statement archiving several files (the bulk path): only `archived` flips.
    await db().updateTable('files').set({ archived_at: now() }).where('id', 'in', ids).execute();
    expect(await names(admin, 'plover')).toEqual([]);
    expect((await search(admin, { query: 'plover', archived: true }, 'search')).total).toBe(3);
    // A statement naming archived_at and the name: both follow.
    await db()
      .updateTable('files')
      .set({ archived_at: null, name: 'Sandpiper.txt', name_key: 'sandpiper.txt' })
      .where('id', '=', ids[0]!)
      .execute();
    expect(await names(admin, 'sandpiper')).toEqual(['Sandpiper.txt']);
    expect((await search(admin, { query: 'plover', archived: true }, 'search')).total).toBe(2);
    // An update that names archived_at without changing it, and one of another column, change
    // nothing.
    await db()
      .updateTable('files')
      .set((eb) => ({ archived_at: eb.ref('archived_at'), updated_at: now() }))
      .where('id', 'in', ids)
      .execute();
    expect(await names(admin, 'plover')).toEqual([]);
    expect(await names(admin, 'sandpiper')).toEqual(['Sandpiper.txt']);
    // The bulk restore route brings the rest back.
    const restored = await call(server, admin, 'POST', '/api/rest/bulk/restore', {
      items: ids.slice(1).map((id) => ({ type: 'file', id })),
    });
    expect(restored.statusCode).toBe(200);
    expect((await names(admin, 'plover')).sort()).toEqual(['Plover three.txt', 'Plover two.txt']);
  });

  it('matches applied index values and follows their changes', async () => {
    const file = await makeFile(server, admin, 'Ledger.pdf', clients.id);
    const applied = await applyIndex(file.id, 'ACC-778812');
    const hits = await complete(admin, '778812');
    expect(hits.map((h) => h.name)).toEqual(['Ledger.pdf']);
    expect(hits[0]!.matched_in).toEqual(['index']);
    expect(await names(admin, 'acc 7788')).toEqual(['Ledger.pdf']);
    await db()
      .updateTable('applied_indexes')
      .set({ value: 'ACC-990011' })
      .where('id', '=', applied)
      .execute();
    expect(await names(admin, '778812')).toEqual([]);
    expect(await names(admin, '990011')).toEqual(['Ledger.pdf']);
    await db()
      .updateTable('applied_indexes')
      .set({ archived_at: now() })
      .where('id', '=', applied)
      .execute();
    expect(await names(admin, '990011')).toEqual([]);
    await db()
      .updateTable('applied_indexes')
      .set({ archived_at: null })
      .where('id', '=', applied)
      .execute();
    expect(await names(admin, '990011')).toEqual(['Ledger.pdf']);
    await db().deleteFrom('applied_indexes').where('id', '=', applied).execute();
    expect(await names(admin, '990011')).toEqual([]);
    // A value applied before the file was ready is indexed when it becomes a document.
    const later = newId();
    await applyIndex(later, 'Plover-55');
    await makeFile(server, admin, 'Late.pdf', clients.id).then(async (f) => {
      await db()
        .updateTable('applied_indexes')
        .set({ entity_id: f.id })
        .where('entity_id', '=', later)
        .execute();
    });
    expect(await names(admin, 'plover 55')).toEqual(['Late.pdf']);
  });

  it('matches contact names on folders only and follows link, unlink, rename and deletion', async () => {
    const folder = await makeFolder(server, admin, 'Household', clients.id);
    await makeFile(server, admin, 'Inside.pdf', folder.id);
    const contactId = await addContact('Wilhelmina Quartermaine');
    const linkId = await link(folder.id, contactId);
    const hits = await complete(admin, 'quartermaine');
    expect(hits.map((h) => h.name)).toEqual(['Household']);
    expect(hits[0]!.matched_in).toEqual(['contact']);
    await db()
      .updateTable('contacts')
      .set({ name: 'Wilhelmina Rutherford', name_key: 'wilhelmina rutherford' })
      .where('id', '=', contactId)
      .execute();
    expect(await names(admin, 'quartermaine')).toEqual([]);
    expect(await names(admin, 'rutherford')).toEqual(['Household']);
    await db().deleteFrom('folder_contacts').where('id', '=', linkId).execute();
    expect(await names(admin, 'rutherford')).toEqual([]);
    await link(folder.id, contactId);
    expect(await names(admin, 'rutherford')).toEqual(['Household']);
    await db().deleteFrom('folder_contacts').where('contact_id', '=', contactId).execute();
    await link(folder.id, contactId);
    await db().deleteFrom('contacts').where('id', '=', contactId).execute();
    expect(await names(admin, 'rutherford')).toEqual([]);
  });

  describe('filters', () => {
    let box: FolderDto;
    let inner: FolderDto;
    let ids: Record<string, string>;

    beforeAll(async () => {
      box = await makeFolder(server, admin, 'Filter box');
      inner = await makeFolder(server, admin, 'Filter inner', box.id);
      const today = server.clock.now;
      server.clock.now = Date.parse('2020-03-15T12:00:00Z');
      const old = await makeFile(server, admin, 'Wren old.pdf', box.id);
      server.clock.now = today;
      const sheet = await makeFile(server, admin, 'Wren sheet.xlsx', inner.id);
      const photo = await makeFile(server, admin, 'Wren photo.JPG', inner.id);
      const odd = await makeFile(server, admin, 'Wren notes.xyz', box.id);
      const arch = await makeFile(server, admin, 'Wren gone.pdf', box.id);
      expect(
        (await call(server, admin, 'POST', `/api/rest/files/${arch.id}/archive`)).statusCode,
      ).toBe(200);
      ids = { old: old.id, sheet: sheet.id, photo: photo.id, odd: odd.id, arch: arch.id };
      await applyIndex(sheet.id, '2023');
      await applyIndex(old.id, '2021');
      const fav = await call(server, admin, 'PATCH', `/api/rest/files/${photo.id}/favorite`, {
        enabled: true,
      });
      expect(fav.statusCode).toBe(200);
    });

    it('within a folder (its subtree, not itself) and without a query', async () => {
      const page = await search(admin, { folder_id: box.id });
      expect(page.items.map((h) => h.name)).toEqual([
        'Filter inner',
        'Wren notes.xyz',
        'Wren old.pdf',
        'Wren photo.JPG',
        'Wren sheet.xlsx',
      ]);
      expect(page.items.every((h) => h.matched_in.length === 0)).toBe(true);
      expect(await searchNames(admin, { folder_id: inner.id })).toEqual([
        'Wren photo.JPG',
        'Wren sheet.xlsx',
      ]);
    });

    it('types: file categories of the spec, Other and Folder', async () => {
      const within = { folder_id: box.id };
      expect(await searchNames(admin, { ...within, types: ['PDF'] })).toEqual(['Wren old.pdf']);
      expect(await searchNames(admin, { ...within, types: ['Spreadsheet', 'Image'] })).toEqual([
        'Wren photo.JPG',
        'Wren sheet.xlsx',
      ]);
      expect(await searchNames(admin, { ...within, types: ['Other'] })).toEqual(['Wren notes.xyz']);
      expect(await searchNames(admin, { ...within, types: ['Folder'] })).toEqual(['Filter inner']);
    });

    it('dates: presets and from/to', async () => {
      const within = { folder_id: box.id, types: ['PDF' as const] };
      expect(await searchNames(admin, { ...within, date_preset: 'Today' })).toEqual([]);
      expect(await searchNames(admin, { query: 'wren', date_preset: 'Today' })).toEqual([
        'Wren notes.xyz',
        'Wren photo.JPG',
        'Wren sheet.xlsx',
      ]);
      expect(
        await searchNames(admin, { ...within, date_from: '2020-03-01', date_to: '2020-03-15' }),
      ).toEqual(['Wren old.pdf']);
      expect(await searchNames(admin, { ...within, date_to: '2020-03-14' })).toEqual([]);
      const bad = await call(server, admin, 'POST', '/api/rest/entities/filtered', {
        filters: { date_from: '2020-03-02', date_to: '2020-03-01' },
      });
      expect(bad.statusCode).toBe(400);
    });

    it('index values, favorites only and archived', async () => {
      expect(
        await searchNames(admin, { index_values: [{ index_field_id: fieldId, value: '2023' }] }),
      ).toEqual(['Wren sheet.xlsx']);
      expect(
        await searchNames(admin, {
          query: 'wren',
          index_values: [
            { index_field_id: fieldId, value: '2023' },
            { index_field_id: fieldId, value: '2021' },
          ],
        }),
      ).toEqual(['Wren old.pdf', 'Wren sheet.xlsx']);
      expect(await searchNames(admin, { folder_id: box.id, favorites_only: true })).toEqual([
        'Wren photo.JPG',
      ]);
      expect(await searchNames(member, { folder_id: box.id, favorites_only: true })).toEqual([]);
      // The archived file itself, and not among the live ones.
      const archived = await search(admin, { folder_id: box.id, archived: true });
      expect(archived.items.map((h) => [h.id, h.name])).toEqual([[ids.arch, 'Wren gone.pdf']]);
      const live = await search(admin, { folder_id: box.id });
      expect(live.items.map((h) => h.id)).not.toContain(ids.arch);
    });

    it('favorites only with a query: a few favorites probed, many filtered against the matches', async () => {
      // One favorite: the text match is probed row by row.
      expect(await searchNames(admin, { query: 'wren', favorites_only: true })).toEqual([
        'Wren photo.JPG',
      ]);
      // More favorites than TEXT_PROBE_MAX_ROWS: the matching rowids are listed once.
      const perch = await makeFolder(server, admin, 'Perch');
      const larks: string[] = [];
      const favorites = [];
      for (let i = 0; i < TEXT_PROBE_MAX_ROWS + 2; i += 1) {
        const name = `${i % 2 === 0 ? 'Lark' : 'Robin'} ${String(i).padStart(2, '0')}.pdf`;
        const file = await makeFile(server, admin, name, perch.id);
        if (name.startsWith('Lark')) larks.push(name);
        favorites.push({
          id: newId(),
          database_id: admin.databaseId,
          entity_type: 'file',
          entity_id: file.id,
          user_id: admin.userId,
          enabled: 1,
          created_at: now(),
          updated_at: now(),
        });
      }
      await makeFile(server, admin, 'Lark unstarred.pdf', perch.id);
      await db().insertInto('favorites').values(favorites).execute();
      const page = await search(admin, { query: 'lar', favorites_only: true });
      expect(page.total).toBe(larks.length);
      expect(page.items.map((h) => h.name)).toEqual(larks);
      expect(await searchNames(admin, { query: 'wren', favorites_only: true })).toEqual([
        'Wren photo.JPG',
      ]);
      expect(await searchNames(member, { query: 'lar', favorites_only: true })).toEqual([]);
    });
  });
});

describe('textMatchMode', () => {
  const few = ['a', 'b'];
  const many = Array.from({ length: TEXT_PROBE_MAX_ROWS + 1 }, (_, i) => `id${i}`);
  it('drives without a selective condition, probes a short list or a subtree, filters otherwise', () => {
    expect(textMatchMode({})).toBe('drive');
    expect(textMatchMode({ kinds: { folders: true, extensions: [], otherThan: null } })).toBe(
      'drive',
    );
    expect(textMatchMode({ within: { folderId: 'f', folderIds: ['f'] } })).toBe('probe');
    expect(textMatchMode({ favoritesOf: 'u', favoriteIds: few })).toBe('probe');
    expect(textMatchMode({ favoritesOf: 'u', favoriteIds: many })).toBe('filter');
    expect(textMatchMode({ favoritesOf: 'u', favoriteIds: null })).toBe('filter');
    expect(textMatchMode({ indexValues: [{ fieldId: 'x', values: ['1'], entityIds: few }] })).toBe(
      'probe',
    );
    expect(textMatchMode({ indexValues: [{ fieldId: 'x', values: ['1'], entityIds: null }] })).toBe(
      'filter',
    );
    // The shortest known list decides: many favorites within a few index value items is probed.
    expect(
      textMatchMode({
        favoritesOf: 'u',
        favoriteIds: many,
        indexValues: [{ fieldId: 'x', values: ['1'], entityIds: few }],
      }),
    ).toBe('probe');
    expect(
      textMatchMode({
        within: { folderId: 'f', folderIds: null },
        favoritesOf: 'u',
        favoriteIds: many,
      }),
    ).toBe('filter');
  });
});

describe('rankMatches', () => {
  const match = (id: string, name: string, extension = ''): AutocompleteMatch => {
    const nameKey = name.toLowerCase();
    const stemKey = extension ? nameKey.slice(0, -(extension.length + 1)) : nameKey;
    return {
      tier: 2,
      id,
      entity_type: extension ? 'file' : 'folder',
      parent_id: '',
      scope_id: '',
      name,
      extension,
      index_text: '',
      contact_text: '',
      tree_version: 0,
      stem_key: stemKey,
      name_key: nameKey,
    };
  };
  const order = (key: string, matches: AutocompleteMatch[]) =>
    rankMatches(key, matches).map((m) => `${m.tier} ${m.name}`);

  it('ranks as the tiers do: exact stems, prefixes by stem then name, then the others by id', () => {
    const matches = [
      match('6', 'Notes on merlin', ''),
      match('5', 'Merlin 2 notes.pdf', 'pdf'),
      match('4', 'Merlin 2.pdf', 'pdf'),
      match('3', 'Merlin 2.docx', 'docx'),
      match('2', 'merlin.txt', 'txt'),
      match('1', 'Merlin', ''),
      match('0', 'About merlin.txt', 'txt'),
    ];
    expect(order('merlin', matches)).toEqual([
      '0 Merlin',
      '0 merlin.txt',
      '1 Merlin 2.docx',
      '1 Merlin 2.pdf',
      '1 Merlin 2 notes.pdf',
      '2 About merlin.txt',
      '2 Notes on merlin',
    ]);
    // With a dot: exact stems, then exact whole names, then prefixes by the whole name.
    expect(
      order('merlin 2.', [
        match('a', 'Merlin 2 notes.pdf', 'pdf'),
        match('b', 'Merlin 2.pdf', 'pdf'),
        match('c', 'Merlin 2.docx', 'docx'),
      ]),
    ).toEqual(['1 Merlin 2.docx', '1 Merlin 2.pdf', '2 Merlin 2 notes.pdf']);
    expect(
      order('merlin.txt', [match('b', 'merlin.txt.pdf', 'pdf'), match('a', 'Merlin.txt', 'txt')]),
    ).toEqual(['0 merlin.txt.pdf', '0 Merlin.txt']);
  });

  it('orders keys by code point, as PostgreSQL\'s "C" collation does', () => {
    // U+FF21 (fullwidth A) sorts before U+1F600 by code point, after it by UTF-16 unit.
    expect(order('x', [match('1', 'x\u{1F600}'), match('2', 'x\uFF21')])).toEqual([
      '1 x\uFF21',
      '1 x\u{1F600}',
    ]);
  });
});
