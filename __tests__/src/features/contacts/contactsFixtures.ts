// Fixtures of the contacts client tests.
import type { ContactDto, FolderContactDto } from '@common/contacts';

/** A contact. */
export function makeContact(overrides: Partial<ContactDto> = {}): ContactDto {
  return {
    id: 'c1',
    crm_id: 'crm-1',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    phones: [{ country_code: 1, number: '2025550143' }],
    phones_display: ['(202) 555-0143'],
    ...overrides,
  };
}

/** A contact linked to folder f1. */
export function makeLink(
  contact: ContactDto = makeContact(),
  id = `l-${contact.id}`,
): FolderContactDto {
  return {
    id,
    folder_id: 'f1',
    contact_id: contact.id,
    contact_name: contact.name,
    created_at: '2024-03-05T14:07:00.000Z',
    contact,
  };
}
