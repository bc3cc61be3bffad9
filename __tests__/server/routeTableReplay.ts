/**
 * The authorisation matrix's rows for replay (see routeTable.ts for the shape): members of the
 * firm replay the folders they may see now; a restricted folder is 404 to those it hides from;
 * another firm's folder is 404; guests 404 (the session routes' default).
 */
import { s, type RouteRow } from './routeTable';

/** Every member of the firm; another firm 404. */
const READ = (ok = 200) => s(ok, ok, ok, 404);
/** Administrators only see a restricted folder: the others 404. */
const READ_HIDDEN = (ok = 200) => s(ok, 404, 404, 404);

export const REPLAY_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/replay/folders/:id',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/replay/folders/${await f.freshFolder(t)}`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  {
    route: 'GET /api/rest/replay/folders/:id/case_file',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/replay/folders/${await f.freshFolder(t)}/case_file?from=2020-01-01T00:00:00Z&to=2100-01-01T00:00:00Z&format=json`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
];
