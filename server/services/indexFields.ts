/**
 * Index fields (SPEC sections 3, 4 and 7 "Index fields"): a firm's own fields
 * with a name (unique per firm, any case), a type (text_field by default, date, number, list), a
 * description, a position and, for a list, ordered values. Reading the fields is for every member
 * (they apply values with them); creating, changing, archiving, deleting and undoing a delete is
 * for administrators (assertAdmin).
 *
 * Deleting marks the field (`deleted_at`): it disappears from lists and its applied values from
 * items, and undo-delete brings both back within INDEX_FIELD_UNDO_MS (common/indexFields.ts). A
 * second DELETE, or the undo time running out (checked whenever the firm's fields are read or
 * changed), destroys the field, its list values and its applied values permanently. Archiving
 * keeps the applied values but no value can be applied with the field until it is restored.
 */
import {
  DEFAULT_INDEX_FIELD_TYPE,
  INDEX_FIELDS_MAX,
  INDEX_FIELD_DESCRIPTION_MAX_LENGTH,
  INDEX_FIELD_NAME_MAX_LENGTH,
  INDEX_FIELD_TYPES,
  INDEX_FIELD_UNDO_MS,
  INDEX_LIST_MAX_VALUES,
  INDEX_MESSAGES,
  indexFieldNameKey,
  indexMessage,
  validateIndexValue,
  type AppliedValuesDto,
  type CreateIndexFieldRequest,
  type IndexFieldDto,
  type IndexFieldType,
  type IndexFieldValueInput,
  type ListIndexFieldsQuery,
  type UpdateIndexFieldRequest,
} from '@common/indexFields';
import type { IndexFieldRow, IndexFieldValueRow } from '../db/schemaIndexes';
import { badRequest, notFound } from '../errors';
import { isoAt, newId } from '../ids';
import {
  appliedValueCounts,
  countAppliedOfField,
  destroyIndexFields,
  expiredDeletedFieldIds,
  findIndexField,
  findIndexFieldByNameKey,
  indexFieldStats,
  insertIndexField,
  listFieldValues,
  listIndexFields as listFieldRows,
  replaceFieldValues,
  updateIndexField as updateFieldRow,
} from '../repositories/indexFields';
import type { Executor } from '../repositories/types';
import { assertAdmin, visibility } from './access';
import { assertFieldNotInSchedule } from './records/schedules';
import type { RequestContext, Services } from './context';

/** A field row and its list values as JSON. */
export function presentIndexField(row: IndexFieldRow, values: IndexFieldValueRow[]): IndexFieldDto {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description,
    position: Number(row.position),
    values: values
      .filter((v) => v.index_field_id === row.id)
      .sort((a, b) => Number(a.position) - Number(b.position))
      .map((v) => ({ id: v.id, value: v.value, position: Number(v.position) })),
    archived_at: row.archived_at,
    deleted_at: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function present(db: Executor, row: IndexFieldRow): Promise<IndexFieldDto> {
  return presentIndexField(row, await listFieldValues(db, [row.id]));
}

/**
 * Destroys the firm's fields whose undo time is over (deleted more than INDEX_FIELD_UNDO_MS ago),
 * with their applied values.
 */
export async function purgeExpiredIndexFields(
  db: Executor,
  services: Pick<Services, 'clock'>,
  databaseId: string,
): Promise<void> {
  const before = new Date(services.clock() - INDEX_FIELD_UNDO_MS).toISOString();
  const ids = await expiredDeletedFieldIds(db, databaseId, before);
  await destroyIndexFields(db, databaseId, ids);
}

/** A trimmed, checked field name. @throws AppError 400 */
function checkName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '') throw badRequest(INDEX_MESSAGES.nameRequired, 'index_field_name_required');
  if (trimmed.length > INDEX_FIELD_NAME_MAX_LENGTH) {
    throw badRequest(INDEX_MESSAGES.nameTooLong, 'index_field_name_too_long');
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest(INDEX_MESSAGES.valueInvalidCharacters, 'index_field_name_invalid');
  }
  return trimmed;
}

function checkDescription(description: unknown): string {
  const text = typeof description === 'string' ? description.trim() : '';
  if (text.length > INDEX_FIELD_DESCRIPTION_MAX_LENGTH) {
    throw badRequest(INDEX_MESSAGES.descriptionTooLong, 'index_field_description_too_long');
  }
  return text;
}

function checkType(type: unknown): IndexFieldType {
  if (type === undefined) return DEFAULT_INDEX_FIELD_TYPE;
  if (!INDEX_FIELD_TYPES.includes(type as IndexFieldType)) {
    throw badRequest(INDEX_MESSAGES.unknownType, 'index_field_type_invalid');
  }
  return type as IndexFieldType;
}

/** Refuses a name another live (non-deleted) field of the firm has, in any case. */
async function assertNameFree(
  db: Executor,
  ctx: RequestContext,
  name: string,
  exceptId?: string,
): Promise<void> {
  if (await findIndexFieldByNameKey(db, ctx.databaseId, indexFieldNameKey(name), exceptId)) {
    throw badRequest(indexMessage(INDEX_MESSAGES.nameTaken, { name }), 'index_field_name_taken');
  }
}

/**
 * The new list values of a field, checked (1..INDEX_LIST_MAX_VALUES, each a valid text value, no
 * duplicates in any case), as rows in the given order. Inputs with an id keep it when it is one of
 * `existing`'s. @throws AppError 400
 */
function listValueRows(
  fieldId: string,
  inputs: readonly (string | IndexFieldValueInput)[],
  existing: readonly IndexFieldValueRow[],
): IndexFieldValueRow[] {
  if (inputs.length === 0)
    throw badRequest(INDEX_MESSAGES.listValuesRequired, 'list_values_required');
  if (inputs.length > INDEX_LIST_MAX_VALUES) {
    throw badRequest(INDEX_MESSAGES.tooManyListValues, 'too_many_list_values');
  }
  const known = new Set(existing.map((v) => v.id));
  const seenKeys = new Set<string>();
  const seenIds = new Set<string>();
  return inputs.map((input, position) => {
    const raw = typeof input === 'string' ? input : input.value;
    const id = typeof input === 'string' ? undefined : input.id;
    const check = validateIndexValue('text_field', raw);
    if (!check.ok) throw badRequest(check.message, 'list_value_invalid');
    const key = check.value.toLowerCase();
    if (seenKeys.has(key)) {
      throw badRequest(
        indexMessage(INDEX_MESSAGES.duplicateListValue, { value: check.value }),
        'list_value_duplicate',
      );
    }
    seenKeys.add(key);
    if (id !== undefined && (!known.has(id) || seenIds.has(id))) {
      throw badRequest(indexMessage(INDEX_MESSAGES.unknownListValue, { id }), 'list_value_unknown');
    }
    if (id !== undefined) seenIds.add(id);
    return { id: id ?? newId(), index_field_id: fieldId, value: check.value, position };
  });
}

/**
 * The firm's field (not deleted) by id, after purging expired deleted fields.
 * @throws AppError 404 when it is not the firm's or is deleted
 */
async function liveField(
  db: Executor,
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<IndexFieldRow> {
  await purgeExpiredIndexFields(db, services, ctx.databaseId);
  const field = await findIndexField(db, ctx.databaseId, id);
  if (!field || field.deleted_at !== null) throw notFound();
  return field;
}

/**
 * GET REST/index_fields: the firm's fields by position with their list values; archived ones
 * unless `archived=false`; deleted, still undoable ones when `deleted=true` (administrators only;
 * ignored for others). Every role.
 */
export async function listIndexFields(
  services: Services,
  ctx: RequestContext,
  query: ListIndexFieldsQuery = {},
): Promise<IndexFieldDto[]> {
  return services.db.transaction().execute(async (trx) => {
    await purgeExpiredIndexFields(trx, services, ctx.databaseId);
    const rows = await listFieldRows(trx, ctx.databaseId, {
      includeDeleted: query.deleted === true && ctx.role === 'admin',
      includeArchived: query.archived !== false,
    });
    const values = await listFieldValues(
      trx,
      rows.filter((r) => r.type === 'list').map((r) => r.id),
    );
    return rows.map((row) => presentIndexField(row, values));
  });
}

/**
 * POST REST/index_fields: a new field at the end of the firm's order.
 * @throws AppError 403 for non-administrators; 400 for a missing, too long or taken name, an
 *   unknown type, list values missing (list) or given (other types), too many fields
 */
export async function createIndexField(
  services: Services,
  ctx: RequestContext,
  input: CreateIndexFieldRequest,
): Promise<IndexFieldDto> {
  assertAdmin(ctx);
  const name = checkName(input.name);
  const type = checkType(input.type);
  const description = checkDescription(input.description);
  if (type !== 'list' && input.values && input.values.length > 0) {
    throw badRequest(INDEX_MESSAGES.listValuesOnlyForList, 'list_values_not_allowed');
  }
  const id = newId();
  const values = type === 'list' ? listValueRows(id, input.values ?? [], []) : [];
  return services.db.transaction().execute(async (trx) => {
    await purgeExpiredIndexFields(trx, services, ctx.databaseId);
    await assertNameFree(trx, ctx, name);
    const stats = await indexFieldStats(trx, ctx.databaseId);
    if (stats.count >= INDEX_FIELDS_MAX)
      throw badRequest(INDEX_MESSAGES.tooManyFields, 'too_many_index_fields');
    const now = isoAt(services.clock);
    await insertIndexField(trx, {
      id,
      database_id: ctx.databaseId,
      name,
      name_key: indexFieldNameKey(name),
      type,
      description,
      position: stats.maxPosition + 1,
      archived_at: null,
      deleted_at: null,
      created_by: ctx.userId,
      created_at: now,
      updated_at: now,
    });
    await replaceFieldValues(trx, id, values);
    return present(trx, (await findIndexField(trx, ctx.databaseId, id))!);
  });
}

/** Moves a field to `position` among the firm's non-deleted fields and renumbers them 0..n-1. */
async function moveField(
  trx: Executor,
  ctx: RequestContext,
  field: IndexFieldRow,
  position: number,
  now: string,
): Promise<void> {
  const rows = (await listFieldRows(trx, ctx.databaseId)).filter((r) => r.id !== field.id);
  const at = Math.max(0, Math.min(Math.trunc(position), rows.length));
  rows.splice(at, 0, field);
  for (const [index, row] of rows.entries()) {
    if (Number(row.position) !== index || row.id === field.id) {
      await updateFieldRow(trx, ctx.databaseId, row.id, {
        position: index,
        ...(row.id === field.id ? { updated_at: now } : {}),
      });
    }
  }
}

/**
 * PATCH REST/index_fields/{id}: name, type, description, position (order among the firm's
 * fields) and list values (reordered, renamed, added, removed; see IndexFieldValueInput).
 * @throws AppError 403 for non-administrators; 404 for a field not the firm's or deleted; 400 for
 *   an invalid or taken name, a type change while values are applied, invalid list values; 409 a
 *   type change of a field a retention schedule reads (index_field_in_schedule)
 */
export async function updateIndexField(
  services: Services,
  ctx: RequestContext,
  id: string,
  input: UpdateIndexFieldRequest,
): Promise<IndexFieldDto> {
  assertAdmin(ctx);
  return services.db.transaction().execute(async (trx) => {
    const field = await liveField(trx, services, ctx, id);
    const now = isoAt(services.clock);
    const patch: Parameters<typeof updateFieldRow>[3] = {};
    if (input.name !== undefined) {
      const name = checkName(input.name);
      if (name !== field.name) {
        await assertNameFree(trx, ctx, name, field.id);
        patch.name = name;
        patch.name_key = indexFieldNameKey(name);
      }
    }
    if (input.description !== undefined) patch.description = checkDescription(input.description);
    const type = input.type === undefined ? field.type : checkType(input.type);
    if (type !== field.type) {
      await assertFieldNotInSchedule(trx, ctx.databaseId, field);
      if ((await countAppliedOfField(trx, ctx.databaseId, field.id)) > 0) {
        throw badRequest(
          indexMessage(INDEX_MESSAGES.typeInUse, { name: field.name }),
          'index_field_type_in_use',
        );
      }
      patch.type = type;
    }
    const existing = await listFieldValues(trx, [field.id]);
    if (type === 'list') {
      if (input.values !== undefined) {
        await replaceFieldValues(trx, field.id, listValueRows(field.id, input.values, existing));
      } else if (existing.length === 0) {
        throw badRequest(INDEX_MESSAGES.listValuesRequired, 'list_values_required');
      }
    } else {
      if (input.values !== undefined && input.values.length > 0) {
        throw badRequest(INDEX_MESSAGES.listValuesOnlyForList, 'list_values_not_allowed');
      }
      if (existing.length > 0) await replaceFieldValues(trx, field.id, []);
    }
    await updateFieldRow(trx, ctx.databaseId, field.id, { ...patch, updated_at: now });
    if (input.position !== undefined) await moveField(trx, ctx, field, input.position, now);
    return present(trx, (await findIndexField(trx, ctx.databaseId, field.id))!);
  });
}

/**
 * PATCH REST/index_fields/{id}/values: the list values in their new order (drag to reorder);
 * same rules as the values of {@link updateIndexField}.
 */
export function reorderIndexFieldValues(
  services: Services,
  ctx: RequestContext,
  id: string,
  values: IndexFieldValueInput[],
): Promise<IndexFieldDto> {
  return updateIndexField(services, ctx, id, { values });
}

/**
 * DELETE REST/index_fields/{id}: marks the field deleted (undoable for INDEX_FIELD_UNDO_MS) and
 * answers it; a field already deleted is destroyed with its applied values (answers null). A field
 * a retention schedule reads stays until the schedule no longer does.
 * @throws AppError 403 for non-administrators; 404 for a field not the firm's (or destroyed); 409
 *   index_field_in_schedule
 */
export async function deleteIndexField(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<IndexFieldDto | null> {
  assertAdmin(ctx);
  return services.db.transaction().execute(async (trx) => {
    await purgeExpiredIndexFields(trx, services, ctx.databaseId);
    const field = await findIndexField(trx, ctx.databaseId, id);
    if (!field) throw notFound();
    await assertFieldNotInSchedule(trx, ctx.databaseId, field);
    if (field.deleted_at !== null) {
      await destroyIndexFields(trx, ctx.databaseId, [field.id]);
      return null;
    }
    const now = isoAt(services.clock);
    await updateFieldRow(trx, ctx.databaseId, field.id, { deleted_at: now, updated_at: now });
    return present(trx, { ...field, deleted_at: now, updated_at: now });
  });
}

/**
 * POST REST/index_fields/{id}/undo-delete: brings a deleted field back with its applied values.
 * @throws AppError 403 for non-administrators; 404 for a field not the firm's or destroyed
 *   (including one whose undo time is over); 400 when it is not deleted or another field took its
 *   name meanwhile
 */
export async function undoDeleteIndexField(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<IndexFieldDto> {
  assertAdmin(ctx);
  return services.db.transaction().execute(async (trx) => {
    await purgeExpiredIndexFields(trx, services, ctx.databaseId);
    const field = await findIndexField(trx, ctx.databaseId, id);
    if (!field) throw notFound();
    if (field.deleted_at === null) {
      throw badRequest(
        indexMessage(INDEX_MESSAGES.fieldNotDeleted, { name: field.name }),
        'index_field_not_deleted',
      );
    }
    await assertNameFree(trx, ctx, field.name, field.id);
    const now = isoAt(services.clock);
    await updateFieldRow(trx, ctx.databaseId, field.id, { deleted_at: null, updated_at: now });
    return present(trx, { ...field, deleted_at: null, updated_at: now });
  });
}

function setArchived(archive: boolean) {
  return async (services: Services, ctx: RequestContext, id: string): Promise<IndexFieldDto> => {
    assertAdmin(ctx);
    return services.db.transaction().execute(async (trx) => {
      const field = await liveField(trx, services, ctx, id);
      if (archive === (field.archived_at !== null)) {
        throw badRequest(
          indexMessage(
            archive ? INDEX_MESSAGES.fieldAlreadyArchived : INDEX_MESSAGES.fieldNotArchived,
            {
              name: field.name,
            },
          ),
          archive ? 'index_field_archived' : 'index_field_not_archived',
        );
      }
      const now = isoAt(services.clock);
      const archivedAt = archive ? now : null;
      await updateFieldRow(trx, ctx.databaseId, field.id, {
        archived_at: archivedAt,
        updated_at: now,
      });
      return present(trx, { ...field, archived_at: archivedAt, updated_at: now });
    });
  };
}

/**
 * POST REST/index_fields/{id}/archive: the field keeps its applied values but cannot be applied.
 * @throws AppError 403 for non-administrators; 404 not the firm's or deleted; 400 already archived
 */
export const archiveIndexField = setArchived(true);
/**
 * POST REST/index_fields/{id}/restore: the field can be applied again.
 * @throws AppError 403 for non-administrators; 404 not the firm's or deleted; 400 not archived
 */
export const restoreIndexField = setArchived(false);

/**
 * GET REST/index_fields/{id}/applied_values: the distinct live values of the field on live items
 * the session can see, with their counts (for renaming a value with update_many). Every role.
 * @throws AppError 404 for a field not the firm's or deleted
 */
export async function appliedValues(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<AppliedValuesDto> {
  const field = await liveField(services.db, services, ctx, id);
  const { folderVisible } = await visibility(services.db, ctx);
  return {
    index_field_id: field.id,
    items: await appliedValueCounts(services.db, ctx.databaseId, field.id, folderVisible),
  };
}
