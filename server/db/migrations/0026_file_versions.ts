/**
 * File versions (docs/architecture.md "File versions"): every version of a file is an immutable
 * object of its own, recorded in `file_versions` (number from 1, object key, size, sha256, content
 * type, who uploaded it and when; a restore names the version it copies). The file row keeps its
 * id and mirrors its newest version (storage key, size, sha256), so every reader of a file's bytes
 * (download, preview, share links, zips, document imaging) serves the newest. A pending upload that
 * is to become a new version names its file in `files.upload_version_of`.
 *
 * - The primary key (file_id, number) makes two versions of one number impossible; a race of two
 *   new versions on PostgreSQL refuses the second commit and its transaction runs again.
 * - `storage_key` is unique: no object belongs to two versions.
 * - `upload_id`, `upload_batch_id`, `upload_client_key`: the pending upload a version was recorded
 *   from, so that a record or a create-upload of that upload sent again answers the file instead
 *   of adding a version twice (the pending row is gone once recorded).
 * - Rows go with their file (foreign key cascade on a permanent delete).
 * - Backfill: every recorded file gets version 1 from its row (its object, size, sha256, creator
 *   and creation time).
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const fileVersions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('file_versions')
      .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('storage_key', 'text', (c) => c.notNull().unique())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text')
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('restored_from', 'integer')
      .addColumn('upload_id', 'text')
      .addColumn('upload_batch_id', 'text')
      .addColumn('upload_client_key', 'text')
      .addPrimaryKeyConstraint('file_versions_pk', ['file_id', 'number'])
      .execute();
    // Whether any version still holds some bytes decides if their derivatives may go.
    await db.schema
      .createIndex('file_versions_sha256')
      .on('file_versions')
      .column('sha256')
      .execute();
    await db.schema
      .createIndex('file_versions_upload')
      .on('file_versions')
      .columns(['database_id', 'upload_id'])
      .where(sql<boolean>`upload_id is not null`)
      .execute();
    await db.schema
      .createIndex('file_versions_batch')
      .on('file_versions')
      .columns(['database_id', 'upload_batch_id', 'upload_client_key'])
      .where(sql<boolean>`upload_batch_id is not null`)
      .execute();
    await db.schema.alterTable('files').addColumn('upload_version_of', 'text').execute();
    await sql`
      insert into file_versions
        (file_id, number, database_id, storage_key, size, sha256, content_type, created_by,
         created_at)
      select id, 1, database_id, storage_key, size, sha256, content_type, created_by, created_at
      from files
      where status = 'ready'
    `.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('files').dropColumn('upload_version_of').execute();
    await db.schema.dropTable('file_versions').ifExists().execute();
  },
};
