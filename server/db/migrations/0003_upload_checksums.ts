/**
 * Uploads that never lose a file: the stored object's sha256 on each file row (set when
 * the upload is recorded), and the indexes the upload checks use — the active pending uploads of a
 * user (count restriction) and the stale pending uploads (cleanup job).
 */
import type { Kysely, Migration } from 'kysely';

export const uploadChecksums: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('files').addColumn('sha256', 'text').execute();
    await db.schema
      .createIndex('files_pending_by_user')
      .on('files')
      .columns(['database_id', 'created_by', 'status', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('files_status_updated')
      .on('files')
      .columns(['status', 'updated_at'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('files_status_updated').execute();
    await db.schema.dropIndex('files_pending_by_user').execute();
    await db.schema.alterTable('files').dropColumn('sha256').execute();
  },
};
