/**
 * Retention schedules, managed by the firm's administrators (assertAdmin): list, create, change,
 * lock, delete, and apply to (or take off) folders and files. Every change records its
 * retention_schedule event in the same transaction (recordsEvents.ts).
 *
 * A locked schedule can be lengthened but never shortened, removed or unlocked, by anyone: a
 * change to it may only rename it or give it a period at least as long for every start day
 * (common/retention.ts periodAtLeast); its basis and selector stay; it can be applied to more
 * items but never taken off one; it is never deleted. The database's triggers (migration 0027)
 * refuse the same changes to a statement that bypasses this module.
 */
import { INDEX_VALUE_MAX_LENGTH } from '@common/indexFields';
import {
  recordsMessage,
  RECORDS_MESSAGES,
  RECORDS_NAME_MAX_LENGTH,
  RETENTION_BASES,
  RETENTION_PERIOD_MAX,
  RETENTION_PERIOD_UNITS,
  RETENTION_SCHEDULES_MAX,
  periodAtLeast,
  periodText,
  scheduleRuleText,
  basisText,
  type CreateRetentionScheduleRequest,
  type RecordsTargetRequest,
  type RetentionBasis,
  type RetentionPeriodUnit,
  type RetentionScheduleDto,
  type UpdateRetentionScheduleRequest,
} from '@common/retention';
import type { HistoryAttributes, HistoryScheduleAttributes } from '@common/history';
import type { RetentionScheduleRow } from '@server/db/schemaRecords';
import { badRequest, conflict, notFound } from '@server/errors';
import { isoAt, newId } from '@server/ids';
import { findIndexFieldsByIds } from '@server/repositories/indexFields';
import {
  deleteSchedule as deleteScheduleRows,
  findSchedule,
  findScheduleByNameKey,
  findScheduleTarget,
  deleteScheduleTarget,
  indexFieldNames,
  insertSchedule,
  insertScheduleTarget,
  listSchedules as listScheduleRows,
  scheduleTargets,
  schedulesUsingField,
  updateSchedule as updateScheduleRow,
  userNames,
} from '@server/repositories/records';
import type { Executor } from '@server/repositories/types';
import { assertAdmin } from '../access';
import type { RequestContext, Services } from '../context';
import { inTransaction } from '../transactions';
import { recordScheduleEvent, recordScheduleUpdated } from './recordsEvents';
import { presentTargets, resolveTargets } from './targets';

/** A checked name. @throws AppError 400 `invalid_name` */
export function checkRecordsName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (!text) throw badRequest(RECORDS_MESSAGES.nameRequired, 'invalid_name');
  if (text.length > RECORDS_NAME_MAX_LENGTH) {
    throw badRequest(
      recordsMessage(RECORDS_MESSAGES.nameTooLong, { n: RECORDS_NAME_MAX_LENGTH }),
      'invalid_name',
    );
  }
  return text;
}

/** The fields of a schedule a request asks for, checked. */
interface ScheduleFields {
  name: string;
  period_count: number;
  period_unit: RetentionPeriodUnit;
  basis: RetentionBasis;
  basis_field_id: string | null;
  selector_field_id: string | null;
  selector_value: string | null;
}

function checkPeriod(count: unknown, unit: unknown): { count: number; unit: RetentionPeriodUnit } {
  const u = RETENTION_PERIOD_UNITS.includes(unit as RetentionPeriodUnit)
    ? (unit as RetentionPeriodUnit)
    : null;
  const max = u ? RETENTION_PERIOD_MAX[u] : RETENTION_PERIOD_MAX.years;
  if (!u || typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > max) {
    throw badRequest(
      recordsMessage(RECORDS_MESSAGES.invalidPeriod, { unit: u ?? 'years', max }),
      'invalid_period',
    );
  }
  return { count, unit: u };
}

/**
 * Checks the fields a schedule would have: the name, the period, a date field for basis
 * index_date (and none otherwise), a text or list field with a value for a selector (or neither).
 * @throws AppError 400 with the field's message; 404 for an index field not the firm's or deleted
 */
async function checkFields(
  db: Executor,
  databaseId: string,
  input: ScheduleFields,
): Promise<ScheduleFields> {
  const name = checkRecordsName(input.name);
  const period = checkPeriod(input.period_count, input.period_unit);
  if (!RETENTION_BASES.includes(input.basis)) {
    throw badRequest(RECORDS_MESSAGES.basisFieldRequired, 'invalid_basis');
  }
  const basisFieldId = input.basis === 'index_date' ? (input.basis_field_id ?? null) : null;
  if (input.basis === 'index_date' && !basisFieldId) {
    throw badRequest(RECORDS_MESSAGES.basisFieldRequired, 'basis_field_required');
  }
  const selectorFieldId = input.selector_field_id || null;
  const selectorValue = input.selector_value?.trim() || null;
  if ((selectorFieldId === null) !== (selectorValue === null)) {
    throw badRequest(RECORDS_MESSAGES.selectorIncomplete, 'selector_incomplete');
  }
  if (selectorValue !== null && selectorValue.length > INDEX_VALUE_MAX_LENGTH) {
    throw badRequest(RECORDS_MESSAGES.selectorIncomplete, 'selector_incomplete');
  }
  const fieldIds = [basisFieldId, selectorFieldId].filter((id): id is string => id !== null);
  const fields = new Map(
    (await findIndexFieldsByIds(db, databaseId, fieldIds))
      .filter((f) => f.deleted_at === null)
      .map((f) => [f.id, f]),
  );
  if (fieldIds.some((id) => !fields.has(id))) throw notFound();
  if (basisFieldId && fields.get(basisFieldId)!.type !== 'date') {
    throw badRequest(
      recordsMessage(RECORDS_MESSAGES.basisFieldNotDate, { field: fields.get(basisFieldId)!.name }),
      'basis_field_not_date',
    );
  }
  if (selectorFieldId && !['list', 'text_field'].includes(fields.get(selectorFieldId)!.type)) {
    throw badRequest(RECORDS_MESSAGES.selectorFieldType, 'selector_field_type');
  }
  return {
    name,
    period_count: period.count,
    period_unit: period.unit,
    basis: input.basis,
    basis_field_id: basisFieldId,
    selector_field_id: selectorFieldId,
    selector_value: selectorValue,
  };
}

/** A schedule as history keeps it (its rule and selector in words). */
async function scheduleAttributes(
  db: Executor,
  row: RetentionScheduleRow,
): Promise<HistoryScheduleAttributes> {
  const names = await indexFieldNames(
    db,
    row.database_id,
    [row.basis_field_id, row.selector_field_id].filter((id): id is string => id !== null),
  );
  return {
    id: row.id,
    name: row.name,
    rule: scheduleRuleText({
      period_count: Number(row.period_count),
      period_unit: row.period_unit,
      basis: row.basis,
      basis_field_name: row.basis_field_id ? names.get(row.basis_field_id)?.name : null,
    }),
    selector: selectorWords(row, names),
    locked: row.locked_at !== null,
  };
}

function selectorWords(
  row: Pick<RetentionScheduleRow, 'selector_field_id' | 'selector_value'>,
  names: Map<string, { name: string }>,
): string {
  if (!row.selector_field_id || row.selector_value === null) return '';
  return `“${names.get(row.selector_field_id)?.name ?? ''}” is “${row.selector_value}”`;
}

/** Schedules as the API answers them, with their targets. */
async function present(
  db: Executor,
  databaseId: string,
  rows: RetentionScheduleRow[],
): Promise<RetentionScheduleDto[]> {
  const targets = await scheduleTargets(
    db,
    databaseId,
    rows.map((r) => r.id),
  );
  const shown = await presentTargets(db, databaseId, targets);
  const bySchedule = new Map<string, typeof shown>();
  targets.forEach((t, i) => {
    const list = bySchedule.get(t.schedule_id) ?? [];
    list.push(shown[i]!);
    bySchedule.set(t.schedule_id, list);
  });
  const fields = await indexFieldNames(
    db,
    databaseId,
    rows.flatMap((r) => [r.basis_field_id, r.selector_field_id]).filter((id): id is string => !!id),
  );
  const users = await userNames(
    db,
    rows.map((r) => r.locked_by),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    period_count: Number(r.period_count),
    period_unit: r.period_unit,
    basis: r.basis,
    basis_field_id: r.basis_field_id,
    basis_field_name: r.basis_field_id ? (fields.get(r.basis_field_id)?.name ?? null) : null,
    selector_field_id: r.selector_field_id,
    selector_field_name: r.selector_field_id
      ? (fields.get(r.selector_field_id)?.name ?? null)
      : null,
    selector_value: r.selector_value,
    locked_at: r.locked_at,
    locked_by_name: r.locked_by ? (users.get(r.locked_by) ?? null) : null,
    targets: bySchedule.get(r.id) ?? [],
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

async function presentOne(db: Executor, databaseId: string, id: string) {
  return (await present(db, databaseId, [(await findSchedule(db, databaseId, id))!]))[0]!;
}

/** A schedule of the session's firm. @throws AppError 404 */
async function scheduleOf(
  db: Executor,
  ctx: RequestContext,
  id: string,
): Promise<RetentionScheduleRow> {
  const row = await findSchedule(db, ctx.databaseId, id);
  if (!row) throw notFound();
  return row;
}

async function assertNameFree(
  db: Executor,
  ctx: RequestContext,
  name: string,
  exceptId?: string,
): Promise<void> {
  const other = await findScheduleByNameKey(db, ctx.databaseId, name.toLowerCase());
  if (other && other.id !== exceptId) {
    throw conflict(
      recordsMessage(RECORDS_MESSAGES.scheduleNameTaken, { name }),
      'schedule_name_taken',
    );
  }
}

/**
 * GET REST/private/retention_schedules: the firm's schedules by name, with their targets.
 * @throws AppError 403 for non-administrators
 */
export async function listSchedules(
  services: Services,
  ctx: RequestContext,
): Promise<RetentionScheduleDto[]> {
  assertAdmin(ctx);
  return present(services.db, ctx.databaseId, await listScheduleRows(services.db, ctx.databaseId));
}

/**
 * POST REST/private/retention_schedules: a new schedule (locked at once with `locked`). One
 * retention_schedule create event.
 * @throws AppError 403 non-administrators; 400 invalid fields; 404 an index field not the firm's;
 *   409 a schedule of that name exists
 */
export async function createSchedule(
  services: Services,
  ctx: RequestContext,
  input: CreateRetentionScheduleRequest,
): Promise<RetentionScheduleDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const fields = await checkFields(trx, ctx.databaseId, {
      name: input.name,
      period_count: input.period_count,
      period_unit: input.period_unit,
      basis: input.basis,
      basis_field_id: input.basis_field_id ?? null,
      selector_field_id: input.selector_field_id ?? null,
      selector_value: input.selector_value ?? null,
    });
    await assertNameFree(trx, ctx, fields.name);
    if ((await listScheduleRows(trx, ctx.databaseId)).length >= RETENTION_SCHEDULES_MAX) {
      throw badRequest(
        recordsMessage(RECORDS_MESSAGES.tooManySchedules, { n: RETENTION_SCHEDULES_MAX }),
        'too_many_schedules',
      );
    }
    const now = isoAt(services.clock);
    const id = newId();
    await insertSchedule(trx, {
      id,
      database_id: ctx.databaseId,
      ...fields,
      name_key: fields.name.toLowerCase(),
      locked_at: input.locked ? now : null,
      locked_by: input.locked ? ctx.userId : null,
      created_by: ctx.userId,
      created_at: now,
      updated_at: now,
    });
    const row = (await findSchedule(trx, ctx.databaseId, id))!;
    await recordScheduleEvent(trx, services, ctx, 'create', await scheduleAttributes(trx, row));
    return presentOne(trx, ctx.databaseId, id);
  });
}

/**
 * PATCH REST/private/retention_schedules/{id}: changes the fields sent. A locked schedule takes a
 * new name and a period at least as long only. One retention_schedule update event naming the
 * changes (none when nothing changed).
 * @throws AppError 403 non-administrators; 404 not the firm's; 400 invalid fields; 409 a locked
 *   schedule's other fields or a shorter period (`schedule_locked`), a taken name
 */
export async function updateSchedule(
  services: Services,
  ctx: RequestContext,
  id: string,
  input: UpdateRetentionScheduleRequest,
): Promise<RetentionScheduleDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await scheduleOf(trx, ctx, id);
    if (input.locked === false && row.locked_at !== null) {
      throw conflict(RECORDS_MESSAGES.unlockRefused, 'schedule_locked');
    }
    const wanted = await checkFields(trx, ctx.databaseId, {
      name: input.name ?? row.name,
      period_count: input.period_count ?? Number(row.period_count),
      period_unit: input.period_unit ?? row.period_unit,
      basis: input.basis ?? row.basis,
      basis_field_id:
        input.basis_field_id !== undefined ? input.basis_field_id : row.basis_field_id,
      selector_field_id:
        input.selector_field_id !== undefined ? input.selector_field_id : row.selector_field_id,
      selector_value:
        input.selector_value !== undefined ? input.selector_value : row.selector_value,
    });
    const prev = { count: Number(row.period_count), unit: row.period_unit };
    const next = { count: wanted.period_count, unit: wanted.period_unit };
    const periodChanged = prev.count !== next.count || prev.unit !== next.unit;
    const basisChanged = wanted.basis !== row.basis || wanted.basis_field_id !== row.basis_field_id;
    const selectorChanged =
      wanted.selector_field_id !== row.selector_field_id ||
      wanted.selector_value !== row.selector_value;
    if (row.locked_at !== null) {
      if (basisChanged || selectorChanged) {
        throw conflict(
          recordsMessage(RECORDS_MESSAGES.lockedChange, { name: row.name }),
          'schedule_locked',
        );
      }
      if (periodChanged && !periodAtLeast(next, prev)) {
        throw conflict(
          recordsMessage(RECORDS_MESSAGES.lockedShorten, { name: row.name }),
          'schedule_locked',
        );
      }
    }
    if (wanted.name !== row.name) await assertNameFree(trx, ctx, wanted.name, row.id);
    const before = await scheduleAttributes(trx, row);
    const changes: NonNullable<HistoryAttributes['schedule_changes']> = {};
    if (wanted.name !== row.name) changes.name = { prev: row.name, next: wanted.name };
    if (periodChanged) {
      changes.period = {
        prev: periodText(prev.count, prev.unit),
        next: periodText(next.count, next.unit),
      };
    }
    if (Object.keys(changes).length === 0 && !basisChanged && !selectorChanged) {
      if (input.locked === true) await lockRow(trx, services, ctx, row);
      return presentOne(trx, ctx.databaseId, row.id);
    }
    await updateScheduleRow(trx, ctx.databaseId, row.id, {
      ...wanted,
      name_key: wanted.name.toLowerCase(),
      updated_at: isoAt(services.clock),
    });
    const updated = (await findSchedule(trx, ctx.databaseId, row.id))!;
    const after = await scheduleAttributes(trx, updated);
    if (basisChanged) {
      const fieldName = async (fieldId: string | null) =>
        fieldId
          ? ((await indexFieldNames(trx, ctx.databaseId, [fieldId])).get(fieldId)?.name ?? '')
          : '';
      changes.basis = {
        prev: basisText(row.basis, await fieldName(row.basis_field_id)),
        next: basisText(updated.basis, await fieldName(updated.basis_field_id)),
      };
    }
    if (selectorChanged) changes.selector = { prev: before.selector, next: after.selector };
    await recordScheduleUpdated(trx, services, ctx, after, { changes });
    if (input.locked === true) await lockRow(trx, services, ctx, updated);
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/** Locks an unlocked schedule and records the lock event (a locked one is left as it is). */
async function lockRow(
  trx: Executor,
  services: Services,
  ctx: RequestContext,
  row: RetentionScheduleRow,
): Promise<void> {
  if (row.locked_at !== null) return;
  const now = isoAt(services.clock);
  await updateScheduleRow(trx, ctx.databaseId, row.id, {
    locked_at: now,
    locked_by: ctx.userId,
    updated_at: now,
  });
  const locked = (await findSchedule(trx, ctx.databaseId, row.id))!;
  await recordScheduleEvent(trx, services, ctx, 'lock', await scheduleAttributes(trx, locked));
}

/**
 * POST REST/private/retention_schedules/{id}/lock: locks the schedule for good (a locked one is
 * answered unchanged). One retention_schedule lock event.
 * @throws AppError 403 non-administrators; 404 not the firm's
 */
export async function lockSchedule(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<RetentionScheduleDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    await lockRow(trx, services, ctx, await scheduleOf(trx, ctx, id));
    return presentOne(trx, ctx.databaseId, id);
  });
}

/**
 * DELETE REST/private/retention_schedules/{id}: removes an unlocked schedule and its targets
 * (the files it kept are kept by it no longer). One retention_schedule delete event.
 * @throws AppError 403 non-administrators; 404 not the firm's; 409 `schedule_locked`
 */
export async function deleteSchedule(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<void> {
  assertAdmin(ctx);
  await inTransaction(services, async (trx) => {
    const row = await scheduleOf(trx, ctx, id);
    if (row.locked_at !== null) {
      throw conflict(
        recordsMessage(RECORDS_MESSAGES.lockedDelete, { name: row.name }),
        'schedule_locked',
      );
    }
    const attributes = await scheduleAttributes(trx, row);
    await deleteScheduleRows(trx, ctx.databaseId, row.id);
    await recordScheduleEvent(trx, services, ctx, 'delete', attributes);
  });
}

/**
 * POST REST/private/retention_schedules/{id}/targets: applies the schedule to a folder (and
 * everything below it) or a file, archived ones included; one already named is answered unchanged.
 * One retention_schedule update event (in the item's history too).
 * @throws AppError 403 non-administrators; 404 the schedule or the item not the firm's; 400 a
 *   contact (schedules take folders and files)
 */
export async function addScheduleTarget(
  services: Services,
  ctx: RequestContext,
  id: string,
  target: RecordsTargetRequest,
): Promise<RetentionScheduleDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await scheduleOf(trx, ctx, id);
    const [item] = await resolveTargets(
      trx,
      ctx.databaseId,
      [target],
      ['folder', 'file'],
      RECORDS_MESSAGES.scheduleTargetType,
    );
    const added = await insertScheduleTarget(trx, {
      id: newId(),
      database_id: ctx.databaseId,
      schedule_id: row.id,
      target_type: item!.type as 'folder' | 'file',
      target_id: item!.id,
      created_by: ctx.userId,
      created_at: isoAt(services.clock),
    });
    if (added) {
      await recordScheduleUpdated(trx, services, ctx, await scheduleAttributes(trx, row), {
        added: item!,
      });
    }
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/**
 * DELETE REST/private/retention_schedules/{id}/targets/{targetId}: takes an unlocked schedule off
 * a folder or file. One retention_schedule update event.
 * @throws AppError 403 non-administrators; 404 the schedule or target not the firm's; 409
 *   `schedule_locked`
 */
export async function removeScheduleTarget(
  services: Services,
  ctx: RequestContext,
  id: string,
  targetId: string,
): Promise<RetentionScheduleDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await scheduleOf(trx, ctx, id);
    const target = await findScheduleTarget(trx, ctx.databaseId, row.id, targetId);
    if (!target) throw notFound();
    if (row.locked_at !== null) {
      throw conflict(
        recordsMessage(RECORDS_MESSAGES.lockedTargetRemove, { name: row.name }),
        'schedule_locked',
      );
    }
    const [shown] = await presentTargets(trx, ctx.databaseId, [target]);
    await deleteScheduleTarget(trx, ctx.databaseId, target.id);
    await recordScheduleUpdated(trx, services, ctx, await scheduleAttributes(trx, row), {
      removed: { type: target.target_type, id: target.target_id, name: shown?.name ?? '' },
    });
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/**
 * Refuses deleting an index field, or changing its type, while a retention schedule reads it (as
 * its date basis or its selector): the schedule must change first (a locked one never does).
 * @throws AppError 409 `index_field_in_schedule` naming the field and the schedule
 */
export async function assertFieldNotInSchedule(
  db: Executor,
  databaseId: string,
  field: { id: string; name: string },
): Promise<void> {
  const [schedule] = await schedulesUsingField(db, databaseId, field.id);
  if (schedule) {
    throw conflict(
      recordsMessage(RECORDS_MESSAGES.fieldUsedBySchedule, {
        field: field.name,
        schedule: schedule.name,
      }),
      'index_field_in_schedule',
    );
  }
}
