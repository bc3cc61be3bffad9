/**
 * Lockout per account and source (docs/architecture.md "Users and lockout"): `login_failures`
 * holds, for each user and client IP (the address as the app sees it, `request.ip`, '' when
 * unknown), the run of wrong passwords from that address and its lock. A lock then stops only
 * the address that guessed, so nobody can lock a user out from elsewhere. `users.failed_login_count`,
 * `locked_at` and `locked_until` stay as the account's summary the administrators see.
 */
import type { Kysely, Migration } from 'kysely';

export const loginSources: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('login_failures')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_at', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('login_failures_pk', ['user_id', 'source'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('login_failures').execute();
  },
};
