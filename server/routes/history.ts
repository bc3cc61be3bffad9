/**
 * History routes (SPEC section 7 "History and events", "Folders", "Files"; issue 5). Thin: schema
 * → session → service. The export streams CSV made by csv-stringify, one batch at a time.
 */
import type { Writable } from 'node:stream';
import contentDisposition from 'content-disposition';
import { stringify } from 'csv-stringify';
import type { FastifyInstance } from 'fastify';
import { HISTORY_FILTER_LABELS } from '../../common/history';
import type { HistoryFilters } from '../../common/types';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { historyUsers, itemHistory, listEvents, verifyCurrentFirm } from '../services/history';
import { historyStats, startHistoryExport } from '../services/historyReports';
import { idParams, pagingQuery, type PagingQuery } from './schemas';

const isoTime = { type: 'string', maxLength: 40, format: 'date-time' } as const;
const shortId = { type: 'string', maxLength: 64 } as const;
const cursor = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
} as const;
const timeZone = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** The filter fields shared by the list and the export. */
const filterProperties = {
  entity_type: {
    type: 'string',
    enum: [
      'folder',
      'folder_contact',
      'file',
      'user',
      'applied_index',
      'folder_permission',
      'share_link',
      'external_share',
    ],
  },
  entity_id: shortId,
  item_id: shortId,
  user_id: shortId,
  actions: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 40 } },
  labels: {
    type: 'array',
    maxItems: HISTORY_FILTER_LABELS.length,
    items: { type: 'string', enum: HISTORY_FILTER_LABELS.map((l) => l.label) },
  },
  start: isoTime,
  end: isoTime,
} as const;

/** Query of the per-item history routes. */
interface ItemHistoryQuery extends PagingQuery {
  cursor?: string;
}

/** Resolves when the stream can take more ('drain'), or is gone ('close'). */
function writable(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Writes the export's record batches into the CSV stringifier, waiting whenever it (and so the
 * response behind it) is full: rows are read from the database only as fast as the client takes
 * them. Stops reading when the client goes away; a database error ends the response early.
 */
async function writeRecords(batches: AsyncGenerator<string[][]>, out: Writable): Promise<void> {
  try {
    for await (const records of batches) {
      for (const record of records) {
        if (out.destroyed) return;
        if (!out.write(record)) await writable(out);
      }
      if (out.destroyed) return;
    }
    out.end();
  } catch (error) {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

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
          properties: { ...filterProperties, cursor },
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

  app.post<{ Body: (Omit<HistoryFilters, 'cursor'> & { time_zone?: string }) | undefined }>(
    '/api/rest/history/export',
    {
      schema: {
        tags: ['history'],
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { ...filterProperties, time_zone: timeZone },
        },
      },
    },
    async (request, reply) => {
      const { time_zone: zone, ...filters } = request.body ?? {};
      const started = await startHistoryExport(services, ctxOf(request), filters, zone);
      const csv = stringify({ bom: true });
      csv.on('error', (error) => request.log.warn({ err: error }, 'history export ended early'));
      void writeRecords(started.batches, csv);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', contentDisposition(started.fileName, { type: 'attachment' }))
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(csv);
    },
  );

  app.get<{ Querystring: { start: string; end: string; time_zone?: string } }>(
    '/api/rest/history/stats',
    {
      schema: {
        tags: ['history'],
        querystring: {
          type: 'object',
          required: ['start', 'end'],
          properties: { start: isoTime, end: isoTime, time_zone: timeZone },
        },
      },
    },
    async (request) => historyStats(services, ctxOf(request), request.query),
  );

  app.get('/api/rest/history/users', { schema: { tags: ['history'] } }, async (request) =>
    historyUsers(services, ctxOf(request)),
  );

  app.get('/api/rest/history/verify', { schema: { tags: ['history'] } }, async (request) =>
    verifyCurrentFirm(services, ctxOf(request)),
  );

  for (const kind of ['folder', 'file'] as const) {
    app.get<{ Params: { id: string }; Querystring: ItemHistoryQuery }>(
      `/api/rest/${kind}s/:id/history`,
      {
        schema: {
          tags: ['history', `${kind}s`],
          params: idParams,
          querystring: { type: 'object', properties: { ...pagingQuery, cursor } },
        },
      },
      async (request) =>
        itemHistory(
          services,
          ctxOf(request),
          kind,
          request.params.id,
          request.query.page,
          request.query.page_size,
          request.query.cursor,
        ),
    );
  }
}
