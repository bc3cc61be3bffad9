/**
 * Rows of records management: retention schedules and their targets, legal holds and their
 * targets, and the reads that work out what protects a set of files (their folders' parents, the
 * contacts linked to those folders, the index values schedules read). Every query is scoped by the
 * firm database; id lists go by chunks of ID_CHUNK (organise.ts), so a check of 10,000 files costs
 * tens of statements.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import type {
  LegalHoldRow,
  LegalHoldTargetRow,
  LegalHoldTargetsTable,
  LegalHoldsTable,
  RetentionScheduleRow,
  RetentionSchedulesTable,
  RetentionTargetRow,
  RetentionTargetsTable,
} from '../db/schemaRecords';
import { chunked, readChunked } from './organise';
import type { Executor } from './types';

/** The firm scope of a statement naming rows by primary key (see organise.ts inFirm). */
function inFirm(databaseId: string) {
  return sql<boolean>`database_id || '' = ${databaseId}`;
}

// ---- retention schedules -----------------------------------------------------------------------

/** The firm's schedules, by name. */
export function listSchedules(db: Executor, databaseId: string): Promise<RetentionScheduleRow[]> {
  return db
    .selectFrom('retention_schedules')
    .selectAll()
    .where('database_id', '=', databaseId)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
}

/** One schedule of the firm, if any. */
export function findSchedule(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<RetentionScheduleRow | undefined> {
  return db
    .selectFrom('retention_schedules')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The schedule of the firm with this name key, if any. */
export function findScheduleByNameKey(
  db: Executor,
  databaseId: string,
  nameKey: string,
): Promise<RetentionScheduleRow | undefined> {
  return db
    .selectFrom('retention_schedules')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
}

/** Inserts a schedule. */
export async function insertSchedule(
  db: Executor,
  row: Insertable<RetentionSchedulesTable>,
): Promise<void> {
  await db.insertInto('retention_schedules').values(row).execute();
}

/** Changes a schedule. */
export async function updateSchedule(
  db: Executor,
  databaseId: string,
  id: string,
  patch: Updateable<RetentionSchedulesTable>,
): Promise<void> {
  await db
    .updateTable('retention_schedules')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** Deletes a schedule with its targets (a locked one is refused by the database's triggers). */
export async function deleteSchedule(db: Executor, databaseId: string, id: string): Promise<void> {
  await db
    .deleteFrom('retention_targets')
    .where('database_id', '=', databaseId)
    .where('schedule_id', '=', id)
    .execute();
  await db
    .deleteFrom('retention_schedules')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** The firm's schedules that read an index field (as basis or selector). */
export function schedulesUsingField(
  db: Executor,
  databaseId: string,
  fieldId: string,
): Promise<RetentionScheduleRow[]> {
  return db
    .selectFrom('retention_schedules')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where((eb) =>
      eb.or([eb('basis_field_id', '=', fieldId), eb('selector_field_id', '=', fieldId)]),
    )
    .orderBy('name_key')
    .execute();
}

/** The targets of some schedules, oldest first. */
export async function scheduleTargets(
  db: Executor,
  databaseId: string,
  scheduleIds: readonly string[],
): Promise<RetentionTargetRow[]> {
  return readChunked(scheduleIds, (part) =>
    db
      .selectFrom('retention_targets')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('schedule_id', 'in', part)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
}

/** The schedule targets naming any of these folders or files. */
export async function scheduleTargetsFor(
  db: Executor,
  databaseId: string,
  targetIds: readonly string[],
): Promise<RetentionTargetRow[]> {
  return readChunked(targetIds, (part) =>
    db
      .selectFrom('retention_targets')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('target_id', 'in', part)
      .execute(),
  );
}

/** Every schedule target of the firm (to find the files the disposition queue looks at). */
export function allScheduleTargets(
  db: Executor,
  databaseId: string,
): Promise<RetentionTargetRow[]> {
  return db
    .selectFrom('retention_targets')
    .selectAll()
    .where('database_id', '=', databaseId)
    .execute();
}

/** Inserts a schedule target; answers false when the schedule names the item already. */
export async function insertScheduleTarget(
  db: Executor,
  row: Insertable<RetentionTargetsTable>,
): Promise<boolean> {
  const result = await db
    .insertInto('retention_targets')
    .values(row)
    .onConflict((oc) => oc.columns(['schedule_id', 'target_type', 'target_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** One target of a schedule, if any. */
export function findScheduleTarget(
  db: Executor,
  databaseId: string,
  scheduleId: string,
  id: string,
): Promise<RetentionTargetRow | undefined> {
  return db
    .selectFrom('retention_targets')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('schedule_id', '=', scheduleId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes one target of a schedule. */
export async function deleteScheduleTarget(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<void> {
  await db
    .deleteFrom('retention_targets')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

// ---- legal holds -------------------------------------------------------------------------------

/** The firm's holds, active first, newest first. */
export function listHolds(db: Executor, databaseId: string): Promise<LegalHoldRow[]> {
  return db
    .selectFrom('legal_holds')
    .selectAll()
    .where('database_id', '=', databaseId)
    .orderBy(sql`case when released_at is null then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One hold of the firm, if any. */
export function findHold(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<LegalHoldRow | undefined> {
  return db
    .selectFrom('legal_holds')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Inserts a hold. */
export async function insertHold(db: Executor, row: Insertable<LegalHoldsTable>): Promise<void> {
  await db.insertInto('legal_holds').values(row).execute();
}

/** Changes a hold (a released one is refused by the database's triggers). */
export async function updateHold(
  db: Executor,
  databaseId: string,
  id: string,
  patch: Updateable<LegalHoldsTable>,
): Promise<void> {
  await db
    .updateTable('legal_holds')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** The targets of some holds, oldest first. */
export async function holdTargets(
  db: Executor,
  databaseId: string,
  holdIds: readonly string[],
): Promise<LegalHoldTargetRow[]> {
  return readChunked(holdIds, (part) =>
    db
      .selectFrom('legal_hold_targets')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('hold_id', 'in', part)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
}

/** Inserts hold targets, leaving out those the hold names already; answers the rows inserted. */
export async function insertHoldTargets(
  db: Executor,
  rows: Insertable<LegalHoldTargetsTable>[],
): Promise<number> {
  let inserted = 0;
  for (const part of chunked(rows)) {
    const result = await db
      .insertInto('legal_hold_targets')
      .values(part)
      .onConflict((oc) => oc.columns(['hold_id', 'target_type', 'target_id']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/** One target of a hold, if any. */
export function findHoldTarget(
  db: Executor,
  databaseId: string,
  holdId: string,
  id: string,
): Promise<LegalHoldTargetRow | undefined> {
  return db
    .selectFrom('legal_hold_targets')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('hold_id', '=', holdId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes one target of a hold. */
export async function deleteHoldTarget(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<void> {
  await db
    .deleteFrom('legal_hold_targets')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** An active hold's target with the hold's name and matter. */
export interface ActiveHoldTarget {
  hold_id: string;
  name: string;
  matter: string;
  target_type: string;
  target_id: string;
}

function activeTargets(db: Executor, databaseId: string) {
  return db
    .selectFrom('legal_hold_targets as t')
    .innerJoin('legal_holds as h', 'h.id', 't.hold_id')
    .select(['t.hold_id', 'h.name', 'h.matter', 't.target_type', 't.target_id'])
    .where('t.database_id', '=', databaseId)
    .where('h.released_at', 'is', null);
}

/** The targets of active holds naming any of these folders, files or contacts. */
export async function activeHoldTargetsFor(
  db: Executor,
  databaseId: string,
  targetIds: readonly string[],
): Promise<ActiveHoldTarget[]> {
  return readChunked(targetIds, (part) =>
    activeTargets(db, databaseId).where('t.target_id', 'in', part).execute(),
  );
}

/** Whether the firm has any schedule, any locked schedule, any active hold (one statement each). */
export async function recordsRulesOf(
  db: Executor,
  databaseId: string,
): Promise<{ schedules: boolean; locked: boolean; holds: boolean }> {
  const schedule = await db
    .selectFrom('retention_schedules')
    .select(['id', 'locked_at'])
    .where('database_id', '=', databaseId)
    .orderBy(sql`case when locked_at is null then 1 else 0 end`)
    .limit(1)
    .executeTakeFirst();
  const hold = await db
    .selectFrom('legal_holds')
    .select('id')
    .where('database_id', '=', databaseId)
    .where('released_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return {
    schedules: schedule !== undefined,
    locked: schedule?.locked_at != null,
    holds: hold !== undefined,
  };
}

// ---- what protection reads ---------------------------------------------------------------------

/** A folder's place and name. */
export interface FolderLink {
  id: string;
  parent_id: string;
  name: string;
}

/** Folders by id (any state): their parent and name. */
export async function folderLinks(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<FolderLink[]> {
  return readChunked(ids, (part) =>
    db
      .selectFrom('folders')
      .select(['id', 'parent_id', 'name'])
      .where(inFirm(databaseId))
      .where('id', 'in', part)
      .execute(),
  );
}

/** What protection and disposition read of a file. */
export interface RecordFile {
  id: string;
  folder_id: string;
  name: string;
  status: 'pending' | 'ready';
  size: number;
  sha256: string | null;
  storage_key: string;
  created_at: string;
  archived_at: string | null;
  /** When the newest version was stored (its created_at); the file's creation without versions. */
  last_version_at: string;
}

/** Files by id (any state and status), with when their newest version was stored. */
export async function recordFiles(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<RecordFile[]> {
  const out: RecordFile[] = [];
  for (const part of chunked(ids)) {
    const rows = await db
      .selectFrom('files')
      .select([
        'id',
        'folder_id',
        'name',
        'status',
        'size',
        'sha256',
        'storage_key',
        'created_at',
        'archived_at',
        (eb) =>
          eb
            .selectFrom('file_versions')
            .whereRef('file_versions.file_id', '=', 'files.id')
            .select((v) => v.fn.max('file_versions.created_at').as('at'))
            .as('last_version_at'),
      ])
      .where(inFirm(databaseId))
      .where('id', 'in', part)
      .execute();
    out.push(
      ...rows.map((r) => ({
        ...r,
        size: Number(r.size),
        last_version_at: r.last_version_at ?? r.created_at,
      })),
    );
  }
  return out;
}

/** The ids of the ready files directly in some folders (any state). */
export async function readyFileIdsIn(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
): Promise<string[]> {
  const rows = await readChunked(folderIds, (part) =>
    db
      .selectFrom('files')
      .select('id')
      .where('database_id', '=', databaseId)
      .where('folder_id', 'in', part)
      .where('status', '=', 'ready')
      .execute(),
  );
  return rows.map((r) => r.id);
}

/** The contacts linked to some folders. */
export async function contactLinksOf(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
): Promise<{ folder_id: string; contact_id: string }[]> {
  return readChunked(folderIds, (part) =>
    db
      .selectFrom('folder_contacts')
      .select(['folder_id', 'contact_id'])
      .where('database_id', '=', databaseId)
      .where('folder_id', 'in', part)
      .execute(),
  );
}

/** One live index value (not archived, of a field not deleted) on a file or folder. */
export interface LiveValue {
  entity_id: string;
  index_field_id: string;
  value: string;
}

/** The live values of some index fields on some files and folders. */
export async function liveValuesOf(
  db: Executor,
  databaseId: string,
  entityIds: readonly string[],
  fieldIds: readonly string[],
): Promise<LiveValue[]> {
  if (fieldIds.length === 0) return [];
  return readChunked(entityIds, (part) =>
    db
      .selectFrom('applied_indexes as a')
      .innerJoin('index_fields as f', 'f.id', 'a.index_field_id')
      .select(['a.entity_id', 'a.index_field_id', 'a.value'])
      .where('a.database_id', '=', databaseId)
      .where('a.entity_id', 'in', part)
      .where('a.index_field_id', 'in', [...fieldIds])
      .where('a.archived_at', 'is', null)
      .where('f.deleted_at', 'is', null)
      .execute(),
  );
}

/** The files and folders carrying a live value of a field (compared without case). */
export async function entitiesWithValue(
  db: Executor,
  databaseId: string,
  fieldId: string,
  value: string,
): Promise<{ entity_type: 'file' | 'folder'; entity_id: string }[]> {
  return db
    .selectFrom('applied_indexes as a')
    .innerJoin('index_fields as f', 'f.id', 'a.index_field_id')
    .select(['a.entity_type', 'a.entity_id'])
    .where('a.database_id', '=', databaseId)
    .where('a.index_field_id', '=', fieldId)
    .where('a.archived_at', 'is', null)
    .where('f.deleted_at', 'is', null)
    .where(sql<boolean>`lower(a.value) = ${value.trim().toLowerCase()}`)
    .execute();
}

/** Names of some index fields of the firm (deleted ones included). */
export async function indexFieldNames(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<Map<string, { name: string; type: string; deleted: boolean }>> {
  const rows = await readChunked(ids, (part) =>
    db
      .selectFrom('index_fields')
      .select(['id', 'name', 'type', 'deleted_at'])
      .where('database_id', '=', databaseId)
      .where('id', 'in', part)
      .execute(),
  );
  return new Map(
    rows.map((r) => [r.id, { name: r.name, type: r.type, deleted: r.deleted_at !== null }]),
  );
}

/** Names of some contacts of the firm. */
export async function contactNames(
  db: Executor,
  databaseId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const rows = await readChunked(ids, (part) =>
    db
      .selectFrom('contacts')
      .select(['id', 'name'])
      .where('database_id', '=', databaseId)
      .where('id', 'in', part)
      .execute(),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Display names of some users ("First Last"), by id. */
export async function userNames(
  db: Executor,
  ids: readonly (string | null)[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const rows = await readChunked(wanted, (part) =>
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('id', 'in', part)
      .execute(),
  );
  return new Map(rows.map((r) => [r.id, [r.first_name, r.last_name].filter(Boolean).join(' ')]));
}
