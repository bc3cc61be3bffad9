/**
 * History reports: the stats of a date range (counts per local day and per
 * activity type) and the CSV export, streamed in keyset batches so that memory stays constant
 * whatever the number of rows. Days are counted in the caller's IANA time zone (UTC by default).
 */
import {
  eventsForLabels,
  HISTORY_EVENT_PAIRS,
  HISTORY_FILTER_LABELS,
  labelFor,
  type HistoryLabel,
} from '@common/history';
import type { HistoryFilters, HistoryStatsDto } from '@common/history';
import { badRequest } from '../errors';
import {
  countByPair,
  countByRange,
  exportRowsByIds,
  openExportReader,
  type StoredExportRow,
} from '../repositories/history';
import type { RequestContext, Services } from './context';
import { eventVisibility } from './access';
import { idLowerBound } from './historyChain';
import { recordUserDownload } from './historyEvents';
import {
  csvText,
  exportRecordText,
  HISTORY_CSV_COLUMNS,
  HISTORY_EXPORT_FORMAT,
  OTHER_ACTIVITY,
} from './historyCsv';
import { resolveHistoryQuery } from './history';

/** Longest stats range, in days (two years and a leap day). */
export const HISTORY_STATS_MAX_DAYS = 731;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Checks an IANA time zone name.
 * @returns the name (UTC when absent)
 * @throws AppError 400 'invalid_time_zone'
 */
export function checkTimeZone(timeZone: string | undefined): string {
  const zone = timeZone || 'UTC';
  try {
    formatterFor(zone);
  } catch {
    throw badRequest(`Unknown time zone "${zone}".`, 'invalid_time_zone');
  }
  return zone;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of a moment in a time zone. */
function wallClock(ms: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The local date (YYYY-MM-DD) of a moment in a time zone. */
export function localDate(ms: number, timeZone: string): string {
  const { year, month, day } = wallClock(ms, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** How far the zone's wall clock is ahead of UTC at a moment, in ms. */
function zoneOffset(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The moment local midnight starts a date (YYYY-MM-DD) in a time zone, in epoch ms. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

/** The date after a YYYY-MM-DD date. */
function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * GET REST/history/stats?start&end: the current firm's events of a range counted per local day
 * (every day of the range, zeros included) and per activity-type label (the 21 labels, then
 * 'Other'). Events about items hidden from the session are not counted. With `labels` (activity
 * types, comma-separated, as the list's type filter) the days and `total` count only events of
 * those types; the per-type counts stay those of every type (they are what the filter picks
 * from), so they sum to `total` only without labels.
 * @throws AppError 400 for a missing or inverted range, one over 731 days, an unknown zone or an
 *   unknown activity type
 */
export async function historyStats(
  services: Services,
  ctx: RequestContext,
  input: { start: string; end: string; time_zone?: string; labels?: string },
): Promise<HistoryStatsDto> {
  const timeZone = checkTimeZone(input.time_zone);
  const labels = (input.labels ?? '')
    .split(',')
    .map((label) => label.trim())
    .filter((label) => label !== '');
  const known = new Set<string>(HISTORY_FILTER_LABELS.map(({ label }) => label));
  if (labels.some((label) => !known.has(label))) {
    throw badRequest('Unknown activity type.', 'invalid_label');
  }
  const pairs =
    labels.length > 0
      ? eventsForLabels(labels as HistoryLabel[]).map((p) => ({
          entity_type: p.entity_type,
          action: p.action,
        }))
      : null;
  const start = Date.parse(input.start);
  const end = Date.parse(input.end);
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw badRequest('"start" and "end" must be dates and times.', 'invalid_date');
  }
  if (start >= end) {
    throw badRequest('The start of the range must be before its end.', 'invalid_range');
  }
  const days: { date: string; from: number; before: number }[] = [];
  const last = localDate(end - 1, timeZone);
  for (let date = localDate(start, timeZone); ; date = nextDate(date)) {
    if (days.length >= HISTORY_STATS_MAX_DAYS) {
      throw badRequest(
        `Choose a range of at most ${HISTORY_STATS_MAX_DAYS} days.`,
        'range_too_long',
      );
    }
    const from = Math.max(start, localMidnight(date, timeZone));
    const before = Math.min(end, localMidnight(nextDate(date), timeZone));
    days.push({ date, from, before });
    if (date >= last) break;
  }
  const visible = await eventVisibility(services.db, ctx, 'h');
  const dayCounts = await countByRange(
    services.db,
    services.dialect,
    ctx.databaseId,
    days.map((d) => ({
      label: d.date,
      fromId: idLowerBound(d.from),
      beforeId: idLowerBound(d.before),
    })),
    visible,
    pairs,
  );
  // Every type's events in the range: what 'Other' is the rest of.
  const [all] =
    pairs === null
      ? [dayCounts.reduce((sum, n) => sum + n, 0)]
      : await countByRange(
          services.db,
          services.dialect,
          ctx.databaseId,
          [{ label: 'all', fromId: idLowerBound(start), beforeId: idLowerBound(end) }],
          visible,
        );
  const pairCounts = await countByPair(
    services.db,
    ctx.databaseId,
    HISTORY_EVENT_PAIRS.map((p) => ({ entity_type: p.entity_type, action: p.action })),
    idLowerBound(start),
    idLowerBound(end),
    visible,
  );
  const total = dayCounts.reduce((sum, n) => sum + n, 0);
  const byLabel = new Map<string, number>(HISTORY_FILTER_LABELS.map(({ label }) => [label, 0]));
  let labelled = 0;
  HISTORY_EVENT_PAIRS.forEach((pair, i) => {
    const label = labelFor(pair);
    if (!label) return;
    byLabel.set(label, (byLabel.get(label) ?? 0) + pairCounts[i]!);
    labelled += pairCounts[i]!;
  });
  return {
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    time_zone: timeZone,
    total,
    days: days.map((d, i) => ({ date: d.date, count: dayCounts[i]! })),
    types: [
      ...[...byLabel].map(([label, count]) => ({ label, count })),
      { label: OTHER_ACTIVITY, count: Math.max(0, (all ?? 0) - labelled) },
    ],
    labels,
  };
}

/** The file name of an export: `history_<first day>_to_<last day>.csv` in the caller's zone. */
export function exportFileName(
  filters: Pick<HistoryFilters, 'start' | 'end'>,
  timeZone: string,
  now: number,
): string {
  const from = filters.start ? localDate(Date.parse(filters.start), timeZone) : 'beginning';
  const to = localDate(filters.end ? Math.min(Date.parse(filters.end) - 1, now) : now, timeZone);
  return `history_${from}_to_${to}.csv`;
}

/** A started export: its file name and its CSV records, read lazily in batches. */
export interface HistoryExport {
  fileName: string;
  /** The id of the user download event that records the export. */
  eventId: string;
  /**
   * Batches of CSV records, each record's text without its line end (historyCsv.ts); the first
   * batch is the header alone.
   */
  batches: AsyncGenerator<string[]>;
}

/**
 * The CSV records of a batch of stored rows, in their order: each row's stored record when it is
 * in the current format, else rendered now from the whole row (rows written before migration
 * 0016, or in an older format: one extra read for all of them). Also the examiner's export's
 * history.csv (examinerZip.ts).
 */
export async function recordsOf(
  services: Pick<Services, 'db'>,
  databaseId: string,
  stored: StoredExportRow[],
): Promise<string[]> {
  const current = (row: StoredExportRow) =>
    row.export_format === HISTORY_EXPORT_FORMAT && row.export_record !== null;
  const stale = stored.filter((row) => !current(row)).map((row) => row.id);
  const rendered = new Map<string, string>();
  if (stale.length > 0) {
    for (const row of await exportRowsByIds(services.db, databaseId, stale)) {
      rendered.set(row.id, exportRecordText(row));
    }
  }
  return stored.map((row) => (current(row) ? row.export_record! : rendered.get(row.id)!));
}

/**
 * POST REST/history/export: records the export (a user download event with `export` attributes,
 * which is not part of its own file), then answers the matching events newest first as CSV
 * records, read in keyset batches (the reader's batchSize) only as fast as the consumer
 * takes them (constant memory; events that arrive meanwhile are not included). Each event's record
 * was rendered when it was recorded (historyCsv.ts); rows without a current one are rendered here.
 * The batches are read by an export reader (SQLite: a read-only connection of its own, see
 * openExportReader), opened with the first batch and closed when the generator finishes or is
 * returned early.
 * @throws AppError 400 for invalid filters or time zone
 */
export async function startHistoryExport(
  services: Services,
  ctx: RequestContext,
  filters: Omit<HistoryFilters, 'cursor'>,
  timeZoneName?: string,
): Promise<HistoryExport> {
  const timeZone = checkTimeZone(timeZoneName);
  const query = resolveHistoryQuery(ctx.databaseId, { ...filters, cursor: undefined });
  query.visible = await eventVisibility(services.db, ctx);
  const fileName = exportFileName(filters, timeZone, services.clock());
  const eventId = await services.db.transaction().execute((trx) =>
    recordUserDownload(trx, services, ctx, {
      export: { kind: 'history', file_name: fileName, filters: { ...filters } },
    }),
  );
  if (!query.beforeId || eventId < query.beforeId) query.beforeId = eventId;
  async function* batches(): AsyncGenerator<string[]> {
    yield [csvText([[...HISTORY_CSV_COLUMNS]])];
    const reader = await openExportReader(services.db, services.dialect);
    try {
      for (;;) {
        const rows = await reader.batch(query, reader.batchSize);
        if (rows.length > 0) yield await recordsOf(services, ctx.databaseId, rows);
        if (rows.length < reader.batchSize) return;
        query.beforeId = rows[rows.length - 1]!.id;
      }
    } finally {
      // Also when the consumer stops early (the client went away): the generator is returned.
      reader.close();
    }
  }
  return { fileName, eventId, batches: batches() };
}
