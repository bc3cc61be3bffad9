/**
 * Applied indexes (SPEC sections 3, 4 and 7 "Applied indexes"): values of the
 * firm's index fields on files and folders. Reading is for every role on items the session can
 * see; applying, changing, archiving, restoring and deleting is for members and administrators
 * (not read-only) on live items they can see (access.ts). Values are checked by the field's type
 * (validateIndexValue, common/indexFields.ts); an archived field cannot be applied (400); values
 * of a deleted field are hidden until its delete is undone.
 *
 * A change that would shorten a file's retention under a locked retention schedule reading the
 * field (as its selector or its date) is refused with 409 and changes nothing
 * (records/protection.ts indexChangeGuard).
 *
 * History, in the same transaction as the change (server/services/historyEvents.ts): applying
 * records one applied_index create_many per item with its new `index_values`, and an update for
 * each value it replaced; a change, archive, restore and delete record update / archive / restore
 * / delete with `name`, `value` and `index_values`; update_many records one update per item whose
 * value it renamed.
 */
import {
  APPLY_INDEXES_MAX_ENTITIES,
  APPLY_INDEXES_MAX_VALUES,
  INDEX_MESSAGES,
  indexMessage,
  validateIndexValue,
  type AppliedIndexDto,
  type ApplyIndexesRequest,
  type ApplyIndexesResponse,
  type UpdateManyAppliedIndexesRequest,
  type UpdateManyAppliedIndexesResponse,
} from '@common/indexFields';
import type { IndexFieldRow, NewAppliedIndex } from '../db/schemaIndexes';
import { badRequest, notFound } from '../errors';
import { isoAt, newId } from '../ids';
import {
  appliedIndexesOf,
  deleteAppliedIndex as deleteAppliedRow,
  findAppliedIndex,
  insertAppliedIndexes,
  liveAppliedWithValue,
  setAppliedValues,
  updateAppliedIndex as updateAppliedRow,
  type AppliedIndexWithField,
} from '../repositories/appliedIndexes';
import { findFilesByIds } from '../repositories/files';
import { findFoldersByIds } from '../repositories/folders';
import {
  findIndexFieldsByIds,
  listFieldValues,
  renameFieldValue,
} from '../repositories/indexFields';
import { hiddenAmong } from '../repositories/permissions';
import type { Executor } from '../repositories/types';
import { assertFoldersVisible, assertRole, hiddenRoots, type Access } from './access';
import type { RequestContext, Services } from './context';
import {
  recordIndexArchived,
  recordIndexDeleted,
  recordIndexRestored,
  recordIndexUpdated,
  recordIndexesApplied,
  type AppliedIndexValue,
  type TypedItemRef,
} from './historyEvents';
import { purgeExpiredIndexFields } from './indexFields';
import { indexChangeGuard, todayOf } from './records/protection';

/** An applied index row as JSON. */
export function presentAppliedIndex(row: AppliedIndexWithField): AppliedIndexDto {
  return {
    id: row.id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    index_field_id: row.index_field_id,
    index_field_name: row.index_field_name,
    index_field_type: row.index_field_type,
    value: row.value,
    archived_at: row.archived_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A file or folder as events name it, with the folder whose visibility decides access to it. */
interface ResolvedItem extends TypedItemRef {
  /** The folder itself for a folder; the folder holding it for a file. */
  folderId: string;
  archived: boolean;
}

/**
 * Resolves item ids (files or folders) of the session's firm. Files must be ready; archived items
 * only with `allowArchived`; every item must be visible to the session.
 * @throws AppError 404 when any id is not such an item; 403 for a read-only member writing
 */
async function resolveItems(
  db: Executor,
  ctx: RequestContext,
  ids: string[],
  access: Access,
  options: { allowArchived?: boolean } = {},
): Promise<Map<string, ResolvedItem>> {
  assertRole(ctx, access);
  const wanted = [...new Set(ids)];
  const items = new Map<string, ResolvedItem>();
  for (const file of await findFilesByIds(db, ctx.databaseId, wanted)) {
    if (file.status !== 'ready') continue;
    items.set(file.id, {
      type: 'file',
      id: file.id,
      name: file.name,
      folderId: file.folder_id,
      archived: file.archived_at !== null,
    });
  }
  const rest = wanted.filter((id) => !items.has(id));
  for (const folder of await findFoldersByIds(db, ctx.databaseId, rest)) {
    items.set(folder.id, {
      type: 'folder',
      id: folder.id,
      name: folder.name,
      folderId: folder.id,
      archived: folder.archived_at !== null,
    });
  }
  for (const id of wanted) {
    const item = items.get(id);
    if (!item || (item.archived && !options.allowArchived)) throw notFound();
  }
  await assertFoldersVisible(
    db,
    ctx,
    [...items.values()].map((i) => i.folderId),
  );
  return items;
}

/** One item resolved (see resolveItems). */
async function resolveItem(
  db: Executor,
  ctx: RequestContext,
  id: string,
  access: Access,
  options: { allowArchived?: boolean } = {},
): Promise<ResolvedItem> {
  return (await resolveItems(db, ctx, [id], access, options)).get(id)!;
}

/** A field-named 400 for a refused value. */
function valueError(field: { name: string }, message: string) {
  return badRequest(
    indexMessage(INDEX_MESSAGES.fieldValueError, { name: field.name, message }),
    'index_value_invalid',
  );
}

/** Refuses applying with an archived field. @throws AppError 400 'index_field_archived' */
export function assertFieldApplicable(field: { name: string; archived_at: string | null }): void {
  if (field.archived_at !== null) {
    throw badRequest(
      indexMessage(INDEX_MESSAGES.fieldArchived, { name: field.name }),
      'index_field_archived',
    );
  }
}

/**
 * The value checked against its field's type and list (normalised as it is stored).
 * @throws AppError 400 'index_value_invalid' with "Field: why"
 */
export async function checkedValue(
  db: Executor,
  field: IndexFieldRow,
  value: unknown,
): Promise<string> {
  const values = field.type === 'list' ? await listFieldValues(db, [field.id]) : [];
  const check = validateIndexValue(field.type, value, values);
  if (!check.ok) throw valueError(field, check.message);
  return check.value;
}

/**
 * GET REST/applied_indexes?entity_id: the item's applied indexes, live ones first then archived,
 * by field position. Every role, on items the session can see (archived items included).
 * @throws AppError 404 for an item not the firm's, pending or hidden
 */
export async function listAppliedIndexes(
  services: Services,
  ctx: RequestContext,
  entityId: string,
): Promise<AppliedIndexDto[]> {
  const db = services.db;
  await resolveItem(db, ctx, entityId, 'read', { allowArchived: true });
  await purgeExpiredIndexFields(db, services, ctx.databaseId);
  return (await appliedIndexesOf(db, ctx.databaseId, [entityId])).map(presentAppliedIndex);
}

/**
 * POST REST/applied_indexes: sets values of fields on one item (`entity_id`) or many (`entity_ids`,
 * a bulk apply). A field's live value on an item is replaced; an equal value is left as it was.
 * @returns the live applied indexes of every item of the request
 * @throws AppError 403 read-only; 404 an item not the firm's, archived, pending or hidden, or a
 *   field not the firm's or deleted; 400 no items or indexes, too many, a field listed twice, an
 *   archived field, a value refused by its field's type (message "Field: why")
 */
export async function applyIndexes(
  services: Services,
  ctx: RequestContext,
  input: ApplyIndexesRequest,
): Promise<ApplyIndexesResponse> {
  assertRole(ctx, 'write');
  const entityIds = [...new Set(input.entity_ids ?? (input.entity_id ? [input.entity_id] : []))];
  if (entityIds.length === 0) throw badRequest(INDEX_MESSAGES.noEntities, 'no_entities');
  if (entityIds.length > APPLY_INDEXES_MAX_ENTITIES) {
    throw badRequest(INDEX_MESSAGES.tooManyEntities, 'too_many_entities');
  }
  if (input.indexes.length === 0) throw badRequest(INDEX_MESSAGES.noIndexes, 'no_indexes');
  if (input.indexes.length > APPLY_INDEXES_MAX_VALUES) {
    throw badRequest(INDEX_MESSAGES.tooManyValues, 'too_many_indexes');
  }
  return services.db.transaction().execute(async (trx) => {
    await purgeExpiredIndexFields(trx, services, ctx.databaseId);
    const fieldIds = input.indexes.map((i) => i.indexFieldId);
    const fields = new Map(
      (await findIndexFieldsByIds(trx, ctx.databaseId, fieldIds))
        .filter((f) => f.deleted_at === null)
        .map((f) => [f.id, f]),
    );
    const seen = new Set<string>();
    const wanted: { field: IndexFieldRow; value: string }[] = [];
    for (const pair of input.indexes) {
      const field = fields.get(pair.indexFieldId);
      if (!field) throw notFound();
      if (seen.has(field.id)) {
        throw badRequest(
          indexMessage(INDEX_MESSAGES.duplicateIndex, { name: field.name }),
          'duplicate_index',
        );
      }
      seen.add(field.id);
      assertFieldApplicable(field);
      wanted.push({ field, value: await checkedValue(trx, field, pair.value) });
    }
    const items = await resolveItems(trx, ctx, entityIds, 'write');
    const guard = await indexChangeGuard(
      trx,
      ctx.databaseId,
      [...seen],
      [...items.values()].map((item) => ({ type: item.type, id: item.id })),
      todayOf(services.clock),
    );
    const existing = await appliedIndexesOf(trx, ctx.databaseId, entityIds, {
      liveOnly: true,
      fieldIds: [...seen],
    });
    const live = new Map(existing.map((row) => [`${row.entity_id}:${row.index_field_id}`, row]));
    const now = isoAt(services.clock);
    for (const entityId of entityIds) {
      const item = items.get(entityId)!;
      const ref: TypedItemRef = { type: item.type, id: item.id, name: item.name };
      const rows: NewAppliedIndex[] = [];
      const applied: AppliedIndexValue[] = [];
      for (const { field, value } of wanted) {
        const current = live.get(`${entityId}:${field.id}`);
        if (current && current.value === value) continue;
        if (current) {
          await updateAppliedRow(trx, ctx.databaseId, current.id, { value, updated_at: now });
          await recordIndexUpdated(
            trx,
            services,
            ctx,
            current,
            ref,
            { name: field.name, value },
            current.value,
          );
          continue;
        }
        rows.push({
          id: newId(),
          database_id: ctx.databaseId,
          entity_type: item.type,
          entity_id: item.id,
          index_field_id: field.id,
          value,
          archived_at: null,
          created_by: ctx.userId,
          created_at: now,
          updated_at: now,
        });
        applied.push({
          id: rows[rows.length - 1]!.id,
          index_field_id: field.id,
          name: field.name,
          value,
        });
      }
      await insertAppliedIndexes(trx, rows);
      if (applied.length > 0) await recordIndexesApplied(trx, services, ctx, ref, applied);
    }
    await guard.assertKept();
    const after = await appliedIndexesOf(trx, ctx.databaseId, entityIds, { liveOnly: true });
    return { items: after.map(presentAppliedIndex) };
  });
}

/**
 * The applied index by id with its live item, for a change by the session.
 * @throws AppError 404 when it is not the firm's, its field is deleted, or its item is archived,
 *   pending or hidden; 403 read-only
 */
async function appliedForWrite(
  trx: Executor,
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<{ row: AppliedIndexWithField; item: TypedItemRef }> {
  assertRole(ctx, 'write');
  await purgeExpiredIndexFields(trx, services, ctx.databaseId);
  const row = await findAppliedIndex(trx, ctx.databaseId, id);
  if (!row) throw notFound();
  const item = await resolveItem(trx, ctx, row.entity_id, 'write');
  return { row, item: { type: item.type, id: item.id, name: item.name } };
}

/**
 * The guard of a change of one applied value: a locked retention schedule reading its field may
 * not be shortened by it (records/protection.ts indexChangeGuard).
 */
function rowGuard(
  trx: Executor,
  services: Services,
  ctx: RequestContext,
  row: AppliedIndexWithField,
  item: TypedItemRef,
) {
  return indexChangeGuard(
    trx,
    ctx.databaseId,
    [row.index_field_id],
    [{ type: item.type, id: item.id }],
    todayOf(services.clock),
  );
}

async function reread(trx: Executor, ctx: RequestContext, id: string): Promise<AppliedIndexDto> {
  return presentAppliedIndex((await findAppliedIndex(trx, ctx.databaseId, id))!);
}

/**
 * PATCH REST/applied_indexes/{id}: a new value (checked by the field's type); an equal value
 * changes nothing and records nothing.
 * @throws AppError 403 read-only; 404 (see appliedForWrite); 400 archived value or field, value
 *   refused
 */
export async function updateAppliedIndex(
  services: Services,
  ctx: RequestContext,
  id: string,
  value: string,
): Promise<AppliedIndexDto> {
  return services.db.transaction().execute(async (trx) => {
    const { row, item } = await appliedForWrite(trx, services, ctx, id);
    if (row.archived_at !== null)
      throw badRequest(INDEX_MESSAGES.appliedArchived, 'applied_index_archived');
    const field = (await findIndexFieldsByIds(trx, ctx.databaseId, [row.index_field_id]))[0]!;
    assertFieldApplicable(field);
    const next = await checkedValue(trx, field, value);
    if (next !== row.value) {
      const guard = await rowGuard(trx, services, ctx, row, item);
      await updateAppliedRow(trx, ctx.databaseId, row.id, {
        value: next,
        updated_at: isoAt(services.clock),
      });
      await guard.assertKept();
      await recordIndexUpdated(
        trx,
        services,
        ctx,
        row,
        item,
        { name: field.name, value: next },
        row.value,
      );
    }
    return reread(trx, ctx, row.id);
  });
}

/**
 * POST REST/applied_indexes/{id}/archive: the value leaves the item (history "Index Removed").
 * @throws AppError 403 read-only; 404 (see appliedForWrite); 400 already archived
 */
export async function archiveAppliedIndex(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<AppliedIndexDto> {
  return services.db.transaction().execute(async (trx) => {
    const { row, item } = await appliedForWrite(trx, services, ctx, id);
    if (row.archived_at !== null) {
      throw badRequest(INDEX_MESSAGES.appliedAlreadyArchived, 'applied_index_archived');
    }
    const now = isoAt(services.clock);
    const guard = await rowGuard(trx, services, ctx, row, item);
    await updateAppliedRow(trx, ctx.databaseId, row.id, { archived_at: now, updated_at: now });
    await guard.assertKept();
    await recordIndexArchived(trx, services, ctx, row, item, {
      name: row.index_field_name,
      value: row.value,
    });
    return reread(trx, ctx, row.id);
  });
}

/**
 * POST REST/applied_indexes/{id}/restore: an archived value returns to the item.
 * @throws AppError 403 read-only; 404 (see appliedForWrite); 400 not archived, the field is
 *   archived, or the item has another live value of the field
 */
export async function restoreAppliedIndex(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<AppliedIndexDto> {
  return services.db.transaction().execute(async (trx) => {
    const { row, item } = await appliedForWrite(trx, services, ctx, id);
    if (row.archived_at === null) {
      throw badRequest(INDEX_MESSAGES.appliedNotArchived, 'applied_index_not_archived');
    }
    assertFieldApplicable({ name: row.index_field_name, archived_at: row.index_field_archived_at });
    const live = await appliedIndexesOf(trx, ctx.databaseId, [row.entity_id], {
      liveOnly: true,
      fieldIds: [row.index_field_id],
    });
    if (live.length > 0) {
      throw badRequest(
        indexMessage(INDEX_MESSAGES.alreadyApplied, { name: row.index_field_name }),
        'index_already_applied',
      );
    }
    const guard = await rowGuard(trx, services, ctx, row, item);
    await updateAppliedRow(trx, ctx.databaseId, row.id, {
      archived_at: null,
      updated_at: isoAt(services.clock),
    });
    await guard.assertKept();
    await recordIndexRestored(trx, services, ctx, row, item, {
      name: row.index_field_name,
      value: row.value,
    });
    return reread(trx, ctx, row.id);
  });
}

/**
 * DELETE REST/applied_indexes/{id}: removes the value permanently (live or archived).
 * @throws AppError 403 read-only; 404 (see appliedForWrite)
 */
export async function deleteAppliedIndex(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<void> {
  await services.db.transaction().execute(async (trx) => {
    const { row, item } = await appliedForWrite(trx, services, ctx, id);
    const guard = await rowGuard(trx, services, ctx, row, item);
    await deleteAppliedRow(trx, ctx.databaseId, row.id);
    await guard.assertKept();
    await recordIndexDeleted(trx, services, ctx, row, item, {
      name: row.index_field_name,
      value: row.value,
    });
  });
}

/**
 * POST REST/applied_indexes/update_many: every live value `oldValue` of field `indexId` on items
 * the session can see (archived items included) becomes `value`, in one transaction, with one
 * applied_index update event per item. For a list field whose list lacks `value`, an administrator
 * renames the list value `oldValue` too; for anyone else the new value must be in the list.
 * @throws AppError 403 read-only; 404 field not the firm's or deleted; 400 archived field, a value
 *   refused by the field's type, the same value
 */
export async function updateManyAppliedIndexes(
  services: Services,
  ctx: RequestContext,
  input: UpdateManyAppliedIndexesRequest,
): Promise<UpdateManyAppliedIndexesResponse> {
  assertRole(ctx, 'write');
  return services.db.transaction().execute(async (trx) => {
    await purgeExpiredIndexFields(trx, services, ctx.databaseId);
    const field = (await findIndexFieldsByIds(trx, ctx.databaseId, [input.indexId]))[0];
    if (!field || field.deleted_at !== null) throw notFound();
    assertFieldApplicable(field);
    const listValues = field.type === 'list' ? await listFieldValues(trx, [field.id]) : [];
    // The old value as stored: numbers in canonical text, others trimmed (an old value that is no
    // longer valid for the type, e.g. after a list value was removed, is matched as given).
    const oldCheck = field.type === 'number' ? validateIndexValue('number', input.oldValue) : null;
    const oldValue = oldCheck?.ok ? oldCheck.value : String(input.oldValue).trim();
    let check = validateIndexValue(field.type, input.value, listValues);
    if (!check.ok && field.type === 'list' && ctx.role === 'admin') {
      const renamed = listValues.find((v) => v.value.toLowerCase() === oldValue.toLowerCase());
      const plain = validateIndexValue('text_field', input.value);
      if (renamed && plain.ok) {
        await renameFieldValue(trx, field.id, renamed.id, plain.value);
        check = plain;
      }
    }
    if (!check.ok) throw valueError(field, check.message);
    const value = check.value;
    if (value === oldValue) throw badRequest(INDEX_MESSAGES.sameValue, 'same_value');
    const rows = await liveAppliedWithValue(trx, ctx.databaseId, field.id, oldValue);
    if (rows.length === 0) return { updated: 0 };
    const entityIds = rows.map((r) => r.entity_id);
    const items = new Map<string, ResolvedItem>();
    for (const file of await findFilesByIds(trx, ctx.databaseId, entityIds)) {
      items.set(file.id, {
        type: 'file',
        id: file.id,
        name: file.name,
        folderId: file.folder_id,
        archived: file.archived_at !== null,
      });
    }
    for (const folder of await findFoldersByIds(trx, ctx.databaseId, entityIds)) {
      items.set(folder.id, {
        type: 'folder',
        id: folder.id,
        name: folder.name,
        folderId: folder.id,
        archived: folder.archived_at !== null,
      });
    }
    const roots = await hiddenRoots(trx, ctx);
    const hidden = new Set(
      roots.length === 0
        ? []
        : await hiddenAmong(
            trx,
            ctx.databaseId,
            [...items.values()].map((i) => i.folderId),
            roots,
          ),
    );
    const changed = rows.filter((r) => {
      const item = items.get(r.entity_id);
      return item !== undefined && !hidden.has(item.folderId);
    });
    const guard = await indexChangeGuard(
      trx,
      ctx.databaseId,
      [field.id],
      changed.map((r) => ({ type: items.get(r.entity_id)!.type, id: r.entity_id })),
      todayOf(services.clock),
    );
    await setAppliedValues(
      trx,
      ctx.databaseId,
      changed.map((r) => r.id),
      value,
      isoAt(services.clock),
    );
    await guard.assertKept();
    for (const row of changed) {
      const item = items.get(row.entity_id)!;
      await recordIndexUpdated(
        trx,
        services,
        ctx,
        row,
        { type: item.type, id: item.id, name: item.name },
        { name: field.name, value },
        oldValue,
      );
    }
    return { updated: changed.length };
  });
}
