/**
 * Share links, invitations and guest access (SPEC sections 3 and 7 "Shares"):
 * - `share_links`: a folder or file shared through a link. Only the sha256 (hex) of the link's
 *   random token is stored (`token_hash`); the token is answered once, at creation. Optional
 *   password (scrypt, server/passwords.ts) with its run of wrong attempts and lock; `revoked_at`
 *   ends every access through the link.
 * - `share_invitations`: one e-mailed invitation of a link, with its own token (sha256 stored) and
 *   state ('sent' | 'accepted' | 'cancelled'; 'expired' is derived from the link's expiry).
 * - `external_shares`: an accepted share, i.e. access of one user (guest or internal) to the item;
 *   `removed_at` ends it.
 * Guests themselves are `users` rows with a `memberships` row of role 'guest' (no schema change).
 */
import type { Kysely, Migration } from 'kysely';

export const sharing: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('share_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('allow_download', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('failed_password_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('share_links_entity')
      .on('share_links')
      .columns(['database_id', 'entity_type', 'entity_id'])
      .execute();
    await db.schema
      .createIndex('share_links_creator')
      .on('share_links')
      .columns(['database_id', 'created_by'])
      .execute();

    await db.schema
      .createTable('share_invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('link_id', 'text', (c) =>
        c.notNull().references('share_links.id').onDelete('cascade'),
      )
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('cancelled_at', 'text')
      .execute();
    await db.schema
      .createIndex('share_invitations_link')
      .on('share_invitations')
      .columns(['link_id', 'email'])
      .execute();

    await db.schema
      .createTable('external_shares')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('link_id', 'text', (c) =>
        c.notNull().references('share_links.id').onDelete('cascade'),
      )
      .addColumn('invitation_id', 'text', (c) =>
        c.references('share_invitations.id').onDelete('set null'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('removed_at', 'text')
      .execute();
    await db.schema
      .createIndex('external_shares_user')
      .on('external_shares')
      .columns(['database_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('external_shares_link')
      .on('external_shares')
      .columns(['link_id'])
      .execute();
  },
};
