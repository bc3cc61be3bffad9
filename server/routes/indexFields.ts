/** Index fields, applied indexes and missing indexes (issue 9; SPEC section 7). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/context';

/** Routes behind requireSession. */
export function indexFieldRoutes(_app: FastifyInstance, _services: Services): void {}
