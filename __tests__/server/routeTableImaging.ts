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
];
