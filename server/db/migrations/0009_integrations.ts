/**
 * Integrations, partner integration keys and single sign-on (SPEC sections
 * 1, 3 and 7 "Integrations", "Integration user keys", "Private users and auth"):
 * - `integrations`: one row per firm database that has ever been switched, with its enabled flag
 *   (0/1). No row means disabled.
 * - `integration_keys`: a user's key for one partner app in one firm database. Only the sha256
 *   (hex) of the key is stored, with its first characters (`key_prefix`) to tell keys apart.
 * - `integration_key_uses`: every use of a key (token generation, token sign-in), with its time,
 *   IP, user agent and outcome.
 * - `sso_tokens`: short-lived single-use sign-in tokens (sha256 stored as the id), claimed once.
 */
import type { Kysely, Migration } from 'kysely';

export const integrations: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('integrations')
      .addColumn('database_id', 'text', (c) =>
        c.primaryKey().references('databases.id').onDelete('cascade'),
      )
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('integration_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('partner_app_id', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('rotated_at', 'text')
      .addColumn('last_used_at', 'text')
      .addColumn('last_used_ip', 'text')
      .addUniqueConstraint('integration_keys_user_partner', [
        'database_id',
        'user_id',
        'partner_app_id',
      ])
      .execute();

    await db.schema
      .createTable('integration_key_uses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) =>
        c.notNull().references('integration_keys.id').onDelete('cascade'),
      )
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema
      .createIndex('integration_key_uses_key')
      .on('integration_key_uses')
      .columns(['key_id', 'used_at'])
      .execute();

    await db.schema
      .createTable('sso_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) =>
        c.notNull().references('integration_keys.id').onDelete('cascade'),
      )
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('partner_app_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createIndex('sso_tokens_expiry')
      .on('sso_tokens')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('sso_tokens').execute();
    await db.schema.dropTable('integration_key_uses').execute();
    await db.schema.dropTable('integration_keys').execute();
    await db.schema.dropTable('integrations').execute();
  },
};
