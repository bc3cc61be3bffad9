/**
 * The index fields and applied indexes slice (SPEC sections 3 and 4): the
 * firm's index fields and the admin dialog that creates and edits them, the applied values of the
 * item the side panel shows with the apply-index form of the spec (one value per index-field id:
 * update a value, clear all, remove a key — the helpers of common/indexFields.ts), the bulk apply
 * dialog's form, and the missing-indexes list.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  EMPTY_APPLY_INDEX_FORM,
  clearIndexForm,
  removeIndexFormKey,
  updateIndexFormValue,
  type AppliedIndexDto,
  type AppliedValueCountDto,
  type ApplyIndexFormState,
  type IndexFieldDto,
} from '@common/indexFields';
import type { FileDto } from '@common/entities';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** Status and error of one request. */
export interface IndexRequestState {
  status: Status;
  error: string | null;
}

/** The admin dialog creating or editing a field. */
export interface FieldDialogState extends IndexRequestState {
  mode: 'closed' | 'create' | 'edit';
  /** The field edited (mode 'edit'). */
  fieldId: string | null;
}

/** The applied values of the item the side panel shows. */
export interface AppliedState extends IndexRequestState {
  entityId: string | null;
  items: AppliedIndexDto[];
}

/** The missing-indexes page's query and current page. */
export interface MissingState extends IndexRequestState {
  fieldIds: string[];
  /** Only files under this folder; null: the whole firm. */
  folderId: string | null;
  page: number;
  total: number;
  items: FileDto[];
}

/**
 * The admin's "Values in use" dialog of one field: its distinct live values with how many items
 * carry each (GET index_fields/{id}/applied_values), and the rename of one of them everywhere
 * (POST applied_indexes/update_many).
 */
export interface ValuesInUseState extends IndexRequestState {
  /** The field shown; null: the dialog is closed. */
  fieldId: string | null;
  items: AppliedValueCountDto[];
  rename: IndexRequestState & { oldValue: string | null };
}

/** Which form of the spec a form event changes: the side panel's or the bulk dialog's. */
export type ApplyFormName = 'panel' | 'bulk';

/** The index fields slice's state. */
export interface IndexFieldsState {
  /** The firm's fields (live and archived), by position. */
  fields: IndexRequestState & { items: IndexFieldDto[] };
  dialog: FieldDialogState;
  /** Archive, restore, delete or undo-delete of a field in flight (its id), or its failure. */
  change: IndexRequestState & { fieldId: string | null };
  applied: AppliedState;
  /** The apply-index forms (SPEC section 4). */
  forms: Record<ApplyFormName, ApplyIndexFormState>;
  /** Applying the panel's form, or changing or removing one applied value. */
  apply: IndexRequestState;
  /** Applying the bulk dialog's form to the selected files. */
  bulk: IndexRequestState;
  missing: MissingState;
  valuesInUse: ValuesInUseState;
}

const idle: IndexRequestState = { status: 'idle', error: null };
const loading: IndexRequestState = { status: 'loading', error: null };
const failed = (error: string): IndexRequestState => ({ status: 'failed', error });

/** The state before anything is loaded. */
const initialIndexFieldsState: IndexFieldsState = {
  fields: { ...idle, items: [] },
  dialog: { ...idle, mode: 'closed', fieldId: null },
  change: { ...idle, fieldId: null },
  applied: { ...idle, entityId: null, items: [] },
  forms: { panel: EMPTY_APPLY_INDEX_FORM, bulk: EMPTY_APPLY_INDEX_FORM },
  apply: idle,
  bulk: idle,
  missing: { ...idle, fieldIds: [], folderId: null, page: 1, total: 0, items: [] },
  valuesInUse: { ...idle, fieldId: null, items: [], rename: { ...idle, oldValue: null } },
};

function byPosition(a: IndexFieldDto, b: IndexFieldDto): number {
  return a.position - b.position || a.name.localeCompare(b.name);
}

/** Puts a field in the list (replacing the one with its id), keeping the position order. */
function upsertField(items: IndexFieldDto[], field: IndexFieldDto): IndexFieldDto[] {
  const others = items.filter((item) => item.id !== field.id);
  return field.deleted_at ? others : [...others, field].sort(byPosition);
}

/** Live applied values before archived ones, keeping the order within each (a stable sort). */
function liveFirst(a: AppliedIndexDto, b: AppliedIndexDto): number {
  return Number(a.archived_at !== null) - Number(b.archived_at !== null);
}

/** Orders an item's applied indexes by field name. */
function byFieldName(a: AppliedIndexDto, b: AppliedIndexDto): number {
  return a.index_field_name.localeCompare(b.index_field_name);
}

const indexFieldsSlice = createSlice({
  name: 'indexFields',
  initialState: initialIndexFieldsState,
  reducers: {
    /** A page needs the firm's fields (the admin tab, the side panel, search, missing indexes). */
    fieldsRequested(state) {
      state.fields.status = 'loading';
      state.fields.error = null;
    },
    fieldsLoaded(state, action: PayloadAction<IndexFieldDto[]>) {
      state.fields = {
        status: 'succeeded',
        error: null,
        items: action.payload.filter((field) => !field.deleted_at).sort(byPosition),
      };
    },
    fieldsFailed(state, action: PayloadAction<string>) {
      state.fields.status = 'failed';
      state.fields.error = action.payload;
    },
    /** The create or edit dialog opened. */
    fieldDialogOpened(state, action: PayloadAction<{ fieldId: string | null }>) {
      state.dialog = {
        ...idle,
        mode: action.payload.fieldId ? 'edit' : 'create',
        fieldId: action.payload.fieldId,
      };
    },
    fieldDialogClosed(state) {
      state.dialog = initialIndexFieldsState.dialog;
    },
    /** The dialog's Save: POST index_fields, or PATCH index_fields/{id}. */
    fieldSaveRequested(
      state,
      _action: PayloadAction<{
        fieldId: string | null;
        name: string;
        type: IndexFieldDto['type'];
        description: string;
        /** List values in order; an existing value keeps its id. */
        values: { id?: string; value: string }[];
      }>,
    ) {
      state.dialog.status = 'loading';
      state.dialog.error = null;
    },
    /** A field was created or saved: listed, and the dialog closes. */
    fieldSaved(state, action: PayloadAction<IndexFieldDto>) {
      state.fields.items = upsertField(state.fields.items, action.payload);
      state.dialog = initialIndexFieldsState.dialog;
    },
    fieldSaveFailed(state, action: PayloadAction<string>) {
      state.dialog.status = 'failed';
      state.dialog.error = action.payload;
    },
    fieldArchiveRequested(state, action: PayloadAction<{ fieldId: string }>) {
      state.change = { ...loading, fieldId: action.payload.fieldId };
    },
    fieldRestoreRequested(state, action: PayloadAction<{ fieldId: string }>) {
      state.change = { ...loading, fieldId: action.payload.fieldId };
    },
    /** Delete (with an Undo toast that calls undo-delete). */
    fieldDeleteRequested(state, action: PayloadAction<{ fieldId: string }>) {
      state.change = { ...loading, fieldId: action.payload.fieldId };
    },
    /** A field changed (archived, restored, brought back by undo-delete). */
    fieldChanged(state, action: PayloadAction<IndexFieldDto>) {
      state.fields.items = upsertField(state.fields.items, action.payload);
      state.change = { ...initialIndexFieldsState.change };
    },
    /** A field was deleted: out of the list. */
    fieldDeleted(state, action: PayloadAction<{ fieldId: string }>) {
      state.fields.items = state.fields.items.filter((item) => item.id !== action.payload.fieldId);
      state.change = { ...initialIndexFieldsState.change };
    },
    fieldChangeFailed(state, action: PayloadAction<{ fieldId: string; error: string }>) {
      state.change = { ...failed(action.payload.error), fieldId: action.payload.fieldId };
    },

    /** The side panel shows an item: read its applied values. */
    appliedRequested(state, action: PayloadAction<{ entityId: string }>) {
      if (state.applied.entityId !== action.payload.entityId) {
        state.applied = { ...loading, entityId: action.payload.entityId, items: [] };
        state.forms.panel = clearIndexForm();
        state.apply = idle;
      } else {
        state.applied.status = 'loading';
        state.applied.error = null;
      }
    },
    /** The item's applied values (ignored when the panel shows another item by now). */
    appliedLoaded(state, action: PayloadAction<{ entityId: string; items: AppliedIndexDto[] }>) {
      if (state.applied.entityId !== action.payload.entityId) return;
      state.applied = {
        status: 'succeeded',
        error: null,
        entityId: action.payload.entityId,
        items: [...action.payload.items].sort(byFieldName),
      };
    },
    appliedFailed(state, action: PayloadAction<{ entityId: string; error: string }>) {
      if (state.applied.entityId !== action.payload.entityId) return;
      state.applied.status = 'failed';
      state.applied.error = action.payload.error;
    },

    /** SPEC "update a value": sets one index-field id's value in a form. */
    formValueUpdated(
      state,
      action: PayloadAction<{ form: ApplyFormName; indexFieldId: string; value: string }>,
    ) {
      const { form, indexFieldId, value } = action.payload;
      state.forms[form] = updateIndexFormValue(state.forms[form], indexFieldId, value);
    },
    /** SPEC "remove a key": takes one index-field id out of a form. */
    formKeyRemoved(state, action: PayloadAction<{ form: ApplyFormName; indexFieldId: string }>) {
      const { form, indexFieldId } = action.payload;
      state.forms[form] = removeIndexFormKey(state.forms[form], indexFieldId);
    },
    /** SPEC "clear all": empties a form. */
    formCleared(state, action: PayloadAction<{ form: ApplyFormName }>) {
      state.forms[action.payload.form] = clearIndexForm();
    },

    /** Apply the panel's form to the item (POST applied_indexes with entity_id). */
    applyRequested(state, _action: PayloadAction<{ entityId: string }>) {
      state.apply = loading;
    },
    /** The item's values after an apply: shown, and the form is cleared. */
    applied(state, action: PayloadAction<{ entityId: string; items: AppliedIndexDto[] }>) {
      state.apply = { status: 'succeeded', error: null };
      if (state.applied.entityId !== action.payload.entityId) return;
      state.applied.items = [...action.payload.items].sort(byFieldName);
      state.forms.panel = clearIndexForm();
    },
    applyFailed(state, action: PayloadAction<string>) {
      state.apply = failed(action.payload);
    },
    /** A new value for one applied index (PATCH applied_indexes/{id}). */
    appliedValueUpdateRequested(state, _action: PayloadAction<{ id: string; value: string }>) {
      state.apply = loading;
    },
    /** One applied value changed (new value, archived or restored); live values stay first. */
    appliedIndexChanged(state, action: PayloadAction<AppliedIndexDto>) {
      state.apply = { status: 'succeeded', error: null };
      const index = state.applied.items.findIndex((item) => item.id === action.payload.id);
      if (index === -1) return;
      state.applied.items[index] = action.payload;
      state.applied.items.sort(liveFirst);
    },
    /** Archive one applied value (POST applied_indexes/{id}/archive); answered by appliedIndexChanged. */
    appliedArchiveRequested(state, _action: PayloadAction<{ id: string }>) {
      state.apply = loading;
    },
    /** Restore one archived applied value (POST applied_indexes/{id}/restore). */
    appliedRestoreRequested(state, _action: PayloadAction<{ id: string }>) {
      state.apply = loading;
    },
    /** Remove one applied value permanently (DELETE applied_indexes/{id}). */
    appliedRemoveRequested(state, _action: PayloadAction<{ id: string }>) {
      state.apply = loading;
    },
    appliedIndexRemoved(state, action: PayloadAction<{ id: string }>) {
      state.apply = { status: 'succeeded', error: null };
      state.applied.items = state.applied.items.filter((item) => item.id !== action.payload.id);
    },
    /** The apply error was acknowledged. */
    applyErrorCleared(state) {
      state.apply = idle;
    },

    /** Apply the bulk form to the selected files in one call (entity_ids). */
    bulkApplyRequested(state, _action: PayloadAction<{ fileIds: string[] }>) {
      state.bulk = loading;
    },
    bulkApplied(state) {
      state.bulk = { status: 'succeeded', error: null };
      state.forms.bulk = clearIndexForm();
    },
    bulkApplyFailed(state, action: PayloadAction<string>) {
      state.bulk = failed(action.payload);
    },
    /** The bulk dialog opened or closed: a fresh form. */
    bulkReset(state) {
      state.bulk = idle;
      state.forms.bulk = clearIndexForm();
    },

    /**
     * The missing-indexes page asks for files lacking any of `fieldIds` (page from 1), in the
     * whole firm or under `folderId`.
     */
    missingRequested(
      state,
      action: PayloadAction<{ fieldIds: string[]; folderId?: string | null; page: number }>,
    ) {
      state.missing = {
        ...(action.payload.fieldIds.length > 0 ? loading : idle),
        fieldIds: action.payload.fieldIds,
        folderId: action.payload.folderId ?? null,
        page: action.payload.page,
        total: state.missing.total,
        items: [],
      };
    },
    missingLoaded(
      state,
      action: PayloadAction<{
        fieldIds: string[];
        folderId?: string | null;
        page: number;
        total: number;
        items: FileDto[];
      }>,
    ) {
      const { fieldIds, page, total, items } = action.payload;
      const folderId = action.payload.folderId ?? null;
      const missing = state.missing;
      if (
        page !== missing.page ||
        folderId !== missing.folderId ||
        fieldIds.join() !== missing.fieldIds.join()
      ) {
        return;
      }
      state.missing = { fieldIds, folderId, page, total, items, status: 'succeeded', error: null };
    },
    missingFailed(state, action: PayloadAction<string>) {
      state.missing.status = 'failed';
      state.missing.error = action.payload;
    },

    /** The admin opened (or refreshes) a field's "Values in use". */
    valuesInUseRequested(state, action: PayloadAction<{ fieldId: string }>) {
      const same = state.valuesInUse.fieldId === action.payload.fieldId;
      state.valuesInUse = {
        ...loading,
        fieldId: action.payload.fieldId,
        items: same ? state.valuesInUse.items : [],
        rename: same ? state.valuesInUse.rename : { ...idle, oldValue: null },
      };
    },
    /** The field's values in use (ignored when another field is shown by now). */
    valuesInUseLoaded(
      state,
      action: PayloadAction<{ fieldId: string; items: AppliedValueCountDto[] }>,
    ) {
      if (state.valuesInUse.fieldId !== action.payload.fieldId) return;
      state.valuesInUse.status = 'succeeded';
      state.valuesInUse.error = null;
      state.valuesInUse.items = action.payload.items;
    },
    valuesInUseFailed(state, action: PayloadAction<{ fieldId: string; error: string }>) {
      if (state.valuesInUse.fieldId !== action.payload.fieldId) return;
      state.valuesInUse.status = 'failed';
      state.valuesInUse.error = action.payload.error;
    },
    /** The "Values in use" dialog was closed. */
    valuesInUseClosed(state) {
      state.valuesInUse = initialIndexFieldsState.valuesInUse;
    },
    /** Rename `oldValue` of the field to `value` on every item (confirmed by the admin). */
    valueRenameRequested(
      state,
      action: PayloadAction<{ fieldId: string; oldValue: string; value: string }>,
    ) {
      state.valuesInUse.rename = { ...loading, oldValue: action.payload.oldValue };
    },
    /** The rename is done: `updated` applied values changed. */
    valueRenamed(
      state,
      action: PayloadAction<{ fieldId: string; oldValue: string; value: string; updated: number }>,
    ) {
      state.valuesInUse.rename = { status: 'succeeded', error: null, oldValue: null };
      // The side panel's values show the new text at once.
      for (const item of state.applied.items) {
        if (
          item.index_field_id === action.payload.fieldId &&
          item.archived_at === null &&
          item.value === action.payload.oldValue
        ) {
          item.value = action.payload.value;
        }
      }
    },
    valueRenameFailed(state, action: PayloadAction<string>) {
      state.valuesInUse.rename = {
        ...failed(action.payload),
        oldValue: state.valuesInUse.rename.oldValue,
      };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialIndexFieldsState)
      .addCase(sessionActions.expired, () => initialIndexFieldsState)
      .addCase(sessionActions.endedInAnotherTab, () => initialIndexFieldsState)
      .addCase(sessionActions.databaseSwitched, () => initialIndexFieldsState);
  },
});

/** Event creators of the index fields slice. */
export const indexFieldsActions = indexFieldsSlice.actions;
/** The index fields slice's reducer. */
export const indexFieldsReducer = indexFieldsSlice.reducer;
