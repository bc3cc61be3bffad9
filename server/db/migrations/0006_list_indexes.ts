/**
 * Keyset paging of big folders: indexes ordered exactly as the folder view reads, on
 * (firm, parent, name_key, id) over live rows only, so that a page after a cursor is one index
 * range read whatever its depth, the counts read the index alone, and page n by offset finds its
 * start in the index without touching the rows it skips.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const listIndexes: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('folders_list')
      .on('folders')
      .columns(['database_id', 'parent_id', 'name_key', 'id'])
      .where(sql.ref('archived_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('files_list')
      .on('files')
      .columns(['database_id', 'folder_id', 'name_key', 'id'])
      .where(sql<boolean>`archived_at is null and status = 'ready'`)
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('files_list').execute();
    await db.schema.dropIndex('folders_list').execute();
  },
};
