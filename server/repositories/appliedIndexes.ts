/**
 * Applied index rows (migration 0011) and the missing-indexes query. Every query is
 * scoped by the firm database. Reads join the field (name, type) and leave out values of deleted
 * fields.
 */
import { sql, type SqlBool } from 'kysely';
import type { IndexFieldType } from '@common/indexFields';
import type { AppliedIndexRow, NewAppliedIndex } from '../db/schemaIndexes';
import type { FileWithCreator } from './files';
import type { FolderFilter } from './permissions';
import type { Executor } from './types';

/** An applied index with its field's name, type and state. */
export type AppliedIndexWithField = AppliedIndexRow & {
  index_field_name: string;
  index_field_type: IndexFieldType;
  index_field_archived_at: string | null;
};

function withField(db: Executor, databaseId: string) {
  return db
    .selectFrom('applied_indexes')
    .innerJoin('index_fields', 'index_fields.id', 'applied_indexes.index_field_id')
    .selectAll('applied_indexes')
    .select([
      'index_fields.name as index_field_name',
      'index_fields.type as index_field_type',
      'index_fields.archived_at as index_field_archived_at',
    ])
    .where('applied_indexes.database_id', '=', databaseId)
    .where('index_fields.database_id', '=', databaseId)
    .where('index_fields.deleted_at', 'is', null);
}

/** The applied index with this id in this firm (its field not deleted), if any. */
export function findAppliedIndex(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<AppliedIndexWithField | undefined> {
  return withField(db, databaseId).where('applied_indexes.id', '=', id).executeTakeFirst();
}

/**
 * The applied indexes of these items (fields not deleted), live first, then by field position and
 * name; archived ones too unless `liveOnly`.
 */
export function appliedIndexesOf(
  db: Executor,
  databaseId: string,
  entityIds: string[],
  options: { liveOnly?: boolean; fieldIds?: string[] } = {},
): Promise<AppliedIndexWithField[]> {
  if (entityIds.length === 0) return Promise.resolve([]);
  let query = withField(db, databaseId).where('applied_indexes.entity_id', 'in', entityIds);
  if (options.liveOnly) query = query.where('applied_indexes.archived_at', 'is', null);
  if (options.fieldIds) {
    if (options.fieldIds.length === 0) return Promise.resolve([]);
    query = query.where('applied_indexes.index_field_id', 'in', options.fieldIds);
  }
  return query
    .orderBy('applied_indexes.entity_id')
    .orderBy(sql`case when applied_indexes.archived_at is null then 0 else 1 end`)
    .orderBy('index_fields.position')
    .orderBy('index_fields.name_key')
    .orderBy('applied_indexes.created_at')
    .execute();
}

/** Inserts applied index rows. */
export async function insertAppliedIndexes(db: Executor, rows: NewAppliedIndex[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('applied_indexes').values(rows).execute();
}

/** Changes one applied index's value, state and time. */
export async function updateAppliedIndex(
  db: Executor,
  databaseId: string,
  id: string,
  patch: { value?: string; archived_at?: string | null; updated_at: string },
): Promise<void> {
  await db
    .updateTable('applied_indexes')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** Removes one applied index for good. */
export async function deleteAppliedIndex(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<void> {
  await db
    .deleteFrom('applied_indexes')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** The live applied indexes of a field holding exactly `value`. */
export function liveAppliedWithValue(
  db: Executor,
  databaseId: string,
  fieldId: string,
  value: string,
): Promise<AppliedIndexRow[]> {
  return db
    .selectFrom('applied_indexes')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('index_field_id', '=', fieldId)
    .where('value', '=', value)
    .where('archived_at', 'is', null)
    .orderBy('entity_id')
    .execute();
}

/** Sets the value of these applied indexes (one statement). */
export async function setAppliedValues(
  db: Executor,
  databaseId: string,
  ids: string[],
  value: string,
  at: string,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 5000) {
    await db
      .updateTable('applied_indexes')
      .set({ value, updated_at: at })
      .where('database_id', '=', databaseId)
      .where('id', 'in', ids.slice(i, i + 5000))
      .execute();
  }
}

/** What the missing-indexes query filters by. */
export interface MissingIndexesScope {
  databaseId: string;
  /** The fields a file must carry a live value for (not empty). */
  fieldIds: string[];
  /** Only files in this folder's subtree (archived subfolders excluded by the files' state). */
  folderId: string | null;
  /** The session's folder visibility (null: every folder). */
  folderVisible: FolderFilter;
}

function missingQuery(db: Executor, scope: MissingIndexesScope) {
  const { databaseId, fieldIds, folderId, folderVisible } = scope;
  let query = db
    .selectFrom('files')
    .leftJoin('users', 'users.id', 'files.created_by')
    .where('files.database_id', '=', databaseId)
    .where('files.status', '=', 'ready')
    .where('files.archived_at', 'is', null)
    .where((eb) =>
      eb.or(
        fieldIds.map((fieldId) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('applied_indexes as a')
                .select('a.id')
                .where('a.database_id', '=', databaseId)
                .whereRef('a.entity_id', '=', 'files.id')
                .where('a.index_field_id', '=', fieldId)
                .where('a.archived_at', 'is', null),
            ),
          ),
        ),
      ),
    );
  if (folderId !== null) {
    query = query.where(
      sql<SqlBool>`files.folder_id in (with recursive subtree(id) as (
        select id from folders where database_id = ${databaseId} and id = ${folderId}
        union all
        select f.id from folders f join subtree s on f.parent_id = s.id
        where f.database_id = ${databaseId}
      ) select id from subtree)`,
    );
  }
  if (folderVisible) query = query.where(folderVisible('files.folder_id'));
  return query;
}

/** Number of live ready files lacking a live value of any of the scope's fields. */
export async function countMissingIndexes(
  db: Executor,
  scope: MissingIndexesScope,
): Promise<number> {
  const row = await missingQuery(db, scope)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of those files, by name (case-insensitive), then id. */
export function listMissingIndexes(
  db: Executor,
  scope: MissingIndexesScope,
  offset: number,
  limit: number,
): Promise<FileWithCreator[]> {
  return missingQuery(db, scope)
    .selectAll('files')
    .select(['users.first_name as creator_first', 'users.last_name as creator_last'])
    .orderBy('files.name_key')
    .orderBy('files.id')
    .limit(limit)
    .offset(offset)
    .execute();
}
