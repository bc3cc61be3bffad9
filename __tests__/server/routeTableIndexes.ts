/** The authorisation matrix's rows for index fields and applied indexes; see routeTable.ts for the shape. */
import { newId } from '@server/ids';
import type { Fixture, RouteRow, Target } from './routeTable';
import { s } from './routeTable';

/** Reading in the firm: every role; another firm's admin reads their own firm. */
const FIRM = (ok = 200) => s(ok, ok, ok, ok);
/** Reading a firm's item: every role of the firm; another firm's item is 404. */
const READ = (ok = 200) => s(ok, ok, ok, 404);
/** Reading an item in a restricted folder: only administrators. */
const READ_HIDDEN = (ok = 200) => s(ok, 404, 404, 404);
/** Changing: administrators and members; read-only 403; another firm's item 404. */
const WRITE = (ok = 200) => s(ok, ok, 403, 404);
/** Changing an item in a restricted folder: administrators; members 404; read-only 403 first. */
const WRITE_HIDDEN = (ok = 200) => s(ok, 404, 403, 404);
/** Administrators only, on the session's firm. */
const ADMIN_FIRM = (ok = 200) => s(ok, 403, 403, ok);
/** Administrators only, on an item of the firm (another firm's admin gets 404). */
const ADMIN_ITEM = (ok = 200) => s(ok, 403, 403, 404);

/** A fresh index field of the firm made by its administrator, in the given state. */
async function freshField(
  f: Fixture,
  options: { type?: string; values?: string[]; state?: 'archived' | 'deleted' } = {},
): Promise<string> {
  const cookie = f.adminCookie;
  const created = await f.server.app.inject({
    method: 'POST',
    url: '/api/rest/index_fields',
    headers: { cookie },
    payload: { name: `Field ${newId().slice(-10)}`, type: options.type, values: options.values },
  });
  const id = created.json<{ id: string }>().id;
  if (options.state === 'archived') {
    await f.server.app.inject({
      method: 'POST',
      url: `/api/rest/index_fields/${id}/archive`,
      headers: { cookie },
    });
  } else if (options.state === 'deleted') {
    await f.server.app.inject({
      method: 'DELETE',
      url: `/api/rest/index_fields/${id}`,
      headers: { cookie },
    });
  }
  return id;
}

/** A fresh applied index (text value) on a fresh file of the target, live or archived. */
async function freshApplied(f: Fixture, target: Target, archived = false): Promise<string> {
  const fieldId = await freshField(f);
  const fileId = await f.freshFile(target);
  const applied = await f.server.app.inject({
    method: 'POST',
    url: '/api/rest/applied_indexes',
    headers: { cookie: f.adminCookie },
    payload: { entity_id: fileId, indexes: [{ indexFieldId: fieldId, value: 'x' }] },
  });
  const id = applied.json<{ items: { id: string }[] }>().items[0]!.id;
  if (archived) {
    await f.server.app.inject({
      method: 'POST',
      url: `/api/rest/applied_indexes/${id}/archive`,
      headers: { cookie: f.adminCookie },
    });
  }
  return id;
}

/**
 * The rows. Statuses are getters: this module is loaded by routeTable.ts before its `s` exists (a
 * circular import), so they are built when the matrix reads them.
 */
export const INDEX_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/index_fields',
    request: () => ({ method: 'GET', url: '/api/rest/index_fields' }),
    get own() {
      return FIRM();
    },
  },
  {
    route: 'POST /api/rest/index_fields',
    request: () => ({
      method: 'POST',
      url: '/api/rest/index_fields',
      payload: { name: `Field ${newId().slice(-10)}`, type: 'number' },
    }),
    get own() {
      return ADMIN_FIRM(201);
    },
  },
  {
    route: 'PATCH /api/rest/index_fields/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/index_fields/${await freshField(f)}`,
      payload: { description: 'Changed' },
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'PATCH /api/rest/index_fields/:id/values',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/index_fields/${await freshField(f, { type: 'list', values: ['A', 'B'] })}/values`,
      payload: { values: ['B', 'A'] },
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'DELETE /api/rest/index_fields/:id',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/index_fields/${await freshField(f)}`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'GET /api/rest/index_fields/:id/applied_values',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/index_fields/${await freshField(f)}/applied_values`,
    }),
    get own() {
      return READ();
    },
  },
  {
    route: 'POST /api/rest/index_fields/:id/archive',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/index_fields/${await freshField(f)}/archive`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'POST /api/rest/index_fields/:id/restore',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/index_fields/${await freshField(f, { state: 'archived' })}/restore`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'POST /api/rest/index_fields/:id/undo-delete',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/index_fields/${await freshField(f, { state: 'deleted' })}/undo-delete`,
    }),
    get own() {
      return ADMIN_ITEM();
    },
  },
  {
    route: 'GET /api/rest/applied_indexes',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/applied_indexes?entity_id=${await f.freshFile(t)}`,
    }),
    get own() {
      return READ();
    },
    get restricted() {
      return READ_HIDDEN();
    },
  },
  {
    route: 'POST /api/rest/applied_indexes',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/applied_indexes',
      payload: {
        entity_ids: [await f.freshFile(t), await f.freshFolder(t)],
        indexes: [{ indexFieldId: await freshField(f), value: 'Tagged' }],
      },
    }),
    get own() {
      return WRITE(201);
    },
    get restricted() {
      return WRITE_HIDDEN(201);
    },
  },
  {
    route: 'POST /api/rest/applied_indexes/update_many',
    request: async (f, t) => {
      const fieldId = await freshField(f);
      await f.server.app.inject({
        method: 'POST',
        url: '/api/rest/applied_indexes',
        headers: { cookie: f.adminCookie },
        payload: {
          entity_id: await f.freshFile(t),
          indexes: [{ indexFieldId: fieldId, value: 'old' }],
        },
      });
      return {
        method: 'POST',
        url: '/api/rest/applied_indexes/update_many',
        payload: { indexId: fieldId, oldValue: 'old', value: 'new' },
      };
    },
    get own() {
      return WRITE();
    },
  },
  {
    route: 'PATCH /api/rest/applied_indexes/:id',
    request: async (f, t) => ({
      method: 'PATCH',
      url: `/api/rest/applied_indexes/${await freshApplied(f, t)}`,
      payload: { value: 'changed' },
    }),
    get own() {
      return WRITE();
    },
    get restricted() {
      return WRITE_HIDDEN();
    },
  },
  {
    route: 'POST /api/rest/applied_indexes/:id/archive',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/applied_indexes/${await freshApplied(f, t)}/archive`,
    }),
    get own() {
      return WRITE();
    },
    get restricted() {
      return WRITE_HIDDEN();
    },
  },
  {
    route: 'POST /api/rest/applied_indexes/:id/restore',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/applied_indexes/${await freshApplied(f, t, true)}/restore`,
    }),
    get own() {
      return WRITE();
    },
    get restricted() {
      return WRITE_HIDDEN();
    },
  },
  {
    route: 'DELETE /api/rest/applied_indexes/:id',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/applied_indexes/${await freshApplied(f, t)}`,
    }),
    get own() {
      return WRITE(204);
    },
    get restricted() {
      return WRITE_HIDDEN(204);
    },
  },
  {
    route: 'POST /api/rest/entities/search/missing-indexes',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/entities/search/missing-indexes?page=1',
      payload: { index_field_ids: [await freshField(f)], folder_id: f.home(t) },
    }),
    get own() {
      return READ();
    },
    get restricted() {
      return READ_HIDDEN();
    },
  },
];
