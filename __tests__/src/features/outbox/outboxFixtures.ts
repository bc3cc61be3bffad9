/** Outbox messages of the client tests. */
import type { Page } from '@common/api';
import type { OutboxMessageDto, OutboxSummaryDto } from '@common/outbox';

export const LINK =
  'http://localhost:3000/sharing/invitation/Zk3v9QmE1o2Rr7pXbW4tYc8uNa6sLd0fHjKgTe5iVqA';

/** A listed message (the n-th; the same id as {@link makeMessage}(n)). */
export function makeSummary(
  n: number,
  overrides: Partial<OutboxSummaryDto> = {},
): OutboxSummaryDto {
  return {
    id: `0190c3a2-0000-7000-8000-00000000000${n}`,
    database_id: 'db-1',
    from: 'Dossier <no-reply@localhost>',
    to: `guest${n}@example.com`,
    subject: `Ada Adviser shared "Statements ${n}" with you`,
    created_at: `2026-03-0${n}T10:00:00.000Z`,
    ...overrides,
  };
}

/** The n-th message with its text. */
export function makeMessage(
  n: number,
  overrides: Partial<OutboxMessageDto> = {},
): OutboxMessageDto {
  return {
    ...makeSummary(n),
    text: `Ada Adviser shared the folder "Statements ${n}" with you.\n\nPlease sign.\n\nOpen it: ${LINK}\n`,
    ...overrides,
  };
}

/** A page of listed messages. */
export function outboxPage(
  items: OutboxSummaryDto[],
  total = items.length,
  page = 1,
  pageSize = 100,
): Page<OutboxSummaryDto> {
  return { items, page, page_size: pageSize, total };
}
