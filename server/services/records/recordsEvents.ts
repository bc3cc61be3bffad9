/**
 * The typed recording functions of records management's history events, in the style of
 * historyEvents.ts: services call them in the transaction that makes the change; each builds the
 * attribute shape common/historyRecords.ts renders.
 *
 * Shapes (every event also stores who, when and where, see recordEvent):
 * - retention_schedule create / lock / delete: { name, schedule }; update: { name, schedule,
 *   schedule_changes } or { name, schedule, target_added | target_removed }. The item of an update
 *   that adds or removes a folder or file is that item (its per-item history shows it).
 * - legal_hold create: { name, hold, targets }; update: { name, hold, hold_changes } or { name,
 *   hold, target_added | target_removed }; release: { name, hold }.
 * - file dispose: { name, file_name, parent, disposition: { sha256, size, path, schedule,
 *   ended_on, approved_by } }, item the (deleted) file.
 */
import type {
  HistoryAttributes,
  HistoryDispositionAttributes,
  HistoryScheduleAttributes,
  HistoryTargetRef,
} from '@common/history';
import type { LegalHoldRow } from '@server/db/schemaRecords';
import type { Executor } from '@server/repositories/types';
import type { RequestContext } from '../context';
import { recordEvent, recordEvents, type NewEvent } from '../history';
import type { ParentRef, RecordServices } from '../historyEvents';

/** A hold as events name it. */
function holdAttributes(hold: LegalHoldRow): NonNullable<HistoryAttributes['hold']> {
  return { id: hold.id, name: hold.name, matter: hold.matter, reason: hold.reason };
}

/** The per-item history a target belongs to: a folder's or a file's (contacts have none). */
function itemOf(target: HistoryTargetRef | undefined): string | null {
  return target && target.type !== 'contact' ? target.id : null;
}

/**
 * retention_schedule create, lock or delete.
 * @param schedule the schedule as it is after the event (before it, for a delete)
 */
export function recordScheduleEvent(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  action: 'create' | 'lock' | 'delete',
  schedule: HistoryScheduleAttributes,
): Promise<string> {
  return recordEvent(trx, services, ctx, {
    entityType: 'retention_schedule',
    entityId: schedule.id,
    action,
    itemId: null,
    attributes: { name: schedule.name, schedule },
  });
}

/**
 * retention_schedule update: changed fields (`changes`), or a folder or file it was applied to
 * (`added`) or taken off (`removed`).
 */
export function recordScheduleUpdated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  schedule: HistoryScheduleAttributes,
  change:
    | { changes: NonNullable<HistoryAttributes['schedule_changes']> }
    | { added: HistoryTargetRef }
    | { removed: HistoryTargetRef },
): Promise<string> {
  const attributes: HistoryAttributes = { name: schedule.name, schedule };
  let target: HistoryTargetRef | undefined;
  if ('changes' in change) attributes.schedule_changes = change.changes;
  else if ('added' in change) attributes.target_added = target = change.added;
  else attributes.target_removed = target = change.removed;
  return recordEvent(trx, services, ctx, {
    entityType: 'retention_schedule',
    entityId: schedule.id,
    action: 'update',
    itemId: itemOf(target),
    attributes,
  });
}

/** legal_hold create ("placed"), with what it names. */
export function recordHoldPlaced(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  hold: LegalHoldRow,
  targets: HistoryTargetRef[],
): Promise<string> {
  return recordEvent(trx, services, ctx, {
    entityType: 'legal_hold',
    entityId: hold.id,
    action: 'create',
    itemId: targets.length === 1 ? itemOf(targets[0]) : null,
    attributes: { name: hold.name, hold: holdAttributes(hold), targets },
  });
}

/**
 * legal_hold update: changed fields (`changes`), or an item added to (`added`) or taken off
 * (`removed`) what it names.
 * @param hold the hold as it is after the change
 */
export function recordHoldUpdated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  hold: LegalHoldRow,
  change:
    | { changes: NonNullable<HistoryAttributes['hold_changes']> }
    | { added: HistoryTargetRef }
    | { removed: HistoryTargetRef },
): Promise<string> {
  const attributes: HistoryAttributes = { name: hold.name, hold: holdAttributes(hold) };
  let target: HistoryTargetRef | undefined;
  if ('changes' in change) attributes.hold_changes = change.changes;
  else if ('added' in change) attributes.target_added = target = change.added;
  else attributes.target_removed = target = change.removed;
  return recordEvent(trx, services, ctx, {
    entityType: 'legal_hold',
    entityId: hold.id,
    action: 'update',
    itemId: itemOf(target),
    attributes,
  });
}

/** legal_hold release. */
export function recordHoldReleased(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  hold: LegalHoldRow,
): Promise<string> {
  return recordEvent(trx, services, ctx, {
    entityType: 'legal_hold',
    entityId: hold.id,
    action: 'release',
    itemId: null,
    attributes: { name: hold.name, hold: holdAttributes(hold) },
  });
}

/** One file disposed of, for {@link recordDisposals}. */
export interface Disposal {
  id: string;
  name: string;
  parent: ParentRef;
  disposition: HistoryDispositionAttributes;
}

/** file dispose: one proof per file deleted at the end of its retention, in order. */
export function recordDisposals(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  disposals: readonly Disposal[],
): Promise<string[]> {
  const events: NewEvent[] = disposals.map((d) => ({
    entityType: 'file',
    entityId: d.id,
    action: 'dispose',
    itemId: d.id,
    attributes: {
      name: d.name,
      file_name: d.name,
      parent: { id: d.parent.id, name: d.parent.name },
      disposition: d.disposition,
    },
  }));
  return recordEvents(trx, services, ctx, events);
}
