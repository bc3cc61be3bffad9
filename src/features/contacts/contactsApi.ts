/** Calls of the CRM contacts feature (SPEC section 7 "Contacts"). */
import type {
  ContactDto,
  ContactImportResult,
  ContactSearchResponse,
  FolderContactDto,
  FolderContactsResponse,
} from '@common/contacts';
import { get, post, request, REST } from '@src/api/client';

/**
 * POST REST/private/contacts/search with name: the firm's contacts whose name contains it,
 * exact then prefix matches first, at most 50.
 */
export async function searchContacts(name: string, signal?: AbortSignal): Promise<ContactDto[]> {
  const answer = await post<ContactSearchResponse>(
    `${REST}/private/contacts/search`,
    { name },
    signal ? { signal } : {},
  );
  return answer.items;
}

/** GET REST/folders/{id}/folder_contacts: a folder's linked contacts. */
export async function fetchFolderContacts(folderId: string): Promise<FolderContactDto[]> {
  const answer = await get<FolderContactsResponse>(
    `${REST}/folders/${encodeURIComponent(folderId)}/folder_contacts`,
  );
  return answer.items;
}

/** POST REST/folder_contacts: links a contact to a folder. */
export function linkContact(folderId: string, contactId: string): Promise<FolderContactDto> {
  return post<FolderContactDto>(`${REST}/folder_contacts`, {
    folder_id: folderId,
    contact_id: contactId,
  });
}

/** DELETE REST/folder_contacts/{id}?contact_id: unlinks a contact (by the link's id). */
export async function unlinkContact(linkId: string, contactId: string): Promise<void> {
  await request<undefined>('DELETE', `${REST}/folder_contacts/${encodeURIComponent(linkId)}`, {
    query: { contact_id: contactId },
  });
}

/** POST REST/private/contacts/import with {csv}: the administrator's CSV import. */
export function importContacts(csv: string): Promise<ContactImportResult> {
  return post<ContactImportResult>(`${REST}/private/contacts/import`, { csv });
}

/**
 * PATCH REST/private/contacts/{id} with phones (administrators): replaces the contact's phone
 * numbers; answers the contact with their display.
 */
export function updateContactPhones(contactId: string, phones: string[]): Promise<ContactDto> {
  return request<ContactDto>('PATCH', `${REST}/private/contacts/${encodeURIComponent(contactId)}`, {
    body: { phones },
  });
}
