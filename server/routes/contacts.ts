/** CRM contacts, the partner upsert and CSV import, folder contacts (issue 9; SPEC section 7 "Contacts"). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/context';

/** Routes reachable without a session (registered outside requireSession). */
export async function publicContactRoutes(
  _app: FastifyInstance,
  _services: Services,
): Promise<void> {}

/** Routes behind requireSession. */
export function contactRoutes(_app: FastifyInstance, _services: Services): void {}
