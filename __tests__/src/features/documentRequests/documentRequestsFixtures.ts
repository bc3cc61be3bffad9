// Wire shapes of the advisor's document requests (common/documentRequests.ts) for the client tests.
import type {
  DocumentRequestDto,
  DocumentRequestSummaryDto,
  RequestItemDto,
  RequestTemplateDto,
} from '@common/documentRequests';
import type { FolderContactDto } from '@common/contacts';
import type { IndexFieldDto } from '@common/indexFields';

/** One item of a request. */
export function makeItem(overrides: Partial<RequestItemDto> = {}): RequestItemDto {
  return {
    id: 'i1',
    name: 'Passport',
    description: 'Photo page, in colour',
    index_values: [],
    state: 'missing',
    reject_reason: null,
    uploads: [],
    ...overrides,
  };
}

/** A request, its counts worked out from its items unless given. */
export function makeRequest(overrides: Partial<DocumentRequestDto> = {}): DocumentRequestDto {
  const items = overrides.items ?? [makeItem()];
  const counts = { missing: 0, received: 0, accepted: 0, rejected: 0 };
  for (const item of items) counts[item.state] += 1;
  return {
    id: 'r1',
    folder_id: 'f1',
    folder_name: 'Smith family',
    target_folder_id: 'f1',
    title: 'Documents for Smith family',
    message: 'Please send these.',
    due_date: '2030-04-15',
    status: 'open',
    overdue: false,
    has_password: false,
    reminder_days_before: 3,
    created_by_name: 'Ada Lovelace',
    created_at: '2030-04-01T09:00:00.000Z',
    expires_at: '2030-05-15T23:59:59.000Z',
    completed_at: null,
    cancelled_at: null,
    recipients: [{ email: 'jane@example.com', opened_at: null }],
    counts,
    ...overrides,
    items,
  };
}

/** A request as the list has it. */
export function makeSummary(
  overrides: Partial<DocumentRequestDto> = {},
): DocumentRequestSummaryDto {
  const { items: _items, ...summary } = makeRequest(overrides);
  return summary;
}

/** A request template. */
export function makeTemplate(overrides: Partial<RequestTemplateDto> = {}): RequestTemplateDto {
  return {
    id: 't1',
    name: 'Annual review',
    message: 'Ahead of our annual review, please upload:',
    items: [
      { name: 'Bank statement', description: 'Last 3 months' },
      { name: 'Tax return', index_values: [{ index_field_id: 'x1', value: '2029' }] },
    ],
    updated_at: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A live text index field. */
export function makeField(overrides: Partial<IndexFieldDto> = {}): IndexFieldDto {
  return {
    id: 'x1',
    name: 'Tax year',
    type: 'text_field',
    description: '',
    position: 0,
    values: [],
    archived_at: null,
    deleted_at: null,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A contact linked to folder f1. */
export function makeFolderContact(overrides: Partial<FolderContactDto> = {}): FolderContactDto {
  return {
    id: 'l1',
    folder_id: 'f1',
    contact_id: 'c1',
    contact_name: 'Jane Smith',
    created_at: '2030-01-01T00:00:00.000Z',
    contact: {
      id: 'c1',
      crm_id: null,
      name: 'Jane Smith',
      email: 'Jane@Example.com',
      phones: [],
      phones_display: [],
    },
    ...overrides,
  };
}
