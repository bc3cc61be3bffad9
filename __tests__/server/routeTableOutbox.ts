/** The authorisation matrix's rows for the mail outbox; see routeTable.ts for the shape. */
import { listOutbox, mailerFor } from '@server/services/mail';
import { s, type Fixture, type RouteRow } from './routeTable';

/** Writes one message for the fixture's firm to its outbox and answers its id. */
async function freshOutboxMessage(f: Fixture): Promise<string> {
  await mailerFor(f.server.config).send({
    database_id: f.databaseId,
    to: 'guest@example.com',
    subject: 'Matrix message',
    text: 'A message of the authorisation matrix.',
  });
  const [newest] = await listOutbox(f.server.config, f.databaseId);
  if (!newest) throw new Error('the outbox message was not written');
  return newest.id;
}

// Statuses are getters: routeTable.ts imports this module, so `s` is read only once it exists.
export const OUTBOX_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/private/outbox',
    request: () => ({ method: 'GET', url: '/api/rest/private/outbox' }),
    // Administrators only; another firm's administrator reads their own firm's outbox.
    get own() {
      return s(200, 403, 403, 200);
    },
  },
  {
    route: 'GET /api/rest/private/outbox/:id',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/private/outbox/${await freshOutboxMessage(f)}`,
    }),
    // Administrators only; a message of another firm is 404.
    get own() {
      return s(200, 403, 403, 404);
    },
  },
];
