/**
 * Records management routes (docs/architecture.md "Records: retention, holds and disposition"):
 * retention schedules, legal holds, the protection of one item and the disposition queue, all
 * under /api/rest/private for the administrators of the session's firm. Thin: schema → service;
 * the rules live in server/services/records/.
 */
import type { FastifyInstance } from 'fastify';
import { BULK_MAX_ITEMS } from '@common/constants';
import {
  RECORDS_TARGETS_MAX,
  RETENTION_BASES,
  RETENTION_PERIOD_UNITS,
  type ApproveDispositionRequest,
  type CreateLegalHoldRequest,
  type CreateRetentionScheduleRequest,
  type RecordsTargetRequest,
  type UpdateLegalHoldRequest,
  type UpdateRetentionScheduleRequest,
} from '@common/retention';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { approveDisposition, dispositionQueue } from '../services/records/disposition';
import {
  addHoldTarget,
  getHold,
  listHolds,
  placeHold,
  releaseHold,
  removeHoldTarget,
  updateHold,
} from '../services/records/holds';
import { itemProtection } from '../services/records/itemProtection';
import {
  addScheduleTarget,
  createSchedule,
  deleteSchedule,
  listSchedules,
  lockSchedule,
  removeScheduleTarget,
  updateSchedule,
} from '../services/records/schedules';
import { BULK_BODY_LIMIT } from './organise';
import { idParams } from './schemas';

const text = { type: 'string', maxLength: 4000 } as const;
const idString = { type: 'string', minLength: 1, maxLength: 64 } as const;
const nullableId = { type: ['string', 'null'], maxLength: 64 } as const;
const nullableText = { type: ['string', 'null'], maxLength: 4000 } as const;

const scheduleTags = ['retention'];
const holdTags = ['legal holds'];

/** A folder, file or contact named by a schedule or a hold. */
const targetSchema = {
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { type: 'string', enum: ['folder', 'file', 'contact'] }, id: idString },
  additionalProperties: false,
} as const;

/** The id of a schedule or hold and of one of its targets. */
const targetParams = {
  type: 'object',
  required: ['id', 'targetId'],
  properties: { id: idString, targetId: idString },
} as const;

/** The fields of a schedule; `required` for a create. */
function scheduleBody(required: string[]) {
  return {
    type: 'object',
    required,
    properties: {
      name: text,
      period_count: { type: 'integer', minimum: 0, maximum: 1_000_000 },
      period_unit: { type: 'string', enum: [...RETENTION_PERIOD_UNITS] },
      basis: { type: 'string', enum: [...RETENTION_BASES] },
      basis_field_id: nullableId,
      selector_field_id: nullableId,
      selector_value: nullableText,
      locked: { type: 'boolean' },
    },
    additionalProperties: false,
  } as const;
}

/** Registers the records management routes (inside the session scope). */
export function recordsRoutes(app: FastifyInstance, services: Services): void {
  // ---- retention schedules --------------------------------------------------------------------
  app.get(
    '/api/rest/private/retention_schedules',
    { schema: { tags: scheduleTags, description: "Administrators: the firm's schedules." } },
    (request) => listSchedules(services, ctxOf(request)),
  );

  app.post<{ Body: CreateRetentionScheduleRequest }>(
    '/api/rest/private/retention_schedules',
    {
      schema: {
        tags: scheduleTags,
        body: scheduleBody(['name', 'period_count', 'period_unit', 'basis']),
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSchedule(services, ctxOf(request), request.body)),
  );

  app.patch<{ Params: { id: string }; Body: UpdateRetentionScheduleRequest }>(
    '/api/rest/private/retention_schedules/:id',
    {
      schema: {
        tags: scheduleTags,
        params: idParams,
        body: scheduleBody([]),
        description:
          'Changes a schedule. A locked one takes only a new name and a period at least as long.',
      },
    },
    (request) => updateSchedule(services, ctxOf(request), request.params.id, request.body),
  );

  app.post<{ Params: { id: string } }>(
    '/api/rest/private/retention_schedules/:id/lock',
    {
      schema: {
        tags: scheduleTags,
        params: idParams,
        description: 'Locks a schedule for good: it can then be lengthened only.',
      },
    },
    (request) => lockSchedule(services, ctxOf(request), request.params.id),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/private/retention_schedules/:id',
    { schema: { tags: scheduleTags, params: idParams } },
    async (request, reply) => {
      await deleteSchedule(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string }; Body: RecordsTargetRequest }>(
    '/api/rest/private/retention_schedules/:id/targets',
    {
      schema: {
        tags: scheduleTags,
        params: idParams,
        body: targetSchema,
        description: 'Applies a schedule to a folder (and everything below it) or a file.',
      },
    },
    (request) => addScheduleTarget(services, ctxOf(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: string; targetId: string } }>(
    '/api/rest/private/retention_schedules/:id/targets/:targetId',
    { schema: { tags: scheduleTags, params: targetParams } },
    (request) =>
      removeScheduleTarget(services, ctxOf(request), request.params.id, request.params.targetId),
  );

  // ---- legal holds ----------------------------------------------------------------------------
  app.get(
    '/api/rest/private/legal_holds',
    { schema: { tags: holdTags, description: "Administrators: the firm's holds, active first." } },
    (request) => listHolds(services, ctxOf(request)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/private/legal_holds/:id',
    { schema: { tags: holdTags, params: idParams } },
    (request) => getHold(services, ctxOf(request), request.params.id),
  );

  app.post<{ Body: CreateLegalHoldRequest }>(
    '/api/rest/private/legal_holds',
    {
      schema: {
        tags: holdTags,
        body: {
          type: 'object',
          required: ['name', 'targets'],
          properties: {
            name: text,
            reason: text,
            matter: text,
            targets: { type: 'array', maxItems: RECORDS_TARGETS_MAX + 1, items: targetSchema },
          },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await placeHold(services, ctxOf(request), request.body)),
  );

  app.patch<{ Params: { id: string }; Body: UpdateLegalHoldRequest }>(
    '/api/rest/private/legal_holds/:id',
    {
      schema: {
        tags: holdTags,
        params: idParams,
        body: {
          type: 'object',
          properties: { name: text, reason: text, matter: text },
          additionalProperties: false,
        },
      },
    },
    (request) => updateHold(services, ctxOf(request), request.params.id, request.body),
  );

  app.post<{ Params: { id: string }; Body: RecordsTargetRequest }>(
    '/api/rest/private/legal_holds/:id/targets',
    { schema: { tags: holdTags, params: idParams, body: targetSchema } },
    (request) => addHoldTarget(services, ctxOf(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: string; targetId: string } }>(
    '/api/rest/private/legal_holds/:id/targets/:targetId',
    { schema: { tags: holdTags, params: targetParams } },
    (request) =>
      removeHoldTarget(services, ctxOf(request), request.params.id, request.params.targetId),
  );

  app.post<{ Params: { id: string } }>(
    '/api/rest/private/legal_holds/:id/release',
    { schema: { tags: holdTags, params: idParams } },
    (request) => releaseHold(services, ctxOf(request), request.params.id),
  );

  // ---- protection and disposition -------------------------------------------------------------
  app.get<{ Querystring: { type: 'folder' | 'file'; id: string } }>(
    '/api/rest/private/records/protection',
    {
      schema: {
        tags: scheduleTags,
        querystring: {
          type: 'object',
          required: ['type', 'id'],
          properties: { type: { type: 'string', enum: ['folder', 'file'] }, id: idString },
        },
        description: 'Administrators: the schedules and holds that protect a folder or file.',
      },
    },
    (request) => itemProtection(services, ctxOf(request), request.query.type, request.query.id),
  );

  app.get(
    '/api/rest/private/disposition',
    {
      schema: {
        tags: scheduleTags,
        description: 'Administrators: the files whose retention ended and that no hold covers.',
      },
    },
    (request) => dispositionQueue(services, ctxOf(request)),
  );

  app.post<{ Body: ApproveDispositionRequest }>(
    '/api/rest/private/disposition/approve',
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: scheduleTags,
        body: {
          type: 'object',
          required: ['file_ids'],
          properties: {
            file_ids: { type: 'array', maxItems: BULK_MAX_ITEMS * 2, items: idString },
          },
          additionalProperties: false,
        },
        description:
          'Deletes due files permanently; a proof of each deletion stays in the history.',
      },
    },
    (request) => approveDisposition(services, ctxOf(request), request.body.file_ids),
  );
}
