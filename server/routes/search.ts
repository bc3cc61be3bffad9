/**
 * Autocomplete, search and filtered lists (SPEC section 7 "Entities"): thin routes,
 * schema → services/search.ts. Shapes in common/search.ts.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_PAGE_SIZE } from '@common/constants';
import {
  DATE_PRESETS,
  SEARCH_MAX_INDEX_VALUES,
  SEARCH_MAX_QUERY_LENGTH,
  SEARCH_PAGE_SIZE,
  SEARCH_TYPES,
  type SearchRequest,
} from '@common/search';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { autocomplete, searchEntities } from '../services/search';
import { pagingQuery, type PagingQuery } from './schemas';

const dateText = { type: 'string', minLength: 10, maxLength: 40 } as const;

/** JSON schema of SearchFilters (unknown keys are dropped). */
const filtersSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // The service trims and measures; the schema only bounds the raw text.
    query: { type: 'string', maxLength: SEARCH_MAX_QUERY_LENGTH * 2 },
    types: { type: 'array', maxItems: SEARCH_TYPES.length, items: { enum: [...SEARCH_TYPES] } },
    date_preset: { enum: [...DATE_PRESETS] },
    date_from: dateText,
    date_to: dateText,
    index_values: {
      type: 'array',
      maxItems: SEARCH_MAX_INDEX_VALUES,
      items: {
        type: 'object',
        required: ['index_field_id', 'value'],
        additionalProperties: false,
        properties: {
          index_field_id: { type: 'string', minLength: 1, maxLength: 64 },
          value: { type: 'string', maxLength: 1000 },
        },
      },
    },
    favorites_only: { type: 'boolean' },
    folder_id: { type: 'string', maxLength: 64 },
    archived: { type: 'boolean' },
    content: { type: 'boolean' },
  },
} as const;

const searchSchema = {
  tags: ['entities'],
  querystring: {
    type: 'object',
    properties: {
      page: pagingQuery.page,
      page_size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: SEARCH_PAGE_SIZE },
    },
  },
  body: {
    type: 'object',
    required: ['filters'],
    properties: { filters: filtersSchema },
  },
} as const;

/** Routes behind requireSession. */
export function searchRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: { query: string } }>(
    '/api/rest/entities/search/autocomplete',
    {
      schema: {
        tags: ['entities'],
        querystring: {
          type: 'object',
          properties: {
            query: { type: 'string', maxLength: SEARCH_MAX_QUERY_LENGTH * 2, default: '' },
          },
        },
      },
    },
    async (request) => autocomplete(services, ctxOf(request), request.query.query),
  );

  app.post<{ Querystring: PagingQuery; Body: SearchRequest }>(
    '/api/rest/entities/search',
    { schema: searchSchema },
    async (request) =>
      searchEntities(
        services,
        ctxOf(request),
        request.body.filters,
        request.query.page,
        request.query.page_size,
        { requireQuery: true },
      ),
  );

  app.post<{ Querystring: PagingQuery; Body: SearchRequest }>(
    '/api/rest/entities/filtered',
    { schema: searchSchema },
    async (request) =>
      searchEntities(
        services,
        ctxOf(request),
        request.body.filters,
        request.query.page,
        request.query.page_size,
        { requireQuery: false },
      ),
  );
}
