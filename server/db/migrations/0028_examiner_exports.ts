/**
 * The examiner's export (docs/architecture.md "Examiner's export"): `examiner_exports` keeps each
 * export an administrator asked for — its single-use download link (only the token's sha256), the
 * scope, and the progress the zip writes as it streams (read by the client's progress bar through
 * any instance).
 */
import type { Kysely, Migration } from 'kysely';

export const examinerExports: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('examiner_exports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.unique())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('versions', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('phase', 'text')
      .addColumn('files_total', 'bigint', (c) => c.notNull())
      .addColumn('bytes_total', 'bigint', (c) => c.notNull())
      .addColumn('events_total', 'bigint', (c) => c.notNull())
      .addColumn('files_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('events_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('event_id', 'text')
      .addColumn('manifest_sha256', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('examiner_exports_firm')
      .on('examiner_exports')
      .columns(['database_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('examiner_exports').execute();
  },
};
