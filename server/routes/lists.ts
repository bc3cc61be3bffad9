/**
 * The list read routes (SPEC section 7 "Entities", "Folders", "Files"): the Archive,
 * Favorites and Recent lists, file statistics (fileStats flag) and the folder zip download.
 * Thin: schema → service.
 */
import { UNCOMPRESSED } from '../plugins/compression';
import type { FastifyInstance } from 'fastify';
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '@common/constants';
import type { ArchivedPageRequest } from '@common/entities';
import { dispositionHeader } from '../disposition';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { listArchived, listFavorites, listRecent } from '../services/lists';
import { fileStats, fileStatsByType, folderStats } from '../services/stats';
import { openFolderZip } from '../services/zip';
import { idParams, pagingQuery, type PagingQuery } from './schemas';

/** The `cursor` query parameter of keyset-paged lists (a previous page's `next_cursor`). */
export const cursorQuery = { type: 'string', minLength: 1, maxLength: 2048 } as const;

const cursorPagingQuery = {
  type: 'object',
  properties: { ...pagingQuery, cursor: cursorQuery },
} as const;

type CursorPagingQuery = PagingQuery & { cursor?: string };

/** Registers the list, statistics and zip routes. */
export function listRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: CursorPagingQuery }>(
    '/api/rest/entities/archived',
    { schema: { tags: ['entities'], querystring: cursorPagingQuery } },
    async (request) => {
      const q = request.query;
      return listArchived(services, ctxOf(request), q.page, q.page_size, { cursor: q.cursor });
    },
  );

  app.post<{ Querystring: { page: number; skip: number }; Body: ArchivedPageRequest | undefined }>(
    '/api/rest/entities/archived',
    {
      schema: {
        tags: ['entities'],
        querystring: {
          type: 'object',
          properties: {
            page: pagingQuery.page,
            skip: {
              type: 'integer',
              minimum: 0,
              maximum: MAX_PAGE_NUMBER * MAX_PAGE_SIZE,
              default: 0,
            },
          },
        },
        body: {
          type: ['object', 'null'],
          properties: { cursor: cursorQuery, page_size: pagingQuery.page_size },
        },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      return listArchived(
        services,
        ctxOf(request),
        request.query.page,
        body.page_size ?? pagingQuery.page_size.default,
        { cursor: body.cursor, skip: request.query.skip },
      );
    },
  );

  app.get<{ Querystring: CursorPagingQuery }>(
    '/api/rest/entities/favorites',
    { schema: { tags: ['entities'], querystring: cursorPagingQuery } },
    async (request) => {
      const q = request.query;
      return listFavorites(services, ctxOf(request), q.page, q.page_size, q.cursor);
    },
  );

  app.get<{ Querystring: CursorPagingQuery }>(
    '/api/rest/entities/recent',
    { schema: { tags: ['entities'], querystring: cursorPagingQuery } },
    async (request) => {
      const q = request.query;
      return listRecent(services, ctxOf(request), q.page, q.page_size, q.cursor);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folders/:id/stats',
    { schema: { tags: ['folders'], params: idParams } },
    async (request) => folderStats(services, ctxOf(request), request.params.id),
  );

  app.get('/api/rest/files/stats', { schema: { tags: ['files'] } }, async (request) =>
    fileStats(services, ctxOf(request)),
  );

  app.get('/api/rest/files/stats/by_type', { schema: { tags: ['files'] } }, async (request) =>
    fileStatsByType(services, ctxOf(request)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folders/:id/download',
    { ...UNCOMPRESSED, schema: { tags: ['folders'], params: idParams } },
    async (request, reply) => {
      const zip = await openFolderZip(services, ctxOf(request), request.params.id);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', dispositionHeader(zip.fileName, 'attachment'))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(zip.body);
    },
  );
}
