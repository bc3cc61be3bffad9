/**
 * Document imaging (docs/architecture.md "Document imaging"): a durable job queue and the record
 * of what was derived from a file's bytes.
 *
 * - `jobs`: one row per (kind, file). A worker claims a queued row whose `run_after` has passed (or
 *   a running row whose lease ran out: its worker stopped) by setting `locked_by` and
 *   `lease_until`; on PostgreSQL the claim skips rows another instance holds (`for update skip
 *   locked`), on SQLite the claim is one statement of the single writer. A failed attempt goes
 *   back to 'queued' with `run_after` pushed out exponentially, or to 'failed' after the limit,
 *   keeping `last_error`. The row goes with its file (foreign key cascade).
 * - `renditions`: one row per original sha256 (the derivatives are keyed by the bytes, not the
 *   file, so a copy or a re-upload of the same bytes reuses them): the object keys of the PDF
 *   rendition, the text and the first-page thumbnail, and whether the text came from recognition.
 * - `files_sha256`: whether any file still holds some bytes decides if their derivatives may go.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const imagingJobs: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('sha256', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after', 'text', (c) => c.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('jobs_kind_file')
      .on('jobs')
      .columns(['kind', 'file_id'])
      .unique()
      .execute();
    // The status page's counts per firm.
    await db.schema
      .createIndex('jobs_firm_state')
      .on('jobs')
      .columns(['database_id', 'state'])
      .execute();
    // The claim's scan: queued rows by due time, running rows by lease end.
    await db.schema
      .createIndex('jobs_due')
      .on('jobs')
      .columns(['state', 'run_after'])
      .where(sql<boolean>`state = 'queued'`)
      .execute();
    await db.schema
      .createIndex('jobs_lease')
      .on('jobs')
      .columns(['state', 'lease_until'])
      .where(sql<boolean>`state = 'running'`)
      .execute();
    await db.schema.createIndex('files_sha256').on('files').column('sha256').execute();
    await db.schema
      .createTable('renditions')
      .addColumn('sha256', 'text', (c) => c.primaryKey())
      .addColumn('source_kind', 'text', (c) => c.notNull())
      .addColumn('pdf_key', 'text')
      .addColumn('text_key', 'text')
      .addColumn('thumbnail_key', 'text')
      .addColumn('page_count', 'integer')
      .addColumn('text_chars', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('recognized', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('renditions').ifExists().execute();
    await db.schema.dropIndex('files_sha256').ifExists().execute();
    await db.schema.dropTable('jobs').ifExists().execute();
  },
};
