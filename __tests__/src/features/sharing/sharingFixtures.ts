// DTO factories of the sharing client tests.
import type {
  InvitationDto,
  InvitationInfoDto,
  SharedEntityDto,
  ShareLinkDto,
} from '@common/sharing';
import type { CurrentUserDto } from '@common/session';
import { makeUser } from '../../testUtils';

/** An invitation of a link. */
export function makeInvitation(overrides: Partial<InvitationDto> = {}): InvitationDto {
  return {
    id: 'inv1',
    email: 'client@example.com',
    state: 'sent',
    sent_at: '2024-03-05T14:07:00.000Z',
    accepted_at: null,
    ...overrides,
  };
}

/** A share link with one sent invitation and no share. */
export function makeLink(overrides: Partial<ShareLinkDto> = {}): ShareLinkDto {
  return {
    id: 'link1',
    entity_type: 'folder',
    entity_id: 'f1',
    entity_name: 'Clients',
    created_by_name: 'Ada Lovelace',
    created_at: '2024-03-05T14:07:00.000Z',
    expires_at: '2024-03-19T14:07:00.000Z',
    allow_download: true,
    has_password: false,
    message: '',
    revoked_at: null,
    invitations: [makeInvitation()],
    shares: [],
    ...overrides,
  };
}

/** A shared item as the Shared page lists it (a PDF file at the top level by default). */
export function makeShared(overrides: Partial<SharedEntityDto> = {}): SharedEntityDto {
  return {
    share_id: 's1',
    entity_type: 'file',
    id: 'file1',
    name: 'Statement.pdf',
    extension: 'pdf',
    size: 1536,
    content_type: 'application/pdf',
    updated_at: '2024-03-06T09:30:00.000Z',
    shared_by_name: 'Ada Lovelace',
    shared_at: '2024-03-06T09:30:00.000Z',
    allow_download: true,
    folder_id: '',
    ...overrides,
  };
}

/** What the invitation page reads for an invitation to a new guest. */
export function makeInvitationInfo(overrides: Partial<InvitationInfoDto> = {}): InvitationInfoDto {
  return {
    kind: 'invitation',
    link_id: 'link1',
    email: 'client@example.com',
    shared_by_name: 'Ada Lovelace',
    entity_type: 'folder',
    entity_name: 'Clients',
    has_account: false,
    requires_password: false,
    state: 'sent',
    ...overrides,
  };
}

/** A guest of firm db1. */
export function makeGuest(overrides: Partial<CurrentUserDto> = {}): CurrentUserDto {
  return makeUser({
    userId: 'g1',
    firstName: 'Gail',
    lastName: 'Guest',
    username: 'client@example.com',
    email: 'client@example.com',
    databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'guest' }],
    ...overrides,
  });
}
