/**
 * API shapes, limits and messages of CRM contacts and folder contacts (SPEC
 * sections 3, 5 and 7 "Contacts"). Times are ISO 8601 UTC text; JSON is snake_case.
 */
import { PHONE_ERROR_MESSAGES, type PhoneDto, type PhoneErrorKind } from './phone';

export type { PhoneDto } from './phone';

/** A CRM contact of the session's firm. */
export interface ContactDto {
  id: string;
  /** The CRM's own id (unique per firm); null for a CSV row without one. */
  crm_id: string | null;
  name: string;
  email: string | null;
  phones: PhoneDto[];
  /** Each phone formatted for display (national when country code 1, else international; null when unparseable). */
  phones_display: (string | null)[];
}

/** A contact linked to a folder. */
export interface FolderContactDto {
  id: string;
  folder_id: string;
  contact_id: string;
  contact_name: string;
  created_at: string;
  /** The linked contact in full (e-mail and phones for the side panel). */
  contact: ContactDto;
}

/** Body of POST REST/private/contacts/search. */
export interface ContactSearchRequest {
  /** Part of the name; case-insensitive. An empty name lists the first contacts by name. */
  name: string;
}

/** Answer of POST REST/private/contacts/search: exact matches, then prefix, then others; at most 50. */
export interface ContactSearchResponse {
  items: ContactDto[];
}

/** Body of POST REST/folder_contacts. */
export interface LinkFolderContactRequest {
  folder_id: string;
  contact_id: string;
}

/** Answer of GET REST/folders/{id}/folder_contacts: the folder's contacts by name. */
export interface FolderContactsResponse {
  items: FolderContactDto[];
}

/** Body of POST REST/private/contacts/import (a text/csv body is also accepted). */
export interface ContactImportRequest {
  /** CSV text with a header line naming the columns name, email, phone, crm_id (any order). */
  csv: string;
}

/** One refused CSV line (line numbers count the header as line 1) or partner contact (index from 0). */
export interface ContactRejection {
  line: number;
  reason: string;
}

/** Answer of the CSV import and of the partner upsert. */
export interface ContactImportResult {
  created: number;
  updated: number;
  rejected: ContactRejection[];
}

/** One contact sent by a partner app (PUT /api/integrations/contacts). */
export interface PartnerContactInput {
  crm_id: string;
  name: string;
  email?: string | null;
  /** Phone texts ("+1 213 373 4253") or stored shapes. */
  phones?: (string | PhoneDto)[];
}

/** Body of PUT /api/integrations/contacts: an upsert by crm_id. */
export interface PartnerContactsRequest {
  contacts: PartnerContactInput[];
}

/** Most contacts one search answers. */
export const CONTACT_SEARCH_LIMIT = 50;
/** Most contacts in one partner upsert. */
export const CONTACT_BATCH_MAX = 1000;
/** Most lines in one CSV import (header excluded). */
export const CONTACT_IMPORT_MAX_LINES = 20000;
/** Longest contact name, in characters. */
export const CONTACT_NAME_MAX = 255;
/** Longest CRM id, in characters. */
export const CONTACT_CRM_ID_MAX = 255;
/** Longest search text, in characters. */
export const CONTACT_SEARCH_MAX = 255;
/** Most phone numbers of one contact. */
export const CONTACT_PHONES_MAX = 10;
/**
 * Longest phone text the edit route's schema lets through, in characters: longer than the spec's
 * 250-character limit, so that text over the limit gets the TOO_LONG message from the service.
 */
export const CONTACT_PHONE_TEXT_SCHEMA_MAX = 1000;

/**
 * Body of PATCH REST/private/contacts/{id} (administrators): the contact's phone numbers, as typed
 * ("+1 213 373 4253") or stored (`{country_code, number}`); they replace the stored ones. Blank
 * texts are left out and duplicates kept once.
 */
export interface UpdateContactPhonesRequest {
  phones: (string | PhoneDto)[];
}

/**
 * The message of a refused phone of a contact (SPEC section 8 error kinds).
 * @param position the phone's place in the request, from 1
 * @returns e.g. "Phone 2: The phone number is too short."
 */
export function contactPhoneMessage(position: number, kind: PhoneErrorKind): string {
  return `Phone ${position}: ${PHONE_ERROR_MESSAGES[kind]}`;
}

/** Columns of the import CSV. */
export const CONTACT_CSV_COLUMNS = ['name', 'email', 'phone', 'crm_id'] as const;
/** Several phones in one CSV cell are separated by this character. */
export const CONTACT_CSV_PHONE_SEPARATOR = ';';

/** Messages of the contacts feature. */
export const CONTACT_MESSAGES = {
  nameRequired: 'A contact name is required.',
  nameTooLong: 'The contact name is too long.',
  invalidEmail: 'The e-mail address is not valid.',
  crmIdTooLong: 'The CRM id is too long.',
  crmIdRequired: 'A CRM id is required.',
  duplicateCrmId: 'This CRM id appears more than once.',
  duplicateContact: 'This contact (same name and e-mail, no CRM id) appears more than once.',
  readOnlyKey: "This key's user has read-only access and cannot change contacts.",
  csvHeader:
    'The CSV needs a header line with a name column (and optionally email, phone, crm_id).',
  csvEmpty: 'The CSV file has no contacts.',
  csvTooManyLines: 'The CSV file has too many lines (at most 20000).',
  csvUnreadable: 'The CSV file could not be read.',
  batchTooLarge: 'At most 1000 contacts per request.',
  alreadyLinked: 'This contact is already linked to the folder.',
  contactNotFound: 'Contact not found.',
  linkNotFound: 'This contact is not linked to the folder.',
  couldNotGetContacts: 'Could not get contacts.',
  couldNotLink: 'Could not link the contact.',
  couldNotUnlink: 'Could not unlink the contact.',
  couldNotImport: 'Could not import the contacts.',
  noContacts: 'No contacts linked.',
  tooManyPhones: `A contact has at most ${CONTACT_PHONES_MAX} phone numbers.`,
} as const;
