/**
 * Document imaging routes (docs/architecture.md "Document imaging"). Thin: the rules are in
 * server/services/imaging/status.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { fileRendition } from '../services/imaging/renditions';
import { imagingStatus } from '../services/imaging/status';
import { idParams } from './schemas';

const tags = ['imaging'];

/** Registers the imaging routes (behind requireSession). */
export function imagingRoutes(app: FastifyInstance, services: Services): void {
  app.get(
    '/api/rest/private/imaging/status',
    {
      schema: {
        tags,
        description:
          'Administrators: the conversion and recognition tools the server found (with the ' +
          "command installing each missing one), the firm's imaging jobs per state and the " +
          'reasons of the jobs that gave up.',
      },
    },
    async (request) => imagingStatus(services, ctxOf(request)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/files/:id/rendition',
    {
      schema: {
        tags,
        description:
          'What document imaging derived from a file (PDF rendition, text, thumbnail), or where ' +
          'its derivation is and why it failed (a missing tool named with its install command).',
        params: idParams,
      },
    },
    async (request) => fileRendition(services, ctxOf(request), request.params.id),
  );
}
