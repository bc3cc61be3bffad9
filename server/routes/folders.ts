/** Folder and entity routes (SPEC section 7 "Folders", "Entities"). Thin: schema → service. */
import type { FastifyInstance } from 'fastify';
import { ROOT_FOLDER_ID } from '@common/constants';
import type { CreateFolderRequest } from '@common/entities';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import {
  breadcrumbs,
  createFolder,
  folderSortOf,
  getFolder,
  listEntities,
  listFolders,
  nameList,
} from '../services/folders';
import { cursorQuery } from './lists';
import { idParams, pagingQuery, type PagingQuery } from './schemas';

const folderIdQuery = { type: 'string', maxLength: 64, default: ROOT_FOLDER_ID } as const;

/** Registers the folder and entity routes. */
export function folderRoutes(app: FastifyInstance, services: Services): void {
  app.get<{
    Querystring: PagingQuery & {
      folder_id: string;
      cursor?: string;
      sort?: string;
      order?: string;
    };
  }>(
    '/api/rest/entities',
    {
      schema: {
        tags: ['entities'],
        querystring: {
          type: 'object',
          properties: {
            ...pagingQuery,
            folder_id: folderIdQuery,
            cursor: cursorQuery,
            // name | modified | size | type and asc | desc, checked by the service with a message
            // that names the allowed values.
            sort: { type: 'string', maxLength: 32 },
            order: { type: 'string', maxLength: 32 },
          },
        },
      },
    },
    async (request) => {
      const q = request.query;
      const sort = folderSortOf(q.sort, q.order);
      return listEntities(
        services,
        ctxOf(request),
        q.folder_id,
        q.page,
        q.page_size,
        q.cursor,
        sort,
      );
    },
  );

  app.post<{ Body: CreateFolderRequest }>(
    '/api/rest/folders',
    {
      schema: {
        tags: ['folders'],
        body: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', maxLength: 1000 },
            parent_id: { type: 'string', maxLength: 64 },
          },
        },
      },
    },
    async (request, reply) => {
      const folder = await createFolder(services, ctxOf(request), {
        name: request.body.name,
        parentId: request.body.parent_id ?? ROOT_FOLDER_ID,
      });
      return reply.code(201).send(folder);
    },
  );

  app.get<{ Querystring: PagingQuery & { parent_id: string } }>(
    '/api/rest/folders',
    {
      schema: {
        tags: ['folders'],
        querystring: { type: 'object', properties: { ...pagingQuery, parent_id: folderIdQuery } },
      },
    },
    async (request) => {
      const q = request.query;
      return listFolders(services, ctxOf(request), q.parent_id, q.page, q.page_size);
    },
  );

  app.get<{ Querystring: { parent_id: string } }>(
    '/api/rest/folders/name_list',
    {
      schema: {
        tags: ['folders'],
        querystring: { type: 'object', properties: { parent_id: folderIdQuery } },
      },
    },
    async (request) => nameList(services, ctxOf(request), request.query.parent_id),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folders/:id',
    { schema: { tags: ['folders'], params: idParams } },
    async (request) => getFolder(services, ctxOf(request), request.params.id),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folders/:id/breadcrumbs',
    { schema: { tags: ['folders'], params: idParams } },
    async (request) => breadcrumbs(services, ctxOf(request), request.params.id),
  );
}
