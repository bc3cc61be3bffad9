/** History routes (SPEC section 7 "History and events"). */
import type { FastifyInstance } from 'fastify';
import type { HistoryFilters } from '../../common/types';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { listEvents } from '../services/history';
import { pagingQuery, type PagingQuery } from './schemas';

const isoTime = { type: 'string', maxLength: 40, format: 'date-time' } as const;

/** Registers the history routes. */
export function historyRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Querystring: PagingQuery; Body: HistoryFilters | undefined }>(
    '/api/rest/history',
    {
      schema: {
        tags: ['history'],
        querystring: { type: 'object', properties: pagingQuery },
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            entity_type: { type: 'string', maxLength: 40 },
            entity_id: { type: 'string', maxLength: 64 },
            user_id: { type: 'string', maxLength: 64 },
            actions: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 40 } },
            start: isoTime,
            end: isoTime,
          },
        },
      },
    },
    async (request) =>
      listEvents(
        services,
        ctxOf(request),
        request.body ?? {},
        request.query.page,
        request.query.page_size,
      ),
  );
}
