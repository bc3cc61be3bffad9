/**
 * Index fields and applied indexes (SPEC sections 3, 4, 5 and 7): the DTOs and request
 * shapes of `/api/rest/index_fields`, `/api/rest/applied_indexes` and
 * `/api/rest/entities/search/missing-indexes`, the limits, the user-facing messages, the value
 * validation both sides run ({@link validateIndexValue}) and the apply-index form state helpers
 * (SPEC section 4: one value per index-field id; update a value, clear all, remove a key).
 */
import type { Page } from './api';
import type { FileDto } from './entities';

/** The type of an index field (SPEC section 3: default text_field). */
export type IndexFieldType = 'text_field' | 'date' | 'number' | 'list';

/** Every index field type, in the order the admin form offers them. */
export const INDEX_FIELD_TYPES: readonly IndexFieldType[] = [
  'text_field',
  'date',
  'number',
  'list',
];

/** The type of a field created without one (SPEC section 3). */
export const DEFAULT_INDEX_FIELD_TYPE: IndexFieldType = 'text_field';

/** How each type reads in the admin area. */
export const INDEX_FIELD_TYPE_LABELS: Record<IndexFieldType, string> = {
  text_field: 'Text',
  date: 'Date',
  number: 'Number',
  list: 'List of values',
};

/**
 * How long a deleted index field can be brought back with undo-delete, in milliseconds (30 days;
 * the spec leaves it open). After that the field, its list values and its applied values are
 * destroyed permanently (on the next read of the firm's fields); a second DELETE of a deleted field
 * destroys it at once.
 */
export const INDEX_FIELD_UNDO_MS = 30 * 24 * 60 * 60 * 1000;

/** Longest index field name, in characters. */
export const INDEX_FIELD_NAME_MAX_LENGTH = 100;
/** Longest index field description, in characters. */
export const INDEX_FIELD_DESCRIPTION_MAX_LENGTH = 1000;
/** Longest applied value (and list value), in characters. */
export const INDEX_VALUE_MAX_LENGTH = 250;
/** Most values of one list field. */
export const INDEX_LIST_MAX_VALUES = 500;
/** Most index fields one firm may have (live, archived or deleted but undoable). */
export const INDEX_FIELDS_MAX = 500;
/** Most files or folders one apply request (bulk apply) may tag at once. */
export const APPLY_INDEXES_MAX_ENTITIES = 500;
/** Most index values one apply request may set per item. */
export const APPLY_INDEXES_MAX_VALUES = 100;
/** Page size of the missing-indexes list. */
export const MISSING_INDEXES_PAGE_SIZE = 50;
/** Most index fields one missing-indexes query may name. */
export const MISSING_INDEXES_MAX_FIELDS = 50;

/** One value of a list field, in its position (0 first). */
export interface IndexFieldValueDto {
  id: string;
  value: string;
  position: number;
}

/** An index field as the API answers it (GET /api/rest/index_fields, ordered by position). */
export interface IndexFieldDto {
  id: string;
  name: string;
  type: IndexFieldType;
  description: string;
  /** Order of the field among the firm's fields, 0 first. */
  position: number;
  /** The list values, by position; empty for other types. */
  values: IndexFieldValueDto[];
  archived_at: string | null;
  /** Set when deleted: undo-delete clears it until {@link INDEX_FIELD_UNDO_MS} has passed. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One applied value of one index field on one file or folder. */
export interface AppliedIndexDto {
  id: string;
  entity_type: 'file' | 'folder';
  entity_id: string;
  index_field_id: string;
  index_field_name: string;
  index_field_type: IndexFieldType;
  /** Dates as YYYY-MM-DD, numbers as their decimal text. */
  value: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * GET /api/rest/index_fields query: archived fields are included unless `archived=false`; deleted
 * (undoable) fields only with `deleted=true`.
 */
export interface ListIndexFieldsQuery {
  archived?: boolean;
  deleted?: boolean;
}

/** POST /api/rest/index_fields body. `values` is required (one or more) for a list field. */
export interface CreateIndexFieldRequest {
  name: string;
  type?: IndexFieldType;
  description?: string;
  values?: string[];
}

/**
 * One list value in a PATCH: an existing value keeps its `id` (renaming it renames the definition
 * only — use update_many to rename applied values); a value without id is new. The array order is
 * the new position order; existing values left out are removed from the list (applied values keep
 * their text).
 */
export interface IndexFieldValueInput {
  id?: string;
  value: string;
}

/**
 * PATCH /api/rest/index_fields/{id} body, every field optional. The type can change only while no
 * value is applied with the field. `position` moves the field among the firm's fields.
 */
export interface UpdateIndexFieldRequest {
  name?: string;
  type?: IndexFieldType;
  description?: string;
  position?: number;
  values?: IndexFieldValueInput[];
}

/** PATCH /api/rest/index_fields/{id}/values body: the list values in their new order. */
export interface ReorderIndexFieldValuesRequest {
  values: IndexFieldValueInput[];
}

/** One distinct applied value of a field with how many live items carry it. */
export interface AppliedValueCountDto {
  value: string;
  count: number;
}

/** GET /api/rest/index_fields/{id}/applied_values answer (values sorted by text). */
export interface AppliedValuesDto {
  index_field_id: string;
  items: AppliedValueCountDto[];
}

/** One pair of the apply form and of the apply request (SPEC section 3: value and indexFieldId). */
export interface IndexValueInput {
  indexFieldId: string;
  value: string;
}

/**
 * POST /api/rest/applied_indexes body: `entity_id` for one item or `entity_ids` for a bulk apply
 * (at most {@link APPLY_INDEXES_MAX_ENTITIES}); each pair sets the item's live value of that field
 * (replacing the one it had). Answers the item's (or items') live applied indexes after the change.
 */
export interface ApplyIndexesRequest {
  entity_id?: string;
  entity_ids?: string[];
  indexes: IndexValueInput[];
}

/** POST /api/rest/applied_indexes answer. */
export interface ApplyIndexesResponse {
  /** The live applied indexes of every item of the request after the change. */
  items: AppliedIndexDto[];
}

/** PATCH /api/rest/applied_indexes/{id} body. */
export interface UpdateAppliedIndexRequest {
  value: string;
}

/**
 * POST /api/rest/applied_indexes/update_many body: every live value `oldValue` of field `indexId`
 * becomes `value`, in one transaction. For a list field, `oldValue` in the list is renamed to
 * `value` in the definition too unless `value` is already a list value.
 */
export interface UpdateManyAppliedIndexesRequest {
  indexId: string;
  value: string;
  oldValue: string;
}

/** POST /api/rest/applied_indexes/update_many answer: how many applied values changed. */
export interface UpdateManyAppliedIndexesResponse {
  updated: number;
}

/** POST /api/rest/entities/search/missing-indexes?page={n} body. */
export interface MissingIndexesRequest {
  /** The fields a file must have a live value for; a file lacking any of them is listed. */
  index_field_ids: string[];
  /** Only files anywhere under this folder (its subtree); the whole firm when absent. */
  folder_id?: string;
}

/**
 * POST /api/rest/entities/search/missing-indexes answer: live ready files visible to the session,
 * by name, {@link MISSING_INDEXES_PAGE_SIZE} a page.
 */
export type MissingIndexesResponse = Page<FileDto>;

/** Messages of index fields and applied indexes, worded for this product (the spec has none). */
export const INDEX_MESSAGES = {
  nameRequired: 'An index field name is required.',
  nameTooLong: `An index field name can have at most ${INDEX_FIELD_NAME_MAX_LENGTH} characters.`,
  nameTaken: 'An index field named "{name}" already exists.',
  descriptionTooLong: `A description can have at most ${INDEX_FIELD_DESCRIPTION_MAX_LENGTH} characters.`,
  unknownType: 'Unknown index field type. Choose text_field, date, number or list.',
  listValuesRequired: 'A list field needs at least one value.',
  listValuesOnlyForList: 'Only a list field has a list of values.',
  tooManyListValues: `A list field can have at most ${INDEX_LIST_MAX_VALUES} values.`,
  duplicateListValue: 'The list already has the value "{value}".',
  unknownListValue: 'The list has no value with id {id}.',
  tooManyFields: `A firm can have at most ${INDEX_FIELDS_MAX} index fields.`,
  typeInUse: 'The type of "{name}" cannot change while values are applied with it.',
  fieldArchived: 'The index field "{name}" is archived and cannot be applied.',
  fieldNotArchived: 'The index field "{name}" is not archived.',
  fieldAlreadyArchived: 'The index field "{name}" is already archived.',
  fieldDeleted: 'The index field "{name}" is deleted.',
  fieldNotDeleted: 'The index field "{name}" is not deleted.',
  valueRequired: 'A value is required.',
  valueTooLong: `A value can have at most ${INDEX_VALUE_MAX_LENGTH} characters.`,
  valueInvalidCharacters: 'A value cannot contain control characters.',
  invalidDate: 'Enter a date as YYYY-MM-DD, for example 2024-12-31.',
  invalidNumber: 'Enter a number, for example 2024 or -12.5.',
  notInList: 'Choose one of the values of the list.',
  /** Server messages name the field: "{name}: {message}". */
  fieldValueError: '{name}: {message}',
  noIndexes: 'Choose at least one index field and value.',
  noEntities: 'Choose at least one file or folder.',
  tooManyEntities: `You can apply index values to at most ${APPLY_INDEXES_MAX_ENTITIES} items at once.`,
  tooManyValues: `You can apply at most ${APPLY_INDEXES_MAX_VALUES} index values at once.`,
  duplicateIndex: 'The index field "{name}" is listed twice.',
  appliedArchived: 'Restore the index value before changing it.',
  appliedNotArchived: 'The index value is not archived.',
  appliedAlreadyArchived: 'The index value is already archived.',
  alreadyApplied: 'The item already has a value for "{name}".',
  noFieldsChosen: 'Choose at least one index field.',
  tooManyFieldsChosen: `Choose at most ${MISSING_INDEXES_MAX_FIELDS} index fields.`,
  sameValue: 'The new value is the same as the old one.',
  itemArchived: 'Index values cannot be changed on an archived item.',
} as const;

/** The answer of {@link validateIndexValue}: the normalised value, or why it is refused. */
export type IndexValueCheck = { ok: true; value: string } | { ok: false; message: string };

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/** A list field's values as strings, whatever shape they come in. */
function valueTexts(values: readonly (string | { value: string })[]): string[] {
  return values.map((v) => (typeof v === 'string' ? v : v.value));
}

/** Canonical decimal text of a number that matched NUMBER_RE, or null when it has no digits. */
function canonicalNumber(sign: string, whole: string, fraction: string): string | null {
  if (whole === '' && fraction === '') return null;
  const w = whole.replace(/^0+(?=\d)/, '') || '0';
  const f = fraction.replace(/0+$/, '');
  const text = f ? `${w}.${f}` : w;
  return sign === '-' && text !== '0' ? `-${text}` : text;
}

/**
 * Checks and normalises one applied value for a field of `type` (SPEC section 4: "values validated
 * by the field's type"); the client and the server run the same check.
 * - every type: trimmed, required, at most {@link INDEX_VALUE_MAX_LENGTH} characters, no control
 *   characters;
 * - date: YYYY-MM-DD and a real calendar day (2024-02-30 is refused);
 * - number: optional sign, digits, optional fraction; answered as canonical decimal text
 *   ("+007.50" → "7.5", "-0" → "0"), so equal numbers compare equal as text;
 * - list: one of `values` (case-insensitive; answered in the list's own spelling).
 * @param values the list field's values (strings or `{ value }` objects); ignored for other types
 * @returns `{ ok: true, value }` with the value to store, or `{ ok: false, message }` (one of
 *   {@link INDEX_MESSAGES})
 */
export function validateIndexValue(
  type: IndexFieldType,
  value: unknown,
  values: readonly (string | { value: string })[] = [],
): IndexValueCheck {
  if (typeof value !== 'string' && typeof value !== 'number') {
    return { ok: false, message: INDEX_MESSAGES.valueRequired };
  }
  const text = String(value).trim();
  if (text === '') return { ok: false, message: INDEX_MESSAGES.valueRequired };
  if (text.length > INDEX_VALUE_MAX_LENGTH)
    return { ok: false, message: INDEX_MESSAGES.valueTooLong };
  if (CONTROL_RE.test(text)) return { ok: false, message: INDEX_MESSAGES.valueInvalidCharacters };
  switch (type) {
    case 'date': {
      const m = DATE_RE.exec(text);
      if (!m) return { ok: false, message: INDEX_MESSAGES.invalidDate };
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const day = new Date(Date.UTC(y, mo - 1, d));
      if (
        mo < 1 ||
        mo > 12 ||
        day.getUTCFullYear() !== y ||
        day.getUTCMonth() !== mo - 1 ||
        day.getUTCDate() !== d
      ) {
        return { ok: false, message: INDEX_MESSAGES.invalidDate };
      }
      return { ok: true, value: text };
    }
    case 'number': {
      const m = NUMBER_RE.exec(text);
      const canonical = m ? canonicalNumber(m[1] ?? '', m[2] ?? '', m[3] ?? '') : null;
      if (canonical === null) return { ok: false, message: INDEX_MESSAGES.invalidNumber };
      return { ok: true, value: canonical };
    }
    case 'list': {
      const key = text.toLowerCase();
      const match = valueTexts(values).find((v) => v.trim().toLowerCase() === key);
      if (match === undefined) return { ok: false, message: INDEX_MESSAGES.notInList };
      return { ok: true, value: match.trim() };
    }
    default:
      return { ok: true, value: text };
  }
}

/** The key a name is compared by: trimmed and lowercased (names are unique per firm, any case). */
export function indexFieldNameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Fills a message template's `{name}` placeholders. */
export function indexMessage(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (all, key: string) => params[key] ?? all);
}

// ---- The apply-index form (SPEC sections 3 and 4) ------------------------------------------------

/**
 * The apply-index form: one value per index-field id (the value as typed; validated on submit).
 * A plain object, so it can live in the store.
 */
export type ApplyIndexFormState = Readonly<Record<string, string>>;

/** The empty form. */
export const EMPTY_APPLY_INDEX_FORM: ApplyIndexFormState = {};

/** "Update a value": the form with `indexFieldId` set to `value` (a new object). */
export function updateIndexFormValue(
  state: ApplyIndexFormState,
  indexFieldId: string,
  value: string,
): ApplyIndexFormState {
  return { ...state, [indexFieldId]: value };
}

/** "Clear all": the empty form. */
export function clearIndexForm(): ApplyIndexFormState {
  return {};
}

/** "Remove a key": the form without `indexFieldId` (the same object when it was not there). */
export function removeIndexFormKey(
  state: ApplyIndexFormState,
  indexFieldId: string,
): ApplyIndexFormState {
  if (!Object.prototype.hasOwnProperty.call(state, indexFieldId)) return state;
  const next: Record<string, string> = { ...state };
  delete next[indexFieldId];
  return next;
}

/**
 * The form as the apply request's `indexes`: one `{ indexFieldId, value }` per key whose value is
 * not blank, in the order of `fields` when given (keys of no listed field last).
 */
export function indexFormToRequest(
  state: ApplyIndexFormState,
  fields: readonly { id: string }[] = [],
): IndexValueInput[] {
  const order = new Map(fields.map((f, i) => [f.id, i]));
  return Object.entries(state)
    .filter(([, value]) => value.trim() !== '')
    .sort(([a], [b]) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity))
    .map(([indexFieldId, value]) => ({ indexFieldId, value: value.trim() }));
}

/**
 * Checks every non-blank value of the form against its field's type.
 * @returns a message per index-field id that is refused (an unknown or archived field included);
 *   empty when the form can be sent
 */
export function validateIndexForm(
  state: ApplyIndexFormState,
  fields: readonly Pick<IndexFieldDto, 'id' | 'name' | 'type' | 'values' | 'archived_at'>[],
): Record<string, string> {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const errors: Record<string, string> = {};
  for (const [id, value] of Object.entries(state)) {
    if (value.trim() === '') continue;
    const field = byId.get(id);
    if (!field) {
      errors[id] = INDEX_MESSAGES.noIndexes;
      continue;
    }
    if (field.archived_at) {
      errors[id] = indexMessage(INDEX_MESSAGES.fieldArchived, { name: field.name });
      continue;
    }
    const check = validateIndexValue(field.type, value, field.values);
    if (!check.ok) errors[id] = check.message;
  }
  return errors;
}
