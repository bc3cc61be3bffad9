/**
 * Calls of records management (administrators): retention schedules, legal holds, the protection
 * of one folder or file, and the disposition queue with its approval. Every call goes through the
 * one HTTP client, so a failed call throws an ApiError with the server's message (the refusals of
 * common/retention.ts RECORDS_MESSAGES, shown as they come).
 */
import type { IndexFieldDto } from '@common/indexFields';
import type {
  ApproveDispositionResponse,
  CreateLegalHoldRequest,
  CreateRetentionScheduleRequest,
  DispositionQueueDto,
  ItemProtectionDto,
  LegalHoldDto,
  RecordsTargetRequest,
  RetentionScheduleDto,
  UpdateLegalHoldRequest,
  UpdateRetentionScheduleRequest,
} from '@common/retention';
import { get, post, request, REST } from '@src/api/client';
import { fetchIndexFields } from '../indexFields/indexFieldsApi';

const SCHEDULES = `${REST}/private/retention_schedules`;
const HOLDS = `${REST}/private/legal_holds`;
const id = (value: string) => encodeURIComponent(value);

/** GET REST/private/retention_schedules: the firm's schedules. */
export function fetchSchedules(): Promise<RetentionScheduleDto[]> {
  return get<RetentionScheduleDto[]>(SCHEDULES);
}

/** POST REST/private/retention_schedules: the created schedule. */
export function createSchedule(
  body: CreateRetentionScheduleRequest,
): Promise<RetentionScheduleDto> {
  return post<RetentionScheduleDto>(SCHEDULES, body);
}

/** PATCH REST/private/retention_schedules/{id}: the changed schedule (a locked one: lengthen only). */
export function updateSchedule(
  scheduleId: string,
  body: UpdateRetentionScheduleRequest,
): Promise<RetentionScheduleDto> {
  return request<RetentionScheduleDto>('PATCH', `${SCHEDULES}/${id(scheduleId)}`, { body });
}

/** POST REST/private/retention_schedules/{id}/lock: the schedule, locked for good. */
export function lockSchedule(scheduleId: string): Promise<RetentionScheduleDto> {
  return post<RetentionScheduleDto>(`${SCHEDULES}/${id(scheduleId)}/lock`);
}

/** DELETE REST/private/retention_schedules/{id} (unlocked schedules only). */
export async function deleteSchedule(scheduleId: string): Promise<void> {
  await request<unknown>('DELETE', `${SCHEDULES}/${id(scheduleId)}`);
}

/** POST REST/private/retention_schedules/{id}/targets: the schedule with its new target. */
export function addScheduleTarget(
  scheduleId: string,
  target: RecordsTargetRequest,
): Promise<RetentionScheduleDto> {
  return post<RetentionScheduleDto>(`${SCHEDULES}/${id(scheduleId)}/targets`, target);
}

/** DELETE REST/private/retention_schedules/{id}/targets/{targetId}: the schedule without it. */
export function removeScheduleTarget(
  scheduleId: string,
  targetId: string,
): Promise<RetentionScheduleDto> {
  return request<RetentionScheduleDto>(
    'DELETE',
    `${SCHEDULES}/${id(scheduleId)}/targets/${id(targetId)}`,
  );
}

/** GET REST/private/legal_holds: the firm's holds, active first. */
export function fetchHolds(): Promise<LegalHoldDto[]> {
  return get<LegalHoldDto[]>(HOLDS);
}

/** POST REST/private/legal_holds: the placed hold. */
export function placeHold(body: CreateLegalHoldRequest): Promise<LegalHoldDto> {
  return post<LegalHoldDto>(HOLDS, body);
}

/** PATCH REST/private/legal_holds/{id}: the active hold with its new name, reason or matter. */
export function updateHold(holdId: string, changes: UpdateLegalHoldRequest): Promise<LegalHoldDto> {
  return request<LegalHoldDto>('PATCH', `${HOLDS}/${id(holdId)}`, {
    body: changes,
  });
}

/** POST REST/private/legal_holds/{id}/targets: the active hold, now also holding `target`. */
export function addHoldTarget(holdId: string, target: RecordsTargetRequest): Promise<LegalHoldDto> {
  return post<LegalHoldDto>(`${HOLDS}/${id(holdId)}/targets`, target);
}

/** DELETE REST/private/legal_holds/{id}/targets/{targetId}: the hold without that target. */
export function removeHoldTarget(holdId: string, targetId: string): Promise<LegalHoldDto> {
  return request<LegalHoldDto>('DELETE', `${HOLDS}/${id(holdId)}/targets/${id(targetId)}`);
}

/** POST REST/private/legal_holds/{id}/release: the released hold. */
export function releaseHold(holdId: string): Promise<LegalHoldDto> {
  return post<LegalHoldDto>(`${HOLDS}/${id(holdId)}/release`);
}

/** GET REST/private/records/protection: the schedules and holds protecting a folder or file. */
export function fetchProtection(
  type: 'folder' | 'file',
  itemId: string,
): Promise<ItemProtectionDto> {
  return get<ItemProtectionDto>(`${REST}/private/records/protection`, {
    query: { type, id: itemId },
  });
}

/** GET REST/private/disposition: the files whose retention ended and that no hold covers. */
export function fetchDisposition(): Promise<DispositionQueueDto> {
  return get<DispositionQueueDto>(`${REST}/private/disposition`);
}

/** POST REST/private/disposition/approve: deletes the files permanently; the files deleted. */
export function approveDisposition(fileIds: string[]): Promise<ApproveDispositionResponse> {
  return post<ApproveDispositionResponse>(`${REST}/private/disposition/approve`, {
    file_ids: fileIds,
  });
}

/** The firm's index fields (the schedule form's date basis and file selector). */
export function fetchFields(): Promise<IndexFieldDto[]> {
  return fetchIndexFields();
}
