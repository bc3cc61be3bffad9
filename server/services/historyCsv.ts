/**
 * The CSV record of a history event: the export's columns, the cell guard
 * against spreadsheet formulas, and the record's text as papaparse writes it (RFC 4180 quoting).
 *
 * Each event's record is rendered once, when the event is recorded (services/history.ts
 * recordEvents), and stored with it (`export_record`, tagged with `export_format`); an export then
 * streams the stored records as they are, and renders only the rows stored without one (written
 * before migration 0016, or in an older format). The stored record is derived data: the hash chain
 * does not cover it, the verifier checks it against the row it was rendered from.
 *
 * Change the columns or anything the record is made of (the summary's wording in common/history.ts
 * included) only together with {@link HISTORY_EXPORT_FORMAT}: rows of an older format are then
 * rendered anew at export time, and the verifier leaves their stored text alone.
 */
import Papa from 'papaparse';
import { summarizeHistoryEvent } from '@common/history';
import { presentHistoryEvent } from '../presenters';
import type { HistoryExportRow } from '../repositories/history';

/**
 * Version of the stored export record: bump it whenever {@link exportRecordText} would write
 * another text for the same row (columns, cell guard, summary wording).
 */
export const HISTORY_EXPORT_FORMAT = 1;

/** The stats bucket, and the export's activity, of events no activity-type label selects. */
export const OTHER_ACTIVITY = 'Other';

/** Header of the export, in column order. */
export const HISTORY_CSV_COLUMNS = [
  'id',
  'created_at',
  'user',
  'user_id',
  'activity',
  'summary',
  'entity_type',
  'action',
  'entity_id',
  'item_id',
  'ip',
  'user_agent',
  'attributes',
  'chain_seq',
  'hash',
] as const;

/** The line end of the export (RFC 4180). */
export const CSV_NEWLINE = '\r\n';

/**
 * A cell as written to the CSV: text that a spreadsheet would run as a formula (starting with =,
 * +, -, @, tab or carriage return) gets a leading apostrophe (OWASP "CSV injection"). The first
 * character is compared by code rather than with a pattern: this runs for every cell of an export.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'string' ? value : String(value);
  switch (text.charCodeAt(0)) {
    case 0x3d: // =
    case 0x2b: // +
    case 0x2d: // -
    case 0x40: // @
    case 0x09: // tab
    case 0x0d: // carriage return
      return `'${text}`;
    default:
      return text;
  }
}

/** One exported row's cells, in {@link HISTORY_CSV_COLUMNS} order. */
export function csvRecord(row: HistoryExportRow): string[] {
  const rendered = summarizeHistoryEvent(presentHistoryEvent(row));
  return [
    csvCell(row.id),
    csvCell(row.created_at),
    csvCell(row.user_name),
    csvCell(row.user_id),
    csvCell(rendered.label ?? OTHER_ACTIVITY),
    csvCell(rendered.summary),
    csvCell(row.entity_type),
    csvCell(row.action),
    csvCell(row.entity_id),
    csvCell(row.item_id),
    csvCell(row.ip),
    csvCell(row.user_agent),
    csvCell(row.attributes),
    csvCell(Number(row.chain_seq)),
    csvCell(row.hash),
  ];
}

/**
 * CSV text of records (papaparse: RFC 4180 quoting, CRLF between records, none after the last).
 * @param records rows of cells
 */
export function csvText(records: readonly (readonly string[])[]): string {
  return Papa.unparse(records as string[][], { newline: CSV_NEWLINE });
}

/**
 * The stored export record of a row: its {@link csvRecord} as one line of CSV, without a line end
 * (a quoted cell may itself hold line breaks). Format {@link HISTORY_EXPORT_FORMAT}.
 */
export function exportRecordText(row: HistoryExportRow): string {
  return csvText([csvRecord(row)]);
}
