/**
 * The JSON of document requests (common/documentRequests.ts): the advisor's view of a request
 * with its items, recipients and uploads, and a template. Reads in a fixed number of queries
 * whatever the number of requests.
 */
import type {
  DocumentRequestDto,
  DocumentRequestStatus,
  DocumentRequestSummaryDto,
  RequestItemDto,
  RequestItemInput,
  RequestItemState,
  RequestTemplateDto,
} from '@common/documentRequests';
import type { DocumentRequestRow, RequestTemplateRow } from '../../db/schemaRequests';
import { displayName } from '../../presenters';
import {
  itemsOf,
  recipientsOf,
  recordedUploadsOf,
  type RequestWithNames,
} from '../../repositories/documentRequests';
import { findIndexFieldsByIds } from '../../repositories/indexFields';
import type { Executor } from '../../repositories/types';

/** The stored index values of an item. */
export type StoredIndexValue = { index_field_id: string; value: string };

/** Parses JSON text written by this module's writers; a damaged value reads as empty. */
export function parseJsonList<T>(text: string): T[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

/** `YYYY-MM-DD` of an epoch time in UTC. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A request's status at `now`: an open request whose links ended reads as expired. */
export function statusAt(
  row: Pick<DocumentRequestRow, 'status' | 'expires_at'>,
  now: number,
): DocumentRequestStatus {
  if (row.status === 'open' && Date.parse(row.expires_at) <= now) return 'expired';
  return row.status as DocumentRequestStatus;
}

/** The advisor's view of requests, in the order given. */
export async function presentRequests(
  db: Executor,
  databaseId: string,
  rows: RequestWithNames[],
  now: number,
): Promise<DocumentRequestDto[]> {
  const ids = rows.map((r) => r.id);
  const [items, recipients, uploads] = await Promise.all([
    itemsOf(db, ids),
    recipientsOf(db, ids),
    recordedUploadsOf(db, ids),
  ]);
  const fieldIds = new Set<string>();
  for (const item of items) {
    for (const v of parseJsonList<StoredIndexValue>(item.index_values)) {
      fieldIds.add(v.index_field_id);
    }
  }
  const fields = new Map(
    (await findIndexFieldsByIds(db, databaseId, [...fieldIds])).map((f) => [f.id, f.name]),
  );
  const today = dayOf(now);
  return rows.map((row) => {
    const own = items.filter((i) => i.request_id === row.id);
    const counts: Record<RequestItemState, number> = {
      missing: 0,
      received: 0,
      accepted: 0,
      rejected: 0,
    };
    const itemDtos: RequestItemDto[] = own.map((item) => {
      counts[item.state as RequestItemState] += 1;
      return {
        id: item.id,
        name: item.name,
        description: item.description,
        index_values: parseJsonList<StoredIndexValue>(item.index_values).map((v) => ({
          index_field_id: v.index_field_id,
          name: fields.get(v.index_field_id) ?? '',
          value: v.value,
        })),
        state: item.state as RequestItemState,
        reject_reason: item.reject_reason,
        uploads: uploads
          .filter((u) => u.item_id === item.id)
          .map((u) => ({
            id: u.id,
            file_id: u.id,
            name: u.name,
            size: Number(u.size),
            uploaded_at: u.recorded_at,
            email: u.email,
          })),
      };
    });
    const status = statusAt(row, now);
    return {
      id: row.id,
      folder_id: row.folder_id,
      folder_name: row.folder_name,
      target_folder_id: row.target_folder_id,
      title: row.title,
      message: row.message,
      due_date: row.due_date,
      status,
      overdue: status === 'open' && row.due_date < today,
      has_password: row.password_hash !== null,
      reminder_days_before: row.reminder_days_before,
      created_by_name: displayName(row.creator_first_name, row.creator_last_name),
      created_at: row.created_at,
      expires_at: row.expires_at,
      completed_at: row.completed_at,
      cancelled_at: row.cancelled_at,
      recipients: recipients
        .filter((r) => r.request_id === row.id)
        .map((r) => ({ email: r.email, opened_at: r.opened_at })),
      items: itemDtos,
      counts,
    };
  });
}

/** A request without its items, for the firm's list. */
export function summaryOf(dto: DocumentRequestDto): DocumentRequestSummaryDto {
  const { items: _items, ...summary } = dto;
  return summary;
}

/** A template as JSON. */
export function presentTemplate(row: RequestTemplateRow): RequestTemplateDto {
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    items: parseJsonList<RequestItemInput>(row.items),
    updated_at: row.updated_at,
  };
}
