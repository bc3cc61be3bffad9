/**
 * CRM contacts and folder contacts (the columns are fixed by the contract
 * because the search migration 0013 writes triggers on them):
 * - `contacts`: a firm's CRM contacts. `crm_id` is the CRM's own id, unique per firm (several rows
 *   may have none: NULLs are distinct in both dialects); `name_key` is the lowercased name (search);
 *   `phones` is JSON text `[{country_code, number}]`.
 * - `folder_contacts`: a contact linked to a folder, unique per (folder, contact). Both cascade when
 *   the folder or the contact is destroyed.
 */
import type { Kysely, Migration } from 'kysely';

export const contacts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('contacts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('crm_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('phones', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('contacts_database_crm_id', ['database_id', 'crm_id'])
      .execute();
    await db.schema
      .createIndex('contacts_database_name_key')
      .on('contacts')
      .columns(['database_id', 'name_key'])
      .execute();

    await db.schema
      .createTable('folder_contacts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('folder_id', 'text', (c) =>
        c.notNull().references('folders.id').onDelete('cascade'),
      )
      .addColumn('contact_id', 'text', (c) =>
        c.notNull().references('contacts.id').onDelete('cascade'),
      )
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('folder_contacts_folder_contact', ['folder_id', 'contact_id'])
      .execute();
    await db.schema
      .createIndex('folder_contacts_contact')
      .on('folder_contacts')
      .column('contact_id')
      .execute();
  },
};
