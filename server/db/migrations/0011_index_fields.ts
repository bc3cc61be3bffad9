/**
 * Index fields and applied indexes (SPEC sections 3, 4 and 7; the table contract of
 * brief-index-search: the search engineer's triggers read these columns):
 * - `index_fields`: a firm's own fields (name, type text_field | date | number | list, description,
 *   position). `name_key` (trimmed, lowercased name) is unique per firm among fields not deleted
 *   (a partial unique index, on both dialects). `deleted_at` marks a field deleted but still
 *   undoable (common/indexFields.ts INDEX_FIELD_UNDO_MS); destroying it removes the row.
 * - `index_field_values`: the ordered values of a list field (removed with their field).
 * - `applied_indexes`: one value of one field on one file or folder. At most one live
 *   (non-archived) row per (entity_id, index_field_id), by a partial unique index. Values are text:
 *   dates YYYY-MM-DD, numbers canonical decimal text. Index `applied_indexes_entity` serves an
 *   item's values and the missing-indexes query (NOT EXISTS per file); `applied_indexes_field`
 *   serves a field's applied values and update_many.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const indexFields: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('index_fields')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull().defaultTo('text_field'))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('archived_at', 'text')
      .addColumn('deleted_at', 'text')
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await sql`create unique index index_fields_name on index_fields (database_id, name_key) where deleted_at is null`.execute(
      db,
    );
    await db.schema
      .createIndex('index_fields_position')
      .on('index_fields')
      .columns(['database_id', 'position'])
      .execute();

    await db.schema
      .createTable('index_field_values')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('index_field_id', 'text', (c) =>
        c.notNull().references('index_fields.id').onDelete('cascade'),
      )
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('index_field_values_field')
      .on('index_field_values')
      .columns(['index_field_id', 'position'])
      .execute();

    await db.schema
      .createTable('applied_indexes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('index_field_id', 'text', (c) =>
        c.notNull().references('index_fields.id').onDelete('cascade'),
      )
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await sql`create unique index applied_indexes_live on applied_indexes (entity_id, index_field_id) where archived_at is null`.execute(
      db,
    );
    await db.schema
      .createIndex('applied_indexes_entity')
      .on('applied_indexes')
      .columns(['database_id', 'entity_id', 'index_field_id'])
      .execute();
    await db.schema
      .createIndex('applied_indexes_field')
      .on('applied_indexes')
      .columns(['index_field_id', 'value'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('applied_indexes').execute();
    await db.schema.dropTable('index_field_values').execute();
    await db.schema.dropTable('index_fields').execute();
  },
};
