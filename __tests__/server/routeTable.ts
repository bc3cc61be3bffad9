/**
 * The authorisation matrix's route table (docs/roles.md): for every registered
 * route, the request to make and the status each actor expects — the firm's administrator, a
 * member, a read-only member, an administrator of another firm, no session, and a guest of the
 * firm (an outsider signed up through a share of a folder of the firm) — once on an own
 * item (in an unrestricted folder of the firm) and, where the route names a folder or file, once
 * on an item inside a restricted folder none of these members is allowed in (administrators see
 * everything). authorization.test.ts fails when a registered route has no row here.
 *
 * The guest column: a guest gets 404 on every route not open to guests, so `s()` defaults it to
 * 404 and row modules need not name it. On a public route (one that answers without a session,
 * i.e. whose no-session answer is not the session check's 401) the default means "the same as no
 * session": a guest's cookie changes nothing there. The share routes give the guest's statuses.
 */
import { Readable } from 'node:stream';
import { FOLDER_COLORS } from '@common/constants';
import type { AcceptShareResponse, CreateShareLinkResponse } from '@common/sharing';
import { nameKey, splitFileName } from '@common/names';
import { newId } from '@server/ids';
import { insertFile } from '@server/repositories/files';
import { insertFolder } from '@server/repositories/folders';
import { addUser, type TestServer } from './helpers';
import { seededAdmin } from './historyHelpers';
import { CONTACT_ROWS } from './routeTableContacts';
import { EXAMINER_ROWS } from './routeTableExaminer';
import { FIRM_ROWS } from './routeTableFirms';
import { INDEX_ROWS } from './routeTableIndexes';
import { IMAGING_ROWS } from './routeTableImaging';
import { OUTBOX_ROWS } from './routeTableOutbox';
import { RECORDS_ROWS } from './routeTableRecords';
import { REPLAY_ROWS } from './routeTableReplay';
import { REQUEST_ROWS } from './routeTableRequests';
import { SEARCH_ROWS } from './routeTableSearch';
import { SORT_ZIP_ROWS } from './routeTableSortZip';
import { VERSION_ROWS } from './routeTableVersions';

/**
 * Who makes a request. `other` is an administrator of another firm; `anon` has no session; `guest`
 * is a guest of the firm (signed up through a share of `sharedFolderId`). `guest` comes after
 * `anon`: its default status on public routes is read from anon's answer.
 */
export type ActorName = 'admin' | 'member' | 'read_only' | 'other' | 'anon' | 'guest';
export const ACTORS: readonly ActorName[] = [
  'admin',
  'member',
  'read_only',
  'other',
  'anon',
  'guest',
];

/** On what: an own item, or one inside a restricted folder the members are not allowed in. */
export type Target = 'own' | 'restricted';

/**
 * Expected status per actor. `guestByDefault` marks a guest status left to its default (404 on
 * session routes, the no-session answer on public ones).
 */
export type Statuses = Record<ActorName, number> & { guestByDefault?: boolean };

/** One request of the matrix. */
export interface MatrixRequest {
  method: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** Sign the actor in anew for this request (it ends or changes its session). */
  freshSession?: boolean;
}

/** What a request builder may use: the firm's ids and makers of fresh rows. */
export interface Fixture {
  server: TestServer;
  databaseId: string;
  otherDatabaseId: string;
  adminId: string;
  /** The admin's cookie, for set-up requests. */
  adminCookie: string;
  /** An unrestricted top-level folder of the firm. */
  openFolderId: string;
  /** A restricted top-level folder only `insider` may see (and administrators). */
  restrictedFolderId: string;
  /** A folder permission on the restricted folder. */
  permissionId: string;
  /** The folder an item of a target goes into. */
  home(target: Target): string;
  freshFolder(target: Target, archived?: boolean): Promise<string>;
  freshFile(target: Target, archived?: boolean): Promise<string>;
  /** A new member of the firm (for the user administration routes). */
  freshUser(): Promise<string>;
  /** A new team of the firm. */
  freshTeam(): Promise<string>;
  /** A multipart upload started by the admin in the target's folder: its id and key. */
  adminUpload(target: Target): Promise<{ id: string; key: string }>;
  /** A folder of the firm shared with the guest (through a link), and a file inside it. */
  sharedFolderId: string;
  sharedFileId: string;
  /**
   * A new share link made by the admin on a new folder in the target's folder, with one
   * invitation: its id, its link token and the invitation's id.
   */
  freshLink(target: Target): Promise<{ id: string; token: string; invitationId: string }>;
  /** A new external share (the admin accepted a fresh link) on the target: its id. */
  freshShare(target: Target): Promise<string>;
}

/** A row: a route, its request per target, and the statuses expected. */
export interface RouteRow {
  /** "METHOD url" exactly as registered, e.g. "GET /api/rest/folders/:id". */
  route: string;
  request(f: Fixture, target: Target): Promise<MatrixRequest> | MatrixRequest;
  own: Statuses;
  /** Statuses on an item in a restricted folder; absent when the route names no folder or file. */
  restricted?: Statuses;
}

/**
 * Expected statuses: admin, member, read-only member, other firm's admin, no session, guest of the
 * firm (default 404 on session routes; on public routes the same as no session).
 */
export function s(
  admin: number,
  member: number,
  readOnly: number,
  other: number,
  anon = 401,
  guest?: number,
): Statuses {
  // A function declaration: hoisted, so row modules imported above may call it at load time.
  return {
    admin,
    member,
    read_only: readOnly,
    other,
    anon,
    guest: guest ?? 404,
    ...(guest === undefined ? { guestByDefault: true } : {}),
  };
}

/** Reading an item: everyone of the firm; the item of another firm is 404. */
const READ = (ok = 200) => s(ok, ok, ok, 404);
/** Reading an item in a restricted folder: only administrators. */
const READ_HIDDEN = (ok = 200) => s(ok, 404, 404, 404);
/** Changing an item: administrators and members; read-only members 403. */
const WRITE = (ok = 200) => s(ok, ok, 403, 404);
/** Changing an item in a restricted folder: administrators; members 404; read-only 403 first. */
const WRITE_HIDDEN = (ok = 200) => s(ok, 404, 403, 404);
/** A list or read of the session's own firm (no item named). */
const FIRM = (ok = 200) => s(ok, ok, ok, ok);
/** Administrators only, on the session's firm (another firm's admin reads their own firm). */
const ADMIN_FIRM = (ok = 200) => s(ok, 403, 403, ok);
/** Administrators only, on an item of the firm (another firm's admin gets 404). */
const ADMIN_ITEM = (ok = 200) => s(ok, 403, 403, 404);

const bulk =
  (url: string, type: 'file' | 'folder', extra: Record<string, unknown> = {}) =>
  async (f: Fixture, t: Target): Promise<MatrixRequest> => ({
    method: 'POST',
    url,
    payload: {
      items: [
        {
          type,
          id:
            type === 'file'
              ? await f.freshFile(t, url.endsWith('restore') || url.endsWith('destroy'))
              : await f.freshFolder(t),
        },
      ],
      ...extra,
    },
  });

const START = new Date(Date.UTC(2020, 0, 1)).toISOString();
const END = new Date(Date.UTC(2100, 0, 1)).toISOString();
const color = FOLDER_COLORS[0]!.key;
const upload = (folderId: string) => ({
  folder_id: folderId,
  name: `up-${newId().slice(-6)}.txt`,
  extension: 'txt',
  content_type: 'text/plain',
  size: 5,
});

/** Every registered route (HEAD routes mirror their GET and are not listed). */
export const ROUTE_TABLE: RouteRow[] = [
  ...OUTBOX_ROWS,
  ...INDEX_ROWS,
  ...CONTACT_ROWS,
  ...SEARCH_ROWS,
  ...IMAGING_ROWS,
  ...SORT_ZIP_ROWS,
  ...FIRM_ROWS,
  ...RECORDS_ROWS,
  ...EXAMINER_ROWS,
  ...VERSION_ROWS,
  ...REQUEST_ROWS,
  ...REPLAY_ROWS,
  // ---- public -------------------------------------------------------------------------------
  {
    route: 'GET /api/docs',
    request: () => ({ method: 'GET', url: '/api/docs' }),
    own: s(200, 200, 200, 200, 200),
  },
  {
    route: 'GET /api/health',
    request: () => ({ method: 'GET', url: '/api/health' }),
    own: s(200, 200, 200, 200, 200),
  },
  {
    route: 'GET /api/ready',
    request: () => ({ method: 'GET', url: '/api/ready' }),
    own: s(200, 200, 200, 200, 200),
  },
  {
    // METRICS_TOKEN is unset here: the endpoint is off for everyone, a session changes nothing.
    route: 'GET /metrics',
    request: () => ({ method: 'GET', url: '/metrics' }),
    own: s(404, 404, 404, 404, 404),
  },
  {
    route: 'POST /api/rest/private/users/authenticate',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username: 'nobody', password: 'wrong password' },
    }),
    own: s(401, 401, 401, 401, 401),
  },
  {
    route: 'POST /api/auth/login',
    request: () => ({ method: 'POST', url: '/api/auth/login', payload: { token: 'not-a-token' } }),
    own: s(401, 401, 401, 401, 401),
  },
  {
    route: 'POST /api/rest/private/auth/login',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/auth/login',
      payload: { token: 'not-a-token' },
    }),
    own: s(401, 401, 401, 401, 401),
  },
  {
    // Called by a partner app with a user key, never with a session.
    route: 'GET /api/rest/private/auth/generate_token',
    request: () => ({ method: 'GET', url: '/api/rest/private/auth/generate_token?user_id=x' }),
    own: s(401, 401, 401, 401, 401),
  },
  {
    route: 'GET /api/rest/feature_flags',
    request: () => ({ method: 'GET', url: '/api/rest/feature_flags' }),
    own: s(200, 200, 200, 200, 200),
  },
  // ---- session ------------------------------------------------------------------------------
  {
    route: 'GET /api/auth/current-user',
    request: () => ({ method: 'GET', url: '/api/auth/current-user' }),
    // Open to guests (plugins/auth.ts GUEST_SESSION_ROUTES).
    own: s(200, 200, 200, 200, 401, 200),
  },
  {
    route: 'POST /api/auth/extend-session',
    request: () => ({ method: 'POST', url: '/api/auth/extend-session' }),
    // Open to guests (plugins/auth.ts GUEST_SESSION_ROUTES).
    own: s(200, 200, 200, 200, 401, 200),
  },
  {
    route: 'POST /api/auth/switch-database',
    request: (f) => ({
      method: 'POST',
      url: '/api/auth/switch-database',
      payload: { currentDatabaseId: f.databaseId },
      freshSession: true,
    }),
    own: s(200, 200, 200, 404),
  },
  {
    route: 'POST /api/auth/logout',
    request: () => ({ method: 'POST', url: '/api/auth/logout', freshSession: true }),
    own: s(204, 204, 204, 204, 401, 204),
  },
  {
    route: 'GET /api/rest/private/user_event/login',
    request: () => ({ method: 'GET', url: '/api/rest/private/user_event/login' }),
    own: s(204, 204, 204, 204, 401, 204),
  },
  {
    route: 'GET /api/rest/private/user_event/logout',
    request: () => ({ method: 'GET', url: '/api/rest/private/user_event/logout' }),
    own: s(204, 204, 204, 204, 401, 204),
  },
  // ---- folders and entities -----------------------------------------------------------------
  {
    route: 'GET /api/rest/entities',
    request: (f, t) => ({ method: 'GET', url: `/api/rest/entities?folder_id=${f.home(t)}` }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'GET /api/rest/folders',
    request: (f, t) => ({ method: 'GET', url: `/api/rest/folders?parent_id=${f.home(t)}` }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'POST /api/rest/folders',
    request: (f, t) => ({
      method: 'POST',
      url: '/api/rest/folders',
      payload: { name: `n${newId().slice(-8)}`, parent_id: f.home(t) },
    }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
  {
    route: 'GET /api/rest/folders/name_list',
    request: (f, t) => ({
      method: 'GET',
      url: `/api/rest/folders/name_list?parent_id=${f.home(t)}`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  ...(['', '/breadcrumbs', '/history', '/stats', '/download'] as const).map((suffix): RouteRow => ({
    route: `GET /api/rest/folders/:id${suffix}`,
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/folders/${await f.freshFolder(t)}${suffix}`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  })),
  {
    route: 'PATCH /api/rest/folders/:id',
    request: async (f, t) => ({
      method: 'PATCH',
      url: `/api/rest/folders/${await f.freshFolder(t)}`,
      payload: { name: `r${newId().slice(-8)}` },
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/folders/:id/archive',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/folders/${await f.freshFolder(t)}/archive`,
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/folders/:id/restore',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/folders/${await f.freshFolder(t, true)}/restore`,
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'PATCH /api/rest/folders/:id/favorite',
    request: async (f, t) => ({
      method: 'PATCH',
      url: `/api/rest/folders/${await f.freshFolder(t)}/favorite`,
      payload: { enabled: true },
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'POST /api/rest/folders/:id/copy',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/folders/${await f.freshFolder(t)}/copy`,
      payload: {},
    }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
  {
    route: 'PATCH /api/rest/colors',
    request: async (f, t) => ({
      method: 'PATCH',
      url: '/api/rest/colors',
      payload: { folder_id: await f.freshFolder(t), color },
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  // ---- files --------------------------------------------------------------------------------
  ...(['', '/download', '/preview', '/print', '/history'] as const).map((suffix): RouteRow => ({
    route: `GET /api/rest/files/:id${suffix}`,
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/files/${await f.freshFile(t)}${suffix}`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  })),
  {
    route: 'PATCH /api/rest/files/:id',
    request: async (f, t) => ({
      method: 'PATCH',
      url: `/api/rest/files/${await f.freshFile(t)}`,
      payload: { name: `r${newId().slice(-8)}.txt` },
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/files/:id/archive',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/files/${await f.freshFile(t)}/archive`,
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/files/:id/restore',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/files/${await f.freshFile(t, true)}/restore`,
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'PATCH /api/rest/files/:id/favorite',
    request: async (f, t) => ({
      method: 'PATCH',
      url: `/api/rest/files/${await f.freshFile(t)}/favorite`,
      payload: { enabled: true },
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'POST /api/rest/files',
    request: (f, t) => ({ method: 'POST', url: '/api/rest/files', payload: upload(f.home(t)) }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
  {
    route: 'POST /api/rest/files/multipart',
    request: (f, t) => ({
      method: 'POST',
      url: '/api/rest/files/multipart',
      payload: upload(f.home(t)),
    }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
  // A pending upload belongs to the user who started it: anyone else gets 404.
  {
    route: 'POST /api/rest/files/record',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/files/record',
      payload: { id: (await f.adminUpload(t)).id },
    }),
    own: s(409, 404, 404, 404),
    restricted: s(409, 404, 404, 404),
  },
  {
    route: 'GET /api/rest/files/multipart/:uploadId',
    request: async (f, t) => {
      const u = await f.adminUpload(t);
      return {
        method: 'GET',
        url: `/api/rest/files/multipart/${u.id}?key=${encodeURIComponent(u.key)}`,
      };
    },
    own: s(200, 404, 404, 404),
    restricted: s(200, 404, 404, 404),
  },
  {
    route: 'DELETE /api/rest/files/multipart/:uploadId',
    request: async (f, t) => {
      const u = await f.adminUpload(t);
      return {
        method: 'DELETE',
        url: `/api/rest/files/multipart/${u.id}?key=${encodeURIComponent(u.key)}`,
      };
    },
    // Answers the presigned abort request.
    own: s(200, 404, 404, 404),
    restricted: s(200, 404, 404, 404),
  },
  {
    route: 'GET /api/rest/files/multipart/:uploadId/parts',
    request: async (f, t) => {
      const u = await f.adminUpload(t);
      return {
        method: 'GET',
        url: `/api/rest/files/multipart/${u.id}/parts?key=${encodeURIComponent(u.key)}&first=1&count=1`,
      };
    },
    own: s(200, 404, 404, 404),
    restricted: s(200, 404, 404, 404),
  },
  {
    route: 'GET /api/rest/files/multipart/:uploadId/:partNumber',
    request: async (f, t) => {
      const u = await f.adminUpload(t);
      return {
        method: 'GET',
        url: `/api/rest/files/multipart/${u.id}/1?key=${encodeURIComponent(u.key)}`,
      };
    },
    own: s(200, 404, 404, 404),
    restricted: s(200, 404, 404, 404),
  },
  {
    route: 'POST /api/rest/files/multipart/:uploadId/complete',
    request: async (f, t) => {
      const u = await f.adminUpload(t);
      return {
        method: 'POST',
        url: `/api/rest/files/multipart/${u.id}/complete`,
        payload: { key: u.key },
      };
    },
    own: s(200, 404, 404, 404),
    restricted: s(200, 404, 404, 404),
  },
  {
    route: 'DELETE /api/rest/files/uploads/:id',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/files/uploads/${(await f.adminUpload(t)).id}`,
    }),
    own: s(204, 404, 404, 404),
    restricted: s(204, 404, 404, 404),
  },
  {
    route: 'GET /api/rest/files/restrictions',
    request: () => ({ method: 'GET', url: '/api/rest/files/restrictions' }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/files/stats',
    request: () => ({ method: 'GET', url: '/api/rest/files/stats' }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/files/stats/by_type',
    request: () => ({ method: 'GET', url: '/api/rest/files/stats/by_type' }),
    own: FIRM(),
  },
  // ---- lists --------------------------------------------------------------------------------
  {
    route: 'GET /api/rest/entities/archived',
    request: () => ({ method: 'GET', url: '/api/rest/entities/archived' }),
    own: FIRM(),
  },
  {
    route: 'POST /api/rest/entities/archived',
    request: () => ({ method: 'POST', url: '/api/rest/entities/archived', payload: {} }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/entities/favorites',
    request: () => ({ method: 'GET', url: '/api/rest/entities/favorites' }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/entities/recent',
    request: () => ({ method: 'GET', url: '/api/rest/entities/recent' }),
    own: FIRM(),
  },
  // ---- bulk ---------------------------------------------------------------------------------
  {
    route: 'POST /api/rest/bulk/move',
    request: async (f, t) =>
      bulk('/api/rest/bulk/move', 'file', { folder_id: await f.freshFolder('own') })(f, t),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/bulk/color',
    request: (f, t) => bulk('/api/rest/bulk/color', 'folder', { color })(f, t),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'POST /api/rest/bulk/archive',
    request: bulk('/api/rest/bulk/archive', 'file'),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/bulk/restore',
    request: bulk('/api/rest/bulk/restore', 'file'),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/bulk/destroy',
    request: bulk('/api/rest/bulk/destroy', 'file'),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  // ---- history ------------------------------------------------------------------------------
  {
    route: 'POST /api/rest/history',
    request: () => ({ method: 'POST', url: '/api/rest/history', payload: {} }),
    own: FIRM(),
  },
  {
    route: 'POST /api/rest/history/export',
    request: () => ({ method: 'POST', url: '/api/rest/history/export', payload: {} }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/history/stats',
    request: () => ({ method: 'GET', url: `/api/rest/history/stats?start=${START}&end=${END}` }),
    own: FIRM(400),
  },
  {
    route: 'GET /api/rest/history/users',
    request: () => ({ method: 'GET', url: '/api/rest/history/users' }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/history/verify',
    request: () => ({ method: 'GET', url: '/api/rest/history/verify' }),
    own: ADMIN_FIRM(),
  },
  // ---- folder permissions, permissionables, teams (administrators) --------------------------
  {
    route: 'POST /api/rest/folder_permissions',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/folder_permissions',
      payload: {
        folder_id: await f.freshFolder(t),
        permissionables: [{ permissionable_id: f.adminId, permissionable_type: 'user' }],
      },
    }),
    own: ADMIN_ITEM(201),
    restricted: ADMIN_ITEM(201),
  },
  {
    route: 'GET /api/rest/folder_permissions/:id',
    request: (f) => ({ method: 'GET', url: `/api/rest/folder_permissions/${f.permissionId}` }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'DELETE /api/rest/folder_permissions/:id',
    request: async (f) => {
      const folderId = await f.freshFolder('own');
      const created = await f.server.app.inject({
        method: 'POST',
        url: '/api/rest/folder_permissions',
        headers: { cookie: f.adminCookie },
        payload: {
          folder_id: folderId,
          permissionables: [{ permissionable_id: f.adminId, permissionable_type: 'user' }],
        },
      });
      const [permission] = created.json<{ id: string }[]>();
      return { method: 'DELETE', url: `/api/rest/folder_permissions/${permission!.id}` };
    },
    own: ADMIN_ITEM(204),
  },
  {
    route: 'DELETE /api/rest/folder_permissions/by_user',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/folder_permissions/by_user?user_id=${await f.freshUser()}`,
    }),
    own: ADMIN_ITEM(204),
  },
  {
    route: 'GET /api/rest/folders/:id/permissions',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/folders/${await f.freshFolder(t)}/permissions`,
    }),
    own: ADMIN_ITEM(),
    restricted: ADMIN_ITEM(),
  },
  {
    route: 'DELETE /api/rest/folders/:id/permissions',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/folders/${await f.freshFolder(t)}/permissions`,
    }),
    own: ADMIN_ITEM(204),
    restricted: ADMIN_ITEM(204),
  },
  {
    route: 'GET /api/rest/private/permissionables',
    request: () => ({ method: 'GET', url: '/api/rest/private/permissionables' }),
    own: ADMIN_FIRM(),
  },
  {
    route: 'GET /api/rest/private/teams',
    request: () => ({ method: 'GET', url: '/api/rest/private/teams' }),
    own: ADMIN_FIRM(),
  },
  {
    route: 'POST /api/rest/private/teams',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/teams',
      payload: { name: `Team ${newId().slice(-8)}` },
    }),
    own: ADMIN_FIRM(201),
  },
  {
    route: 'GET /api/rest/private/teams/:id',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/private/teams/${await f.freshTeam()}`,
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'PATCH /api/rest/private/teams/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/teams/${await f.freshTeam()}`,
      payload: { name: `T ${newId().slice(-8)}` },
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'DELETE /api/rest/private/teams/:id',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/private/teams/${await f.freshTeam()}`,
    }),
    own: ADMIN_ITEM(204),
  },
  {
    route: 'POST /api/rest/private/teams/:id/members',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/private/teams/${await f.freshTeam()}/members`,
      payload: { user_ids: [f.adminId] },
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'DELETE /api/rest/private/teams/:id/members/:user_id',
    request: async (f) => {
      const team = await f.freshTeam();
      await f.server.app.inject({
        method: 'POST',
        url: `/api/rest/private/teams/${team}/members`,
        headers: { cookie: f.adminCookie },
        payload: { user_ids: [f.adminId] },
      });
      return { method: 'DELETE', url: `/api/rest/private/teams/${team}/members/${f.adminId}` };
    },
    own: ADMIN_ITEM(204),
  },
  // ---- users and databases (administrators) -------------------------------------------------
  {
    route: 'GET /api/rest/private/users',
    request: () => ({ method: 'GET', url: '/api/rest/private/users' }),
    own: ADMIN_FIRM(),
  },
  {
    route: 'POST /api/rest/private/users',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/users',
      payload: {
        username: `u${newId().slice(-10)}`,
        firstName: 'New',
        lastName: 'User',
        password: 'A long enough passphrase 42!',
      },
    }),
    own: ADMIN_FIRM(201),
  },
  {
    route: 'PATCH /api/rest/private/users/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/users/${await f.freshUser()}`,
      payload: { firstName: 'Renamed' },
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'PATCH /api/rest/private/users/role/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/users/role/${await f.freshUser()}`,
      payload: { role: 'read_only' },
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'PATCH /api/rest/private/users/:id/update_password',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/users/${await f.freshUser()}/update_password`,
      payload: { password: 'Another long passphrase 43!' },
    }),
    own: ADMIN_ITEM(),
  },
  ...(['unlock', 'disable', 'enable'] as const).map((action): RouteRow => ({
    route: `POST /api/rest/private/users/:id/${action}`,
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/private/users/${await f.freshUser()}/${action}`,
    }),
    own: ADMIN_ITEM(),
  })),
  {
    route: 'GET /api/rest/private/users/:id/teams',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/private/users/${await f.freshUser()}/teams`,
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'GET /api/rest/private/databases',
    request: () => ({ method: 'GET', url: '/api/rest/private/databases' }),
    // The session user's own firms (for the firm switcher), so every signed-in user.
    own: FIRM(),
  },
  // ---- integrations (administrators) --------------------------------------------------------
  {
    route: 'GET /api/rest/private/integrations',
    request: () => ({ method: 'GET', url: '/api/rest/private/integrations' }),
    own: ADMIN_FIRM(),
  },
  ...(['enable', 'disable'] as const).map((action): RouteRow => ({
    route: `POST /api/rest/private/integrations/${action}`,
    request: (f) => ({
      method: 'POST',
      url: `/api/rest/private/integrations/${action}`,
      payload: { databaseId: f.databaseId },
    }),
    own: ADMIN_ITEM(),
  })),
  {
    route: 'GET /api/rest/private/integrations/userkey',
    request: () => ({
      method: 'GET',
      url: '/api/rest/private/integrations/userkey?partner_app_id=crm',
    }),
    own: ADMIN_FIRM(),
  },
  {
    route: 'POST /api/rest/private/integrations/userkey',
    request: async (f) => ({
      method: 'POST',
      url: '/api/rest/private/integrations/userkey?partner_app_id=crm',
      payload: { userId: await f.freshUser() },
    }),
    own: ADMIN_ITEM(201),
  },
  {
    route: 'POST /api/rest/private/integrations/users/:id',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/private/integrations/users/${await keyedUser(f)}?partner_app_id=crm`,
    }),
    own: ADMIN_ITEM(),
  },
  {
    route: 'DELETE /api/rest/private/integrations/users/:id',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/private/integrations/users/${await keyedUser(f)}?partner_app_id=crm`,
    }),
    own: ADMIN_ITEM(204),
  },
  // ---- sharing: links and invitations, managed like a change of the item ----------
  {
    route: 'POST /api/rest/shared/links',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/shared/links',
      payload: { entity_type: 'folder', entity_id: await f.freshFolder(t), emails: [] },
    }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
  {
    route: 'GET /api/rest/shared/links',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/shared/links?entity_type=folder&entity_id=${await f.freshFolder(t)}`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'DELETE /api/rest/shared/links/:id',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/shared/links/${(await f.freshLink(t)).id}`,
    }),
    own: WRITE(204),
    restricted: WRITE_HIDDEN(204),
  },
  {
    route: 'POST /api/rest/shared/links/:id/reissue',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/shared/links/${(await f.freshLink(t)).id}/reissue`,
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'POST /api/rest/shared/links/:id/invite',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/shared/links/${(await f.freshLink(t)).id}/invite`,
      payload: { emails: ['matrix-invitee@example.com'] },
    }),
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
  {
    route: 'DELETE /api/rest/shared/links/:id/invitations/:invitationId',
    request: async (f, t) => {
      const link = await f.freshLink(t);
      return {
        method: 'DELETE',
        url: `/api/rest/shared/links/${link.id}/invitations/${link.invitationId}`,
      };
    },
    own: WRITE(204),
    restricted: WRITE_HIDDEN(204),
  },
  {
    route: 'DELETE /api/rest/shared/entities/:id',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/shared/entities/${await f.freshShare(t)}`,
    }),
    own: WRITE(204),
    restricted: WRITE_HIDDEN(204),
  },
  // Accepting needs the token, not a view of the item: anyone of the firm holding it, guests too.
  {
    route: 'POST /api/rest/shared/links/:id/accept',
    request: async (f, t) => {
      const link = await f.freshLink(t);
      return {
        method: 'POST',
        url: `/api/rest/shared/links/${link.id}/accept`,
        payload: { token: link.token },
      };
    },
    own: s(200, 200, 200, 404, 401, 200),
    restricted: s(200, 200, 200, 404, 401, 200),
  },
  // ---- sharing: what was shared (the guest's pages; internal users have no share here) -------
  {
    route: 'GET /api/rest/shared/entities',
    request: (f) => ({
      method: 'GET',
      url: `/api/rest/shared/entities?folder_id=${f.sharedFolderId}`,
    }),
    own: s(404, 404, 404, 404, 401, 200),
  },
  {
    route: 'GET /api/rest/shared/folders/:id/breadcrumbs',
    request: (f) => ({
      method: 'GET',
      url: `/api/rest/shared/folders/${f.sharedFolderId}/breadcrumbs`,
    }),
    own: s(404, 404, 404, 404, 401, 200),
  },
  ...(['preview', 'download'] as const).map((mode): RouteRow => ({
    route: `GET /api/rest/shared/files/:id/${mode}`,
    request: (f) => ({ method: 'GET', url: `/api/rest/shared/files/${f.sharedFileId}/${mode}` }),
    own: s(404, 404, 404, 404, 401, 200),
  })),
  {
    route: 'GET /api/rest/entities/shared',
    request: () => ({ method: 'GET', url: '/api/rest/entities/shared' }),
    own: FIRM(),
  },
  {
    route: 'GET /api/rest/shared_entities',
    request: () => ({ method: 'GET', url: '/api/rest/shared_entities' }),
    own: FIRM(),
  },
  // ---- sharing: public (the token decides) ---------------------------------------------------
  {
    route: 'GET /api/rest/shared/invitation/:token',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/shared/invitation/${(await f.freshLink('own')).token}`,
    }),
    own: s(200, 200, 200, 200, 200),
  },
  {
    // An unknown token: nothing is created and no session is replaced.
    route: 'POST /api/rest/shared/signup',
    request: () => ({
      method: 'POST',
      url: '/api/rest/shared/signup',
      payload: {
        first_name: 'No',
        last_name: 'Body',
        email: 'nobody@example.com',
        password: 'a long enough password',
        shareId: 'not-a-token',
      },
    }),
    own: s(404, 404, 404, 404, 404),
  },
  {
    // A real link, a wrong password: the sign-in's 401 before any session is touched.
    route: 'POST /api/rest/shared/signin',
    request: async (f) => ({
      method: 'POST',
      url: '/api/rest/shared/signin',
      payload: {
        email: 'nobody@example.com',
        password: 'wrong password',
        inviteId: (await f.freshLink('own')).token,
      },
    }),
    own: s(401, 401, 401, 401, 401),
  },
  // ---- the local object store: authorised by the presigned URL's signature, not the session --
  ...(['GET', 'POST', 'PUT', 'DELETE'] as const).map((method): RouteRow => ({
    route: `${method} /api/storage/objects/*`,
    request: (f) => ({ method, url: `/api/storage/objects/${f.databaseId}/x?signature=forged` }),
    own: s(403, 403, 403, 403, 403),
  })),
  {
    // An S3 store's multipart create step, answered by the app: authorised by its signature.
    route: 'POST /api/storage/initiated/*',
    request: (f) => ({
      method: 'POST',
      url: `/api/storage/initiated/${f.databaseId}/x?uploadId=x&expires=9999999999999&sig=00`,
    }),
    own: s(403, 403, 403, 403, 403),
  },
];

/** A fresh member of the firm holding a partner key (made by the admin). */
async function keyedUser(f: Fixture): Promise<string> {
  const userId = await f.freshUser();
  const response = await f.server.app.inject({
    method: 'POST',
    url: '/api/rest/private/integrations/userkey?partner_app_id=crm',
    headers: { cookie: f.adminCookie },
    payload: { userId },
  });
  if (response.statusCode !== 201)
    throw new Error(`key for ${userId}: ${response.statusCode} ${response.body}`);
  return userId;
}

/**
 * The row makers of the seeded firm for tests that walk every route as its administrator, with the
 * ids they were built on: a new root folder named `folderName` serves as both the open and the
 * restricted folder.
 * @param adminCookie the seeded administrator's session cookie
 */
export async function seededAdminRowMakers(
  server: TestServer,
  adminCookie: string,
  folderName: string,
): Promise<{
  makers: ReturnType<typeof rowMakers>;
  adminId: string;
  databaseId: string;
  openFolderId: string;
}> {
  const { userId: adminId, databaseId } = await seededAdmin(server.services.db);
  const folder = await server.app.inject({
    method: 'POST',
    url: '/api/rest/folders',
    headers: { cookie: adminCookie },
    payload: { name: folderName, parent_id: '' },
  });
  const openFolderId = folder.json<{ id: string }>().id;
  const makers = rowMakers(server, {
    databaseId,
    adminId,
    adminCookie,
    openFolderId,
    restrictedFolderId: openFolderId,
  });
  return { makers, adminId, databaseId, openFolderId };
}

/** Builds the fixture's row makers on a firm (direct inserts, fast). */
export function rowMakers(
  server: TestServer,
  ids: {
    databaseId: string;
    adminId: string;
    adminCookie: string;
    openFolderId: string;
    restrictedFolderId: string;
  },
): Pick<
  Fixture,
  | 'home'
  | 'freshFolder'
  | 'freshFile'
  | 'freshUser'
  | 'freshTeam'
  | 'adminUpload'
  | 'freshLink'
  | 'freshShare'
> {
  const home = (t: Target) => (t === 'own' ? ids.openFolderId : ids.restrictedFolderId);
  const now = () => new Date(server.clock.now).toISOString();
  const asAdmin = async (
    method: 'POST' | 'GET',
    url: string,
    payload: object,
    expected: number,
  ) => {
    const response = await server.app.inject({
      method,
      url,
      headers: { cookie: ids.adminCookie },
      payload,
    });
    if (response.statusCode !== expected)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  };
  const makers: ReturnType<typeof rowMakers> = {
    async freshLink(t) {
      const folderId = await makers.freshFolder(t);
      const response = await asAdmin(
        'POST',
        '/api/rest/shared/links',
        { entity_type: 'folder', entity_id: folderId, emails: ['matrix-invited@example.com'] },
        201,
      );
      const { link, url } = response.json<CreateShareLinkResponse>();
      return { id: link.id, token: url.split('/').pop()!, invitationId: link.invitations[0]!.id };
    },
    async freshShare(t) {
      const link = await makers.freshLink(t);
      const response = await asAdmin(
        'POST',
        `/api/rest/shared/links/${link.id}/accept`,
        { token: link.token },
        200,
      );
      return response.json<AcceptShareResponse>().share.share_id;
    },
    home,
    async freshFolder(t, archived = false) {
      const id = newId();
      const name = `folder ${id.slice(-8)}`;
      await insertFolder(server.services.db, {
        id,
        database_id: ids.databaseId,
        parent_id: home(t),
        name,
        name_key: nameKey(name),
        created_by: ids.adminId,
        created_at: now(),
        updated_at: now(),
        archived_at: archived ? now() : null,
        archived_root_id: archived ? id : null,
      });
      return id;
    },
    async freshFile(t, archived = false) {
      const id = newId();
      const name = `file ${id.slice(-8)}.txt`;
      const storageKey = `${ids.databaseId}/${id}`;
      const bytes = Buffer.from(`content of ${name}`);
      const stored = await server.store.write(storageKey, Readable.from([bytes]), bytes.length);
      await insertFile(server.services.db, {
        id,
        database_id: ids.databaseId,
        folder_id: home(t),
        name,
        name_key: nameKey(name),
        extension: splitFileName(name).extension,
        size: bytes.length,
        content_type: 'text/plain',
        storage_key: storageKey,
        status: 'ready',
        sha256: stored.sha256 ?? null,
        created_by: ids.adminId,
        created_at: now(),
        updated_at: now(),
        archived_at: archived ? now() : null,
        archived_root_id: archived ? id : null,
      });
      return id;
    },
    async freshUser() {
      const username = `m${newId().slice(-10)}`;
      return (
        await addUser(server, {
          username,
          password: 'matrix password 1',
          databaseId: ids.databaseId,
        })
      ).userId;
    },
    async freshTeam() {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/rest/private/teams',
        headers: { cookie: ids.adminCookie },
        payload: { name: `Team ${newId().slice(-10)}` },
      });
      return response.json<{ id: string }>().id;
    },
    async adminUpload(t) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/rest/files/multipart',
        headers: { cookie: ids.adminCookie },
        payload: upload(home(t)),
      });
      if (response.statusCode !== 201)
        throw new Error(`upload: ${response.statusCode} ${response.body}`);
      return response.json<{ id: string; key: string }>();
    },
  };
  return makers;
}
