/**
 * Records management: retention schedules, legal holds and the disposition queue. The API shapes
 * of `/api/rest/private/retention_schedules`, `/api/rest/private/legal_holds`,
 * `/api/rest/private/records/protection` and `/api/rest/private/disposition`, their limits, the
 * user-facing messages (one place, used by the server's refusals and the client's pages), and the
 * pure date rules both sides share: a period added to a day ({@link addPeriod}), whether a new
 * period is at least as long as an old one ({@link periodAtLeast}), and how a day and a period
 * read ({@link formatDay}, {@link periodText}).
 *
 * Days are calendar days `YYYY-MM-DD` in UTC; a file under retention until day D may be destroyed
 * on D and after. Times are ISO 8601 UTC text; JSON is snake_case.
 */
import { formatMessage } from './messages';

/** The unit of a retention period. */
export type RetentionPeriodUnit = 'years' | 'months' | 'days';

/** Every period unit, in the order the schedule form offers them. */
export const RETENTION_PERIOD_UNITS: readonly RetentionPeriodUnit[] = ['years', 'months', 'days'];

/**
 * What a retention period is counted from: the file's creation, its last version (the newest
 * content it holds), or the day an index field of type date holds (e.g. "Account closed").
 */
export type RetentionBasis = 'created' | 'last_version' | 'index_date';

/** Every basis, in the order the schedule form offers them. */
export const RETENTION_BASES: readonly RetentionBasis[] = ['created', 'last_version', 'index_date'];

/** How each basis reads in the schedule form. */
export const RETENTION_BASIS_LABELS: Record<RetentionBasis, string> = {
  created: 'The file’s creation',
  last_version: 'The file’s last version',
  index_date: 'A date index field',
};

/** Longest schedule, hold, matter name, in characters. */
export const RECORDS_NAME_MAX_LENGTH = 200;
/** Longest hold reason, in characters. */
export const HOLD_REASON_MAX_LENGTH = 2000;
/** Largest period count (100 years in any unit is far beyond any rule). */
export const RETENTION_PERIOD_MAX: Record<RetentionPeriodUnit, number> = {
  years: 100,
  months: 1200,
  days: 36_600,
};
/** Most schedules one firm may have. */
export const RETENTION_SCHEDULES_MAX = 500;
/** Most folders, files or contacts one hold or schedule may name. */
export const RECORDS_TARGETS_MAX = 1000;
/** Most files the disposition queue lists at once (the oldest ends first); `total` counts all. */
export const DISPOSITION_LIST_MAX = 1000;

/** What a hold may name. */
export type HoldTargetType = 'folder' | 'file' | 'contact';
/** What a schedule may be applied to directly (files are also selected by an index value). */
export type ScheduleTargetType = 'folder' | 'file';

/** One folder, file or contact a schedule or hold names, as lists show it. */
export interface RecordsTargetDto {
  /** The target row's id (what DELETE …/targets/{id} takes). */
  id: string;
  type: HoldTargetType;
  /** The folder's, file's or contact's id. */
  item_id: string;
  /** Its name now, or '' when it no longer exists. */
  name: string;
  /** Folders and files: the path of the folder it sits in ("Root / Clients"); '' for contacts. */
  path: string;
  /** True when the folder, file or contact no longer exists (destroyed after a release). */
  missing: boolean;
}

/** A retention schedule as the API answers it. */
export interface RetentionScheduleDto {
  id: string;
  name: string;
  period_count: number;
  period_unit: RetentionPeriodUnit;
  basis: RetentionBasis;
  /** The date index field counted from (basis index_date), else null. */
  basis_field_id: string | null;
  basis_field_name: string | null;
  /** The index field whose value selects files for this schedule, or null. */
  selector_field_id: string | null;
  selector_field_name: string | null;
  /** The value of the selector field that selects files (compared without case), or null. */
  selector_value: string | null;
  /** When the schedule was locked (it can then only be lengthened), or null. */
  locked_at: string | null;
  locked_by_name: string | null;
  /** The folders (with everything below) and files the schedule is applied to. */
  targets: RecordsTargetDto[];
  created_at: string;
  updated_at: string;
}

/** POST REST/private/retention_schedules body. */
export interface CreateRetentionScheduleRequest {
  name: string;
  period_count: number;
  period_unit: RetentionPeriodUnit;
  basis: RetentionBasis;
  /** Required for basis index_date: a date field. */
  basis_field_id?: string | null;
  /** With `selector_value`: files carrying this value (or below a folder carrying it) are kept. */
  selector_field_id?: string | null;
  selector_value?: string | null;
  /** Lock at once (the schedule can then only be lengthened). */
  locked?: boolean;
}

/**
 * PATCH REST/private/retention_schedules/{id} body: any of the fields. A locked schedule takes only
 * a new name and a period at least as long as its own; `locked: true` locks the schedule, and
 * `locked: false` is refused once it is locked (a lock is for good).
 */
export type UpdateRetentionScheduleRequest = Partial<CreateRetentionScheduleRequest>;

/** POST REST/private/retention_schedules/{id}/targets and legal_holds/{id}/targets body. */
export interface RecordsTargetRequest {
  type: HoldTargetType;
  id: string;
}

/** A legal hold's state. */
export type LegalHoldStatus = 'active' | 'released';

/** A legal hold as the API answers it. */
export interface LegalHoldDto {
  id: string;
  name: string;
  reason: string;
  matter: string;
  status: LegalHoldStatus;
  /** The folders (with everything below), files and contacts (their linked folders) held. */
  targets: RecordsTargetDto[];
  created_at: string;
  created_by_name: string;
  updated_at: string;
  released_at: string | null;
  released_by_name: string | null;
}

/** POST REST/private/legal_holds body. */
export interface CreateLegalHoldRequest {
  name: string;
  reason?: string;
  matter?: string;
  /** At least one folder, file or contact. */
  targets: RecordsTargetRequest[];
}

/** PATCH REST/private/legal_holds/{id} body. */
export interface UpdateLegalHoldRequest {
  name?: string;
  reason?: string;
  matter?: string;
}

/** One schedule that applies to an item, and when its retention ends. */
export interface AppliedScheduleDto {
  schedule_id: string;
  schedule_name: string;
  locked: boolean;
  /** The day the retention ends, or null when its date index value is not set yet. */
  ends_on: string | null;
  /** How it reaches the item: applied to it, to a folder above it, or by an index value. */
  via: 'item' | 'folder' | 'index_value';
}

/** One active hold on an item. */
export interface HoldRefDto {
  id: string;
  name: string;
  matter: string;
}

/** GET REST/private/records/protection?type&id: what protects a folder or file now. */
export interface ItemProtectionDto {
  type: 'folder' | 'file';
  id: string;
  name: string;
  /** Files: every schedule that applies; folders: the schedules their files get from here. */
  schedules: AppliedScheduleDto[];
  /** Files: the latest end of all (null while one waits for its date, or with no schedule). */
  retained_until: string | null;
  /** Files: true while a schedule waits for its date index value (kept until it is set). */
  retention_pending: boolean;
  holds: HoldRefDto[];
  /** Why it cannot be deleted permanently now, or null when nothing protects it. */
  refusal: string | null;
}

/** One file of the disposition queue. */
export interface DispositionItemDto {
  id: string;
  name: string;
  /** The path of its folder ("Root / Clients / Smith"). */
  path: string;
  size: number;
  sha256: string | null;
  archived: boolean;
  /** The schedule whose end came last. */
  schedule_id: string;
  schedule_name: string;
  /** The day its retention ended (the latest end of its schedules). */
  ended_on: string;
}

/** GET REST/private/disposition. */
export interface DispositionQueueDto {
  /** Due files, the oldest end first, at most DISPOSITION_LIST_MAX. */
  items: DispositionItemDto[];
  /** All due files. */
  total: number;
  /** The day the queue was worked out for (UTC). */
  today: string;
}

/** POST REST/private/disposition/approve body. */
export interface ApproveDispositionRequest {
  file_ids: string[];
}

/** POST REST/private/disposition/approve answer: the files deleted, as their proofs name them. */
export interface ApproveDispositionResponse {
  count: number;
  items: { id: string; name: string; sha256: string | null }[];
}

/** Messages of retention, holds and disposition; `{placeholders}` filled by {@link recordsMessage}. */
export const RECORDS_MESSAGES = {
  underHold:
    '“{name}” is under the legal hold “{hold}” and cannot be {action} until the hold is released.',
  underRetention:
    '“{name}” is kept by the retention schedule “{schedule}” until {date} and cannot be deleted before then.',
  underRetentionPending:
    '“{name}” is kept by the retention schedule “{schedule}” for {period} after its “{field}” date, which is not set yet, so it cannot be deleted.',
  moreProtected: '{message} {n} more protected {items} in this request.',
  leavesHold:
    '“{name}” is under the legal hold “{hold}” and cannot leave its scope. Add it to the hold itself first, or release the hold.',
  shortensLocked:
    'The retention of “{name}” under the locked schedule “{schedule}” runs until {date}: this change would shorten it, or let it be shortened.',
  lockedShorten:
    'The retention schedule “{name}” is locked: its period can be lengthened but never shortened.',
  lockedChange:
    'The retention schedule “{name}” is locked: only its name and a longer period can be changed.',
  lockedDelete: 'The retention schedule “{name}” is locked and can never be removed.',
  lockedTargetRemove:
    'The retention schedule “{name}” is locked: it cannot be taken off what it applies to.',
  unlockRefused: 'A locked retention schedule can never be unlocked.',
  scheduleNameTaken: 'A retention schedule named “{name}” already exists.',
  tooManySchedules: 'A firm can have at most {n} retention schedules.',
  nameRequired: 'A name is required.',
  nameTooLong: 'The name is too long (at most {n} characters).',
  reasonTooLong: 'The reason is too long (at most {n} characters).',
  matterTooLong: 'The matter is too long (at most {n} characters).',
  invalidPeriod: 'The period must be a whole number of {unit} from 1 to {max}.',
  basisFieldRequired: 'Choose the date index field the period is counted from.',
  basisFieldNotDate: 'The index field “{field}” is not a date field.',
  selectorIncomplete: 'Choose both an index field and its value, or neither.',
  selectorFieldType: 'Files can be selected by a text or list index field only.',
  fieldUsedBySchedule: 'The index field “{field}” is used by the retention schedule “{schedule}”.',
  scheduleTargetType: 'A retention schedule applies to folders and files.',
  tooManyTargets: 'At most {n} folders, files or contacts can be named at once.',
  holdTargetsRequired: 'Place the hold on at least one folder, file or contact.',
  holdReleased: 'The legal hold “{name}” is released and cannot be changed.',
  holdLastTarget: 'A legal hold keeps at least one folder, file or contact; release it instead.',
  contactHeld:
    'The contact “{contact}” is under the legal hold “{hold}”: its folders cannot be unlinked until the hold is released.',
  notInQueue: '“{name}” is under no retention schedule, so it is not in the disposition queue.',
  nothingSelected: 'Select at least one file.',
} as const;

/** Fills a {@link RECORDS_MESSAGES} template. */
export function recordsMessage(
  template: string,
  values: Record<string, string | number> = {},
): string {
  return /\{[A-Za-z0-9_]+\}/.test(template) ? formatMessage(template, values) : template;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Whether a text is a real calendar day `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  const match = DAY_PATTERN.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The UTC day `YYYY-MM-DD` of an ISO timestamp or of epoch milliseconds. */
export function dayOf(at: string | number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * A day plus a period, by the calendar: years and months keep the day of the month, or take the
 * month's last day when it has fewer days (2024-02-29 + 1 year = 2025-02-28); days are added as
 * they come.
 * @param day `YYYY-MM-DD`
 * @param count whole units, 0 or more
 * @returns the day `YYYY-MM-DD`
 * @throws RangeError when `day` is not a calendar day
 */
export function addPeriod(day: string, count: number, unit: RetentionPeriodUnit): string {
  const match = DAY_PATTERN.exec(day);
  if (!match || !isDay(day)) throw new RangeError(`Not a day: ${day}`);
  const [y, m, d] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  if (unit === 'days') return dayOf(Date.UTC(y, m, d) + count * 86_400_000);
  const months = m + (unit === 'years' ? count * 12 : count);
  const year = y + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(Date.UTC(year, month, Math.min(d, last)));
}

/** A period: a count of units. */
export interface RetentionPeriod {
  count: number;
  unit: RetentionPeriodUnit;
}

/** The fewest and most days a period can span, whatever day it starts on. */
function daySpan(period: RetentionPeriod): { min: number; max: number } {
  if (period.unit === 'days') return { min: period.count, max: period.count };
  const months = period.unit === 'years' ? period.count * 12 : period.count;
  const years = Math.floor(months / 12);
  const rest = months % 12;
  return { min: years * 365 + rest * 28, max: years * 366 + rest * 31 };
}

/**
 * Whether `next` is at least as long as `prev` for every day it could start on (a locked schedule
 * takes only such a change). Years and months compare as months; days as days; across the two,
 * only when the fewest days `next` can span reach the most `prev` can (e.g. 1 year to 366 days
 * is longer, 1 year to 365 days is not).
 */
export function periodAtLeast(next: RetentionPeriod, prev: RetentionPeriod): boolean {
  const monthly = (p: RetentionPeriod) => p.unit !== 'days';
  if (monthly(next) && monthly(prev)) {
    const months = (p: RetentionPeriod) => (p.unit === 'years' ? p.count * 12 : p.count);
    return months(next) >= months(prev);
  }
  if (!monthly(next) && !monthly(prev)) return next.count >= prev.count;
  return daySpan(next).min >= daySpan(prev).max;
}

/** A day as lists show it: "Mar 1, 2031" (the day itself, no time zone); '' when not a day. */
export function formatDay(day: string | null | undefined): string {
  if (!day || !isDay(day)) return '';
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** A period in words: "6 years", "1 month", "30 days". */
export function periodText(count: number, unit: RetentionPeriodUnit): string {
  const singular = unit.slice(0, -1);
  return `${count} ${count === 1 ? singular : unit}`;
}

/**
 * What a schedule counts from, in words: "from creation", "from the last version",
 * `from “Account closed”` (the date field's name; "from a date index field" when unknown).
 */
export function basisText(basis: RetentionBasis, fieldName?: string | null): string {
  switch (basis) {
    case 'created':
      return 'from creation';
    case 'last_version':
      return 'from the last version';
    default:
      return fieldName ? `from “${fieldName}”` : 'from a date index field';
  }
}

/** A schedule's rule in words: "6 years from creation". */
export function scheduleRuleText(schedule: {
  period_count: number;
  period_unit: RetentionPeriodUnit;
  basis: RetentionBasis;
  basis_field_name?: string | null;
}): string {
  return `${periodText(schedule.period_count, schedule.period_unit)} ${basisText(
    schedule.basis,
    schedule.basis_field_name,
  )}`;
}
