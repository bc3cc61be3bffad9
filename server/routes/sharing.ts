/** Share links, invitations, guest sign-up and sign-in, shared lists (issue 7; SPEC section 7 "Shares"). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/context';

/** Routes reachable without a session (registered outside requireSession). */
export async function publicSharingRoutes(
  _app: FastifyInstance,
  _services: Services,
): Promise<void> {}

/** Routes behind requireSession. */
export function sharingRoutes(_app: FastifyInstance, _services: Services): void {}
