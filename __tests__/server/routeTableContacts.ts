/** The authorisation matrix's rows for contacts and folder contacts; see routeTable.ts for the shape. */
import { newId } from '@server/ids';
import { insertContacts, insertFolderContact } from '@server/repositories/contacts';
import { s, type Fixture, type RouteRow, type Target } from './routeTable';

/** A new contact of the fixture's firm (direct insert). */
async function freshContact(f: Fixture): Promise<string> {
  const id = newId();
  const now = new Date(f.server.clock.now).toISOString();
  await insertContacts(f.server.services.db, [
    {
      id,
      database_id: f.databaseId,
      crm_id: `crm-${id}`,
      name: `Contact ${id.slice(-8)}`,
      name_key: `contact ${id.slice(-8)}`,
      email: null,
      phones: '[{"country_code":1,"number":"2133734253"}]',
      created_at: now,
      updated_at: now,
    },
  ]);
  return id;
}

/** A new contact linked to a new folder of the target (direct inserts): the link's id. */
async function freshLink(f: Fixture, t: Target): Promise<string> {
  const folderId = await f.freshFolder(t);
  const contactId = await freshContact(f);
  const id = newId();
  await insertFolderContact(f.server.services.db, {
    id,
    database_id: f.databaseId,
    folder_id: folderId,
    contact_id: contactId,
    created_by: f.adminId,
    created_at: new Date(f.server.clock.now).toISOString(),
  });
  return id;
}

/*
 * The statuses are getters: routeTable.ts imports this module before it defines `s` (the two
 * modules import each other), so `s` may only be called once the tests run.
 */
export const CONTACT_ROWS: RouteRow[] = [
  {
    // Called by a partner app with an integration key, never with a session: no key is 401.
    route: 'PUT /api/integrations/contacts',
    request: () => ({
      method: 'PUT',
      url: '/api/integrations/contacts',
      payload: { contacts: [{ crm_id: 'c1', name: 'Nobody' }] },
    }),
    get own() {
      return s(401, 401, 401, 401, 401);
    },
  },
  {
    // Members and administrators search their own firm's contacts; read-only members cannot link.
    route: 'POST /api/rest/private/contacts/search',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/contacts/search',
      payload: { name: 'contact' },
    }),
    get own() {
      return s(200, 200, 403, 200);
    },
  },
  {
    // Administrators import into their own firm.
    route: 'POST /api/rest/private/contacts/import',
    request: () => ({
      method: 'POST',
      url: '/api/rest/private/contacts/import',
      payload: { csv: `name,email\nImported ${newId().slice(-8)},a@example.com\n` },
    }),
    get own() {
      return s(200, 403, 403, 200);
    },
  },
  {
    // Administrators edit their own firm's contacts' phones; another firm's contact is 404.
    route: 'PATCH /api/rest/private/contacts/:id',
    request: async (f) => ({
      method: 'PATCH',
      url: `/api/rest/private/contacts/${await freshContact(f)}`,
      payload: { phones: ['+44 20 7946 0958'] },
    }),
    get own() {
      return s(200, 403, 403, 404);
    },
  },
  {
    route: 'POST /api/rest/folder_contacts',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/folder_contacts',
      payload: { folder_id: await f.freshFolder(t), contact_id: await freshContact(f) },
    }),
    get own() {
      return s(201, 201, 403, 404);
    },
    get restricted() {
      return s(201, 404, 403, 404);
    },
  },
  {
    route: 'GET /api/rest/folders/:id/folder_contacts',
    request: (f, t) => ({ method: 'GET', url: `/api/rest/folders/${f.home(t)}/folder_contacts` }),
    get own() {
      return s(200, 200, 200, 404);
    },
    get restricted() {
      return s(200, 404, 404, 404);
    },
  },
  {
    route: 'DELETE /api/rest/folder_contacts/:id',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/folder_contacts/${await freshLink(f, t)}`,
    }),
    get own() {
      return s(204, 204, 403, 404);
    },
    get restricted() {
      return s(204, 404, 403, 404);
    },
  },
];
