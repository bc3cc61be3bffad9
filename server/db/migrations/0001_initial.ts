/**
 * First schema: firm databases, users, memberships, sessions, folders, folder colours, files,
 * favorites and history events. Written with Kysely's schema builder and types both dialects share.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('databases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_key', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text')
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('disabled_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('memberships')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('memberships_user_database', ['user_id', 'database_id'])
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('idle_minutes', 'integer', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('login_recorded', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('logout_recorded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('folders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('parent_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      .execute();
    // Unique live names per parent; the same index serves the ordered folder listing.
    await db.schema
      .createIndex('folders_live_name')
      .on('folders')
      .columns(['database_id', 'parent_id', 'name_key'])
      .unique()
      .where(sql.ref('archived_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('folders_parent')
      .on('folders')
      .columns(['database_id', 'parent_id', 'archived_at'])
      .execute();

    await db.schema
      .createTable('folder_colors')
      .addColumn('folder_id', 'text', (c) =>
        c.notNull().references('folders.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('folder_colors_pk', ['folder_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('folder_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('extension', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull().unique())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      .execute();
    await db.schema
      .createIndex('files_live_name')
      .on('files')
      .columns(['database_id', 'folder_id', 'name_key'])
      .unique()
      .where(sql<boolean>`archived_at is null and status = 'ready'`)
      .execute();
    await db.schema
      .createIndex('files_folder')
      .on('files')
      .columns(['database_id', 'folder_id', 'status', 'archived_at'])
      .execute();

    await db.schema
      .createTable('favorites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('favorites_entity_user', ['entity_type', 'entity_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('favorites_user')
      .on('favorites')
      .columns(['database_id', 'user_id', 'enabled'])
      .execute();

    await db.schema
      .createTable('history_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // Newest-first listing per firm: ids are UUIDv7, so id order is time order.
    await db.schema
      .createIndex('history_database_id')
      .on('history_events')
      .columns(['database_id', 'id'])
      .execute();
    await db.schema
      .createIndex('history_entity')
      .on('history_events')
      .columns(['database_id', 'entity_type', 'entity_id', 'id'])
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of [
      'history_events',
      'favorites',
      'files',
      'folder_colors',
      'folders',
      'sessions',
      'memberships',
      'users',
      'databases',
    ]) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
