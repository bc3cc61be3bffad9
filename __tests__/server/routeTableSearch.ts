/** The authorisation matrix's rows for search; see routeTable.ts for the shape. */
import { s, type RouteRow } from './routeTable';

export const SEARCH_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/entities/search/autocomplete',
    request: () => ({ method: 'GET', url: '/api/rest/entities/search/autocomplete?query=ab' }),
    // Every session searches its own firm (another firm's admin gets their own firm's answer).
    own: s(200, 200, 200, 200),
  },
  {
    route: 'POST /api/rest/entities/search',
    request: () => ({
      method: 'POST',
      url: '/api/rest/entities/search',
      payload: { filters: { query: 'ab' } },
    }),
    own: s(200, 200, 200, 200),
  },
  {
    route: 'POST /api/rest/entities/filtered',
    // Within a folder: the folder must be visible to the session.
    request: (f, t) => ({
      method: 'POST',
      url: '/api/rest/entities/filtered',
      payload: { filters: { folder_id: f.home(t) } },
    }),
    own: s(200, 200, 200, 404),
    restricted: s(200, 404, 404, 404),
  },
];
