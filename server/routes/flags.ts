/**
 * Feature flags (SPEC section 3): GET /api/rest/feature_flags answers every flag of
 * FEATURE_FLAG_DEFAULTS with its value for this server (FEATURE_FLAGS overrides). Public, so the
 * sign-in page can show that maintenance mode is on; the flags are not secret.
 */
import type { FastifyInstance } from 'fastify';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlags } from '@common/constants';
import type { Services } from '../services/context';

const flagSchema = {
  type: 'object',
  required: Object.keys(FEATURE_FLAG_DEFAULTS),
  properties: Object.fromEntries(
    Object.keys(FEATURE_FLAG_DEFAULTS).map((name) => [name, { type: 'boolean' }]),
  ),
} as const;

/** Registers GET /api/rest/feature_flags (no session needed). */
export function flagRoutes(app: FastifyInstance, services: Services): void {
  app.get(
    '/api/rest/feature_flags',
    { schema: { tags: ['flags'], security: [], response: { 200: flagSchema } } },
    async (_request, reply): Promise<FeatureFlags> => {
      void reply.header('Cache-Control', 'no-store');
      return services.config.featureFlags;
    },
  );
}
