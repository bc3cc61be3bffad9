/**
 * Routes of the folder view's selection and preferences: the zip of several selected items
 * (POST entities/zip, then GET zips/{token}) and the user's preferences (the folder view's sort).
 * Thin: schema → service.
 */
import { UNCOMPRESSED } from '../plugins/compression';
import type { FastifyInstance } from 'fastify';
import type { FolderSort } from '@common/sort';
import type { BulkRequest } from '@common/organise';
import { dispositionHeader } from '../disposition';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { getPreferences, setFolderSortPreference } from '../services/preferences';
import { createSelectionZip, openSelectionZip } from '../services/zip';
import { BULK_BODY_LIMIT, itemsSchema } from './organise';

/** Registers the selection zip and preference routes. */
export function selectionRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Body: BulkRequest }>(
    '/api/rest/entities/zip',
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: ['entities'],
        body: { type: 'object', required: ['items'], properties: { items: itemsSchema } },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSelectionZip(services, ctxOf(request), request.body.items)),
  );

  app.get<{ Params: { token: string } }>(
    '/api/rest/zips/:token',
    {
      ...UNCOMPRESSED,
      schema: {
        tags: ['entities'],
        params: {
          type: 'object',
          required: ['token'],
          properties: { token: { type: 'string', minLength: 1, maxLength: 128 } },
        },
      },
    },
    async (request, reply) => {
      const zip = await openSelectionZip(services, ctxOf(request), request.params.token);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', dispositionHeader(zip.fileName, 'attachment'))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(zip.body);
    },
  );

  app.get('/api/rest/preferences', { schema: { tags: ['users'] } }, async (request) =>
    getPreferences(services, ctxOf(request)),
  );

  app.put<{ Body: Partial<FolderSort> }>(
    '/api/rest/preferences/folder_sort',
    {
      schema: {
        tags: ['users'],
        body: {
          type: 'object',
          required: ['sort'],
          properties: {
            // name | modified | size | type and asc | desc, checked by the service with a
            // message that names the allowed values.
            sort: { type: 'string', maxLength: 32 },
            order: { type: 'string', maxLength: 32 },
          },
        },
      },
    },
    async (request) => setFolderSortPreference(services, ctxOf(request), request.body),
  );
}
