/**
 * Document requests (docs/architecture.md "Document requests"):
 * - `request_templates`: a firm's named checklists ("New client onboarding"), managed by
 *   administrators; `items` is JSON text of RequestItemInput[] (common/documentRequests.ts).
 * - `document_requests`: one request of a folder — the checklist's owner — with its message, due
 *   day, optional password (scrypt) and its run of wrong attempts and lock, where its uploads land
 *   (`target_folder_id`), its status ('open' | 'completed' | 'cancelled'; 'expired' is derived
 *   from `expires_at`), and the reminder setting.
 * - `document_request_items`: the checklist, in `position` order, each with its index values
 *   (JSON text) and state ('missing' | 'received' | 'accepted' | 'rejected').
 * - `document_request_recipients`: who was asked; each has a link of their own. The link's token
 *   is an HMAC of a random nonce under the server's secret (so a reminder can send the same link
 *   again, while the table alone cannot), and only its sha256 is looked up; an unlock grant
 *   (sha256) once they gave the password.
 * - `document_request_uploads`: every upload started through a recipient's link (the pending
 *   upload's id, i.e. the file's id once recorded), so a link can only ever act on its own.
 * - `document_request_reminders`: the reminder e-mails due, one row per (request, kind, item)
 *   and day; a sender claims a row by setting `sent_at` in one guarded update, so each is sent
 *   once whichever instance runs the job.
 */
import type { Kysely, Migration } from 'kysely';

export const documentRequests: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('request_templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('items', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('request_templates_name', ['database_id', 'name_key'])
      .execute();

    await db.schema
      .createTable('document_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('folder_id', 'text', (c) => c.notNull())
      .addColumn('target_folder_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('due_date', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('failed_password_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'text')
      .addColumn('reminder_days_before', 'integer')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .addColumn('cancelled_at', 'text')
      .addColumn('expired_recorded_at', 'text')
      .execute();
    await db.schema
      .createIndex('document_requests_firm')
      .on('document_requests')
      .columns(['database_id', 'status', 'due_date'])
      .execute();
    await db.schema
      .createIndex('document_requests_folder')
      .on('document_requests')
      .columns(['database_id', 'folder_id'])
      .execute();

    await db.schema
      .createTable('document_request_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) =>
        c.notNull().references('document_requests.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('index_values', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reject_reason', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('document_request_items_request')
      .on('document_request_items')
      .columns(['request_id', 'position'])
      .execute();

    await db.schema
      .createTable('document_request_recipients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) =>
        c.notNull().references('document_requests.id').onDelete('cascade'),
      )
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('token_nonce', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('access_hash', 'text')
      .addColumn('access_expires_at', 'text')
      .addColumn('opened_at', 'text')
      .execute();
    await db.schema
      .createIndex('document_request_recipients_request')
      .on('document_request_recipients')
      .columns(['request_id'])
      .execute();

    await db.schema
      .createTable('document_request_uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) =>
        c.notNull().references('document_requests.id').onDelete('cascade'),
      )
      .addColumn('item_id', 'text', (c) =>
        c.notNull().references('document_request_items.id').onDelete('cascade'),
      )
      .addColumn('recipient_id', 'text', (c) =>
        c.notNull().references('document_request_recipients.id').onDelete('cascade'),
      )
      // The name the recipient gave: their page shows it, not the folder's (renamed) file name.
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text')
      .execute();
    await db.schema
      .createIndex('document_request_uploads_item')
      .on('document_request_uploads')
      .columns(['item_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('document_request_reminders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) =>
        c.notNull().references('document_requests.id').onDelete('cascade'),
      )
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('send_on', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addUniqueConstraint('document_request_reminders_once', [
        'request_id',
        'kind',
        'item_id',
        'send_on',
      ])
      .execute();
    await db.schema
      .createIndex('document_request_reminders_due')
      .on('document_request_reminders')
      .columns(['sent_at', 'send_on'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of [
      'document_request_reminders',
      'document_request_uploads',
      'document_request_recipients',
      'document_request_items',
      'document_requests',
      'request_templates',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
