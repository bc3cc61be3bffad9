// Records management fixtures of the client tests: schedules, holds and disposition items as the
// server answers them.
import type {
  DispositionItemDto,
  LegalHoldDto,
  RecordsTargetDto,
  RetentionScheduleDto,
} from '@common/retention';

/** A folder target. */
export function makeTarget(overrides: Partial<RecordsTargetDto> = {}): RecordsTargetDto {
  return {
    id: 't1',
    type: 'folder',
    item_id: 'f1',
    name: 'Clients',
    path: 'Home',
    missing: false,
    ...overrides,
  };
}

/** An unlocked schedule: 6 years from creation, applied to one folder. */
export function makeSchedule(overrides: Partial<RetentionScheduleDto> = {}): RetentionScheduleDto {
  return {
    id: 's1',
    name: 'Client files',
    period_count: 6,
    period_unit: 'years',
    basis: 'created',
    basis_field_id: null,
    basis_field_name: null,
    selector_field_id: null,
    selector_field_name: null,
    selector_value: null,
    locked_at: null,
    locked_by_name: null,
    targets: [makeTarget()],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** An active hold on one folder. */
export function makeHold(overrides: Partial<LegalHoldDto> = {}): LegalHoldDto {
  return {
    id: 'h1',
    name: 'Smith litigation',
    reason: 'Pending lawsuit',
    matter: 'Smith v. Jones',
    status: 'active',
    targets: [makeTarget()],
    created_at: '2026-02-03T10:00:00.000Z',
    created_by_name: 'Ada Lovelace',
    updated_at: '2026-02-03T10:00:00.000Z',
    released_at: null,
    released_by_name: null,
    ...overrides,
  };
}

/** A due file of the disposition queue. */
export function makeDue(overrides: Partial<DispositionItemDto> = {}): DispositionItemDto {
  return {
    id: 'd1',
    name: 'old-letter.pdf',
    path: 'Home / Clients',
    size: 1024,
    sha256: 'a'.repeat(64),
    archived: false,
    schedule_id: 's1',
    schedule_name: 'Client files',
    ended_on: '2025-06-30',
    ...overrides,
  };
}
