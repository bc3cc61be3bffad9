/**
 * Background fingerprints: objects above the inline checksum limit get their sha256
 * after the upload is recorded (server/services/fingerprints.ts). The sweep that fills in what a
 * restart interrupted reads the ready files still without one, by id, from this partial index.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const fileFingerprints: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('files_missing_sha256')
      .on('files')
      .column('id')
      .where(sql<boolean>`sha256 is null and status = 'ready'`)
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('files_missing_sha256').execute();
  },
};
