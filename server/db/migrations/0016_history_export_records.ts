/**
 * Stored export records (an export at least half as fast as the database's own
 * CSV dump). Each history event keeps its CSV record as the export writes it, rendered once when
 * the event is recorded (server/services/historyCsv.ts), with the format it was rendered in:
 * - `export_record`: the record's CSV text, without a line end;
 * - `export_format`: HISTORY_EXPORT_FORMAT at the time.
 * Rows written before this migration keep both null and are rendered at export time, as every row
 * was before; no row is rewritten (the table is append-only). The hash chain does not cover these
 * columns: they are derived from the hashed ones, and the verifier checks that they still match.
 */
import type { Kysely, Migration } from 'kysely';

export const historyExportRecords: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('history_events').addColumn('export_record', 'text').execute();
    await db.schema.alterTable('history_events').addColumn('export_format', 'integer').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('history_events').dropColumn('export_format').execute();
    await db.schema.alterTable('history_events').dropColumn('export_record').execute();
  },
};
