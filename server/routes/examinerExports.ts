/**
 * Routes of the examiner's export (administrators of the session's firm): ask for an export
 * (POST examiner_exports, answering its single-use link), read its progress (GET
 * examiner_exports/{id}), and download it (GET examiner_exports/zip/{token}, streamed). Thin:
 * schema → service.
 */
import type { FastifyInstance } from 'fastify';
import {
  EXAMINER_SCOPE_KINDS,
  EXPORT_VERSIONS,
  type ExaminerExportRequest,
} from '@common/examinerExport';
import { dispositionHeader } from '../disposition';
import { ctxOf } from '../plugins/auth';
import { UNCOMPRESSED } from '../plugins/compression';
import type { Services } from '../services/context';
import {
  createExaminerExport,
  examinerExportProgress,
  openExaminerExport,
} from '../services/examinerExport';
import { idParams } from './schemas';

const isoTime = { type: 'string', maxLength: 40, format: 'date-time' } as const;

/** POST body: the scope (its fields by kind, checked by the service) and the versions. */
const requestSchema = {
  type: 'object',
  required: ['scope'],
  additionalProperties: false,
  properties: {
    scope: {
      type: 'object',
      required: ['kind'],
      additionalProperties: false,
      properties: {
        kind: { type: 'string', enum: [...EXAMINER_SCOPE_KINDS] },
        folder_id: { type: 'string', maxLength: 64 },
        contact_id: { type: 'string', minLength: 1, maxLength: 64 },
        start: isoTime,
        end: isoTime,
      },
      // Each kind names its own fields.
      allOf: [
        { if: { properties: { kind: { const: 'folder' } } }, then: { required: ['folder_id'] } },
        { if: { properties: { kind: { const: 'contact' } } }, then: { required: ['contact_id'] } },
        {
          if: { properties: { kind: { const: 'date_range' } } },
          then: { required: ['start', 'end'] },
        },
      ],
    },
    versions: { type: 'string', enum: [...EXPORT_VERSIONS] },
  },
} as const;

/** Registers the examiner's export routes. */
export function examinerExportRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Body: ExaminerExportRequest }>(
    '/api/rest/examiner_exports',
    { schema: { tags: ['history'], body: requestSchema } },
    async (request, reply) =>
      reply.code(201).send(await createExaminerExport(services, ctxOf(request), request.body)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/examiner_exports/:id',
    { schema: { tags: ['history'], params: idParams } },
    async (request) => examinerExportProgress(services, ctxOf(request), request.params.id),
  );

  app.get<{ Params: { token: string } }>(
    '/api/rest/examiner_exports/zip/:token',
    {
      ...UNCOMPRESSED,
      schema: {
        tags: ['history'],
        params: {
          type: 'object',
          required: ['token'],
          properties: { token: { type: 'string', minLength: 1, maxLength: 128 } },
        },
      },
    },
    async (request, reply) => {
      const zip = await openExaminerExport(
        services,
        ctxOf(request),
        request.params.token,
        (error) => request.log.warn({ err: error }, 'examiner export ended early'),
      );
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', dispositionHeader(zip.fileName, 'attachment'))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(zip.body);
    },
  );
}
