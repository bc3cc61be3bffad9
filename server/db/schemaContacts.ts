/** The tables of CRM contacts and folder contacts (migration 0012_contacts). */
import type { Selectable } from 'kysely';

/** A firm's CRM contact. */
export interface ContactsTable {
  id: string;
  database_id: string;
  /** The CRM's own id, unique per firm; null for a CSV row without one. */
  crm_id: string | null;
  name: string;
  /** Lowercased name (search). */
  name_key: string;
  email: string | null;
  /** JSON text: [{country_code, number}] (common/phone.ts PhoneDto). */
  phones: string;
  created_at: string;
  updated_at: string;
}

/** A contact linked to a folder; unique per (folder_id, contact_id). */
export interface FolderContactsTable {
  id: string;
  database_id: string;
  folder_id: string;
  contact_id: string;
  /** The user who linked it; null once that user is gone. */
  created_by: string | null;
  created_at: string;
}

/** A contacts row as read. */
export type ContactRow = Selectable<ContactsTable>;
/** A folder_contacts row as read. */
export type FolderContactRow = Selectable<FolderContactsTable>;

/** Tables of CRM contacts and folder contacts, merged into DB (schema.ts). */
export interface ContactTables {
  contacts: ContactsTable;
  folder_contacts: FolderContactsTable;
}
