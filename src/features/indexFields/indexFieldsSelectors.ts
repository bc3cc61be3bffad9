/** Selectors of the index fields and applied indexes feature. */
import { createSelector } from '@reduxjs/toolkit';
import type { IndexFieldDto } from '@common/indexFields';
import type { RootState } from '@src/store/rootReducer';
import type { ApplyFormName } from './indexFieldsSlice';

/** The firm's fields (live and archived) with their status. */
export const selectIndexFields = (state: RootState) => state.indexFields.fields;
/** The create/edit dialog. */
export const selectFieldDialog = (state: RootState) => state.indexFields.dialog;
/** The field state change in flight or failed. */
export const selectFieldChange = (state: RootState) => state.indexFields.change;
/** The side panel item's applied values. */
export const selectAppliedIndexes = (state: RootState) => state.indexFields.applied;
/** Applying, changing or removing a value of the side panel item. */
export const selectApplyRequest = (state: RootState) => state.indexFields.apply;
/** The bulk apply request. */
export const selectBulkApply = (state: RootState) => state.indexFields.bulk;
/** One apply-index form: one value per index-field id. */
export const selectApplyForm = (state: RootState, form: ApplyFormName) =>
  state.indexFields.forms[form];
/** The admin's "Values in use" dialog of one field and its rename. */
export const selectValuesInUse = (state: RootState) => state.indexFields.valuesInUse;
/** The missing-indexes list. */
export const selectMissingIndexes = (state: RootState) => state.indexFields.missing;

/** The fields that can be applied: not archived, by position. */
export const selectApplicableFields = createSelector([selectIndexFields], (fields) =>
  fields.items.filter((field) => !field.archived_at),
);

/** The fields by id. */
export const selectFieldsById = createSelector(
  [selectIndexFields],
  (fields) => new Map<string, IndexFieldDto>(fields.items.map((field) => [field.id, field])),
);
