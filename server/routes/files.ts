/** File routes (SPEC section 7 "Files"): create-upload, record, read, download, preview, print. */
import { UNCOMPRESSED } from '../plugins/compression';
import type { FastifyInstance } from 'fastify';
import type { CreateUploadRequest, RecordUploadRequest } from '@common/uploads';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { createUpload, getFile, openFile, recordUpload, type ReadMode } from '../services/files';
import { readRequestOf, sendFile } from './fileResponse';
import { idParams } from './schemas';

/**
 * The fields of create-upload (single and multipart, SPEC section 3): the spec's four, the
 * declared size, the client's batch identity, and the file the upload is a new version of (all
 * optional).
 */
export const createUploadProperties = {
  folder_id: { type: 'string', maxLength: 64 },
  name: { type: 'string', maxLength: 1000 },
  extension: { type: 'string', maxLength: 255 },
  content_type: { type: 'string', maxLength: 255 },
  size: { type: 'integer', minimum: 0 },
  batch_id: { type: 'string', minLength: 1, maxLength: 64 },
  client_key: { type: 'string', minLength: 1, maxLength: 2048 },
  version_of: { type: 'string', minLength: 1, maxLength: 64 },
} as const;

/** Registers the file routes. */
export function fileRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Body: CreateUploadRequest }>(
    '/api/rest/files',
    {
      schema: {
        tags: ['files'],
        body: {
          type: 'object',
          required: ['folder_id', 'name', 'extension', 'content_type'],
          properties: createUploadProperties,
        },
      },
    },
    async (request, reply) => {
      const outcome = await createUpload(services, ctxOf(request), request.body);
      return reply.code(outcome.created ? 201 : 200).send(outcome.response);
    },
  );

  app.post<{ Body: RecordUploadRequest }>(
    '/api/rest/files/record',
    {
      schema: {
        tags: ['files'],
        body: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string', minLength: 1, maxLength: 64 },
            sha256: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
          },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await recordUpload(services, ctxOf(request), request.body.id, request.body.sha256)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/files/:id',
    { schema: { tags: ['files'], params: idParams } },
    async (request) => getFile(services, ctxOf(request), request.params.id),
  );

  const modes: ReadMode[] = ['download', 'preview', 'print'];
  for (const mode of modes) {
    app.get<{ Params: { id: string } }>(
      `/api/rest/files/:id/${mode}`,
      { ...UNCOMPRESSED, schema: { tags: ['files'], params: idParams } },
      async (request, reply) =>
        sendFile(
          reply,
          await openFile(services, ctxOf(request), request.params.id, mode, readRequestOf(request)),
        ),
    );
  }
}
