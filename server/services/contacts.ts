/**
 * CRM contacts and folder contacts (SPEC sections 3, 4 and 7 "Contacts"): the
 * contact search, and linking and unlinking contacts and folders with their history events
 * (folder_contact create "linked" / delete "unlinked", with contact_name and changes.folder.name),
 * written in the same transaction as the link; an administrator's edit of a contact's phone numbers.
 * The CSV import and the partner upsert are in contactImport.ts.
 */
import {
  CONTACT_MESSAGES,
  CONTACT_PHONES_MAX,
  CONTACT_SEARCH_LIMIT,
  contactPhoneMessage,
  type ContactDto,
  type ContactSearchResponse,
  type FolderContactDto,
  type FolderContactsResponse,
  type LinkFolderContactRequest,
  type UpdateContactPhonesRequest,
} from '@common/contacts';
import { nameKey } from '@common/names';
import { formatPhone, normalisePhone, type PhoneDto } from '@common/phone';
import type { ContactRow } from '../db/schemaContacts';
import { badRequest, conflict, notFound } from '../errors';
import { newId } from '../ids';
import {
  deleteFolderContact,
  findContact,
  findFolderContact,
  findFolderContactByPair,
  folderContactsOf,
  insertFolderContact,
  searchContacts as searchContactRows,
  updateContact,
  type FolderContactWithContact,
} from '../repositories/contacts';
import { accessibleFolder, assertAdmin, assertRole } from './access';
import type { RequestContext, Services } from './context';
import { recordContactLinked, recordContactUnlinked } from './historyEvents';
import { assertContactUnlinkable } from './records/holds';

/**
 * The stored phones of a contact row (JSON text). Anything that is not a list of
 * `{country_code: number, number: string}` is left out, so a damaged value never breaks a list.
 */
export function storedPhones(json: string): PhoneDto[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.filter(
    (p): p is PhoneDto =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as PhoneDto).country_code === 'number' &&
      typeof (p as PhoneDto).number === 'string',
  );
}

/** A contacts row as the API answers it, with its phones formatted for display. */
export function contactDto(row: ContactRow): ContactDto {
  const phones = storedPhones(row.phones);
  return {
    id: row.id,
    crm_id: row.crm_id,
    name: row.name,
    email: row.email,
    phones,
    phones_display: phones.map(formatPhone),
  };
}

function folderContactDto(row: FolderContactWithContact): FolderContactDto {
  return {
    id: row.id,
    folder_id: row.folder_id,
    contact_id: row.contact_id,
    contact_name: row.contact.name,
    created_at: row.created_at,
    contact: contactDto(row.contact),
  };
}

/**
 * POST REST/private/contacts/search: the firm's contacts whose name contains `name`
 * (case-insensitive), exact matches first, then those starting with it, then the others, each by
 * name; at most CONTACT_SEARCH_LIMIT (50). An empty name lists the first 50 by name.
 * @throws AppError 403 for a read-only member (contacts are searched to link them)
 */
export async function searchContacts(
  services: Services,
  ctx: RequestContext,
  name: string,
): Promise<ContactSearchResponse> {
  assertRole(ctx, 'write');
  const rows = await searchContactRows(
    services.db,
    ctx.databaseId,
    nameKey(name.trim()),
    CONTACT_SEARCH_LIMIT,
  );
  return { items: rows.map(contactDto) };
}

/**
 * GET REST/folders/{id}/folder_contacts: the contacts linked to a folder the session may see
 * (archived folders too), by contact name.
 * @throws AppError 404 when the folder is not the firm's or is hidden from the session
 */
export async function listFolderContacts(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<FolderContactsResponse> {
  const folder = await accessibleFolder(services.db, ctx, folderId, 'read', {
    allowArchived: true,
  });
  if (!folder) return { items: [] };
  const rows = await folderContactsOf(services.db, ctx.databaseId, folder.id);
  return { items: rows.map(folderContactDto) };
}

/**
 * POST REST/folder_contacts: links a contact of the firm to a live folder the session may change,
 * and records folder_contact create ("linked") in the same transaction.
 * @returns the new link
 * @throws AppError 403 for a read-only member; 404 when the folder is the root, not the firm's,
 *   archived or hidden from the session, or the contact is not the firm's; 409 when already linked
 */
export async function linkFolderContact(
  services: Services,
  ctx: RequestContext,
  input: LinkFolderContactRequest,
): Promise<FolderContactDto> {
  assertRole(ctx, 'write');
  return services.db.transaction().execute(async (trx) => {
    const folder = await accessibleFolder(trx, ctx, input.folder_id, 'write');
    if (!folder) throw notFound();
    const contact = await findContact(trx, ctx.databaseId, input.contact_id);
    if (!contact) throw notFound(CONTACT_MESSAGES.contactNotFound);
    if (await findFolderContactByPair(trx, ctx.databaseId, folder.id, contact.id)) {
      throw conflict(CONTACT_MESSAGES.alreadyLinked, 'already_linked');
    }
    const id = newId();
    const createdAt = new Date(services.clock()).toISOString();
    await insertFolderContact(trx, {
      id,
      database_id: ctx.databaseId,
      folder_id: folder.id,
      contact_id: contact.id,
      created_by: ctx.userId,
      created_at: createdAt,
    });
    await recordContactLinked(trx, services, ctx, { id }, contact.name, {
      id: folder.id,
      name: folder.name,
    });
    return folderContactDto({
      id,
      database_id: ctx.databaseId,
      folder_id: folder.id,
      contact_id: contact.id,
      created_by: ctx.userId,
      created_at: createdAt,
      contact,
    });
  });
}

/**
 * DELETE REST/folder_contacts/{id}?contact_id: unlinks a contact from a folder and records
 * folder_contact delete ("unlinked") in the same transaction. `id` is the link's id; with
 * `contact_id`, `id` may also be the folder's id (the link of that contact to that folder).
 * A contact under an active legal hold stays linked until the hold is released (the hold covers
 * its linked folders).
 * @throws AppError 403 for a read-only member; 404 when no such link is in the firm, or its folder
 *   is archived or hidden from the session; 409 `contact_on_hold`
 */
export async function unlinkFolderContact(
  services: Services,
  ctx: RequestContext,
  id: string,
  contactId?: string,
): Promise<void> {
  assertRole(ctx, 'write');
  await services.db.transaction().execute(async (trx) => {
    let link = await findFolderContact(trx, ctx.databaseId, id);
    if (link && contactId !== undefined && link.contact_id !== contactId) link = undefined;
    if (!link && contactId !== undefined) {
      link = await findFolderContactByPair(trx, ctx.databaseId, id, contactId);
    }
    if (!link) throw notFound(CONTACT_MESSAGES.linkNotFound);
    const folder = await accessibleFolder(trx, ctx, link.folder_id, 'write');
    if (!folder) throw notFound(CONTACT_MESSAGES.linkNotFound);
    await assertContactUnlinkable(trx, ctx.databaseId, {
      id: link.contact_id,
      name: link.contact.name,
    });
    if (!(await deleteFolderContact(trx, ctx.databaseId, link.id))) {
      throw notFound(CONTACT_MESSAGES.linkNotFound);
    }
    await recordContactUnlinked(trx, services, ctx, { id: link.id }, link.contact.name, {
      id: folder.id,
      name: folder.name,
    });
  });
}

/**
 * Checks the phones of an edit (SPEC section 5 "Phone numbers"): each as typed or stored, parsed
 * by common/phone.ts; blank texts are left out and duplicates kept once.
 * @returns the phones to store
 * @throws AppError 400 `phone_<kind>` with "Phone {n}: {message}" for the first refused phone
 *   (n from 1, its place in the request), or `too_many_phones` above CONTACT_PHONES_MAX
 */
export function checkContactPhones(phones: readonly unknown[]): PhoneDto[] {
  const kept: PhoneDto[] = [];
  phones.forEach((value, index) => {
    if (typeof value === 'string' && value.trim() === '') return;
    const result = normalisePhone(typeof value === 'string' ? value.trim() : value);
    if (!result.ok) {
      throw badRequest(
        contactPhoneMessage(index + 1, result.error),
        `phone_${result.error.toLowerCase()}`,
      );
    }
    const { phone } = result;
    if (!kept.some((p) => p.country_code === phone.country_code && p.number === phone.number)) {
      kept.push(phone);
    }
  });
  if (kept.length > CONTACT_PHONES_MAX) {
    throw badRequest(CONTACT_MESSAGES.tooManyPhones, 'too_many_phones');
  }
  return kept;
}

/**
 * PATCH REST/private/contacts/{id}: replaces a contact's phone numbers (administrators, who manage
 * the firm's contacts; a partner's later upsert that sends phones replaces them again). Contacts
 * have no history entity type (SPEC section 3), so no event is written.
 * @returns the contact with its phones and their display
 * @throws AppError 403 for non-administrators; 404 for a contact not of the firm; 400 for a
 *   refused phone (see checkContactPhones)
 */
export async function updateContactPhones(
  services: Services,
  ctx: RequestContext,
  id: string,
  input: UpdateContactPhonesRequest,
): Promise<ContactDto> {
  assertAdmin(ctx);
  return services.db.transaction().execute(async (trx) => {
    const row = await findContact(trx, ctx.databaseId, id);
    if (!row) throw notFound(CONTACT_MESSAGES.contactNotFound, 'contact_not_found');
    const phones = JSON.stringify(checkContactPhones(input.phones));
    const updatedAt = new Date(services.clock()).toISOString();
    await updateContact(trx, ctx.databaseId, id, {
      name: row.name,
      name_key: row.name_key,
      email: row.email,
      phones,
      updated_at: updatedAt,
    });
    return contactDto({ ...row, phones, updated_at: updatedAt });
  });
}
