/**
 * Index fields, applied indexes and missing indexes (SPEC section 7 "Index
 * fields", "Applied indexes", "Entities"). Thin: JSON schema → one service call. Who may do what
 * is decided in the services (server/services/indexFields.ts, appliedIndexes.ts,
 * missingIndexes.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  APPLY_INDEXES_MAX_ENTITIES,
  APPLY_INDEXES_MAX_VALUES,
  INDEX_FIELD_TYPES,
  INDEX_LIST_MAX_VALUES,
  MISSING_INDEXES_MAX_FIELDS,
  type ApplyIndexesRequest,
  type CreateIndexFieldRequest,
  type ListIndexFieldsQuery,
  type MissingIndexesRequest,
  type ReorderIndexFieldValuesRequest,
  type UpdateAppliedIndexRequest,
  type UpdateIndexFieldRequest,
  type UpdateManyAppliedIndexesRequest,
} from '@common/indexFields';
import { ctxOf } from '../plugins/auth';
import {
  applyIndexes,
  archiveAppliedIndex,
  deleteAppliedIndex,
  listAppliedIndexes,
  restoreAppliedIndex,
  updateAppliedIndex,
  updateManyAppliedIndexes,
} from '../services/appliedIndexes';
import type { Services } from '../services/context';
import {
  appliedValues,
  archiveIndexField,
  createIndexField,
  deleteIndexField,
  listIndexFields,
  reorderIndexFieldValues,
  restoreIndexField,
  undoDeleteIndexField,
  updateIndexField,
} from '../services/indexFields';
import { missingIndexes } from '../services/missingIndexes';
import { filtersBodySchema, filtersOfBody, idParams, pagingQuery } from './schemas';

const fieldTags = ['index_fields'];
const appliedTags = ['applied_indexes'];
const idString = { type: 'string', minLength: 1, maxLength: 64 } as const;
/** Lengths are checked by the services with the product's messages; these only bound the body. */
const text = { type: 'string', maxLength: 2000 } as const;
/** A value as typed (text) or, for number fields, a JSON number. */
const valueText = { anyOf: [{ type: 'string', maxLength: 2000 }, { type: 'number' }] } as const;
const valueInputs = {
  type: 'array',
  maxItems: INDEX_LIST_MAX_VALUES + 1,
  items: {
    anyOf: [
      text,
      {
        type: 'object',
        required: ['value'],
        properties: { id: idString, value: text },
        additionalProperties: false,
      },
    ],
  },
} as const;

/** Registers the index field, applied index and missing-indexes routes (inside the session scope). */
export function indexFieldRoutes(app: FastifyInstance, services: Services): void {
  // ---- index fields (management: administrators) ---------------------------------------------
  app.get<{ Querystring: ListIndexFieldsQuery }>(
    '/api/rest/index_fields',
    {
      schema: {
        tags: fieldTags,
        querystring: {
          type: 'object',
          properties: { archived: { type: 'boolean' }, deleted: { type: 'boolean' } },
        },
      },
    },
    (request) => listIndexFields(services, ctxOf(request), request.query),
  );

  app.post<{ Body: CreateIndexFieldRequest }>(
    '/api/rest/index_fields',
    {
      schema: {
        tags: fieldTags,
        body: {
          type: 'object',
          required: ['name'],
          properties: {
            name: text,
            type: { type: 'string', enum: [...INDEX_FIELD_TYPES] },
            description: text,
            values: { type: 'array', maxItems: INDEX_LIST_MAX_VALUES + 1, items: text },
          },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createIndexField(services, ctxOf(request), request.body)),
  );

  app.patch<{ Params: { id: string }; Body: UpdateIndexFieldRequest }>(
    '/api/rest/index_fields/:id',
    {
      schema: {
        tags: fieldTags,
        params: idParams,
        body: {
          type: 'object',
          properties: {
            name: text,
            type: { type: 'string', enum: [...INDEX_FIELD_TYPES] },
            description: text,
            position: { type: 'integer', minimum: 0 },
            values: valueInputs,
          },
          additionalProperties: false,
        },
      },
    },
    (request) => updateIndexField(services, ctxOf(request), request.params.id, request.body),
  );

  app.patch<{ Params: { id: string }; Body: ReorderIndexFieldValuesRequest }>(
    '/api/rest/index_fields/:id/values',
    {
      schema: {
        tags: fieldTags,
        params: idParams,
        body: {
          type: 'object',
          required: ['values'],
          properties: { values: valueInputs },
          additionalProperties: false,
        },
      },
    },
    (request) =>
      reorderIndexFieldValues(services, ctxOf(request), request.params.id, request.body.values),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/index_fields/:id',
    {
      schema: {
        tags: fieldTags,
        params: idParams,
        description:
          'Marks the field deleted (200 with the field; undo-delete brings it back) or, when it ' +
          'is already deleted, destroys it with its applied values (204).',
      },
    },
    async (request, reply) => {
      const field = await deleteIndexField(services, ctxOf(request), request.params.id);
      return field ? reply.send(field) : reply.code(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/index_fields/:id/applied_values',
    { schema: { tags: fieldTags, params: idParams } },
    (request) => appliedValues(services, ctxOf(request), request.params.id),
  );

  for (const [action, handler] of [
    ['archive', archiveIndexField],
    ['restore', restoreIndexField],
    ['undo-delete', undoDeleteIndexField],
  ] as const) {
    app.post<{ Params: { id: string } }>(
      `/api/rest/index_fields/:id/${action}`,
      { schema: { tags: fieldTags, params: idParams } },
      (request) => handler(services, ctxOf(request), request.params.id),
    );
  }

  // ---- applied indexes (members and administrators) ------------------------------------------
  app.get<{ Querystring: { entity_id: string } }>(
    '/api/rest/applied_indexes',
    {
      schema: {
        tags: appliedTags,
        querystring: {
          type: 'object',
          required: ['entity_id'],
          properties: { entity_id: idString },
        },
      },
    },
    (request) => listAppliedIndexes(services, ctxOf(request), request.query.entity_id),
  );

  app.post<{ Body: ApplyIndexesRequest }>(
    '/api/rest/applied_indexes',
    {
      schema: {
        tags: appliedTags,
        body: {
          type: 'object',
          required: ['indexes'],
          properties: {
            entity_id: idString,
            entity_ids: {
              type: 'array',
              maxItems: APPLY_INDEXES_MAX_ENTITIES + 1,
              items: idString,
            },
            indexes: {
              type: 'array',
              maxItems: APPLY_INDEXES_MAX_VALUES + 1,
              items: {
                type: 'object',
                required: ['indexFieldId', 'value'],
                properties: { indexFieldId: idString, value: valueText },
              },
            },
          },
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await applyIndexes(services, ctxOf(request), request.body)),
  );

  app.post<{ Body: UpdateManyAppliedIndexesRequest }>(
    '/api/rest/applied_indexes/update_many',
    {
      schema: {
        tags: appliedTags,
        body: {
          type: 'object',
          required: ['indexId', 'value', 'oldValue'],
          properties: { indexId: idString, value: valueText, oldValue: valueText },
        },
      },
    },
    (request) => updateManyAppliedIndexes(services, ctxOf(request), request.body),
  );

  app.patch<{ Params: { id: string }; Body: UpdateAppliedIndexRequest }>(
    '/api/rest/applied_indexes/:id',
    {
      schema: {
        tags: appliedTags,
        params: idParams,
        body: { type: 'object', required: ['value'], properties: { value: valueText } },
      },
    },
    (request) =>
      updateAppliedIndex(services, ctxOf(request), request.params.id, String(request.body.value)),
  );

  for (const [action, handler] of [
    ['archive', archiveAppliedIndex],
    ['restore', restoreAppliedIndex],
  ] as const) {
    app.post<{ Params: { id: string } }>(
      `/api/rest/applied_indexes/:id/${action}`,
      { schema: { tags: appliedTags, params: idParams } },
      (request) => handler(services, ctxOf(request), request.params.id),
    );
  }

  app.delete<{ Params: { id: string } }>(
    '/api/rest/applied_indexes/:id',
    { schema: { tags: appliedTags, params: idParams } },
    async (request, reply) => {
      await deleteAppliedIndex(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  // ---- missing indexes -------------------------------------------------------------------------
  // The body is the spec's `{"filters": {...}}` or the same keys flat.
  const missingProperties = {
    index_field_ids: { type: 'array', maxItems: MISSING_INDEXES_MAX_FIELDS + 1, items: idString },
    folder_id: { type: 'string', maxLength: 64 },
  } as const;
  app.post<{ Querystring: { page: number }; Body: unknown }>(
    '/api/rest/entities/search/missing-indexes',
    {
      schema: {
        tags: ['entities'],
        querystring: {
          type: 'object',
          properties: { page: pagingQuery.page },
        },
        body: filtersBodySchema(missingProperties),
      },
    },
    (request) =>
      missingIndexes(
        services,
        ctxOf(request),
        filtersOfBody<MissingIndexesRequest>(request.body, missingProperties, ['index_field_ids']),
        request.query.page,
      ),
  );
}
