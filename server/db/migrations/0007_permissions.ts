/**
 * Teams and folder permissions (SPEC sections 1, 6 and 7):
 * - `teams`: named groups of users in one firm database (name unique per firm, case-insensitively).
 * - `team_members`: which users belong to a team.
 * - `folder_permissions`: a folder with at least one row here is restricted: only the listed users
 *   and teams (and administrators) see it and everything inside it. `permissionable_type` is
 *   'user' or 'team'. Index `folder_permissions_folder` serves a folder's list and the
 *   per-request set of restricted folders; `folder_permissions_who` serves a user's rows.
 */
import type { Kysely, Migration } from 'kysely';

export const permissions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('teams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('teams_name')
      .on('teams')
      .columns(['database_id', 'name_key'])
      .unique()
      .execute();
    await db.schema
      .createTable('team_members')
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
      .execute();
    await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();
    await db.schema
      .createTable('folder_permissions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id'))
      .addColumn('folder_id', 'text', (c) =>
        c.notNull().references('folders.id').onDelete('cascade'),
      )
      .addColumn('permissionable_id', 'text', (c) => c.notNull())
      .addColumn('permissionable_type', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('folder_permissions_folder')
      .on('folder_permissions')
      .columns(['database_id', 'folder_id', 'permissionable_type', 'permissionable_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('folder_permissions_who')
      .on('folder_permissions')
      .columns(['database_id', 'permissionable_id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('folder_permissions').execute();
    await db.schema.dropTable('team_members').execute();
    await db.schema.dropTable('teams').execute();
  },
};
