/**
 * Index field rows and their list values (migration 0011). Every query is scoped by the
 * firm database; list values are reached through their field, which is checked first.
 */
import { sql, type SqlBool } from 'kysely';
import type {
  IndexFieldRow,
  IndexFieldUpdate,
  IndexFieldValueRow,
  NewIndexField,
} from '../db/schemaIndexes';
import type { FolderFilter } from './permissions';
import type { Executor } from './types';

/**
 * The firm's index fields by position, then name: live and archived ones, plus deleted (still
 * undoable) ones when `includeDeleted`.
 */
export function listIndexFields(
  db: Executor,
  databaseId: string,
  options: { includeDeleted?: boolean; includeArchived?: boolean } = {},
): Promise<IndexFieldRow[]> {
  let query = db.selectFrom('index_fields').selectAll().where('database_id', '=', databaseId);
  if (!options.includeDeleted) query = query.where('deleted_at', 'is', null);
  if (options.includeArchived === false) query = query.where('archived_at', 'is', null);
  return query.orderBy('position').orderBy('name_key').orderBy('id').execute();
}

/** The field with this id in this firm (deleted or not), if any. */
export function findIndexField(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<IndexFieldRow | undefined> {
  return db
    .selectFrom('index_fields')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The fields with these ids in this firm (deleted or not), in no particular order. */
export function findIndexFieldsByIds(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<IndexFieldRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('index_fields')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', 'in', ids)
    .execute();
}

/** The non-deleted field of the firm with this name key, other than `exceptId`, if any. */
export function findIndexFieldByNameKey(
  db: Executor,
  databaseId: string,
  nameKey: string,
  exceptId?: string,
): Promise<IndexFieldRow | undefined> {
  let query = db
    .selectFrom('index_fields')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('name_key', '=', nameKey)
    .where('deleted_at', 'is', null);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

/** Number of index fields of the firm (deleted ones included) and the highest position, or -1. */
export async function indexFieldStats(
  db: Executor,
  databaseId: string,
): Promise<{ count: number; maxPosition: number }> {
  const row = await db
    .selectFrom('index_fields')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.max<number | null>('position').as('max_position'),
    ])
    .where('database_id', '=', databaseId)
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.n),
    maxPosition: row.max_position == null ? -1 : Number(row.max_position),
  };
}

/** Inserts an index field. */
export async function insertIndexField(db: Executor, row: NewIndexField): Promise<void> {
  await db.insertInto('index_fields').values(row).execute();
}

/** Changes an index field's columns. */
export async function updateIndexField(
  db: Executor,
  databaseId: string,
  id: string,
  patch: IndexFieldUpdate,
): Promise<void> {
  await db
    .updateTable('index_fields')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/**
 * Destroys index fields for good: their applied values, list values and rows (explicitly, so it
 * does not depend on SQLite's foreign-key pragma).
 */
export async function destroyIndexFields(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('applied_indexes')
    .where('database_id', '=', databaseId)
    .where('index_field_id', 'in', ids)
    .execute();
  await db.deleteFrom('index_field_values').where('index_field_id', 'in', ids).execute();
  await db
    .deleteFrom('index_fields')
    .where('database_id', '=', databaseId)
    .where('id', 'in', ids)
    .execute();
}

/** Ids of the firm's fields deleted at or before `before` (ISO UTC): their undo time is over. */
export async function expiredDeletedFieldIds(
  db: Executor,
  databaseId: string,
  before: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('index_fields')
    .select('id')
    .where('database_id', '=', databaseId)
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<=', before)
    .execute();
  return rows.map((r) => r.id);
}

/** The list values of these fields, by field and position. */
export function listFieldValues(db: Executor, fieldIds: string[]): Promise<IndexFieldValueRow[]> {
  if (fieldIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('index_field_values')
    .selectAll()
    .where('index_field_id', 'in', fieldIds)
    .orderBy('index_field_id')
    .orderBy('position')
    .execute();
}

/** Replaces a field's list values with `values` (ids kept where given). */
export async function replaceFieldValues(
  db: Executor,
  fieldId: string,
  values: IndexFieldValueRow[],
): Promise<void> {
  await db.deleteFrom('index_field_values').where('index_field_id', '=', fieldId).execute();
  if (values.length > 0) await db.insertInto('index_field_values').values(values).execute();
}

/** Renames one list value of a field (the definition only). */
export async function renameFieldValue(
  db: Executor,
  fieldId: string,
  valueId: string,
  value: string,
): Promise<void> {
  await db
    .updateTable('index_field_values')
    .set({ value })
    .where('index_field_id', '=', fieldId)
    .where('id', '=', valueId)
    .execute();
}

/** Number of applied values (live or archived) of a field. */
export async function countAppliedOfField(
  db: Executor,
  databaseId: string,
  fieldId: string,
): Promise<number> {
  const row = await db
    .selectFrom('applied_indexes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .where('index_field_id', '=', fieldId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The distinct live values of a field on live files and folders visible through `folderVisible`
 * (null: every folder), with how many items carry each, sorted by value.
 */
export async function appliedValueCounts(
  db: Executor,
  databaseId: string,
  fieldId: string,
  folderVisible: FolderFilter,
): Promise<{ value: string; count: number }[]> {
  const rows = await db
    .selectFrom('applied_indexes as a')
    .select((eb) => ['a.value', eb.fn.countAll<number>().as('n')])
    .where('a.database_id', '=', databaseId)
    .where('a.index_field_id', '=', fieldId)
    .where('a.archived_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('a.entity_type', '=', 'file'),
          eb(
            'a.entity_id',
            'in',
            eb
              .selectFrom('files')
              .select('files.id')
              .where('files.database_id', '=', databaseId)
              .where('files.status', '=', 'ready')
              .where('files.archived_at', 'is', null)
              .where(folderVisible ? folderVisible('files.folder_id') : sql<SqlBool>`1 = 1`),
          ),
        ]),
        eb.and([
          eb('a.entity_type', '=', 'folder'),
          eb(
            'a.entity_id',
            'in',
            eb
              .selectFrom('folders')
              .select('folders.id')
              .where('folders.database_id', '=', databaseId)
              .where('folders.archived_at', 'is', null)
              .where(folderVisible ? folderVisible('folders.id') : sql<SqlBool>`1 = 1`),
          ),
        ]),
      ]),
    )
    .groupBy('a.value')
    .orderBy('a.value')
    .execute();
  return rows.map((r) => ({ value: r.value, count: Number(r.n) }));
}
