/**
 * History routes (SPEC section 7 "History and events", "Folders", "Files"). Thin: schema
 * → session → service. The export streams the events' CSV records (made by papaparse when each
 * event was recorded), one batch at a time.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { HISTORY_FILTER_LABELS } from '@common/history';
import type { HistoryFilters } from '@common/history';
import { dispositionHeader } from '../disposition';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import { historyUsers, itemHistory, listEvents, verifyCurrentFirm } from '../services/history';
import { CSV_NEWLINE } from '../services/historyCsv';
import { historyStats, startHistoryExport } from '../services/historyReports';
import {
  filtersBodySchema,
  filtersOfBody,
  idParams,
  pagingQuery,
  type PagingQuery,
} from './schemas';

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
      'database',
      'retention_schedule',
      'legal_hold',
      'document_request',
      'request_template',
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

/**
 * The keys of the list's body (the filters and the paging cursor), sent flat or inside
 * `filters`; any other key is refused with 400 rather than dropped, as an ignored filter would
 * answer more events than asked for.
 */
const listProperties = { ...filterProperties, cursor } as const;

/** The keys of the export's body (the filters and the time zone of its dates), as the list's. */
const exportProperties = { ...filterProperties, time_zone: timeZone } as const;

/** Query of the per-item history routes. */
interface ItemHistoryQuery extends PagingQuery {
  cursor?: string;
}

/** Byte order mark: spreadsheets then read the file as UTF-8. */
const BOM = '\ufeff';

/**
 * Records per chunk of the response. A string past V8's regular object size (128 KiB, a few
 * hundred records of about 600 bytes) lives in the large-object space of the old generation, and
 * turning it into bytes for the socket then cost several times more than a small one (SQLite
 * export: 1,000 records a chunk 4 µs a record to encode, 100 records 0.5 µs).
 */
export const CSV_RECORDS_PER_CHUNK = 100;

/**
 * The export's CSV text: the records (RFC 4180, made by papaparse when each event was recorded,
 * services/historyCsv.ts) with CRLF line ends, one string per {@link CSV_RECORDS_PER_CHUNK}
 * records, the first with a byte order mark. As a `Readable.from` source it is pulled only as fast
 * as the response drains, so rows are read from the database only as fast as the client takes
 * them; when the client goes away the stream is destroyed and the generator stops reading.
 * @param batches record batches, the header first (startHistoryExport)
 */
export async function* csvChunks(batches: AsyncGenerator<string[]>): AsyncGenerator<string> {
  let first = true;
  for await (const records of batches) {
    for (let i = 0; i < records.length; i += CSV_RECORDS_PER_CHUNK) {
      const text = records.slice(i, i + CSV_RECORDS_PER_CHUNK).join(CSV_NEWLINE);
      yield `${first ? BOM : ''}${text}${CSV_NEWLINE}`;
      first = false;
    }
  }
}

/** Registers the history routes. */
export function historyRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Querystring: PagingQuery; Body: unknown }>(
    '/api/rest/history',
    {
      schema: {
        tags: ['history'],
        querystring: { type: 'object', properties: pagingQuery },
        body: filtersBodySchema(listProperties),
      },
    },
    async (request) =>
      listEvents(
        services,
        ctxOf(request),
        filtersOfBody<HistoryFilters>(request.body, listProperties),
        request.query.page,
        request.query.page_size,
      ),
  );

  app.post<{ Body: unknown }>(
    '/api/rest/history/export',
    { schema: { tags: ['history'], body: filtersBodySchema(exportProperties) } },
    async (request, reply) => {
      const { time_zone: zone, ...filters } = filtersOfBody<
        Omit<HistoryFilters, 'cursor'> & { time_zone?: string }
      >(request.body, exportProperties);
      const started = await startHistoryExport(services, ctxOf(request), filters, zone);
      const csv = Readable.from(csvChunks(started.batches), { objectMode: false });
      csv.on('error', (error) => request.log.warn({ err: error }, 'history export ended early'));
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', dispositionHeader(started.fileName, 'attachment'))
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(csv);
    },
  );

  app.get<{ Querystring: { start: string; end: string; time_zone?: string; labels?: string } }>(
    '/api/rest/history/stats',
    {
      schema: {
        tags: ['history'],
        querystring: {
          type: 'object',
          required: ['start', 'end'],
          properties: {
            start: isoTime,
            end: isoTime,
            time_zone: timeZone,
            // Activity types, comma-separated (none of the labels holds a comma).
            labels: { type: 'string', maxLength: 1000 },
          },
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
