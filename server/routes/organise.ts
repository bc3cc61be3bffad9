/**
 * Organising routes (SPEC section 7 "Folders", "Files", "Colors", "Bulk"): rename/move,
 * copy, archive, restore, favourite, colour and the bulk calls. Thin: schema → service.
 */
import type { FastifyInstance } from 'fastify';
import { BULK_MAX_ITEMS, FOLDER_COLORS } from '@common/constants';
import type { CopyFolderRequest, UpdateEntityRequest } from '@common/entities';
import type {
  BulkColorRequest,
  BulkMoveRequest,
  BulkRequest,
  ColorRequest,
  FavoriteRequest,
} from '@common/organise';
import { ctxOf } from '../plugins/auth';
import { bulkArchive, bulkColor, bulkDestroy, bulkMove, bulkRestore } from '../services/bulk';
import type { Services } from '../services/context';
import {
  archiveEntity,
  copyFile,
  copyFolder,
  restoreEntity,
  setFavorite,
  setFolderColor,
  updateEntity,
  type ItemKind,
} from '../services/organise';
import { idParams } from './schemas';

const folderId = { type: 'string', maxLength: 64 } as const;
const colorKey = { type: 'string', maxLength: 64 } as const;

/** `items` of a bulk body. The service refuses more than BULK_MAX_ITEMS with the spec's text. */
export const itemsSchema = {
  type: 'array',
  // A little over the limit still reaches the service, which answers MESSAGES.tooManyItems.
  maxItems: BULK_MAX_ITEMS * 2,
  items: {
    type: 'object',
    required: ['id', 'type'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 64 },
      type: { type: 'string', enum: ['file', 'folder'] },
    },
  },
} as const;

/** 10,000 refs of about 60 bytes each, with room to spare. */
export const BULK_BODY_LIMIT = 4 * 1024 * 1024;

/** Registers the organising routes. */
export function organiseRoutes(app: FastifyInstance, services: Services): void {
  const kinds: { kind: ItemKind; path: string; tag: string }[] = [
    { kind: 'folder', path: '/api/rest/folders', tag: 'folders' },
    { kind: 'file', path: '/api/rest/files', tag: 'files' },
  ];
  for (const { kind, path, tag } of kinds) {
    app.patch<{ Params: { id: string }; Body: UpdateEntityRequest }>(
      `${path}/:id`,
      {
        schema: {
          tags: [tag],
          params: idParams,
          body: {
            type: 'object',
            properties: { name: { type: 'string', maxLength: 1000 }, parent_id: folderId },
          },
        },
      },
      async (request) =>
        updateEntity(services, ctxOf(request), kind, request.params.id, request.body),
    );

    app.post<{ Params: { id: string } }>(
      `${path}/:id/archive`,
      { schema: { tags: [tag], params: idParams } },
      async (request) => archiveEntity(services, ctxOf(request), kind, request.params.id),
    );

    app.post<{ Params: { id: string } }>(
      `${path}/:id/restore`,
      { schema: { tags: [tag], params: idParams } },
      async (request) => restoreEntity(services, ctxOf(request), kind, request.params.id),
    );

    app.patch<{ Params: { id: string }; Body: FavoriteRequest }>(
      `${path}/:id/favorite`,
      {
        schema: {
          tags: [tag],
          params: idParams,
          body: {
            type: 'object',
            required: ['enabled'],
            properties: { enabled: { type: 'boolean' } },
          },
        },
      },
      async (request) =>
        setFavorite(services, ctxOf(request), kind, request.params.id, request.body.enabled),
    );
  }

  app.post<{ Params: { id: string }; Body: CopyFolderRequest | undefined }>(
    '/api/rest/folders/:id/copy',
    {
      schema: {
        tags: ['folders'],
        params: idParams,
        body: { type: 'object', properties: { parent_id: folderId } },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await copyFolder(services, ctxOf(request), request.params.id, request.body?.parent_id),
        ),
  );

  app.post<{ Params: { id: string }; Body: CopyFolderRequest | undefined }>(
    '/api/rest/files/:id/copy',
    {
      schema: {
        tags: ['files'],
        params: idParams,
        body: { type: 'object', properties: { parent_id: folderId } },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await copyFile(services, ctxOf(request), request.params.id, request.body?.parent_id)),
  );

  app.patch<{ Body: ColorRequest }>(
    '/api/rest/colors',
    {
      schema: {
        tags: ['folders'],
        body: {
          type: 'object',
          required: ['folder_id', 'color'],
          properties: {
            folder_id: { type: 'string', minLength: 1, maxLength: 64 },
            color: colorKey,
          },
        },
      },
    },
    async (request) =>
      setFolderColor(services, ctxOf(request), request.body.folder_id, request.body.color),
  );

  const bulkOptions = (extra: Record<string, object>, required: string[] = []) => ({
    bodyLimit: BULK_BODY_LIMIT,
    schema: {
      tags: ['bulk'],
      body: {
        type: 'object',
        required: ['items', ...required],
        properties: { items: itemsSchema, ...extra },
      },
    },
  });

  app.post<{ Body: BulkMoveRequest }>(
    '/api/rest/bulk/move',
    bulkOptions({ folder_id: folderId }, ['folder_id']),
    async (request) =>
      bulkMove(services, ctxOf(request), request.body.items, request.body.folder_id),
  );

  app.post<{ Body: BulkColorRequest }>(
    '/api/rest/bulk/color',
    bulkOptions(
      { color: { ...colorKey, description: FOLDER_COLORS.map((c) => c.key).join(', ') } },
      ['color'],
    ),
    async (request) => bulkColor(services, ctxOf(request), request.body.items, request.body.color),
  );

  app.post<{ Body: BulkRequest }>('/api/rest/bulk/archive', bulkOptions({}), async (request) =>
    bulkArchive(services, ctxOf(request), request.body.items),
  );

  app.post<{ Body: BulkRequest }>('/api/rest/bulk/restore', bulkOptions({}), async (request) =>
    bulkRestore(services, ctxOf(request), request.body.items),
  );

  app.post<{ Body: BulkRequest }>('/api/rest/bulk/destroy', bulkOptions({}), async (request) =>
    bulkDestroy(services, ctxOf(request), request.body.items),
  );
}
