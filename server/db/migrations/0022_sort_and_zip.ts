/**
 * Sorting the folder view by column, remembered per user, and the zip of several selected items.
 *
 * - `user_preferences`: one JSON value per user and name (the folder view's sort), the same in
 *   every firm database of the user.
 * - List indexes in the other orders the folder view reads (modified, size, type), over live rows
 *   only, like 0006's name order: a page after a cursor is one index range read, page n by offset
 *   finds its start in the index. Folders have no size or type: those orders read folders by name
 *   (0006's `folders_list`).
 * - `zip_requests`: a selection to zip, named by a short-lived single-use token (stored as its
 *   sha256), so the browser can download the zip with a plain GET (streamed to disk, never held
 *   in memory) after a POST that carried the ids.
 */
import { sql, type Kysely, type Migration } from 'kysely';

const LIVE_FILES = sql<boolean>`archived_at is null and status = 'ready'`;

export const sortAndZip: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('user_preferences')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_preferences_pk', ['user_id', 'name'])
      .execute();
    await db.schema
      .createIndex('folders_list_modified')
      .on('folders')
      .columns(['database_id', 'parent_id', 'updated_at', 'id'])
      .where(sql.ref('archived_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('files_list_modified')
      .on('files')
      .columns(['database_id', 'folder_id', 'updated_at', 'id'])
      .where(LIVE_FILES)
      .execute();
    await db.schema
      .createIndex('files_list_size')
      .on('files')
      .columns(['database_id', 'folder_id', 'size', 'id'])
      .where(LIVE_FILES)
      .execute();
    await db.schema
      .createIndex('files_list_type')
      .on('files')
      .columns(['database_id', 'folder_id', 'extension', 'name_key', 'id'])
      .where(LIVE_FILES)
      .execute();
    await db.schema
      .createTable('zip_requests')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('items', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('zip_requests_expiry')
      .on('zip_requests')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('zip_requests').execute();
    await db.schema.dropIndex('files_list_type').execute();
    await db.schema.dropIndex('files_list_size').execute();
    await db.schema.dropIndex('files_list_modified').execute();
    await db.schema.dropIndex('folders_list_modified').execute();
    await db.schema.dropTable('user_preferences').execute();
  },
};
