/**
 * CRM contacts and folder contacts. Every query is scoped by the firm database.
 * Names are searched on `name_key` (common/names.ts nameKey, computed in JavaScript).
 */
import { sql, type Insertable } from 'kysely';
import type {
  ContactRow,
  ContactsTable,
  FolderContactRow,
  FolderContactsTable,
} from '../db/schemaContacts';
import type { Executor } from './types';

/** Rows per multi-row statement (well under SQLite's bound-variable limit). */
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** `text` with LIKE's wildcards and escape character escaped (for `ESCAPE '\'`). */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One contact of this firm, if any. */
export function findContact(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The firm's contacts whose name_key contains `key` (empty: all): exact matches first, then those
 * starting with it, then the others, each by name_key.
 * @param key the lowercased search text
 * @param limit most rows answered
 */
export function searchContacts(
  db: Executor,
  databaseId: string,
  key: string,
  limit: number,
): Promise<ContactRow[]> {
  let query = db.selectFrom('contacts').selectAll().where('database_id', '=', databaseId);
  if (key !== '') {
    const escaped = likeEscaped(key);
    query = query
      .where(sql<boolean>`name_key like ${`%${escaped}%`} escape '\\'`)
      .orderBy(
        sql`case when name_key = ${key} then 0 when name_key like ${`${escaped}%`} escape '\\' then 1 else 2 end`,
      );
  }
  return query.orderBy('name_key').orderBy('id').limit(limit).execute();
}

/** The firm's contacts with these CRM ids. */
export async function findContactsByCrmIds(
  db: Executor,
  databaseId: string,
  crmIds: string[],
): Promise<ContactRow[]> {
  const out: ContactRow[] = [];
  for (const part of chunks(crmIds)) {
    out.push(
      ...(await db
        .selectFrom('contacts')
        .selectAll()
        .where('database_id', '=', databaseId)
        .where('crm_id', 'in', part)
        .execute()),
    );
  }
  return out;
}

/** The firm's contacts without a CRM id whose name_key is one of these. */
export async function findContactsWithoutCrmIdByNameKeys(
  db: Executor,
  databaseId: string,
  nameKeys: string[],
): Promise<ContactRow[]> {
  const out: ContactRow[] = [];
  for (const part of chunks(nameKeys)) {
    out.push(
      ...(await db
        .selectFrom('contacts')
        .selectAll()
        .where('database_id', '=', databaseId)
        .where('crm_id', 'is', null)
        .where('name_key', 'in', part)
        .execute()),
    );
  }
  return out;
}

/** Inserts contacts (multi-row statements). */
export async function insertContacts(
  db: Executor,
  rows: Insertable<ContactsTable>[],
): Promise<void> {
  for (const part of chunks(rows)) await db.insertInto('contacts').values(part).execute();
}

/** Replaces a contact's name, e-mail and phones. */
export async function updateContact(
  db: Executor,
  databaseId: string,
  id: string,
  values: Pick<ContactsTable, 'name' | 'name_key' | 'email' | 'phones' | 'updated_at'>,
): Promise<void> {
  await db
    .updateTable('contacts')
    .set(values)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** A folder contact with its contact. */
export interface FolderContactWithContact extends FolderContactRow {
  contact: ContactRow;
}

function withContact(db: Executor) {
  return db
    .selectFrom('folder_contacts')
    .innerJoin('contacts', 'contacts.id', 'folder_contacts.contact_id')
    .select([
      'folder_contacts.id',
      'folder_contacts.database_id',
      'folder_contacts.folder_id',
      'folder_contacts.contact_id',
      'folder_contacts.created_by',
      'folder_contacts.created_at',
      'contacts.crm_id as c_crm_id',
      'contacts.name as c_name',
      'contacts.name_key as c_name_key',
      'contacts.email as c_email',
      'contacts.phones as c_phones',
      'contacts.created_at as c_created_at',
      'contacts.updated_at as c_updated_at',
    ]);
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof withContact>['executeTakeFirstOrThrow']>>;

function unjoin(row: JoinedRow): FolderContactWithContact {
  return {
    id: row.id,
    database_id: row.database_id,
    folder_id: row.folder_id,
    contact_id: row.contact_id,
    created_by: row.created_by,
    created_at: row.created_at,
    contact: {
      id: row.contact_id,
      database_id: row.database_id,
      crm_id: row.c_crm_id,
      name: row.c_name,
      name_key: row.c_name_key,
      email: row.c_email,
      phones: row.c_phones,
      created_at: row.c_created_at,
      updated_at: row.c_updated_at,
    },
  };
}

/** A folder's contacts, by contact name. */
export async function folderContactsOf(
  db: Executor,
  databaseId: string,
  folderId: string,
): Promise<FolderContactWithContact[]> {
  const rows = await withContact(db)
    .where('folder_contacts.database_id', '=', databaseId)
    .where('folder_contacts.folder_id', '=', folderId)
    .orderBy('contacts.name_key')
    .orderBy('folder_contacts.id')
    .execute();
  return rows.map(unjoin);
}

/** One folder contact of this firm by its id, if any. */
export async function findFolderContact(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<FolderContactWithContact | undefined> {
  const row = await withContact(db)
    .where('folder_contacts.database_id', '=', databaseId)
    .where('folder_contacts.id', '=', id)
    .executeTakeFirst();
  return row && unjoin(row);
}

/** The link of this contact to this folder, if any. */
export async function findFolderContactByPair(
  db: Executor,
  databaseId: string,
  folderId: string,
  contactId: string,
): Promise<FolderContactWithContact | undefined> {
  const row = await withContact(db)
    .where('folder_contacts.database_id', '=', databaseId)
    .where('folder_contacts.folder_id', '=', folderId)
    .where('folder_contacts.contact_id', '=', contactId)
    .executeTakeFirst();
  return row && unjoin(row);
}

/** Inserts a folder contact. */
export async function insertFolderContact(
  db: Executor,
  row: Insertable<FolderContactsTable>,
): Promise<void> {
  await db.insertInto('folder_contacts').values(row).execute();
}

/** Deletes a folder contact; answers whether a row went. */
export async function deleteFolderContact(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('folder_contacts')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
