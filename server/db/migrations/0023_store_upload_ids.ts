/**
 * The object store's own id of a pending multipart upload. S3 chooses a multipart upload's id
 * itself (the server starts the upload and keeps S3's UploadId here), while the browser keeps
 * naming the upload by the pending file's id; the local store's id is the file's id. Null for
 * single uploads and for rows made before this migration (their store id is the file's id).
 */
import type { Kysely, Migration } from 'kysely';

export const storeUploadIds: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('files').addColumn('store_upload_id', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('files').dropColumn('store_upload_id').execute();
  },
};
