/** Autocomplete, search and filtered lists (issue 9; SPEC section 7 "Entities"). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/context';

/** Routes behind requireSession. */
export function searchRoutes(_app: FastifyInstance, _services: Services): void {}
