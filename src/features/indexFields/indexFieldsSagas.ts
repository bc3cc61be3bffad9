/**
 * Side effects of the index fields and applied indexes feature. Every worker
 * is wrapped with `safely`; expected failures end in the slice's `…Failed` events with the
 * server's message. Deleting a field shows the success toast with Undo (sagas/undoable.ts): Undo
 * calls undo-delete and the field is back in the list.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import {
  indexFormToRequest,
  indexMessage,
  validateIndexForm,
  validateIndexValue,
  INDEX_MESSAGES,
  type ApplyIndexFormState,
  type IndexFieldDto,
} from '@common/indexFields';
import { plural } from '@common/text';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { undoable } from '@src/sagas/undoable';
import type { RootState } from '@src/store/rootReducer';
import { notificationsActions } from '../notifications/notificationsSlice';
import * as api from './indexFieldsApi';
import { indexFieldsActions as actions, type ApplyFormName } from './indexFieldsSlice';
import type { Saga } from '@src/sagas/saga';

const selectFields = (state: RootState) => state.indexFields.fields.items;
const selectForm = (form: ApplyFormName) => (state: RootState) => state.indexFields.forms[form];
const selectAppliedEntityId = (state: RootState) => state.indexFields.applied.entityId;

function* info(text: string, kind: 'success' | 'error' = 'success'): Saga {
  yield* put(notificationsActions.infoMessageRequested({ text, kind }));
}

/** Reads the firm's fields (GET index_fields). */
export function* loadFields(): Saga {
  try {
    const fields = yield* call(api.fetchIndexFields);
    yield* put(actions.fieldsLoaded(fields));
  } catch (error) {
    yield* put(actions.fieldsFailed(errorMessage(error)));
  }
}

/** Creates (POST index_fields) or saves (PATCH index_fields/{id}) the dialog's field. */
export function* saveField(action: ReturnType<typeof actions.fieldSaveRequested>): Saga {
  const { fieldId, name, type, description, values } = action.payload;
  try {
    const listValues = type === 'list' ? values : undefined;
    const field = fieldId
      ? yield* call(api.updateIndexField, fieldId, {
          name,
          type,
          description,
          values: listValues,
        })
      : yield* call(api.createIndexField, {
          name,
          type,
          description,
          values: listValues?.map((entry) => entry.value),
        });
    yield* put(actions.fieldSaved(field));
    yield* call(info, `Index field “${field.name}” was ${fieldId ? 'saved' : 'created'}.`);
  } catch (error) {
    yield* put(actions.fieldSaveFailed(errorMessage(error)));
  }
}

/** Archives or restores a field (POST index_fields/{id}/archive or /restore). */
export function* changeFieldState(action: PayloadAction<{ fieldId: string }>): Saga {
  const { fieldId } = action.payload;
  const change: api.IndexFieldStateChange = actions.fieldArchiveRequested.match(action)
    ? 'archive'
    : 'restore';
  try {
    const field = yield* call(api.changeIndexFieldState, fieldId, change);
    yield* put(actions.fieldChanged(field));
    yield* call(
      info,
      `Index field “${field.name}” was ${change === 'archive' ? 'archived' : 'restored'}.`,
    );
  } catch (error) {
    const message = errorMessage(error);
    yield* put(actions.fieldChangeFailed({ fieldId, error: message }));
    yield* call(info, message, 'error' as const);
  }
}

/** Brings a deleted field back (POST index_fields/{id}/undo-delete): the reverse of a delete. */
export function* undoDeleteField(fieldId: string): Saga {
  try {
    const field = yield* call(api.changeIndexFieldState, fieldId, 'undo-delete' as const);
    yield* put(actions.fieldChanged(field));
    yield* call(info, `Index field “${field.name}” is back.`);
  } catch (error) {
    const message = errorMessage(error);
    yield* put(actions.fieldChangeFailed({ fieldId, error: message }));
    yield* call(info, message, 'error' as const);
  }
}

/** Deletes a field (DELETE index_fields/{id}), then offers Undo for SUCCESS_TOAST_MS. */
export function* deleteField(action: PayloadAction<{ fieldId: string }>): Saga {
  const { fieldId } = action.payload;
  const fields = yield* select(selectFields);
  const name = fields.find((field) => field.id === fieldId)?.name ?? 'The index field';
  try {
    yield* call(api.deleteIndexField, fieldId);
  } catch (error) {
    const message = errorMessage(error);
    yield* put(actions.fieldChangeFailed({ fieldId, error: message }));
    yield* call(info, message, 'error' as const);
    return;
  }
  yield* put(actions.fieldDeleted({ fieldId }));
  yield* call(undoable, { title: 'Deleted', body: `Index field “${name}” deleted.` }, () =>
    undoDeleteField(fieldId),
  );
}

/** Reads the side panel item's applied values (GET applied_indexes?entity_id). */
export function* loadApplied(action: PayloadAction<{ entityId: string }>): Saga {
  const { entityId } = action.payload;
  try {
    const items = yield* call(api.fetchAppliedIndexes, entityId);
    yield* put(actions.appliedLoaded({ entityId, items }));
  } catch (error) {
    yield* put(actions.appliedFailed({ entityId, error: errorMessage(error) }));
  }
}

/**
 * Checks a form against the fields' types (validateIndexForm of common/indexFields.ts).
 * @returns the request's indexes, or the first refusal as "Field: message"
 */
export function checkForm(
  form: ApplyIndexFormState,
  fields: readonly IndexFieldDto[],
): { ok: true; indexes: ReturnType<typeof indexFormToRequest> } | { ok: false; message: string } {
  const errors = validateIndexForm(form, fields);
  const [first] = Object.entries(errors);
  if (first) {
    const name = fields.find((field) => field.id === first[0])?.name;
    const message = name
      ? indexMessage(INDEX_MESSAGES.fieldValueError, { name, message: first[1] })
      : first[1];
    return { ok: false, message };
  }
  // Sent as stored: canonical numbers, the list's own spelling (the server checks again).
  const indexes = indexFormToRequest(form, fields).map((entry) => {
    const field = fields.find((item) => item.id === entry.indexFieldId);
    const check = field ? validateIndexValue(field.type, entry.value, field.values) : null;
    return check?.ok ? { ...entry, value: check.value } : entry;
  });
  if (indexes.length === 0) return { ok: false, message: INDEX_MESSAGES.noIndexes };
  return { ok: true, indexes };
}

/** Applies the panel's form to the item (POST applied_indexes with entity_id and indexes). */
export function* applyForm(action: PayloadAction<{ entityId: string }>): Saga {
  const { entityId } = action.payload;
  const fields = yield* select(selectFields);
  const form = yield* select(selectForm('panel'));
  const checked = checkForm(form, fields);
  if (!checked.ok) {
    yield* put(actions.applyFailed(checked.message));
    return;
  }
  try {
    const answer = yield* call(api.applyIndexes, {
      entity_id: entityId,
      indexes: checked.indexes,
    });
    const items = answer.items.filter((item) => item.entity_id === entityId);
    yield* put(actions.applied({ entityId, items }));
    yield* call(
      info,
      checked.indexes.length === 1 ? 'Index value applied.' : 'Index values applied.',
    );
  } catch (error) {
    yield* put(actions.applyFailed(errorMessage(error)));
  }
}

/** Sets a new value of one applied index (PATCH applied_indexes/{id}). */
export function* updateAppliedValue(action: PayloadAction<{ id: string; value: string }>): Saga {
  try {
    const item = yield* call(
      api.updateAppliedIndex,
      action.payload.id,
      action.payload.value.trim(),
    );
    yield* put(actions.appliedIndexChanged(item));
    yield* call(info, `“${item.index_field_name}” updated.`);
  } catch (error) {
    yield* put(actions.applyFailed(errorMessage(error)));
  }
}

/**
 * Archives or restores one applied value (POST applied_indexes/{id}/archive or /restore); the
 * answer replaces it in the panel. A refusal (e.g. the item has another live value of the field)
 * is the panel's error.
 */
export function* changeAppliedState(action: PayloadAction<{ id: string }>): Saga {
  const change: api.AppliedIndexStateChange = actions.appliedArchiveRequested.match(action)
    ? 'archive'
    : 'restore';
  try {
    const item = yield* call(api.changeAppliedIndexState, action.payload.id, change);
    yield* put(actions.appliedIndexChanged(item));
    yield* call(
      info,
      `“${item.index_field_name}” ${change === 'archive' ? 'archived' : 'restored'}.`,
    );
  } catch (error) {
    yield* put(actions.applyFailed(errorMessage(error)));
  }
}

/** Removes one applied value permanently (DELETE applied_indexes/{id}). */
export function* removeAppliedValue(action: PayloadAction<{ id: string }>): Saga {
  try {
    yield* call(api.deleteAppliedIndex, action.payload.id);
    yield* put(actions.appliedIndexRemoved({ id: action.payload.id }));
    yield* call(info, 'Index value removed.');
  } catch (error) {
    yield* put(actions.applyFailed(errorMessage(error)));
  }
}

/** Reads a field's values in use (GET index_fields/{id}/applied_values). */
export function* loadValuesInUse(action: PayloadAction<{ fieldId: string }>): Saga {
  const { fieldId } = action.payload;
  try {
    const answer = yield* call(api.fetchAppliedValues, fieldId);
    yield* put(actions.valuesInUseLoaded({ fieldId, items: answer.items }));
  } catch (error) {
    yield* put(actions.valuesInUseFailed({ fieldId, error: errorMessage(error) }));
  }
}

/**
 * Renames a value on every item (POST applied_indexes/update_many), says on how many, and reads
 * the values in use and the fields again (a list field's value may have been renamed with it).
 */
export function* renameValue(
  action: PayloadAction<{ fieldId: string; oldValue: string; value: string }>,
): Saga {
  const { fieldId, oldValue, value } = action.payload;
  try {
    const answer = yield* call(api.updateManyAppliedIndexes, {
      indexId: fieldId,
      oldValue,
      value: value.trim(),
    });
    yield* put(
      actions.valueRenamed({ fieldId, oldValue, value: value.trim(), updated: answer.updated }),
    );
    yield* call(
      info,
      `“${oldValue}” renamed to “${value.trim()}” on ${answer.updated} ${plural(answer.updated, 'item')}.`,
    );
    yield* put(actions.valuesInUseRequested({ fieldId }));
    yield* put(actions.fieldsRequested());
  } catch (error) {
    yield* put(actions.valueRenameFailed(errorMessage(error)));
  }
}

/** Applies the bulk form to the selected files in one call (POST applied_indexes, entity_ids). */
export function* bulkApply(action: PayloadAction<{ fileIds: string[] }>): Saga {
  const { fileIds } = action.payload;
  const fields = yield* select(selectFields);
  const form = yield* select(selectForm('bulk'));
  const checked = checkForm(form, fields);
  if (!checked.ok) {
    yield* put(actions.bulkApplyFailed(checked.message));
    return;
  }
  if (fileIds.length === 0) {
    yield* put(actions.bulkApplyFailed(INDEX_MESSAGES.noEntities));
    return;
  }
  try {
    yield* call(api.applyIndexes, { entity_ids: fileIds, indexes: checked.indexes });
    yield* put(actions.bulkApplied());
    const files =
      fileIds.length === 1 ? '1 file' : `${fileIds.length.toLocaleString('en-US')} files`;
    yield* call(info, `Index values applied to ${files}.`);
    const shown = yield* select(selectAppliedEntityId);
    if (shown && fileIds.includes(shown)) {
      yield* put(actions.appliedRequested({ entityId: shown }));
    }
  } catch (error) {
    yield* put(actions.bulkApplyFailed(errorMessage(error)));
  }
}

/** Reads one page of the files missing values (POST entities/search/missing-indexes?page). */
export function* loadMissing(
  action: PayloadAction<{ fieldIds: string[]; folderId?: string | null; page: number }>,
): Saga {
  const { fieldIds, page } = action.payload;
  const folderId = action.payload.folderId ?? null;
  if (fieldIds.length === 0) return;
  try {
    const answer = yield* call(
      api.fetchMissingIndexes,
      folderId ? { index_field_ids: fieldIds, folder_id: folderId } : { index_field_ids: fieldIds },
      page,
    );
    yield* put(
      actions.missingLoaded({ fieldIds, folderId, page, total: answer.total, items: answer.items }),
    );
  } catch (error) {
    yield* put(actions.missingFailed(errorMessage(error)));
  }
}

/** The index fields and applied indexes feature saga. */
export function* indexFieldsSaga(): Saga {
  yield* all([
    takeLatest(actions.fieldsRequested.type, safely(loadFields)),
    takeLeading(actions.fieldSaveRequested.type, safely(saveField)),
    takeEvery(
      [actions.fieldArchiveRequested.type, actions.fieldRestoreRequested.type],
      safely(changeFieldState),
    ),
    takeEvery(actions.fieldDeleteRequested.type, safely(deleteField)),
    takeLatest(actions.appliedRequested.type, safely(loadApplied)),
    takeLeading(actions.applyRequested.type, safely(applyForm)),
    takeEvery(actions.appliedValueUpdateRequested.type, safely(updateAppliedValue)),
    takeEvery(
      [actions.appliedArchiveRequested.type, actions.appliedRestoreRequested.type],
      safely(changeAppliedState),
    ),
    takeEvery(actions.appliedRemoveRequested.type, safely(removeAppliedValue)),
    takeLeading(actions.bulkApplyRequested.type, safely(bulkApply)),
    takeLatest(actions.missingRequested.type, safely(loadMissing)),
    takeLatest(actions.valuesInUseRequested.type, safely(loadValuesInUse)),
    takeLeading(actions.valueRenameRequested.type, safely(renameValue)),
  ]);
}
