/**
 * Upload batches (SPEC section 5 "Duplicate files in one upload are refused"): a pending upload
 * may carry the client's batch id (one per pick of files, kept across a reload), the client's own
 * key of the file in that batch, and the key of the name it was picked with (`nameKey`, kept
 * while recording gives the row another name). One batch holds one file per picked name and
 * folder: a second one is looked up through `files_upload_batch` (which also finds the earlier
 * upload of a file of the batch created again, a resume or a retry), and two pending uploads of one
 * name in one batch are refused atomically by the partial unique index (only pending rows: a
 * recorded file may later be copied or moved beside a namesake of its batch). Rows without a batch
 * (older clients, the API's own shape) are never constrained (NULLs are distinct in both
 * databases).
 */
import { sql, type Kysely, type Migration } from 'kysely';

const COLUMNS = ['database_id', 'upload_batch_id', 'folder_id', 'upload_name_key'];

export const uploadBatches: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('files').addColumn('upload_batch_id', 'text').execute();
    await db.schema.alterTable('files').addColumn('upload_client_key', 'text').execute();
    await db.schema.alterTable('files').addColumn('upload_name_key', 'text').execute();
    await db.schema.createIndex('files_upload_batch').on('files').columns(COLUMNS).execute();
    await db.schema
      .createIndex('files_upload_batch_pending')
      .on('files')
      .columns(COLUMNS)
      .unique()
      .where(sql<boolean>`status = 'pending'`)
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('files_upload_batch_pending').execute();
    await db.schema.dropIndex('files_upload_batch').execute();
    await db.schema.alterTable('files').dropColumn('upload_name_key').execute();
    await db.schema.alterTable('files').dropColumn('upload_client_key').execute();
    await db.schema.alterTable('files').dropColumn('upload_batch_id').execute();
  },
};
