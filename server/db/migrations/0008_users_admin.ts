/**
 * Users administration and lockout: a user's run of wrong passwords and lock (global, as
 * the credentials are), and a member disabled in one firm database (per membership, so that an
 * administrator of one firm never signs a user out of another).
 */
import type { Kysely, Migration } from 'kysely';

export const usersAdmin: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('users')
      .addColumn('failed_login_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('users').addColumn('locked_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('locked_until', 'text').execute();
    await db.schema.alterTable('memberships').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('memberships').addColumn('disabled_by', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('memberships').dropColumn('disabled_by').execute();
    await db.schema.alterTable('memberships').dropColumn('disabled_at').execute();
    await db.schema.alterTable('users').dropColumn('locked_until').execute();
    await db.schema.alterTable('users').dropColumn('locked_at').execute();
    await db.schema.alterTable('users').dropColumn('failed_login_count').execute();
  },
};
