/**
 * The authorisation matrix's rows for document requests; see routeTable.ts for the shape.
 * The advisor's routes follow the request's folder: everyone of the firm lists and reads what
 * they may see (a request in a restricted folder is 404 to the members kept out of it), members
 * create and review (read-only members 403), another firm's administrator gets 404 on this firm's
 * requests. Templates are read by every member and managed by administrators. The recipient's
 * public routes answer the link token alone: every actor gets the same answer, a session changes
 * nothing, and an upload the link did not start is 404 through it.
 */
import type { CreateDocumentRequestResponse, RequestTemplateDto } from '@common/documentRequests';
import { newId } from '@server/ids';
import { moveItem } from '@server/repositories/documentRequests';
import { s, type Fixture, type RouteRow, type Target } from './routeTable';

/** A due day far enough ahead that no run reaches it. */
const DUE_DATE = '2099-01-15';

/** Sends a request as the firm's administrator and answers its JSON. */
async function asAdmin<T>(
  f: Fixture,
  method: 'POST' | 'GET',
  url: string,
  payload?: object,
): Promise<T> {
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

/** What a fresh request gives a row: its id, its first item's id and its link token. */
interface FreshRequest {
  id: string;
  itemId: string;
  token: string;
}

/**
 * A new open request made by the admin on a new folder in the target's folder, with one item and
 * one recipient; `password` protects its link; `received` puts its item in 'received' (as a
 * recipient's recorded upload would), so it can be reviewed.
 */
async function freshRequest(
  f: Fixture,
  t: Target,
  options: { password?: string; received?: boolean } = {},
): Promise<FreshRequest> {
  const created = await asAdmin<CreateDocumentRequestResponse>(f, 'POST', '/api/rest/requests', {
    folder_id: await f.freshFolder(t),
    items: [{ name: 'Statement' }],
    due_date: DUE_DATE,
    recipients: ['client@example.com'],
    ...(options.password ? { password: options.password } : {}),
  });
  const itemId = created.request.items[0]!.id;
  if (options.received) {
    const at = new Date(f.server.clock.now).toISOString();
    await moveItem(f.server.services.db, itemId, ['missing'], 'received', null, at);
  }
  const token = new URL(created.links[0]!.url).pathname.split('/').pop()!;
  return { id: created.request.id, itemId, token };
}

/** A new template of the firm: its id. */
async function freshTemplate(f: Fixture): Promise<string> {
  const template = await asAdmin<RequestTemplateDto>(
    f,
    'POST',
    '/api/rest/private/request_templates',
    { name: `Template ${newId().slice(-12)}`, items: [{ name: 'Statement' }] },
  );
  return template.id;
}

const adminUploads = new WeakMap<Fixture, Promise<{ id: string; key: string }>>();
/**
 * One multipart upload the admin started in the app, shared by the rows that try it through a
 * link (each is refused and leaves it as it was; the admin's open uploads are limited).
 */
function adminUpload(f: Fixture): Promise<{ id: string; key: string }> {
  let upload = adminUploads.get(f);
  if (!upload) {
    upload = f.adminUpload('own');
    adminUploads.set(f, upload);
  }
  return upload;
}

/** The body of a recipient's upload start into `itemId`. */
const startBody = (itemId: string) => ({
  item_id: itemId,
  name: 'statement.pdf',
  extension: 'pdf',
  content_type: 'application/pdf',
  size: 1024,
});

/** Every actor the same status: the token decides, a session changes nothing. */
const PUBLIC = (status: number) => s(status, status, status, status, status);

/** A request's change: members of the firm who may see its folder; read-only 403. */
const CHANGE = (ok = 200) => s(ok, ok, 403, 404);
/** The same inside a restricted folder: only administrators see it. */
const CHANGE_RESTRICTED = (ok = 200) => s(ok, 404, 404, 404);

/*
 * The statuses are getters: routeTable.ts imports this module before it defines `s` (the two
 * modules import each other), so `s` may only be called once the tests run.
 */
export const REQUEST_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/requests',
    request: () => ({ method: 'GET', url: '/api/rest/requests?status=open' }),
    // Every member of the firm; another firm's administrator lists their own firm's.
    get own() {
      return s(200, 200, 200, 200);
    },
  },
  {
    route: 'POST /api/rest/requests',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/requests',
      payload: {
        folder_id: await f.freshFolder(t),
        items: [{ name: 'Statement' }],
        due_date: DUE_DATE,
        recipients: ['client@example.com'],
      },
    }),
    get own() {
      return CHANGE(201);
    },
    // As the app's other creations: the read-only role is refused before the folder is looked up.
    get restricted() {
      return s(201, 404, 403, 404);
    },
  },
  {
    route: 'GET /api/rest/requests/:id',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/requests/${(await freshRequest(f, t)).id}`,
    }),
    get own() {
      return s(200, 200, 200, 404);
    },
    get restricted() {
      return s(200, 404, 404, 404);
    },
  },
  {
    route: 'POST /api/rest/requests/:id/items/:itemId/accept',
    request: async (f, t) => {
      const r = await freshRequest(f, t, { received: true });
      return { method: 'POST', url: `/api/rest/requests/${r.id}/items/${r.itemId}/accept` };
    },
    get own() {
      return CHANGE();
    },
    get restricted() {
      return CHANGE_RESTRICTED();
    },
  },
  {
    route: 'POST /api/rest/requests/:id/items/:itemId/reject',
    request: async (f, t) => {
      const r = await freshRequest(f, t, { received: true });
      return {
        method: 'POST',
        url: `/api/rest/requests/${r.id}/items/${r.itemId}/reject`,
        payload: { reason: 'The second page is missing.' },
      };
    },
    get own() {
      return CHANGE();
    },
    get restricted() {
      return CHANGE_RESTRICTED();
    },
  },
  {
    route: 'POST /api/rest/requests/:id/remind',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/requests/${(await freshRequest(f, t)).id}/remind`,
    }),
    get own() {
      return CHANGE();
    },
    get restricted() {
      return CHANGE_RESTRICTED();
    },
  },
  {
    route: 'POST /api/rest/requests/:id/cancel',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/requests/${(await freshRequest(f, t)).id}/cancel`,
    }),
    get own() {
      return CHANGE();
    },
    get restricted() {
      return CHANGE_RESTRICTED();
    },
  },
  {
    route: 'GET /api/rest/request_templates',
    request: () => ({ method: 'GET', url: '/api/rest/request_templates' }),
    // Every member of the firm fills a checklist from them; another firm reads its own.
    get own() {
      return s(200, 200, 200, 200);
    },
  },
  {
    route: 'POST /api/rest/private/request_templates',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/request_templates',
      payload: { name: `Template ${newId().slice(-12)}`, items: [{ name: 'Statement' }] },
    }),
    // Administrators of the session's firm (another firm's administrator makes one there).
    get own() {
      return s(201, 403, 403, 201);
    },
  },
  {
    route: 'PATCH /api/rest/private/request_templates/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/request_templates/${await freshTemplate(f)}`,
      payload: { name: `Template ${newId().slice(-12)}`, items: [{ name: 'Tax return' }] },
    }),
    get own() {
      return s(200, 403, 403, 404);
    },
  },
  {
    route: 'DELETE /api/rest/private/request_templates/:id',
    request: async (f) => ({
      method: 'DELETE',
      url: `/api/rest/private/request_templates/${await freshTemplate(f)}`,
    }),
    get own() {
      return s(204, 403, 403, 404);
    },
  },
  // ---- the recipient's public routes: the link token decides ---------------------------------
  {
    route: 'GET /api/rest/public/requests/:token',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/public/requests/${(await freshRequest(f, 'own')).token}`,
    }),
    get own() {
      return PUBLIC(200);
    },
  },
  {
    // A wrong password: refused, whoever asks.
    route: 'POST /api/rest/public/requests/:token/unlock',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/public/requests/${(await freshRequest(f, 'own', { password: 'right horse battery' })).token}/unlock`,
      payload: { password: 'wrong password' },
    }),
    get own() {
      return PUBLIC(403);
    },
  },
  ...(['', '/multipart'] as const).map((suffix): RouteRow => ({
    route: `POST /api/rest/public/requests/:token/files${suffix}`,
    request: async (f) => {
      const r = await freshRequest(f, 'own');
      return {
        method: 'POST',
        url: `/api/rest/public/requests/${r.token}/files${suffix}`,
        payload: startBody(r.itemId),
      };
    },
    get own() {
      return PUBLIC(201);
    },
  })),
  {
    // An upload the admin started in the app: not the link's, so not recordable through it.
    route: 'POST /api/rest/public/requests/:token/files/record',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/public/requests/${(await freshRequest(f, 'own')).token}/files/record`,
      payload: { id: (await adminUpload(f)).id },
    }),
    get own() {
      return PUBLIC(404);
    },
  },
  // The multipart steps on an upload the link did not start: 404 to everyone.
  ...(
    [
      [
        'GET',
        '/files/multipart/:uploadId/parts',
        (id: string, key: string) =>
          `/files/multipart/${id}/parts?key=${encodeURIComponent(key)}&first=1&count=1`,
      ],
      [
        'GET',
        '/files/multipart/:uploadId/:partNumber',
        (id: string, key: string) => `/files/multipart/${id}/1?key=${encodeURIComponent(key)}`,
      ],
      [
        'GET',
        '/files/multipart/:uploadId',
        (id: string, key: string) => `/files/multipart/${id}?key=${encodeURIComponent(key)}`,
      ],
      [
        'POST',
        '/files/multipart/:uploadId/complete',
        (id: string) => `/files/multipart/${id}/complete`,
      ],
      [
        'DELETE',
        '/files/multipart/:uploadId',
        (id: string, key: string) => `/files/multipart/${id}?key=${encodeURIComponent(key)}`,
      ],
    ] as const
  ).map(([method, path, url]): RouteRow => ({
    route: `${method} /api/rest/public/requests/:token${path}`,
    request: async (f) => {
      const token = (await freshRequest(f, 'own')).token;
      const upload = await adminUpload(f);
      return {
        method,
        url: `/api/rest/public/requests/${token}${url(upload.id, upload.key)}`,
        ...(method === 'POST' ? { payload: { key: upload.key } } : {}),
      };
    },
    get own() {
      return PUBLIC(404);
    },
  })),
];
