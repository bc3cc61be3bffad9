/**
 * Calls of index fields, applied indexes and missing indexes (SPEC section 7
 * "Index fields", "Applied indexes", "Entities"). Every call goes through the one HTTP client, so a
 * failed call throws an ApiError with the server's message.
 */
import type {
  AppliedIndexDto,
  AppliedValuesDto,
  ApplyIndexesRequest,
  ApplyIndexesResponse,
  CreateIndexFieldRequest,
  IndexFieldDto,
  MissingIndexesRequest,
  MissingIndexesResponse,
  UpdateIndexFieldRequest,
  UpdateManyAppliedIndexesRequest,
  UpdateManyAppliedIndexesResponse,
} from '@common/indexFields';
import { MISSING_INDEXES_PAGE_SIZE } from '@common/indexFields';
import { REST, get, post, request } from '@src/api/client';

const id = (value: string) => encodeURIComponent(value);

/** GET REST/index_fields: the firm's live and archived fields, by position. */
export function fetchIndexFields(): Promise<IndexFieldDto[]> {
  return get<IndexFieldDto[]>(`${REST}/index_fields`);
}

/** POST REST/index_fields: a new field (administrators). */
export function createIndexField(body: CreateIndexFieldRequest): Promise<IndexFieldDto> {
  return post<IndexFieldDto>(`${REST}/index_fields`, body);
}

/** PATCH REST/index_fields/{id}: name, type, description, position or list values. */
export function updateIndexField(
  fieldId: string,
  body: UpdateIndexFieldRequest,
): Promise<IndexFieldDto> {
  return request<IndexFieldDto>('PATCH', `${REST}/index_fields/${id(fieldId)}`, { body });
}

/** The state changes of a field answered with the field. */
export type IndexFieldStateChange = 'archive' | 'restore' | 'undo-delete';

/** POST REST/index_fields/{id}/archive, /restore or /undo-delete. */
export function changeIndexFieldState(
  fieldId: string,
  change: IndexFieldStateChange,
): Promise<IndexFieldDto> {
  return post<IndexFieldDto>(`${REST}/index_fields/${id(fieldId)}/${change}`);
}

/** DELETE REST/index_fields/{id}: marks the field deleted (undo-delete brings it back). */
export function deleteIndexField(fieldId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/index_fields/${id(fieldId)}`);
}

/**
 * GET REST/index_fields/{id}/applied_values: the field's distinct live values on items the session
 * can see, each with how many items carry it.
 */
export function fetchAppliedValues(fieldId: string): Promise<AppliedValuesDto> {
  return get<AppliedValuesDto>(`${REST}/index_fields/${id(fieldId)}/applied_values`);
}

/**
 * POST REST/applied_indexes/update_many: `oldValue` of field `indexId` becomes `value` on every
 * item the session can see; answers how many applied values changed.
 */
export function updateManyAppliedIndexes(
  body: UpdateManyAppliedIndexesRequest,
): Promise<UpdateManyAppliedIndexesResponse> {
  return post<UpdateManyAppliedIndexesResponse>(`${REST}/applied_indexes/update_many`, body);
}

/** GET REST/applied_indexes?entity_id: the item's applied indexes. */
export function fetchAppliedIndexes(entityId: string): Promise<AppliedIndexDto[]> {
  return get<AppliedIndexDto[]>(`${REST}/applied_indexes`, { query: { entity_id: entityId } });
}

/** POST REST/applied_indexes: sets values on one item (`entity_id`) or many (`entity_ids`). */
export function applyIndexes(body: ApplyIndexesRequest): Promise<ApplyIndexesResponse> {
  return post<ApplyIndexesResponse>(`${REST}/applied_indexes`, body);
}

/** PATCH REST/applied_indexes/{id}: a new value. */
export function updateAppliedIndex(appliedId: string, value: string): Promise<AppliedIndexDto> {
  return request<AppliedIndexDto>('PATCH', `${REST}/applied_indexes/${id(appliedId)}`, {
    body: { value },
  });
}

/** The state changes of one applied value, answered with the value (SPEC section 4). */
export type AppliedIndexStateChange = 'archive' | 'restore';

/**
 * POST REST/applied_indexes/{id}/archive or /restore: the value leaves the item (kept, shown as
 * archived) or returns to it.
 */
export function changeAppliedIndexState(
  appliedId: string,
  change: AppliedIndexStateChange,
): Promise<AppliedIndexDto> {
  return post<AppliedIndexDto>(`${REST}/applied_indexes/${id(appliedId)}/${change}`);
}

/** DELETE REST/applied_indexes/{id}: removes the value permanently. */
export function deleteAppliedIndex(appliedId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/applied_indexes/${id(appliedId)}`);
}

/**
 * POST REST/entities/search/missing-indexes?page={n}: files lacking a live value of any of the
 * fields, by name.
 */
export function fetchMissingIndexes(
  body: MissingIndexesRequest,
  page: number,
): Promise<MissingIndexesResponse> {
  return post<MissingIndexesResponse>(`${REST}/entities/search/missing-indexes`, body, {
    query: { page, page_size: MISSING_INDEXES_PAGE_SIZE },
  });
}
