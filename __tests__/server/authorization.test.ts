/**
 * The authorisation matrix (docs/roles.md), on SQLite and PostgreSQL: every
 * registered route (collected by a Fastify onRoute hook as buildApp registers them) × actor
 * (administrator, member, read-only member, administrator of another firm, no session, and a
 * guest of the firm — an outsider who signed up through a share of one of its folders)
 * × target (own item, item inside a restricted folder the members are not allowed in), with the
 * statuses of routeTable.ts. A registered route without a row fails the test, naming the route.
 * A guest gets 404 on every route that is not open to guests; on a public route a guest status
 * left to its default is the no-session answer (see routeTable.ts).
 */
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type * as FastifyModule from 'fastify';
import type { RouteOptions } from 'fastify';
import {
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';
import { seededAdmin } from './historyHelpers';
import {
  ACTORS,
  ROUTE_TABLE,
  rowMakers,
  type ActorName,
  type Fixture,
  type MatrixRequest,
  type Target,
} from './routeTable';

// Every route buildApp registers, as "METHOD url" (HEAD routes mirror GET and are left out).
const mockRegistered = new Set<string>();
jest.mock('fastify', () => {
  const actual = jest.requireActual<typeof FastifyModule>('fastify');
  const build = ((options?: object) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods)
        if (method !== 'HEAD') mockRegistered.add(`${method} ${route.url}`);
    });
    return app;
  }) as unknown as typeof actual.default;
  return { __esModule: true, ...actual, default: build, fastify: build };
});

const PASSWORD = 'matrix actor password';

describeEachDatabase('authorisation matrix', (kind) => {
  let server: TestServer;
  let fixture: Fixture;
  const cookies = new Map<ActorName, string>();
  const usernames = new Map<ActorName, string>();

  beforeAll(async () => {
    server = await startTestServer(kind);
    const { userId: adminId, databaseId } = await seededAdmin(server.services.db);
    const adminCookie = await signIn(server);
    cookies.set('admin', adminCookie);
    usernames.set('admin', 'admin');
    for (const [actor, role] of [
      ['member', 'member'],
      ['read_only', 'read_only'],
    ] as const) {
      await addUser(server, { username: `matrix-${actor}`, password: PASSWORD, role, databaseId });
      usernames.set(actor, `matrix-${actor}`);
      cookies.set(actor, await signIn(server, `matrix-${actor}`, PASSWORD));
    }
    const other = await addUser(server, {
      username: 'matrix-other',
      password: PASSWORD,
      role: 'admin',
    });
    usernames.set('other', 'matrix-other');
    cookies.set('other', await signIn(server, 'matrix-other', PASSWORD));
    const insider = await addUser(server, {
      username: 'matrix-insider',
      password: PASSWORD,
      databaseId,
    });
    const folder = async (name: string) => {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/rest/folders',
        headers: { cookie: adminCookie },
        payload: { name, parent_id: '' },
      });
      return response.json<{ id: string }>().id;
    };
    const openFolderId = await folder('Matrix open');
    const restrictedFolderId = await folder('Matrix restricted');
    const permission = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folder_permissions',
      headers: { cookie: adminCookie },
      payload: {
        folder_id: restrictedFolderId,
        permissionables: [{ permissionable_id: insider.userId, permissionable_type: 'user' }],
      },
    });
    expect(permission.statusCode).toBe(201);
    const ids = { databaseId, adminId, adminCookie, openFolderId, restrictedFolderId };
    const makers = rowMakers(server, ids);
    // The guest: signed up through a link to a folder of the firm holding one file.
    const sharedFolderId = await folder('Matrix shared');
    const sharedFileId = await makers.freshFile('own');
    const moved = await server.app.inject({
      method: 'POST',
      url: '/api/rest/bulk/move',
      headers: { cookie: adminCookie },
      payload: { items: [{ type: 'file', id: sharedFileId }], folder_id: sharedFolderId },
    });
    expect(moved.statusCode).toBe(200);
    const link = await server.app.inject({
      method: 'POST',
      url: '/api/rest/shared/links',
      headers: { cookie: adminCookie },
      payload: { entity_type: 'folder', entity_id: sharedFolderId, emails: [] },
    });
    expect(link.statusCode).toBe(201);
    const guestEmail = 'matrix-guest@example.com';
    const shareToken = link.json<{ url: string }>().url.split('/').pop();
    const signup = await server.app.inject({
      method: 'POST',
      url: '/api/rest/shared/signup',
      payload: {
        first_name: 'Matrix',
        last_name: 'Guest',
        email: guestEmail,
        password: PASSWORD,
        shareId: shareToken,
      },
    });
    expect(signup.statusCode).toBe(202);
    const signin = await server.app.inject({
      method: 'POST',
      url: '/api/rest/shared/signin',
      payload: { email: guestEmail, password: PASSWORD, inviteId: shareToken },
    });
    expect(signin.statusCode).toBe(200);
    cookies.set('guest', sessionCookie(signin));
    usernames.set('guest', guestEmail);
    fixture = {
      server,
      ...ids,
      otherDatabaseId: other.databaseId,
      permissionId: permission.json<{ id: string }[]>()[0]!.id,
      sharedFolderId,
      sharedFileId,
      ...makers,
    };
  });
  afterAll(async () => {
    await server.close();
  });

  it('has a row for every registered route', () => {
    expect(mockRegistered.size).toBeGreaterThan(50);
    const rows = new Set(ROUTE_TABLE.map((r) => r.route));
    const missing = [...mockRegistered].filter((route) => !rows.has(route)).sort();
    expect({ 'routes without a row in __tests__/server/routeTable.ts': missing }).toEqual({
      'routes without a row in __tests__/server/routeTable.ts': [],
    });
    const stale = [...rows].filter((route) => !mockRegistered.has(route)).sort();
    expect({ 'rows of routes no longer registered': stale }).toEqual({
      'rows of routes no longer registered': [],
    });
  });

  const send = async (actor: ActorName, request: MatrixRequest) => {
    let cookie = cookies.get(actor);
    if (request.freshSession && actor !== 'anon') {
      cookie = await signIn(server, usernames.get(actor), actor === 'admin' ? undefined : PASSWORD);
    }
    const response = await server.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { ...(cookie ? { cookie } : {}), ...request.headers },
      ...(request.payload !== undefined ? { payload: request.payload as object } : {}),
    });
    return response;
  };

  it('answers every route × actor × target with the expected status', async () => {
    const mismatches: string[] = [];
    for (const row of ROUTE_TABLE) {
      const targets: Target[] = row.restricted ? ['own', 'restricted'] : ['own'];
      for (const target of targets) {
        const expected = target === 'own' ? row.own : row.restricted!;
        let anonStatus = 0;
        let publicRoute = false;
        for (const actor of ACTORS) {
          const request = await row.request(fixture, target);
          const response = await send(actor, request);
          if (actor === 'anon') {
            // A route whose no-session answer is not the session check's 401 is public.
            anonStatus = response.statusCode;
            publicRoute =
              response.statusCode !== 401 ||
              response.json<{ code?: string }>().code !== 'unauthorized';
          }
          const wanted =
            actor === 'guest' && expected.guestByDefault && publicRoute
              ? anonStatus
              : expected[actor];
          if (response.statusCode !== wanted) {
            mismatches.push(
              `${row.route} [${target}] as ${actor}: expected ${wanted}, got ${response.statusCode} ${response.body.slice(0, 120)}`,
            );
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
