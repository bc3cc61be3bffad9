/**
 * The authorisation matrix's rows for the folder view's sort preference, the zip of a selection
 * and a file's "Make a copy"; see routeTable.ts for the shape.
 */
import { s, type Fixture, type RouteRow, type Target } from './routeTable';

/** Reading an item: everyone of the firm; the item of another firm is 404. */
const READ = (ok = 200) => s(ok, ok, ok, 404);
/** Reading an item in a restricted folder: only administrators. */
const READ_HIDDEN = (ok = 200) => s(ok, 404, 404, 404);
/** Changing an item: administrators and members; read-only members 403. */
const WRITE = (ok = 200) => s(ok, ok, 403, 404);
/** Changing an item in a restricted folder: administrators; members 404; read-only 403 first. */
const WRITE_HIDDEN = (ok = 200) => s(ok, 404, 403, 404);
/** The session's own data: every signed-in user of a firm. */
const OWN = (ok = 200) => s(ok, ok, ok, ok);

/** A zip link the administrator made for a fresh file of the target: only they may use it. */
async function adminZipUrl(f: Fixture, t: Target): Promise<string> {
  const response = await f.server.app.inject({
    method: 'POST',
    url: '/api/rest/entities/zip',
    headers: { cookie: f.adminCookie },
    payload: { items: [{ type: 'file', id: await f.freshFile(t) }] },
  });
  return response.json<{ url: string }>().url;
}

export const SORT_ZIP_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/preferences',
    request: () => ({ method: 'GET', url: '/api/rest/preferences' }),
    own: OWN(),
  },
  {
    route: 'PUT /api/rest/preferences/folder_sort',
    request: () => ({
      method: 'PUT',
      url: '/api/rest/preferences/folder_sort',
      payload: { sort: 'modified', order: 'desc' },
    }),
    // Personal: read-only members sort their view too.
    own: OWN(),
  },
  {
    route: 'POST /api/rest/entities/zip',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/entities/zip',
      payload: { items: [{ type: 'file', id: await f.freshFile(t) }] },
    }),
    own: READ(201),
    restricted: READ_HIDDEN(201),
  },
  {
    route: 'GET /api/rest/zips/:token',
    // The link is the administrator's: any other session (of the firm or not) gets 404.
    request: async (f, t) => ({ method: 'GET', url: await adminZipUrl(f, t) }),
    own: s(200, 404, 404, 404),
    restricted: s(200, 404, 404, 404),
  },
  {
    route: 'POST /api/rest/files/:id/copy',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/files/${await f.freshFile(t)}/copy`,
      payload: {},
    }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
];
