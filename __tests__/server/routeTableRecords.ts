/**
 * The authorisation matrix's rows for records management (retention schedules, legal holds,
 * protection, disposition); see routeTable.ts for the shape. Every route is for the
 * administrators of the session's firm: members and read-only members 403; another firm's
 * administrator reads their own firm's lists and gets 404 on this firm's schedules, holds and items.
 */
import { newId } from '@server/ids';
import { s, type Fixture, type RouteRow, type Target } from './routeTable';

/** Administrators only, on the session's firm (another firm's admin reads their own firm). */
const ADMIN_FIRM = (ok = 200) => s(ok, 403, 403, ok);
/** Administrators only, on an item of the firm (another firm's admin gets 404). */
const ADMIN_ITEM = (ok = 200) => s(ok, 403, 403, 404);

/** Sends a request as the firm's administrator and answers its JSON. */
async function asAdmin<T>(f: Fixture, method: 'POST' | 'GET', url: string, payload?: object) {
  const response = await f.server.app.inject({
    method,
    url,
    headers: { cookie: f.adminCookie },
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 300) {
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  }
  return response.json<T>();
}

/** A new unlocked schedule of the firm: its id. */
async function freshSchedule(f: Fixture): Promise<string> {
  const created = await asAdmin<{ id: string }>(
    f,
    'POST',
    '/api/rest/private/retention_schedules',
    {
      name: `Schedule ${newId().slice(-12)}`,
      period_count: 1,
      period_unit: 'days',
      basis: 'created',
    },
  );
  return created.id;
}

/** A new schedule applied to a new folder of the target: the schedule's and the target row's ids. */
async function freshScheduleTarget(
  f: Fixture,
  t: Target,
): Promise<{ id: string; targetId: string }> {
  const id = await freshSchedule(f);
  const folderId = await f.freshFolder(t);
  const schedule = await asAdmin<{ targets: { id: string }[] }>(
    f,
    'POST',
    `/api/rest/private/retention_schedules/${id}/targets`,
    { type: 'folder', id: folderId },
  );
  return { id, targetId: schedule.targets[0]!.id };
}

/** A new active hold on two new folders of the target: its id and its first target row's id. */
async function freshHold(f: Fixture, t: Target): Promise<{ id: string; targetId: string }> {
  const hold = await asAdmin<{ id: string; targets: { id: string }[] }>(
    f,
    'POST',
    '/api/rest/private/legal_holds',
    {
      name: `Hold ${newId().slice(-12)}`,
      targets: [
        { type: 'folder', id: await f.freshFolder(t) },
        { type: 'folder', id: await f.freshFolder(t) },
      ],
    },
  );
  return { id: hold.id, targetId: hold.targets[0]!.id };
}

/*
 * The statuses are getters: routeTable.ts imports this module before it defines `s` (the two
 * modules import each other), so `s` may only be called once the tests run.
 */
export const RECORDS_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/private/retention_schedules',
    request: () => ({ method: 'GET', url: '/api/rest/private/retention_schedules' }),
    get own() {
      return ADMIN_FIRM();
    },
  },
  {
    route: 'POST /api/rest/private/retention_schedules',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/retention_schedules',
      payload: {
        name: `New schedule ${newId().slice(-12)}`,
        period_count: 6,
        period_unit: 'years',
        basis: 'created',
      },
    }),
    get own() {
      return ADMIN_FIRM(201);
    },
  },
  {
    route: 'PATCH /api/rest/private/retention_schedules/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/retention_schedules/${await freshSchedule(f)}`,
      payload: { period_count: 2 },
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'POST /api/rest/private/retention_schedules/:id/lock',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/private/retention_schedules/${await freshSchedule(f)}/lock`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'DELETE /api/rest/private/retention_schedules/:id',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/private/retention_schedules/${await freshSchedule(f)}`,
    }),
    get own() {
      return ADMIN_ITEM(204);
    },
  },
  {
    route: 'POST /api/rest/private/retention_schedules/:id/targets',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/private/retention_schedules/${await freshSchedule(f)}/targets`,
      payload: { type: 'folder', id: await f.freshFolder(t) },
    }),
    get own() {
      return ADMIN_ITEM();
    },
    get restricted() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'DELETE /api/rest/private/retention_schedules/:id/targets/:targetId',
    request: async (f, t) => {
      const { id, targetId } = await freshScheduleTarget(f, t);
      return {
        method: 'DELETE',
        url: `/api/rest/private/retention_schedules/${id}/targets/${targetId}`,
      };
    },
    get own() {
      return ADMIN_ITEM();
    },
    get restricted() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'GET /api/rest/private/legal_holds',
    request: () => ({ method: 'GET', url: '/api/rest/private/legal_holds' }),
    get own() {
      return ADMIN_FIRM();
    },
  },
  {
    route: 'GET /api/rest/private/legal_holds/:id',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/private/legal_holds/${(await freshHold(f, t)).id}`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'POST /api/rest/private/legal_holds',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/private/legal_holds',
      payload: {
        name: 'Matrix hold',
        matter: 'Matrix v. Table',
        targets: [{ type: 'file', id: await f.freshFile(t) }],
      },
    }),
    // Another firm's administrator names a file that is not theirs: 404.
    get own() {
      return ADMIN_ITEM(201);
    },
    get restricted() {
      return ADMIN_ITEM(201);
    },
  },
  {
    route: 'PATCH /api/rest/private/legal_holds/:id',
    request: async (f, t) => ({
      method: 'PATCH',
      url: `/api/rest/private/legal_holds/${(await freshHold(f, t)).id}`,
      payload: { reason: 'A new reason' },
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'POST /api/rest/private/legal_holds/:id/targets',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/private/legal_holds/${(await freshHold(f, 'own')).id}/targets`,
      payload: { type: 'folder', id: await f.freshFolder(t) },
    }),
    get own() {
      return ADMIN_ITEM();
    },
    get restricted() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'DELETE /api/rest/private/legal_holds/:id/targets/:targetId',
    request: async (f, t) => {
      const { id, targetId } = await freshHold(f, t);
      return { method: 'DELETE', url: `/api/rest/private/legal_holds/${id}/targets/${targetId}` };
    },
    get own() {
      return ADMIN_ITEM();
    },
    get restricted() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'POST /api/rest/private/legal_holds/:id/release',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/private/legal_holds/${(await freshHold(f, t)).id}/release`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'GET /api/rest/private/records/protection',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/private/records/protection?type=file&id=${await f.freshFile(t)}`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
    get restricted() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'GET /api/rest/private/disposition',
    request: () => ({ method: 'GET', url: '/api/rest/private/disposition' }),
    get own() {
      return ADMIN_FIRM();
    },
  },
  {
    // A file under no schedule is not due: the administrator is refused with 409 (nothing is
    // deleted by the matrix); another firm's administrator names a file that is not theirs.
    route: 'POST /api/rest/private/disposition/approve',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/private/disposition/approve',
      payload: { file_ids: [await f.freshFile(t)] },
    }),
    get own() {
      return ADMIN_ITEM(409);
    },
    get restricted() {
      return ADMIN_ITEM(409);
    },
  },
];
