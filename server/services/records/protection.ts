/**
 * What protects files and folders from permanent deletion: retention schedules and legal holds.
 * The one rule every destroy path goes through ({@link assertDestroyable}: bulk and single
 * destroy, which is also how the Archive is emptied; a version removal is meant to call it too),
 * the hold check of archiving ({@link assertArchivable}), and the guard of changes that could take
 * protection away ({@link protectionGuard}: moves, contact unlinks, index value changes).
 *
 * Rules (docs/architecture.md "Records: retention, holds and disposition"):
 * - A schedule applies to a file when it is applied to the file, to a folder above it (any depth),
 *   or when the file, or a folder above it, carries the schedule's selector value (index field and
 *   value, compared without case). The file's retention under a schedule ends `period` after the
 *   schedule's basis: the file's creation, its last version ({@link lastVersionAt}), or the day of
 *   the schedule's date index field on the file, else on the nearest folder above it carrying one;
 *   without such a day the retention waits for it (the file is kept until the day is set). A
 *   file's retention ends on the latest end of every schedule that applies.
 * - A legal hold covers what it names: a file; a folder with everything below it; a contact's
 *   linked folders with everything below them. An active hold overrides any retention end.
 * - A file is protected while a hold covers it or today is before its retention end (days are
 *   UTC calendar days: on the end day it may go). A folder is protected while a hold covers it.
 *
 * Reads go by chunks (repositories/records.ts): the folders above the files are read level by
 * level, so a check of 10,000 files in one tree costs a few tens of statements; a firm without
 * schedules and active holds costs two.
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import {
  addPeriod,
  dayOf,
  formatDay,
  isDay,
  periodText,
  recordsMessage,
  RECORDS_MESSAGES,
  type AppliedScheduleDto,
  type HoldRefDto,
} from '@common/retention';
import { plural } from '@common/text';
import type { RetentionScheduleRow } from '@server/db/schemaRecords';
import { conflict } from '@server/errors';
import type { Clock } from '@server/ids';
import { descendantFolderIds } from '@server/repositories/organise';
import {
  activeHoldTargetsFor,
  contactLinksOf,
  folderLinks,
  indexFieldNames,
  listSchedules,
  liveValuesOf,
  readyFileIdsIn,
  recordFiles,
  recordsRulesOf,
  scheduleTargetsFor,
  type ActiveHoldTarget,
  type FolderLink,
  type RecordFile,
} from '@server/repositories/records';
import type { Executor } from '@server/repositories/types';

/** Today as a UTC calendar day `YYYY-MM-DD`, by the services' clock. */
export function todayOf(clock: Clock): string {
  return dayOf(clock());
}

/**
 * When a file's newest content was stored: what the "last version" basis counts from (the newest
 * of its file_versions; its creation for a file without version rows).
 */
export function lastVersionAt(file: Pick<RecordFile, 'last_version_at'>): string {
  return file.last_version_at;
}

/** One schedule that applies to a file (or reaches a folder's files), with its end. */
export interface ScheduleEnd extends AppliedScheduleDto {
  /** The schedule's period in words ("6 years"), for messages. */
  period: string;
  /** The date field counted from (basis index_date), for messages; '' otherwise. */
  basisFieldName: string;
}

/** What protects one file. */
export interface FileProtection {
  type: 'file';
  id: string;
  name: string;
  folderId: string;
  /** The path of its folder: "Root / Clients / Smith". */
  path: string;
  file: RecordFile;
  schedules: ScheduleEnd[];
  /** The latest known end of its schedules, or null without any known end. */
  retainedUntil: string | null;
  /** A schedule waiting for its date index value (the file is kept until it is set), or null. */
  pending: ScheduleEnd | null;
  holds: HoldRefDto[];
}

/** What protects one folder: the holds that cover it, and the schedules its files get from here. */
export interface FolderProtection {
  type: 'folder';
  id: string;
  name: string;
  path: string;
  /** The schedules reaching files placed here (ends are null: they depend on each file). */
  schedules: ScheduleEnd[];
  holds: HoldRefDto[];
}

/** Protection of some files and folders, by id. */
export interface Protection {
  files: Map<string, FileProtection>;
  folders: Map<string, FolderProtection>;
}

/** Which items to look at. */
export interface ProtectionScope {
  fileIds?: readonly string[];
  folderIds?: readonly string[];
}

/** How a protection read is narrowed. */
interface ReadOptions {
  /** Only holds (archiving); schedules are not read. */
  holdsOnly?: boolean;
}

/** The folders above some folders, read level by level, keyed by id. */
async function ancestryOf(
  db: Executor,
  databaseId: string,
  start: Iterable<string>,
): Promise<Map<string, FolderLink>> {
  const known = new Map<string, FolderLink>();
  let wanted = [...new Set(start)].filter((id) => id !== ROOT_FOLDER_ID);
  for (let depth = 0; wanted.length > 0 && depth < 1000; depth += 1) {
    const rows = await folderLinks(db, databaseId, wanted);
    for (const row of rows) known.set(row.id, row);
    wanted = [
      ...new Set(rows.map((r) => r.parent_id).filter((id) => id !== ROOT_FOLDER_ID)),
    ].filter((id) => !known.has(id));
  }
  return known;
}

/** The folder and every folder above it, nearest first (the root not included). */
function chainOf(folders: Map<string, FolderLink>, folderId: string): string[] {
  const chain: string[] = [];
  const seen = new Set<string>();
  for (let id = folderId; id !== ROOT_FOLDER_ID && !seen.has(id);) {
    const folder = folders.get(id);
    if (!folder) break;
    chain.push(id);
    seen.add(id);
    id = folder.parent_id;
  }
  return chain;
}

/** "Root / A / B" for a folder chain (nearest first). */
function pathOf(folders: Map<string, FolderLink>, chain: string[]): string {
  return [ROOT_FOLDER_NAME, ...[...chain].reverse().map((id) => folders.get(id)?.name ?? '')].join(
    ' / ',
  );
}

/** Everything the rules read, once per protection read. */
interface Facts {
  today: string;
  folders: Map<string, FolderLink>;
  schedules: RetentionScheduleRow[];
  /** Schedule ids applied per target id ('file:<id>' or 'folder:<id>'). */
  targets: Map<string, string[]>;
  /** Live values per entity id, by field id. */
  values: Map<string, Map<string, string>>;
  fieldNames: Map<string, string>;
  /** Active holds per target ('file:<id>', 'folder:<id>', 'contact:<id>'). */
  holds: Map<string, HoldRefDto[]>;
  /** Contacts linked per folder id. */
  contactsOf: Map<string, string[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Reads every fact the rules need about these files and folders and the folders above them. */
async function readFacts(
  db: Executor,
  databaseId: string,
  files: RecordFile[],
  folderIds: readonly string[],
  today: string,
  options: ReadOptions,
): Promise<Facts> {
  const facts: Facts = {
    today,
    folders: new Map(),
    schedules: [],
    targets: new Map(),
    values: new Map(),
    fieldNames: new Map(),
    holds: new Map(),
    contactsOf: new Map(),
  };
  const rules = await recordsRulesOf(db, databaseId);
  const withSchedules = rules.schedules && !options.holdsOnly;
  if (!withSchedules && !rules.holds) return facts;
  facts.folders = await ancestryOf(db, databaseId, [
    ...files.map((f) => f.folder_id),
    ...folderIds,
  ]);
  const folderList = [...facts.folders.keys()];
  const entityIds = [...files.map((f) => f.id), ...folderList];
  if (withSchedules) {
    facts.schedules = await listSchedules(db, databaseId);
    for (const t of await scheduleTargetsFor(db, databaseId, entityIds)) {
      push(facts.targets, `${t.target_type}:${t.target_id}`, t.schedule_id);
    }
    const fieldIds = [
      ...new Set(
        facts.schedules.flatMap((s) => [s.basis_field_id, s.selector_field_id]).filter(Boolean),
      ),
    ] as string[];
    for (const v of await liveValuesOf(db, databaseId, entityIds, fieldIds)) {
      let byField = facts.values.get(v.entity_id);
      if (!byField) facts.values.set(v.entity_id, (byField = new Map<string, string>()));
      byField.set(v.index_field_id, v.value);
    }
    for (const [id, field] of await indexFieldNames(db, databaseId, fieldIds)) {
      facts.fieldNames.set(id, field.name);
    }
  }
  if (rules.holds) {
    const links = await contactLinksOf(db, databaseId, folderList);
    for (const link of links) push(facts.contactsOf, link.folder_id, link.contact_id);
    const targetIds = [...entityIds, ...new Set(links.map((l) => l.contact_id))];
    const seen = new Set<string>();
    for (const t of await activeHoldTargetsFor(db, databaseId, targetIds)) {
      const key = `${t.target_type}:${t.target_id}`;
      if (seen.has(`${key}:${t.hold_id}`)) continue;
      seen.add(`${key}:${t.hold_id}`);
      push(facts.holds, key, holdRef(t));
    }
  }
  return facts;
}

function holdRef(t: ActiveHoldTarget): HoldRefDto {
  return { id: t.hold_id, name: t.name, matter: t.matter };
}

/** The active holds covering an item: its own, its folders', their contacts'. */
function holdsOver(facts: Facts, chain: string[], fileId: string | null): HoldRefDto[] {
  const found = new Map<string, HoldRefDto>();
  const add = (list: HoldRefDto[] | undefined) => list?.forEach((h) => found.set(h.id, h));
  if (fileId) add(facts.holds.get(`file:${fileId}`));
  for (const folderId of chain) {
    add(facts.holds.get(`folder:${folderId}`));
    for (const contactId of facts.contactsOf.get(folderId) ?? []) {
      add(facts.holds.get(`contact:${contactId}`));
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** How a schedule reaches an item with this chain, or null when it does not. */
function reach(
  facts: Facts,
  schedule: RetentionScheduleRow,
  chain: string[],
  fileId: string | null,
): ScheduleEnd['via'] | null {
  if (fileId && facts.targets.get(`file:${fileId}`)?.includes(schedule.id)) return 'item';
  if (chain.some((id) => facts.targets.get(`folder:${id}`)?.includes(schedule.id))) {
    return fileId === null && facts.targets.get(`folder:${chain[0]}`)?.includes(schedule.id)
      ? 'item'
      : 'folder';
  }
  if (schedule.selector_field_id && schedule.selector_value !== null) {
    const wanted = schedule.selector_value.trim().toLowerCase();
    const entities = fileId ? [fileId, ...chain] : chain;
    const hit = entities.some(
      (id) =>
        facts.values.get(id)?.get(schedule.selector_field_id!)?.trim().toLowerCase() === wanted,
    );
    if (hit) return 'index_value';
  }
  return null;
}

function scheduleEnd(
  facts: Facts,
  schedule: RetentionScheduleRow,
  via: ScheduleEnd['via'],
  endsOn: string | null,
): ScheduleEnd {
  return {
    schedule_id: schedule.id,
    schedule_name: schedule.name,
    locked: schedule.locked_at !== null,
    ends_on: endsOn,
    via,
    period: periodText(Number(schedule.period_count), schedule.period_unit),
    basisFieldName: schedule.basis_field_id
      ? (facts.fieldNames.get(schedule.basis_field_id) ?? '')
      : '',
  };
}

/** The day a schedule's period starts for a file, or null while its date index value is unset. */
function startOf(
  facts: Facts,
  schedule: RetentionScheduleRow,
  file: RecordFile,
  chain: string[],
): string | null {
  if (schedule.basis === 'created') return dayOf(file.created_at);
  if (schedule.basis === 'last_version') return dayOf(lastVersionAt(file));
  for (const id of [file.id, ...chain]) {
    const value = facts.values.get(id)?.get(schedule.basis_field_id ?? '');
    if (value !== undefined && isDay(value)) return value;
  }
  return null;
}

function fileProtection(facts: Facts, file: RecordFile): FileProtection {
  const chain = chainOf(facts.folders, file.folder_id);
  const schedules: ScheduleEnd[] = [];
  for (const schedule of facts.schedules) {
    const via = reach(facts, schedule, chain, file.id);
    if (!via) continue;
    const start = startOf(facts, schedule, file, chain);
    const end =
      start === null ? null : addPeriod(start, Number(schedule.period_count), schedule.period_unit);
    schedules.push(scheduleEnd(facts, schedule, via, end));
  }
  const known = schedules.filter((s) => s.ends_on !== null);
  const latest = known.reduce<ScheduleEnd | null>(
    (best, s) => (best === null || s.ends_on! > best.ends_on! ? s : best),
    null,
  );
  return {
    type: 'file',
    id: file.id,
    name: file.name,
    folderId: file.folder_id,
    path: pathOf(facts.folders, chain),
    file,
    schedules,
    retainedUntil: latest?.ends_on ?? null,
    pending: schedules.find((s) => s.ends_on === null) ?? null,
    holds: holdsOver(facts, chain, file.id),
  };
}

function folderProtection(facts: Facts, id: string): FolderProtection {
  const chain = chainOf(facts.folders, id);
  const schedules: ScheduleEnd[] = [];
  for (const schedule of facts.schedules) {
    const via = reach(facts, schedule, chain, null);
    if (via) schedules.push(scheduleEnd(facts, schedule, via, null));
  }
  return {
    type: 'folder',
    id,
    name: facts.folders.get(id)?.name ?? '',
    path: pathOf(facts.folders, chain.slice(1)),
    schedules,
    holds: holdsOver(facts, chain, null),
  };
}

/**
 * What protects some files and folders now. Files that are not ready (pending uploads), and files
 * and folders that are not the firm's, are left out of the answer.
 * @param today the UTC day the retention ends are compared with (see {@link todayOf})
 */
export async function protectionOf(
  db: Executor,
  databaseId: string,
  scope: ProtectionScope,
  today: string,
  options: ReadOptions = {},
): Promise<Protection> {
  const files = (await recordFiles(db, databaseId, [...new Set(scope.fileIds ?? [])])).filter(
    (f) => f.status === 'ready',
  );
  const folderIds = [...new Set(scope.folderIds ?? [])].filter((id) => id !== ROOT_FOLDER_ID);
  const facts = await readFacts(db, databaseId, files, folderIds, today, options);
  if (facts.folders.size === 0 && folderIds.length > 0) {
    // Nothing protects anything (no schedules, no holds): only the named folders themselves.
    for (const f of await folderLinks(db, databaseId, folderIds)) facts.folders.set(f.id, f);
  }
  const answer: Protection = { files: new Map(), folders: new Map() };
  for (const file of files) answer.files.set(file.id, fileProtection(facts, file));
  for (const id of folderIds) {
    if (facts.folders.has(id)) answer.folders.set(id, folderProtection(facts, id));
  }
  return answer;
}

/** Whether a file's retention keeps it today (a schedule waits for its date, or today < end). */
export function underRetention(p: FileProtection, today: string): boolean {
  return p.pending !== null || (p.retainedUntil !== null && today < p.retainedUntil);
}

/**
 * Why an item cannot be destroyed (or archived) now, in the user's words, or null when nothing
 * protects it: a hold first (it overrides retention), then a schedule waiting for its date, then
 * the schedule whose end comes last.
 * @param action 'deleted' for a destroy, 'archived' for an archive (holds only)
 */
export function refusalOf(
  p: FileProtection | FolderProtection,
  today: string,
  action: 'deleted' | 'archived' = 'deleted',
): string | null {
  const hold = p.holds[0];
  if (hold)
    return recordsMessage(RECORDS_MESSAGES.underHold, { name: p.name, hold: hold.name, action });
  if (p.type === 'folder' || action === 'archived' || !underRetention(p, today)) return null;
  if (p.pending) {
    return recordsMessage(RECORDS_MESSAGES.underRetentionPending, {
      name: p.name,
      schedule: p.pending.schedule_name,
      period: p.pending.period,
      field: p.pending.basisFieldName,
    });
  }
  const governing = p.schedules.find((s) => s.ends_on === p.retainedUntil)!;
  return recordsMessage(RECORDS_MESSAGES.underRetention, {
    name: p.name,
    schedule: governing.schedule_name,
    date: formatDay(p.retainedUntil),
  });
}

/** Throws the first refusal, telling how many more items were refused. */
function refuse(refusals: string[], code: string): void {
  if (refusals.length === 0) return;
  const more = refusals.length - 1;
  const message =
    more === 0
      ? refusals[0]!
      : recordsMessage(RECORDS_MESSAGES.moreProtected, {
          message: refusals[0]!,
          n: more,
          items: plural(more, 'item'),
        });
  throw conflict(message, code);
}

/**
 * Refuses the permanent deletion of files and folders that a hold or a retention schedule
 * protects; nothing is deleted. Give every file and folder the deletion removes (the folders'
 * whole trees: see {@link subtreeOf}). A firm without schedules and active holds costs two
 * statements.
 * @throws AppError 409 `under_legal_hold` (a hold covers one of them) or `under_retention`, whose
 *   message names the first item, its hold or its schedule and the day it ends, and how many more
 *   items are protected
 */
export async function assertDestroyable(
  db: Executor,
  databaseId: string,
  scope: ProtectionScope,
  today: string,
): Promise<void> {
  const rules = await recordsRulesOf(db, databaseId);
  if (!rules.schedules && !rules.holds) return;
  const protection = await protectionOf(db, databaseId, scope, today);
  const all = [...protection.folders.values(), ...protection.files.values()];
  const held = all.filter((p) => p.holds.length > 0);
  if (held.length > 0) {
    refuse(
      held.map((p) => refusalOf(p, today)!),
      'under_legal_hold',
    );
  }
  refuse(
    all.map((p) => refusalOf(p, today)).filter((m): m is string => m !== null),
    'under_retention',
  );
}

/**
 * Refuses archiving files and folders that a legal hold covers (retention does not stop an
 * archive). Give every file and folder the archive takes (see {@link subtreeOf}).
 * @throws AppError 409 `under_legal_hold` naming the first held item and its hold
 */
export async function assertArchivable(
  db: Executor,
  databaseId: string,
  scope: ProtectionScope,
  today: string,
): Promise<void> {
  if (!(await recordsRulesOf(db, databaseId)).holds) return;
  const protection = await protectionOf(db, databaseId, scope, today, { holdsOnly: true });
  refuse(
    [...protection.folders.values(), ...protection.files.values()]
      .map((p) => refusalOf(p, today, 'archived'))
      .filter((m): m is string => m !== null),
    'under_legal_hold',
  );
}

/**
 * Some folders with every folder below them, and some files with every ready file in those
 * folders: what a destroy, an archive or a move of them takes along.
 */
export async function subtreeOf(
  db: Executor,
  databaseId: string,
  scope: ProtectionScope,
): Promise<{ folderIds: string[]; fileIds: string[] }> {
  const named = [...new Set(scope.folderIds ?? [])].filter((id) => id !== ROOT_FOLDER_ID);
  const folderIds = [...new Set([...named, ...(await descendantFolderIds(db, databaseId, named))])];
  const fileIds = [
    ...new Set([...(scope.fileIds ?? []), ...(await readyFileIdsIn(db, databaseId, folderIds))]),
  ];
  return { folderIds, fileIds };
}

/** The guard of a change that cannot take protection away. */
const NO_GUARD = { assertKept: async () => undefined };

/** What a change must keep of an item's protection. */
interface Kept {
  name: string;
  holds: HoldRefDto[];
  /** Locked schedules not yet ended: schedule id → end (null: waiting for its date). */
  locked: Map<string, { name: string; endsOn: string | null }>;
}

function keptOf(p: FileProtection | FolderProtection, today: string): Kept {
  const locked = new Map<string, { name: string; endsOn: string | null }>();
  if (p.type === 'file') {
    for (const s of p.schedules) {
      if (s.locked && (s.ends_on === null || s.ends_on > today)) {
        locked.set(s.schedule_id, { name: s.schedule_name, endsOn: s.ends_on });
      }
    }
  }
  return { name: p.name, holds: p.holds, locked };
}

/**
 * Guards a change that could take protection away (a move, a contact unlinked from a folder, an
 * index value changed or removed): call it before the change, make the change in the same
 * transaction, then call `assertKept`, which throws (rolling the change back) when an item left a
 * hold, or a file left a locked schedule whose retention had not ended, or its end under one got
 * earlier or unknown again (a date index value removed could later be set earlier). Setting a
 * date a locked schedule waits for is allowed. Holds follow what they cover; a locked schedule can
 * only lengthen. A firm without active holds and locked schedules costs one statement.
 * @param scope every file and folder the change touches (with their trees: {@link subtreeOf})
 * @returns `assertKept`, which throws AppError 409 `leaves_legal_hold` or
 *   `shortens_locked_retention` naming the first item and its hold or schedule
 */
export async function protectionGuard(
  db: Executor,
  databaseId: string,
  scope: () => Promise<ProtectionScope>,
  today: string,
): Promise<{ assertKept: () => Promise<void> }> {
  const rules = await recordsRulesOf(db, databaseId);
  if (!rules.holds && !rules.locked) return NO_GUARD;
  const items = await scope();
  const before = await protectionOf(db, databaseId, items, today);
  const keptBefore = new Map<string, Kept>();
  for (const p of [...before.folders.values(), ...before.files.values()]) {
    const kept = keptOf(p, today);
    if (kept.holds.length > 0 || kept.locked.size > 0) keptBefore.set(`${p.type}:${p.id}`, kept);
  }
  return {
    assertKept: async () => {
      if (keptBefore.size === 0) return;
      const after = await protectionOf(db, databaseId, items, today);
      const leaving: string[] = [];
      const shortened: string[] = [];
      for (const [key, kept] of keptBefore) {
        const [type, id] = key.split(':') as ['file' | 'folder', string];
        const now = (type === 'file' ? after.files.get(id) : after.folders.get(id)) ?? null;
        const holdsNow = new Set(now?.holds.map((h) => h.id) ?? []);
        const lost = kept.holds.find((h) => !holdsNow.has(h.id));
        if (lost) {
          leaving.push(
            recordsMessage(RECORDS_MESSAGES.leavesHold, { name: kept.name, hold: lost.name }),
          );
        }
        const lockedNow = now ? keptOf(now, today).locked : new Map<string, never>();
        for (const [scheduleId, end] of kept.locked) {
          const next = lockedNow.get(scheduleId);
          // Still under the schedule; a known end may only move later (a date set where none was
          // is the event the schedule waited for; a date taken away would let it be set earlier).
          const shorter =
            next === undefined ||
            (end.endsOn !== null && (next.endsOn === null || next.endsOn < end.endsOn));
          if (shorter) {
            shortened.push(
              recordsMessage(RECORDS_MESSAGES.shortensLocked, {
                name: kept.name,
                schedule: end.name,
                date: end.endsOn ? formatDay(end.endsOn) : 'its date is set',
              }),
            );
            break;
          }
        }
      }
      refuse(leaving, 'leaves_legal_hold');
      refuse(shortened, 'shortens_locked_retention');
    },
  };
}

/**
 * {@link protectionGuard} for a change of index values (applied, changed, archived, restored,
 * removed) of some fields on some files and folders: only the locked schedules reading one of the
 * fields (as selector or date basis) can be affected, so without one nothing is read.
 * @param entities the files and folders whose values change (a folder's value reaches its tree)
 */
export async function indexChangeGuard(
  db: Executor,
  databaseId: string,
  fieldIds: readonly string[],
  entities: readonly { type: 'file' | 'folder'; id: string }[],
  today: string,
): Promise<{ assertKept: () => Promise<void> }> {
  const wanted = new Set(fieldIds);
  const locked = (await listSchedules(db, databaseId)).filter(
    (s) =>
      s.locked_at !== null &&
      ((s.basis_field_id !== null && wanted.has(s.basis_field_id)) ||
        (s.selector_field_id !== null && wanted.has(s.selector_field_id))),
  );
  if (locked.length === 0) return NO_GUARD;
  return protectionGuard(
    db,
    databaseId,
    () =>
      subtreeOf(db, databaseId, {
        folderIds: entities.filter((e) => e.type === 'folder').map((e) => e.id),
        fileIds: entities.filter((e) => e.type === 'file').map((e) => e.id),
      }),
    today,
  );
}
