/** The authorisation matrix's rows for document imaging; see routeTable.ts for the shape. */
import { s, type RouteRow } from './routeTable';

// Statuses are getters: routeTable.ts imports this module, so `s` is read only once it exists.
export const IMAGING_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/private/imaging/status',
    request: () => ({ method: 'GET', url: '/api/rest/private/imaging/status' }),
    // Administrators only; another firm's administrator sees their own firm's counts.
    get own() {
      return s(200, 403, 403, 200);
    },
  },
  {
    route: 'GET /api/rest/files/:id/rendition',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/files/${await f.freshFile(t)}/rendition`,
    }),
    // Whoever reads the file; another firm's file is 404, a restricted folder's too for members.
    get own() {
      return s(200, 200, 200, 404);
    },
    get restricted() {
      return s(200, 404, 404, 404);
    },
  },
];
