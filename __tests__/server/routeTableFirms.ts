/**
 * The authorisation matrix's rows for firm provisioning (the operator's routes); see routeTable.ts
 * for the shape. No actor of the matrix is an operator: every firm actor, the firm's administrator
 * included, gets 403 `operator_only`; no session 401; a guest 404 (the default). What an operator
 * may do is tested in firms.test.ts.
 */
import { s, type RouteRow } from './routeTable';

/** Operators only: 403 for the administrator, member, read-only member and another firm's admin. */
const OPERATOR_ONLY = () => s(403, 403, 403, 403);

// Statuses are getters: routeTable.ts imports this module, so `s` is read only once it exists.
export const FIRM_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/private/firms',
    request: () => ({ method: 'GET', url: '/api/rest/private/firms' }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'POST /api/rest/private/firms',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/firms',
      payload: { name: 'Matrix firm', description: 'Matrix office' },
    }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'PATCH /api/rest/private/firms/:id',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/firms/${f.databaseId}`,
      payload: { name: 'Renamed by the matrix' },
    }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'POST /api/rest/private/firms/:id/disable',
    request: (f) => ({
      method: 'POST',
      url: `/api/rest/private/firms/${f.otherDatabaseId}/disable`,
    }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'POST /api/rest/private/firms/:id/enable',
    request: (f) => ({ method: 'POST', url: `/api/rest/private/firms/${f.databaseId}/enable` }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'GET /api/rest/private/firms/:id/members',
    request: (f) => ({ method: 'GET', url: `/api/rest/private/firms/${f.databaseId}/members` }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'POST /api/rest/private/firms/:id/members',
    request: (f) => ({
      method: 'POST',
      url: `/api/rest/private/firms/${f.otherDatabaseId}/members`,
      payload: { username: 'admin', role: 'admin' },
    }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'PATCH /api/rest/private/firms/:id/members/:userId',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/firms/${f.databaseId}/members/${await f.freshUser()}`,
      payload: { role: 'admin' },
    }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
  {
    route: 'DELETE /api/rest/private/firms/:id/members/:userId',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/private/firms/${f.databaseId}/members/${f.adminId}`,
    }),
    get own() {
      return OPERATOR_ONLY();
    },
  },
];
