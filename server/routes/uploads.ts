/**
 * Upload routes beyond create and record: the restrictions the client applies, the
 * signing of resumable multipart uploads in the shape @uppy/aws-s3's `signRequest` needs, and
 * discarding an upload. Thin: schema → session → service.
 */
import type { FastifyInstance } from 'fastify';
import type { CreateMultipartUploadRequest } from '@common/uploads';
import { ctxOf } from '../plugins/auth';
import { createUploadProperties } from './files';
import type { Services } from '../services/context';
import {
  abortMultipartUpload,
  createMultipartUpload,
  discardUpload,
  signCompleteMultipart,
  signListParts,
  signUploadPart,
  signUploadParts,
  uploadRestrictions,
} from '../services/uploads';

const uploadIdParams = {
  type: 'object',
  required: ['uploadId'],
  properties: { uploadId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

const keyQuery = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

/** Registers the upload routes (inside the session scope). */
export function uploadRoutes(app: FastifyInstance, services: Services): void {
  app.get('/api/rest/files/restrictions', { schema: { tags: ['files'] } }, () =>
    uploadRestrictions(services),
  );

  app.post<{ Body: CreateMultipartUploadRequest }>(
    '/api/rest/files/multipart',
    {
      schema: {
        tags: ['files'],
        body: {
          type: 'object',
          required: ['folder_id', 'name', 'extension', 'content_type', 'size'],
          properties: createUploadProperties,
        },
      },
    },
    async (request, reply) => {
      const outcome = await createMultipartUpload(services, ctxOf(request), request.body);
      return reply.code(outcome.created ? 201 : 200).send(outcome.response);
    },
  );

  app.get<{
    Params: { uploadId: string };
    Querystring: { key: string; first: number; count: number };
  }>(
    '/api/rest/files/multipart/:uploadId/parts',
    {
      schema: {
        tags: ['files'],
        params: uploadIdParams,
        querystring: {
          type: 'object',
          required: ['key', 'first', 'count'],
          properties: {
            key: { type: 'string', minLength: 1, maxLength: 200 },
            first: { type: 'integer', minimum: 1, maximum: 10000 },
            count: { type: 'integer', minimum: 1, maximum: 100 },
          },
        },
      },
    },
    async (request) => ({
      parts: await signUploadParts(
        services,
        ctxOf(request),
        request.params.uploadId,
        request.query.key,
        request.query.first,
        request.query.count,
      ),
    }),
  );

  app.get<{ Params: { uploadId: string; partNumber: number }; Querystring: { key: string } }>(
    '/api/rest/files/multipart/:uploadId/:partNumber',
    {
      schema: {
        tags: ['files'],
        params: {
          type: 'object',
          required: ['uploadId', 'partNumber'],
          properties: {
            uploadId: { type: 'string', minLength: 1, maxLength: 64 },
            partNumber: { type: 'integer', minimum: 1, maximum: 10000 },
          },
        },
        querystring: keyQuery,
      },
    },
    async (request) =>
      signUploadPart(
        services,
        ctxOf(request),
        request.params.uploadId,
        request.params.partNumber,
        request.query.key,
      ),
  );

  app.get<{ Params: { uploadId: string }; Querystring: { key: string } }>(
    '/api/rest/files/multipart/:uploadId',
    { schema: { tags: ['files'], params: uploadIdParams, querystring: keyQuery } },
    async (request) =>
      signListParts(services, ctxOf(request), request.params.uploadId, request.query.key),
  );

  app.post<{ Params: { uploadId: string }; Body: { key: string } }>(
    '/api/rest/files/multipart/:uploadId/complete',
    { schema: { tags: ['files'], params: uploadIdParams, body: keyQuery } },
    async (request) =>
      signCompleteMultipart(services, ctxOf(request), request.params.uploadId, request.body.key),
  );

  app.delete<{ Params: { uploadId: string }; Querystring: { key: string } }>(
    '/api/rest/files/multipart/:uploadId',
    { schema: { tags: ['files'], params: uploadIdParams, querystring: keyQuery } },
    async (request) =>
      abortMultipartUpload(services, ctxOf(request), request.params.uploadId, request.query.key),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/files/uploads/:id',
    {
      schema: {
        tags: ['files'],
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request, reply) => {
      await discardUpload(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
