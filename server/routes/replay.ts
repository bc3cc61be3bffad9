/**
 * Replay routes (docs/architecture/replay.md): a folder as it was at a moment with a window of
 * its timeline, and the case file of a period (CSV, or JSON for the printable page). Thin:
 * schema → session → service. `:id` is a folder's id, or REPLAY_ROOT_ID for the root.
 */
import type { FastifyInstance } from 'fastify';
import { ROOT_FOLDER_ID } from '@common/constants';
import {
  REPLAY_CASE_FILE_ROUTE,
  REPLAY_ROOT_ID,
  REPLAY_VIEW_ROUTE,
  type CaseFileQuery,
  type ReplayViewQuery,
} from '@common/replayViews';
import { dispositionHeader } from '../disposition';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { caseFile } from '../services/replay/caseFile';
import { replayView } from '../services/replay/view';
import { idParams } from './schemas';

const moment = { type: 'string', minLength: 1, maxLength: 40 } as const;
const eventId = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
} as const;

/** The folder id of a route's `:id`. */
function folderIdOf(id: string): string {
  return id === REPLAY_ROOT_ID ? ROOT_FOLDER_ID : id;
}

/** Registers the replay routes (members of the session's firm). */
export function replayRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { id: string }; Querystring: ReplayViewQuery }>(
    REPLAY_VIEW_ROUTE,
    {
      schema: {
        tags: ['history'],
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { as_of: moment, event: eventId, before_event: eventId },
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return replayView(services, ctxOf(request), folderIdOf(request.params.id), request.query);
    },
  );

  app.get<{ Params: { id: string }; Querystring: CaseFileQuery }>(
    REPLAY_CASE_FILE_ROUTE,
    {
      schema: {
        tags: ['history'],
        params: idParams,
        querystring: {
          type: 'object',
          required: ['from', 'to'],
          additionalProperties: false,
          properties: {
            from: moment,
            to: moment,
            format: { type: 'string', enum: ['csv', 'json'] },
          },
        },
      },
    },
    async (request, reply) => {
      const answer = await caseFile(
        services,
        ctxOf(request),
        folderIdOf(request.params.id),
        request.query,
      );
      reply.header('Cache-Control', 'private, no-store');
      if (answer.kind === 'json') return answer.body;
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', dispositionHeader(answer.fileName, 'attachment'))
        .send(answer.body);
    },
  );
}
