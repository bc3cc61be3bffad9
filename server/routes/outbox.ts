/**
 * The mail outbox administrators read when no SMTP server is configured: the
 * messages the server wrote to DATA_DIR/outbox for the session's firm, newest first. Thin: the
 * rules (administrators only, the session firm's messages only) are in server/services/mail.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { outboxMessage, outboxPage } from '../services/mail';
import { idParams, pagingQuery, type PagingQuery } from './schemas';

const tags = ['outbox'];

/** Registers the outbox routes (behind requireSession). */
export function outboxRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: PagingQuery }>(
    '/api/rest/private/outbox',
    {
      schema: {
        tags,
        description:
          "Administrators: a page of the firm's outbox (messages kept when SMTP_URL is unset), " +
          'newest first, without their text.',
        querystring: { type: 'object', properties: pagingQuery },
      },
    },
    async (request) =>
      outboxPage(services, ctxOf(request), request.query.page, request.query.page_size),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/private/outbox/:id',
    {
      schema: {
        tags,
        description: "Administrators: one message of the firm's outbox with its text.",
        params: idParams,
      },
    },
    async (request) => outboxMessage(services, ctxOf(request), request.params.id),
  );
}
