import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from '@common/api';
import type { BreadcrumbDto, EntityDto, FolderDto, NameListDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';

describeEachDatabase('folders and entities', (kind) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const createFolder = async (name: string, parentId = '', as = cookie) => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie: as },
      payload: { name, parent_id: parentId },
    });
    return response;
  };

  it('creates folders with unique names, case-insensitively', async () => {
    const parent = (await createFolder('Unique names')).json<FolderDto>();
    const names: string[] = [];
    for (const name of ['Reports', 'reports', 'REPORTS', 'Reports (1)']) {
      const response = await createFolder(name, parent.id);
      expect(response.statusCode).toBe(201);
      names.push(response.json<FolderDto>().name);
    }
    expect(names).toEqual(['Reports', 'reports (1)', 'REPORTS (2)', 'Reports (1) (1)']);
    const list = await server.app.inject({
      method: 'GET',
      url: `/api/rest/folders/name_list?parent_id=${parent.id}`,
      headers: { cookie },
    });
    expect(list.json<NameListDto>().names.sort()).toEqual([...names].sort());
  });

  it('gives concurrent creations of one name distinct names, never a 500', async () => {
    // On PostgreSQL the three transactions read the free name at once; the unique index refuses
    // all but one commit and the losers run again (services/transactions.ts inTransaction).
    const parent = (await createFolder('Concurrent names')).json<FolderDto>();
    const responses = await Promise.all([1, 2, 3].map(() => createFolder('Statements', parent.id)));
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const names = responses.map((r) => r.json<FolderDto>().name).sort();
    expect(names).toEqual(['Statements', 'Statements (1)', 'Statements (2)']);
  });

  it('refuses empty and invalid names with a clear message and creates nothing', async () => {
    const before = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie },
    });
    for (const name of ['', '   ', 'a/b', 'x'.repeat(300)]) {
      const response = await createFolder(name);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message.length).toBeGreaterThan(5);
    }
    const after = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie },
    });
    expect(after.json<Page<EntityDto>>().total).toBe(before.json<Page<EntityDto>>().total);
  });

  it('answers breadcrumbs from the top level down', async () => {
    const a = (await createFolder('Clients')).json<FolderDto>();
    const b = (await createFolder('Smith family', a.id)).json<FolderDto>();
    const c = (await createFolder('2026', b.id)).json<FolderDto>();
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/rest/folders/${c.id}/breadcrumbs`,
      headers: { cookie },
    });
    expect(response.json<BreadcrumbDto[]>()).toEqual([
      { id: a.id, name: 'Clients', type: 'breadcrumb' },
      { id: b.id, name: 'Smith family', type: 'breadcrumb' },
      { id: c.id, name: '2026', type: 'breadcrumb' },
    ]);
    const folder = await server.app.inject({
      method: 'GET',
      url: `/api/rest/folders/${c.id}`,
      headers: { cookie },
    });
    expect(folder.json<FolderDto>()).toMatchObject({
      id: c.id,
      parent_id: b.id,
      name: '2026',
      favorite: false,
    });
  });

  it('lists folders first, then by name, in pages', async () => {
    const parent = (await createFolder('Paging')).json<FolderDto>();
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'echo'])
      await createFolder(name, parent.id);
    const page = (n: number) =>
      server.app.inject({
        method: 'GET',
        url: `/api/rest/entities?folder_id=${parent.id}&page=${n}&page_size=2`,
        headers: { cookie },
      });
    const pages = await Promise.all([1, 2, 3].map(page));
    const bodies = pages.map((p) => p.json<Page<EntityDto>>());
    expect(bodies[0]!.total).toBe(5);
    expect(bodies.flatMap((b) => b.items.map((i) => i.name))).toEqual([
      'Alpha',
      'Bravo',
      'charlie',
      'delta',
      'echo',
    ]);
    expect(bodies[0]!).toMatchObject({ page: 1, page_size: 2 });
    const subfolders = await server.app.inject({
      method: 'GET',
      url: `/api/rest/folders?page=1&parent_id=${parent.id}`,
      headers: { cookie },
    });
    expect(subfolders.json<Page<FolderDto>>().items).toHaveLength(5);
  });

  it('writes one history event per folder created, with its attributes', async () => {
    const parent = (await createFolder('History parent')).json<FolderDto>();
    const child = (await createFolder('History child', parent.id)).json<FolderDto>();
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history?page=1',
      headers: { cookie },
      payload: { entity_id: child.id },
    });
    const events = response.json<Page<HistoryEventDto>>().items;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity_type: 'folder',
      action: 'create',
      attributes: {
        name: 'History child',
        next: { name: 'History child' },
        parent: { id: parent.id, name: 'History parent' },
      },
    });
  });

  it('answers 404 to a user of another firm for every folder route', async () => {
    const folder = (await createFolder('Private to Demo')).json<FolderDto>();
    await addUser(server, { username: 'rival', password: 'rival-password-1' });
    const rival = await signIn(server, 'rival', 'rival-password-1');
    const urls = [
      `/api/rest/folders/${folder.id}`,
      `/api/rest/folders/${folder.id}/breadcrumbs`,
      `/api/rest/entities?folder_id=${folder.id}`,
      `/api/rest/folders/name_list?parent_id=${folder.id}`,
      `/api/rest/folders?parent_id=${folder.id}`,
    ];
    for (const url of urls) {
      const response = await server.app.inject({ method: 'GET', url, headers: { cookie: rival } });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
    const inside = await createFolder('Intruder', folder.id, rival);
    expect(inside.statusCode).toBe(404);
    const rivalRoot = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie: rival },
    });
    expect(rivalRoot.json<Page<EntityDto>>().total).toBe(0);
  });

  it('refuses changes by a read-only member', async () => {
    const demo = (
      await server.app.inject({ method: 'GET', url: '/api/auth/current-user', headers: { cookie } })
    ).json<{ currentDatabaseId: string }>();
    await addUser(server, {
      username: 'viewer',
      password: 'viewer-password-1',
      role: 'read_only',
      databaseId: demo.currentDatabaseId,
    });
    const viewer = await signIn(server, 'viewer', 'viewer-password-1');
    const response = await createFolder('Not allowed', '', viewer);
    expect(response.statusCode).toBe(403);
    const list = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie: viewer },
    });
    expect(list.statusCode).toBe(200);
  });
});
