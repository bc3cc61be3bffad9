/**
 * Calls of the mail outbox: the invitation e-mail the server kept in
 * DATA_DIR/outbox because no SMTP_URL is configured, readable by the firm's administrators.
 * Every call goes through the one HTTP client, so a failed call throws an ApiError with the
 * server's message.
 */
import type { OutboxMessageDto, OutboxSummaryDto } from '@common/outbox';
import type { Page } from '@common/api';
import { REST, get } from '@src/api/client';

/** Messages read per page of the outbox list. */
const OUTBOX_PAGE_SIZE = 100;

/** GET REST/private/outbox?page&page_size: a page of the firm's outbox, newest first. */
export function fetchOutbox(
  page: number,
  pageSize = OUTBOX_PAGE_SIZE,
): Promise<Page<OutboxSummaryDto>> {
  return get<Page<OutboxSummaryDto>>(`${REST}/private/outbox`, {
    query: { page, page_size: pageSize },
  });
}

/** GET REST/private/outbox/{id}: one message with its text (404 for another firm's message). */
export function fetchOutboxMessage(id: string): Promise<OutboxMessageDto> {
  return get<OutboxMessageDto>(`${REST}/private/outbox/${encodeURIComponent(id)}`);
}
