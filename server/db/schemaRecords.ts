/** The tables of retention schedules and legal holds (migration 0027_retention_holds). */
import type { Selectable } from 'kysely';
import type {
  HoldTargetType,
  RetentionBasis,
  RetentionPeriodUnit,
  ScheduleTargetType,
} from '@common/retention';

/** A firm's retention schedule. */
export interface RetentionSchedulesTable {
  id: string;
  database_id: string;
  name: string;
  /** Lowercased trimmed name, unique per firm. */
  name_key: string;
  period_count: number;
  period_unit: RetentionPeriodUnit;
  basis: RetentionBasis;
  /** The date index field counted from (basis index_date), else null. */
  basis_field_id: string | null;
  /** With selector_value: the index field whose value selects files, else null. */
  selector_field_id: string | null;
  selector_value: string | null;
  /** When it was locked (then only lengthened), or null. */
  locked_at: string | null;
  locked_by: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A folder (with everything below) or file a schedule is applied to. */
export interface RetentionTargetsTable {
  id: string;
  database_id: string;
  schedule_id: string;
  target_type: ScheduleTargetType;
  target_id: string;
  created_by: string | null;
  created_at: string;
}

/** A legal hold; `released_at` set once released. */
export interface LegalHoldsTable {
  id: string;
  database_id: string;
  name: string;
  reason: string;
  matter: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  released_at: string | null;
  released_by: string | null;
}

/** A folder (with everything below), file or contact (its linked folders) a hold names. */
export interface LegalHoldTargetsTable {
  id: string;
  database_id: string;
  hold_id: string;
  target_type: HoldTargetType;
  target_id: string;
  created_by: string | null;
  created_at: string;
}

export type RetentionScheduleRow = Selectable<RetentionSchedulesTable>;
export type RetentionTargetRow = Selectable<RetentionTargetsTable>;
export type LegalHoldRow = Selectable<LegalHoldsTable>;
export type LegalHoldTargetRow = Selectable<LegalHoldTargetsTable>;

/** Tables of retention and holds, merged into DB (schema.ts). */
export interface RecordsTables {
  retention_schedules: RetentionSchedulesTable;
  retention_targets: RetentionTargetsTable;
  legal_holds: LegalHoldsTable;
  legal_hold_targets: LegalHoldTargetsTable;
}
