/**
 * Document imaging routes (docs/architecture.md "Document imaging"). Thin: the rules are in
 * server/services/imaging/status.ts, renditions.ts and thumbnails.ts.
 */
import { UNCOMPRESSED } from '../plugins/compression';
import type { FastifyInstance } from 'fastify';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { fileRendition } from '../services/imaging/renditions';
import { imagingStatus, retryImagingJob } from '../services/imaging/status';
import { fileThumbnail } from '../services/imaging/thumbnails';
import { sendThumbnail } from './fileResponse';
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

  app.get<{ Params: { id: string } }>(
    '/api/rest/files/:id/thumbnail',
    {
      ...UNCOMPRESSED,
      schema: {
        tags,
        description:
          "The PNG of a file's first page (at most 320 px a side) for whoever may read the file; " +
          '404 `no_thumbnail` until document imaging made one. Cached privately; answers 304 ' +
          'when If-None-Match names its ETag.',
        params: idParams,
      },
    },
    async (request, reply) =>
      sendThumbnail(
        request,
        reply,
        services.store,
        await fileThumbnail(services, ctxOf(request), request.params.id),
      ),
  );

  app.post<{ Params: { id: string } }>(
    '/api/rest/private/imaging/jobs/:id/retry',
    {
      schema: {
        tags,
        description:
          'Administrators: puts a job of the firm that gave up back in the queue with its ' +
          "attempts reset; answers the file's derivation state.",
        params: idParams,
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const retried = await retryImagingJob(services, ctx, request.params.id);
      request.log.info(
        {
          jobId: request.params.id,
          fileId: retried.fileId,
          userId: ctx.userId,
          previousError: retried.previousError,
        },
        'imaging job retried by an administrator',
      );
      return retried.rendition;
    },
  );
}
