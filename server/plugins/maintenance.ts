/**
 * Maintenance mode: while the maintenanceMode feature flag is on (FEATURE_FLAGS), the API
 * refuses every change by a user who is not an administrator of the session's current firm
 * database with 503 `{ code: 'maintenance_mode' }` and MESSAGES.maintenanceMode. Reads (GET, HEAD,
 * OPTIONS) stay open, and so do the session's own operations: sign-in (public), sign-out,
 * extend-session and switch-database (an administrator of another firm can switch to it).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@common/messages';
import { AppError } from '../errors';
import type { Services } from '../services/context';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Session operations that stay open during maintenance (route URLs, without query). */
const MAINTENANCE_OPEN_ROUTES: ReadonlySet<string> = new Set([
  '/api/auth/logout',
  '/api/auth/extend-session',
  '/api/auth/switch-database',
]);

/** 503: the service is in maintenance mode. */
export const maintenanceRefused = () =>
  new AppError(503, 'maintenance_mode', MESSAGES.maintenanceMode);

/**
 * A preHandler for routes behind requireSession (it must run after it, so `request.ctx` is set).
 * @throws AppError 503 'maintenance_mode' for a refused change
 */
export function refuseChangesDuringMaintenance(services: Services) {
  return async function maintenanceHook(
    request: FastifyRequest,
    _reply: FastifyReply,
  ): Promise<void> {
    if (!services.config.featureFlags.maintenanceMode) return;
    if (READ_METHODS.has(request.method)) return;
    if (MAINTENANCE_OPEN_ROUTES.has(request.routeOptions.url ?? '')) return;
    if (request.ctx?.role === 'admin') return;
    throw maintenanceRefused();
  };
}
