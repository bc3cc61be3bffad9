/**
 * Recording and reading history events (DESIGN.md section 2: one event per state change, in the
 * same transaction as the change, with the attribute shapes of SPEC section 3).
 */
import type {
  HistoryAction,
  HistoryAttributes,
  HistoryEntityType,
  HistoryEventDto,
  HistoryFilters,
  Page,
} from '../../common/types';
import { newId, isoAt } from '../ids';
import { presentHistoryEvent } from '../presenters';
import {
  countHistory,
  insertHistoryEvent,
  listHistory,
  type HistoryQuery,
} from '../repositories/history';
import type { Executor } from '../repositories/types';
import type { RequestContext, Services } from './context';
import { pageWindow } from './paging';

/** One event to record. */
export interface NewEvent {
  entityType: HistoryEntityType;
  entityId: string;
  action: HistoryAction;
  attributes: HistoryAttributes;
}

/**
 * Appends one event for the acting user; call it with the transaction that makes the change.
 * Keeps who (user id and name at the time), when (UTC), and where (IP, user agent).
 */
export async function recordEvent(
  trx: Executor,
  services: Pick<Services, 'clock'>,
  ctx: RequestContext,
  event: NewEvent,
): Promise<void> {
  await insertHistoryEvent(trx, {
    id: newId(),
    database_id: ctx.databaseId,
    entity_type: event.entityType,
    entity_id: event.entityId,
    action: event.action,
    user_id: ctx.userId,
    user_name: ctx.userName,
    attributes: JSON.stringify(event.attributes),
    ip: ctx.ip,
    user_agent: ctx.userAgent,
    created_at: isoAt(services.clock),
  });
}

/**
 * A page of the current firm's events, newest first.
 * @param page page number from 1; pageSize 1..MAX_PAGE_SIZE
 */
export async function listEvents(
  services: Services,
  ctx: RequestContext,
  filters: HistoryFilters,
  page: number,
  pageSize: number,
): Promise<Page<HistoryEventDto>> {
  const query: HistoryQuery = {
    databaseId: ctx.databaseId,
    entityType: filters.entity_type,
    entityId: filters.entity_id,
    userId: filters.user_id,
    actions: filters.actions,
    start: filters.start,
    end: filters.end,
  };
  const { offset, limit } = pageWindow(page, pageSize);
  const [rows, total] = await Promise.all([
    listHistory(services.db, query, offset, limit),
    countHistory(services.db, query),
  ]);
  return { items: rows.map(presentHistoryEvent), page, page_size: pageSize, total };
}
