/**
 * Legal holds, managed by the firm's administrators (assertAdmin): list, place (on folders, files
 * and CRM contacts), change (name, reason, matter; items added or taken off), and release. What
 * an active hold covers cannot be destroyed or archived whatever its retention says
 * (protection.ts), nor leave the hold by a move or a contact unlink. Every change records its
 * legal_hold event in the same transaction (recordsEvents.ts). A released hold never changes
 * again and no hold is ever deleted (also refused by the database's triggers, migration 0027):
 * the list keeps them as the record of what was held, when and why.
 */
import {
  HOLD_REASON_MAX_LENGTH,
  recordsMessage,
  RECORDS_MESSAGES,
  RECORDS_NAME_MAX_LENGTH,
  type CreateLegalHoldRequest,
  type LegalHoldDto,
  type RecordsTargetRequest,
  type UpdateLegalHoldRequest,
} from '@common/retention';
import type { HistoryAttributes } from '@common/history';
import type { LegalHoldRow } from '@server/db/schemaRecords';
import { badRequest, conflict, notFound } from '@server/errors';
import { isoAt, newId } from '@server/ids';
import {
  activeHoldTargetsFor,
  deleteHoldTarget,
  findHold,
  findHoldTarget,
  holdTargets,
  insertHold,
  insertHoldTargets,
  listHolds as listHoldRows,
  updateHold as updateHoldRow,
  userNames,
} from '@server/repositories/records';
import type { Executor } from '@server/repositories/types';
import { assertAdmin } from '../access';
import type { RequestContext, Services } from '../context';
import { inTransaction } from '../transactions';
import { recordHoldPlaced, recordHoldReleased, recordHoldUpdated } from './recordsEvents';
import { checkRecordsName } from './schedules';
import { presentTargets, resolveTargets } from './targets';

const HOLD_TARGET_TYPES = ['folder', 'file', 'contact'] as const;

/** A checked free text (matter, reason): trimmed, at most `max` characters. */
function checkText(value: unknown, max: number, message: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text.length > max) throw badRequest(recordsMessage(message, { n: max }), 'invalid_text');
  return text;
}

async function present(
  db: Executor,
  databaseId: string,
  rows: LegalHoldRow[],
): Promise<LegalHoldDto[]> {
  const targets = await holdTargets(
    db,
    databaseId,
    rows.map((r) => r.id),
  );
  const shown = await presentTargets(db, databaseId, targets);
  const byHold = new Map<string, typeof shown>();
  targets.forEach((t, i) => {
    const list = byHold.get(t.hold_id) ?? [];
    list.push(shown[i]!);
    byHold.set(t.hold_id, list);
  });
  const users = await userNames(
    db,
    rows.flatMap((r) => [r.created_by, r.released_by]),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    reason: r.reason,
    matter: r.matter,
    status: r.released_at === null ? 'active' : 'released',
    targets: byHold.get(r.id) ?? [],
    created_at: r.created_at,
    created_by_name: r.created_by ? (users.get(r.created_by) ?? '') : '',
    updated_at: r.updated_at,
    released_at: r.released_at,
    released_by_name: r.released_by ? (users.get(r.released_by) ?? null) : null,
  }));
}

async function presentOne(db: Executor, databaseId: string, id: string): Promise<LegalHoldDto> {
  return (await present(db, databaseId, [(await findHold(db, databaseId, id))!]))[0]!;
}

/** An active hold of the session's firm. @throws AppError 404; 409 `hold_released` */
async function activeHold(db: Executor, ctx: RequestContext, id: string): Promise<LegalHoldRow> {
  const row = await findHold(db, ctx.databaseId, id);
  if (!row) throw notFound();
  if (row.released_at !== null) {
    throw conflict(
      recordsMessage(RECORDS_MESSAGES.holdReleased, { name: row.name }),
      'hold_released',
    );
  }
  return row;
}

/**
 * GET REST/private/legal_holds: the firm's holds, active first, newest first, with what they name.
 * @throws AppError 403 for non-administrators
 */
export async function listHolds(services: Services, ctx: RequestContext): Promise<LegalHoldDto[]> {
  assertAdmin(ctx);
  return present(services.db, ctx.databaseId, await listHoldRows(services.db, ctx.databaseId));
}

/**
 * GET REST/private/legal_holds/{id}: one hold.
 * @throws AppError 403 non-administrators; 404 not the firm's
 */
export async function getHold(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<LegalHoldDto> {
  assertAdmin(ctx);
  if (!(await findHold(services.db, ctx.databaseId, id))) throw notFound();
  return presentOne(services.db, ctx.databaseId, id);
}

/**
 * POST REST/private/legal_holds: places a hold on folders, files and contacts of the firm
 * (archived ones included). One legal_hold create event naming them.
 * @throws AppError 403 non-administrators; 400 no name, no target, too many, text too long; 404
 *   an item not the firm's
 */
export async function placeHold(
  services: Services,
  ctx: RequestContext,
  input: CreateLegalHoldRequest,
): Promise<LegalHoldDto> {
  assertAdmin(ctx);
  const name = checkRecordsName(input.name);
  const matter = checkText(input.matter, RECORDS_NAME_MAX_LENGTH, RECORDS_MESSAGES.matterTooLong);
  const reason = checkText(input.reason, HOLD_REASON_MAX_LENGTH, RECORDS_MESSAGES.reasonTooLong);
  if (input.targets.length === 0) {
    throw badRequest(RECORDS_MESSAGES.holdTargetsRequired, 'hold_targets_required');
  }
  return inTransaction(services, async (trx) => {
    const targets = await resolveTargets(
      trx,
      ctx.databaseId,
      input.targets,
      HOLD_TARGET_TYPES,
      RECORDS_MESSAGES.holdTargetsRequired,
    );
    const now = isoAt(services.clock);
    const id = newId();
    await insertHold(trx, {
      id,
      database_id: ctx.databaseId,
      name,
      reason,
      matter,
      created_by: ctx.userId,
      created_at: now,
      updated_at: now,
      released_at: null,
      released_by: null,
    });
    await insertHoldTargets(
      trx,
      targets.map((t) => ({
        id: newId(),
        database_id: ctx.databaseId,
        hold_id: id,
        target_type: t.type,
        target_id: t.id,
        created_by: ctx.userId,
        created_at: now,
      })),
    );
    await recordHoldPlaced(trx, services, ctx, (await findHold(trx, ctx.databaseId, id))!, targets);
    return presentOne(trx, ctx.databaseId, id);
  });
}

/**
 * PATCH REST/private/legal_holds/{id}: a new name, reason or matter. One legal_hold update event
 * with the changes (none when nothing changed).
 * @throws AppError 403 non-administrators; 404 not the firm's; 400 invalid text; 409 released
 */
export async function updateHold(
  services: Services,
  ctx: RequestContext,
  id: string,
  input: UpdateLegalHoldRequest,
): Promise<LegalHoldDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await activeHold(trx, ctx, id);
    const next = {
      name: input.name === undefined ? row.name : checkRecordsName(input.name),
      matter:
        input.matter === undefined
          ? row.matter
          : checkText(input.matter, RECORDS_NAME_MAX_LENGTH, RECORDS_MESSAGES.matterTooLong),
      reason:
        input.reason === undefined
          ? row.reason
          : checkText(input.reason, HOLD_REASON_MAX_LENGTH, RECORDS_MESSAGES.reasonTooLong),
    };
    const changes: NonNullable<HistoryAttributes['hold_changes']> = {};
    for (const key of ['name', 'matter', 'reason'] as const) {
      if (next[key] !== row[key]) changes[key] = { prev: row[key], next: next[key] };
    }
    if (Object.keys(changes).length > 0) {
      await updateHoldRow(trx, ctx.databaseId, row.id, {
        ...next,
        updated_at: isoAt(services.clock),
      });
      const updated = (await findHold(trx, ctx.databaseId, row.id))!;
      await recordHoldUpdated(trx, services, ctx, updated, { changes });
    }
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/**
 * POST REST/private/legal_holds/{id}/targets: adds a folder, file or contact to an active hold
 * (one already named is answered unchanged). One legal_hold update event.
 * @throws AppError 403 non-administrators; 404 the hold or item not the firm's; 409 released
 */
export async function addHoldTarget(
  services: Services,
  ctx: RequestContext,
  id: string,
  target: RecordsTargetRequest,
): Promise<LegalHoldDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await activeHold(trx, ctx, id);
    const [item] = await resolveTargets(
      trx,
      ctx.databaseId,
      [target],
      HOLD_TARGET_TYPES,
      RECORDS_MESSAGES.holdTargetsRequired,
    );
    const now = isoAt(services.clock);
    const added = await insertHoldTargets(trx, [
      {
        id: newId(),
        database_id: ctx.databaseId,
        hold_id: row.id,
        target_type: item!.type,
        target_id: item!.id,
        created_by: ctx.userId,
        created_at: now,
      },
    ]);
    if (added > 0) {
      await updateHoldRow(trx, ctx.databaseId, row.id, { updated_at: now });
      await recordHoldUpdated(trx, services, ctx, row, { added: item! });
    }
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/**
 * DELETE REST/private/legal_holds/{id}/targets/{targetId}: takes an item off an active hold (what
 * it covered may then be destroyed, if nothing else protects it). A hold keeps at least one item:
 * release it instead. One legal_hold update event.
 * @throws AppError 403 non-administrators; 404 the hold or target not the firm's; 409 released;
 *   400 `hold_last_target`
 */
export async function removeHoldTarget(
  services: Services,
  ctx: RequestContext,
  id: string,
  targetId: string,
): Promise<LegalHoldDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await activeHold(trx, ctx, id);
    const target = await findHoldTarget(trx, ctx.databaseId, row.id, targetId);
    if (!target) throw notFound();
    if ((await holdTargets(trx, ctx.databaseId, [row.id])).length <= 1) {
      throw badRequest(RECORDS_MESSAGES.holdLastTarget, 'hold_last_target');
    }
    const [shown] = await presentTargets(trx, ctx.databaseId, [target]);
    await deleteHoldTarget(trx, ctx.databaseId, target.id);
    await updateHoldRow(trx, ctx.databaseId, row.id, { updated_at: isoAt(services.clock) });
    await recordHoldUpdated(trx, services, ctx, row, {
      removed: { type: target.target_type, id: target.target_id, name: shown?.name ?? '' },
    });
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/**
 * POST REST/private/legal_holds/{id}/release: releases an active hold for good; what it covered
 * may be destroyed or archived again (as far as its retention allows). One legal_hold release
 * event.
 * @throws AppError 403 non-administrators; 404 not the firm's; 409 already released
 */
export async function releaseHold(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<LegalHoldDto> {
  assertAdmin(ctx);
  return inTransaction(services, async (trx) => {
    const row = await activeHold(trx, ctx, id);
    const now = isoAt(services.clock);
    await updateHoldRow(trx, ctx.databaseId, row.id, {
      released_at: now,
      released_by: ctx.userId,
      updated_at: now,
    });
    await recordHoldReleased(trx, services, ctx, row);
    return presentOne(trx, ctx.databaseId, row.id);
  });
}

/**
 * Refuses unlinking a contact from a folder while an active hold names the contact: the hold
 * covers the contact's linked folders, and an unlink would take the folder out of it.
 * @throws AppError 409 `contact_on_hold` naming the contact and the hold
 */
export async function assertContactUnlinkable(
  db: Executor,
  databaseId: string,
  contact: { id: string; name: string },
): Promise<void> {
  const [hold] = (await activeHoldTargetsFor(db, databaseId, [contact.id])).filter(
    (t) => t.target_type === 'contact',
  );
  if (hold) {
    throw conflict(
      recordsMessage(RECORDS_MESSAGES.contactHeld, { contact: contact.name, hold: hold.name }),
      'contact_on_hold',
    );
  }
}
