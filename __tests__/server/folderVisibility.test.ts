/**
 * Folder permissions enforced everywhere, on SQLite and PostgreSQL: a restricted
 * folder and everything inside it is seen only by the users and teams listed (and team members)
 * and by administrators — in folder pages and their counts, folders?page, name_list, breadcrumbs,
 * single reads, the Archive/Favorites/Recent lists, folder and firm stats, zip downloads, history
 * lists, item history and history stats, uploads, bulk actions and copies; nested restricted
 * folders need a permission on each.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from '@common/api';
import type { EntityDto, FolderDto, NameListDto } from '@common/entities';
import type { HistoryPageDto, HistoryStatsDto } from '@common/history';
import type { FileStatsDto, FolderStatsDto } from '@common/stats';
import type { TeamDto } from '@common/users';
import type { KyselyPlugin } from 'kysely';
import { newId } from '@server/ids';
import type { RequestContext } from '@server/services/context';
import { listEntities } from '@server/services/folders';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, makeFile, makeFolder, newActor, type Actor } from './organiseHelpers';

describeEachDatabase('folder permissions enforced everywhere', (kind) => {
  let server: TestServer;
  let admin: Actor;
  /** Allowed on Restricted by a user permission. */
  let allowed: Actor;
  /** Allowed on Restricted and Inner through the team. */
  let teamMember: Actor;
  /** A member without any permission. */
  let outsider: Actor;
  let reader: Actor;
  let open: FolderDto;
  let restricted: FolderDto;
  let inner: FolderDto;
  let privateSub: FolderDto;
  let secret: { id: string; name: string };
  let innerFile: { id: string; name: string };
  let openFile: { id: string; name: string };

  const send = (
    actor: Actor,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { cookie: actor.cookie },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const permit = async (
    folderId: string,
    permissionables: { permissionable_id: string; permissionable_type: 'user' | 'team' }[],
  ) => {
    const response = await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: folderId,
      permissionables,
    });
    expect(response.statusCode).toBe(201);
  };
  const names = async (actor: Actor, folderId = ''): Promise<string[]> => {
    const response = await send(
      actor,
      'GET',
      `/api/rest/entities?folder_id=${folderId}&page_size=100`,
    );
    expect(response.statusCode).toBe(200);
    const page = response.json<Page<EntityDto>>();
    expect(page.total).toBe(page.items.length);
    return page.items.map((i) => i.name);
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    allowed = await newActor(server, 'vis-allowed', 'member', admin.databaseId);
    teamMember = await newActor(server, 'vis-team', 'member', admin.databaseId);
    outsider = await newActor(server, 'vis-outsider', 'member', admin.databaseId);
    reader = await newActor(server, 'vis-reader', 'read_only', admin.databaseId);
    const team = (
      await send(admin, 'POST', '/api/rest/private/teams', {
        name: 'Partners',
        member_ids: [teamMember.userId],
      })
    ).json<TeamDto>();
    open = await makeFolder(server, admin, 'Open');
    restricted = await makeFolder(server, admin, 'Restricted');
    inner = await makeFolder(server, admin, 'Inner', restricted.id);
    privateSub = await makeFolder(server, admin, 'Private', open.id);
    secret = await makeFile(server, admin, 'secret.txt', restricted.id);
    innerFile = await makeFile(server, admin, 'inner.txt', inner.id);
    openFile = await makeFile(server, admin, 'open.txt', open.id);
    await makeFile(server, admin, 'private.txt', privateSub.id);
    await permit(restricted.id, [
      { permissionable_id: allowed.userId, permissionable_type: 'user' },
      { permissionable_id: team.id, permissionable_type: 'team' },
    ]);
    // Nested: Inner is restricted again, to the team only.
    await permit(inner.id, [{ permissionable_id: team.id, permissionable_type: 'team' }]);
    await permit(privateSub.id, [{ permissionable_id: team.id, permissionable_type: 'team' }]);
    // Events about the restricted items, by the admin.
    for (const id of [secret.id, innerFile.id, openFile.id]) {
      expect((await send(admin, 'GET', `/api/rest/files/${id}/download`)).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists a restricted folder only for its users, team members and administrators; counts agree', async () => {
    expect(await names(admin)).toEqual(expect.arrayContaining(['Open', 'Restricted']));
    expect(await names(allowed)).toEqual(expect.arrayContaining(['Open', 'Restricted']));
    expect(await names(teamMember)).toEqual(expect.arrayContaining(['Open', 'Restricted']));
    expect(await names(outsider)).toEqual(['Open']);
    expect(await names(reader)).toEqual(['Open']);
    // Inside: the nested restricted folder only for the team member and the admin.
    expect(await names(allowed, restricted.id)).toEqual(['secret.txt']);
    expect(await names(teamMember, restricted.id)).toEqual(['Inner', 'secret.txt']);
    expect(await names(admin, restricted.id)).toEqual(['Inner', 'secret.txt']);
    expect(await names(outsider, open.id)).toEqual(['open.txt']);
    expect(await names(teamMember, open.id)).toEqual(['Private', 'open.txt']);
    // Paged by offset past the hidden folder: page 2 of size 1 is the file for the outsider.
    const second = await send(
      outsider,
      'GET',
      `/api/rest/entities?folder_id=${open.id}&page=2&page_size=1`,
    );
    expect(second.json<Page<EntityDto>>()).toMatchObject({ total: 1, items: [] });
    const folders = await send(outsider, 'GET', '/api/rest/folders?parent_id=');
    expect(folders.json<Page<FolderDto>>()).toMatchObject({ total: 1, items: [{ name: 'Open' }] });
  });

  it('answers 404 for every read of a hidden item, as for another firm', async () => {
    for (const url of [
      `/api/rest/entities?folder_id=${restricted.id}`,
      `/api/rest/folders/${restricted.id}`,
      `/api/rest/folders/${restricted.id}/breadcrumbs`,
      `/api/rest/folders/${restricted.id}/history`,
      `/api/rest/folders/${restricted.id}/stats`,
      `/api/rest/folders/${restricted.id}/download`,
      `/api/rest/folders/name_list?parent_id=${restricted.id}`,
      `/api/rest/folders?parent_id=${restricted.id}`,
      `/api/rest/files/${secret.id}`,
      `/api/rest/files/${secret.id}/download`,
      `/api/rest/files/${secret.id}/preview`,
      `/api/rest/files/${secret.id}/history`,
    ]) {
      expect([url, (await send(outsider, 'GET', url)).statusCode]).toEqual([url, 404]);
      expect([url, (await send(allowed, 'GET', url)).statusCode]).toEqual([url, 200]);
    }
    // Nested: allowed on Restricted but not on Inner.
    expect((await send(allowed, 'GET', `/api/rest/folders/${inner.id}`)).statusCode).toBe(404);
    expect((await send(allowed, 'GET', `/api/rest/files/${innerFile.id}`)).statusCode).toBe(404);
    expect((await send(teamMember, 'GET', `/api/rest/files/${innerFile.id}`)).statusCode).toBe(200);
    const crumbs = await send(teamMember, 'GET', `/api/rest/folders/${inner.id}/breadcrumbs`);
    expect(crumbs.json<{ name: string }[]>().map((c) => c.name)).toEqual(['Restricted', 'Inner']);
  });

  it('hides names in name_list but keeps them for the unique-name rule', async () => {
    const list = (
      await send(outsider, 'GET', '/api/rest/folders/name_list?parent_id=')
    ).json<NameListDto>();
    expect(list.names).toContain('Open');
    expect(list.names).not.toContain('Restricted');
    const created = await send(outsider, 'POST', '/api/rest/folders', {
      name: 'Restricted',
      parent_id: '',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<FolderDto>().name).toBe('Restricted (1)');
    const adminList = (
      await send(admin, 'GET', '/api/rest/folders/name_list?parent_id=')
    ).json<NameListDto>();
    expect(adminList.names).toEqual(expect.arrayContaining(['Restricted', 'Restricted (1)']));
  });

  it('refuses uploads into, copies of and bulk actions naming a hidden item (whole call 404)', async () => {
    const upload = await send(outsider, 'POST', '/api/rest/files', {
      folder_id: restricted.id,
      name: 'x.txt',
      extension: 'txt',
      content_type: 'text/plain',
      size: 3,
    });
    expect(upload.statusCode).toBe(404);
    const bulk = await send(outsider, 'POST', '/api/rest/bulk/archive', {
      items: [
        { type: 'file', id: openFile.id },
        { type: 'file', id: secret.id },
      ],
    });
    expect(bulk.statusCode).toBe(404);
    expect(
      (await send(outsider, 'GET', `/api/rest/files/${openFile.id}`)).json<{
        archived_at: string | null;
      }>().archived_at,
    ).toBeNull();
    const move = await send(outsider, 'POST', '/api/rest/bulk/move', {
      items: [{ type: 'file', id: openFile.id }],
      folder_id: restricted.id,
    });
    expect(move.statusCode).toBe(404);
    expect(
      (await send(outsider, 'PATCH', `/api/rest/files/${secret.id}`, { name: 'renamed.txt' }))
        .statusCode,
    ).toBe(404);
    // Archiving Open would archive the hidden Private folder with it: refused.
    const archiveOpen = await send(outsider, 'POST', `/api/rest/folders/${open.id}/archive`);
    expect(archiveOpen.statusCode).toBe(403);
    expect(archiveOpen.json<{ code: string }>().code).toBe('hidden_contents');
    expect(await names(outsider)).toContain('Open');
    // A copy of Open by the outsider leaves the hidden Private folder out.
    const copy = await send(outsider, 'POST', `/api/rest/folders/${open.id}/copy`, {});
    expect(copy.statusCode).toBe(201);
    const copied = copy.json<FolderDto>();
    expect(await names(admin, copied.id)).toEqual(['open.txt']);
    expect((await send(admin, 'POST', `/api/rest/folders/${copied.id}/archive`)).statusCode).toBe(
      200,
    );
  });

  it('leaves hidden items out of the Archive, Favorites and Recent lists', async () => {
    const archivedSecret = await makeFile(server, admin, 'archived-secret.txt', restricted.id);
    expect(
      (await send(admin, 'POST', `/api/rest/files/${archivedSecret.id}/archive`)).statusCode,
    ).toBe(200);
    const archived = async (actor: Actor) =>
      (await send(actor, 'GET', '/api/rest/entities/archived?page_size=100')).json<
        Page<EntityDto>
      >();
    expect((await archived(admin)).items.map((i) => i.id)).toContain(archivedSecret.id);
    expect((await archived(allowed)).items.map((i) => i.id)).toContain(archivedSecret.id);
    const hidden = await archived(outsider);
    expect(hidden.items.map((i) => i.id)).not.toContain(archivedSecret.id);
    expect(hidden.total).toBe(hidden.items.length);
    // Favorites and recent rows of the outsider that point into the hidden folder (made before the
    // permission, say) are not listed.
    const now = new Date(server.clock.now).toISOString();
    for (const id of [secret.id, openFile.id]) {
      await server.services.db
        .insertInto('favorites')
        .values({
          id: newId(),
          database_id: admin.databaseId,
          entity_type: 'file',
          entity_id: id,
          user_id: outsider.userId,
          enabled: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await server.services.db
        .insertInto('recent_items')
        .values({
          database_id: admin.databaseId,
          user_id: outsider.userId,
          entity_type: 'file',
          entity_id: id,
          action: 'preview',
          at: now,
        })
        .execute();
    }
    for (const list of ['favorites', 'recent']) {
      const page = (await send(outsider, 'GET', `/api/rest/entities/${list}`)).json<
        Page<EntityDto>
      >();
      const ids = page.items.map((i) => i.id);
      expect([list, ids.includes(openFile.id), ids.includes(secret.id)]).toEqual([
        list,
        true,
        false,
      ]);
      expect(page.total).toBe(ids.length);
    }
  });

  it('counts only visible items in folder and firm statistics', async () => {
    const firm = async (actor: Actor) =>
      (await send(actor, 'GET', '/api/rest/files/stats')).json<FileStatsDto>();
    const all = await firm(admin);
    const outsiders = await firm(outsider);
    const allowedStats = await firm(allowed);
    // The outsider misses Restricted, Inner and Private (3 folders) and the files in them.
    expect(all.folders - outsiders.folders).toBe(3);
    expect(all.files - outsiders.files).toBeGreaterThanOrEqual(3);
    expect(all.folders - allowedStats.folders).toBe(2); // Inner and Private
    const folderStats = async (actor: Actor) =>
      (await send(actor, 'GET', `/api/rest/folders/${open.id}/stats`)).json<FolderStatsDto>();
    expect((await folderStats(teamMember)).folders).toBe(1);
    expect((await folderStats(outsider)).folders).toBe(0);
    const byType = async (actor: Actor) =>
      (await send(actor, 'GET', '/api/rest/files/stats/by_type'))
        .json<{ count: number }[]>()
        .reduce((n, t) => n + t.count, 0);
    expect(await byType(outsider)).toBe(outsiders.files);
    expect(await byType(admin)).toBe(all.files);
  });

  it('zips only the visible tree', async () => {
    const zip = async (actor: Actor) => {
      const response = await send(actor, 'GET', `/api/rest/folders/${open.id}/download`);
      expect(response.statusCode).toBe(200);
      return response.rawPayload.toString('latin1');
    };
    const theirs = await zip(outsider);
    expect(theirs).toContain('Open/open.txt');
    expect(theirs).not.toContain('Private');
    expect(await zip(teamMember)).toContain('Open/Private/private.txt');
  });

  it('reads a folder page with a constant number of queries, whatever the number of hidden folders', async () => {
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const services = { ...server.services, db: server.services.db.withPlugin(counter) };
    const perSize: number[][] = [];
    for (const size of [8, 40]) {
      const top = await makeFolder(server, admin, `Counted ${size}`);
      for (let i = 0; i < size; i += 1) {
        const sub = await makeFolder(server, admin, `hidden ${i}`, top.id);
        await permit(sub.id, [{ permissionable_id: allowed.userId, permissionable_type: 'user' }]);
        await makeFolder(server, admin, `visible ${i}`, top.id);
        await makeFile(server, admin, `file ${i}.txt`, top.id);
      }
      const counts: number[] = [];
      // A fresh context per read, as each request has (the hidden set is cached per request).
      const ctx = (): RequestContext => ({
        userId: outsider.userId,
        userName: 'Outsider',
        databaseId: outsider.databaseId,
        role: 'member',
        sessionId: 's',
        ip: null,
        userAgent: null,
      });
      const measure = async (page: number, cursor?: string) => {
        queries = 0;
        const result = await listEntities(services, ctx(), top.id, page, 2, cursor);
        counts.push(queries);
        return result;
      };
      const first = await measure(1);
      expect(first.total).toBe(size * 2);
      expect(first.items.every((i) => !i.name.startsWith('hidden'))).toBe(true);
      await measure(2, first.next_cursor!);
      await measure(2);
      await measure(size);
      perSize.push(counts);
    }
    expect({ perSize }).toEqual({ perSize: [perSize[0], perSize[0]] });
    expect(Math.max(...perSize[0]!)).toBeLessThanOrEqual(10);
  });

  describe('history', () => {
    const events = async (actor: Actor) => {
      const response = await send(actor, 'POST', '/api/rest/history?page_size=200', {});
      expect(response.statusCode).toBe(200);
      return response.json<HistoryPageDto>();
    };
    it('shows events about hidden items only to those who may see them', async () => {
      const about = (page: HistoryPageDto, id: string) =>
        page.items.filter((e) => e.entity_id === id).length;
      const adminEvents = await events(admin);
      const outsiderEvents = await events(outsider);
      for (const id of [restricted.id, secret.id, innerFile.id, inner.id]) {
        expect([id, about(adminEvents, id) > 0]).toEqual([id, true]);
        expect(about(outsiderEvents, id)).toBe(0);
      }
      expect(about(outsiderEvents, openFile.id)).toBeGreaterThan(0);
      const allowedEvents = await events(allowed);
      expect(about(allowedEvents, secret.id)).toBeGreaterThan(0);
      expect(about(allowedEvents, innerFile.id)).toBe(0);
      expect(outsiderEvents.total).toBe(outsiderEvents.items.length);
      expect(outsiderEvents.items.some((e) => e.entity_type === 'folder_permission')).toBe(false);
      const stats = async (actor: Actor) => {
        const start = new Date(server.clock.now - 86_400_000).toISOString();
        const end = new Date(server.clock.now + 86_400_000).toISOString();
        const response = await send(
          actor,
          'GET',
          `/api/rest/history/stats?start=${start}&end=${end}`,
        );
        expect(response.statusCode).toBe(200);
        return response.json<HistoryStatsDto>().total;
      };
      expect(await stats(admin)).toBeGreaterThan(await stats(outsider));
      const exported = await send(outsider, 'POST', '/api/rest/history/export', {});
      expect(exported.statusCode).toBe(200);
      expect(exported.body).not.toContain(secret.id);
      expect(exported.body).toContain(openFile.id);
    });

    it('shows the folder again once the outsider is allowed, and hides it once removed', async () => {
      await permit(restricted.id, [
        { permissionable_id: outsider.userId, permissionable_type: 'user' },
      ]);
      expect(await names(outsider)).toEqual(expect.arrayContaining(['Open', 'Restricted']));
      expect((await send(outsider, 'GET', `/api/rest/files/${secret.id}`)).statusCode).toBe(200);
      expect((await events(outsider)).items.some((e) => e.entity_id === secret.id)).toBe(true);
      expect(
        (
          await send(
            admin,
            'DELETE',
            `/api/rest/folder_permissions/by_user?user_id=${outsider.userId}`,
          )
        ).statusCode,
      ).toBe(204);
      expect(await names(outsider)).not.toContain('Restricted');
      // Removing every permission of a folder makes it visible to all again.
      expect(
        (await send(admin, 'DELETE', `/api/rest/folders/${privateSub.id}/permissions`)).statusCode,
      ).toBe(204);
      expect(await names(outsider, open.id)).toEqual(['Private', 'open.txt']);
    });
  });
});
