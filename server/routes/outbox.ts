/** The mail outbox administrators read when no SMTP server is configured (issue 7). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/context';

/** Routes behind requireSession. */
export function outboxRoutes(_app: FastifyInstance, _services: Services): void {}
