/**
 * Organise at scale:
 * - `archived_root_id` on folders and files: the item whose archive archived this row (its own id
 *   when it was archived itself, the folder's id when it went with an archived folder), so a
 *   restore brings back exactly what went with it, and the Archive page lists only the items that
 *   were archived themselves (partial index `*_archive_list`).
 * - `recent_items`: each user's last touch (create, open, change) per file or folder, upserted with
 *   the history event, for the Recent page.
 * - `favorites_list`: a user's enabled favorites, newest first.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const organise: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of ['folders', 'files'] as const) {
      await db.schema.alterTable(table).addColumn('archived_root_id', 'text').execute();
      await sql`update ${sql.table(table)} set archived_root_id = id where archived_at is not null`.execute(
        db,
      );
      await db.schema
        .createIndex(`${table}_archive_list`)
        .on(table)
        .columns(['database_id', 'archived_at', 'id'])
        .where(sql.ref('archived_root_id'), '=', sql.ref('id'))
        .execute();
      await db.schema
        .createIndex(`${table}_archived_root`)
        .on(table)
        .columns(['database_id', 'archived_root_id'])
        .execute();
    }
    await db.schema
      .createTable('recent_items')
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('recent_items_pk', ['user_id', 'entity_id'])
      .execute();
    await db.schema
      .createIndex('recent_items_list')
      .on('recent_items')
      .columns(['database_id', 'user_id', 'at'])
      .execute();
    await db.schema
      .createIndex('favorites_list')
      .on('favorites')
      .columns(['database_id', 'user_id', 'enabled', 'updated_at'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('favorites_list').execute();
    await db.schema.dropTable('recent_items').execute();
    for (const table of ['folders', 'files'] as const) {
      await db.schema.dropIndex(`${table}_archived_root`).execute();
      await db.schema.dropIndex(`${table}_archive_list`).execute();
      await db.schema.alterTable(table).dropColumn('archived_root_id').execute();
    }
  },
};
