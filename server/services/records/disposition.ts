/**
 * The disposition queue: files whose retention has ended and that no hold covers, reviewed and
 * approved for permanent deletion by the firm's administrators (assertAdmin). Approval deletes the
 * files' rows and then their bytes, and leaves one file `dispose` event per file in the same
 * transaction: the proof of deletion (name, sha256, size, path, the schedule that ended and when,
 * the approver, the time), which stays in the hash-chained history after the bytes are gone.
 *
 * A file is due when at least one schedule applies to it, none waits for its date, the latest end
 * of them all is today or earlier (UTC days), and no active hold covers it (protection.ts). Files
 * under no schedule are never listed: the queue is only what retention let go.
 */
import { BULK_MAX_ITEMS, ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { formatMessage, MESSAGES } from '@common/messages';
import {
  DISPOSITION_LIST_MAX,
  recordsMessage,
  RECORDS_MESSAGES,
  type ApproveDispositionResponse,
  type DispositionItemDto,
  type DispositionQueueDto,
} from '@common/retention';
import { plural } from '@common/text';
import { badRequest, conflict, notFound } from '@server/errors';
import { deleteItems, descendantFolderIds } from '@server/repositories/organise';
import {
  allScheduleTargets,
  entitiesWithValue,
  folderLinks,
  listSchedules,
  readyFileIdsIn,
  recordFiles,
} from '@server/repositories/records';
import type { Executor } from '@server/repositories/types';
import { assertAdmin } from '../access';
import { removeObjects } from '../bulk';
import type { RequestContext, Services } from '../context';
import { fingerprintFile } from '../fingerprints';
import { removeUnusedDerivatives } from '../imaging/cleanup';
import { inTransaction } from '../transactions';
import {
  protectionOf,
  refusalOf,
  todayOf,
  underRetention,
  type FileProtection,
} from './protection';
import { recordDisposals, type Disposal } from './recordsEvents';

/** Files whose protection is read at once while the queue is worked out. */
const QUEUE_BATCH = 2000;

/** The files any schedule reaches: applied to them or a folder above, or selected by a value. */
async function scheduledFileIds(db: Executor, databaseId: string): Promise<string[]> {
  const schedules = await listSchedules(db, databaseId);
  if (schedules.length === 0) return [];
  const files = new Set<string>();
  const roots = new Set<string>();
  for (const t of await allScheduleTargets(db, databaseId)) {
    (t.target_type === 'file' ? files : roots).add(t.target_id);
  }
  for (const s of schedules) {
    if (!s.selector_field_id || s.selector_value === null) continue;
    for (const e of await entitiesWithValue(
      db,
      databaseId,
      s.selector_field_id,
      s.selector_value,
    )) {
      (e.entity_type === 'file' ? files : roots).add(e.entity_id);
    }
  }
  const folders = [...roots, ...(await descendantFolderIds(db, databaseId, [...roots]))];
  for (const id of await readyFileIdsIn(db, databaseId, folders)) files.add(id);
  return [...files];
}

/** Whether a file may go now: scheduled, every end passed, no hold. */
function isDue(p: FileProtection, today: string): boolean {
  return p.schedules.length > 0 && p.holds.length === 0 && !underRetention(p, today);
}

/** The schedule whose end came last (what the proof names). */
function governing(p: FileProtection) {
  return p.schedules.find((s) => s.ends_on === p.retainedUntil) ?? p.schedules[0]!;
}

function queueItem(p: FileProtection): DispositionItemDto {
  const schedule = governing(p);
  return {
    id: p.id,
    name: p.name,
    path: p.path,
    size: p.file.size,
    sha256: p.file.sha256,
    archived: p.file.archived_at !== null,
    schedule_id: schedule.schedule_id,
    schedule_name: schedule.schedule_name,
    ended_on: p.retainedUntil!,
  };
}

/**
 * GET REST/private/disposition: the due files, the oldest end first (then by name), at most
 * DISPOSITION_LIST_MAX, with the count of all due files.
 * @throws AppError 403 for non-administrators
 */
export async function dispositionQueue(
  services: Services,
  ctx: RequestContext,
): Promise<DispositionQueueDto> {
  assertAdmin(ctx);
  const today = todayOf(services.clock);
  const ids = await scheduledFileIds(services.db, ctx.databaseId);
  const due: DispositionItemDto[] = [];
  for (let i = 0; i < ids.length; i += QUEUE_BATCH) {
    const protection = await protectionOf(
      services.db,
      ctx.databaseId,
      { fileIds: ids.slice(i, i + QUEUE_BATCH) },
      today,
    );
    for (const p of protection.files.values()) if (isDue(p, today)) due.push(queueItem(p));
  }
  due.sort(
    (a, b) =>
      a.ended_on.localeCompare(b.ended_on) ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
  return { items: due.slice(0, DISPOSITION_LIST_MAX), total: due.length, today };
}

/**
 * POST REST/private/disposition/approve: permanently deletes files of the queue. Each is checked
 * again in the transaction: a file no longer due (a hold placed, a schedule lengthened, a date
 * set) refuses the whole call and nothing is deleted. Files without a sha256 yet are fingerprinted
 * first, so the proof names the bytes. One file `dispose` event per file; the bytes and unused
 * derivatives go after the commit (a failed object delete is left to the store's cleanup).
 * @throws AppError 403 non-administrators; 400 no file or more than BULK_MAX_ITEMS; 404 a file not
 *   the firm's (or a pending upload); 409 `not_due` naming the first file and what protects it
 */
export async function approveDisposition(
  services: Services,
  ctx: RequestContext,
  fileIds: readonly string[],
): Promise<ApproveDispositionResponse> {
  assertAdmin(ctx);
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) throw badRequest(RECORDS_MESSAGES.nothingSelected, 'nothing_selected');
  if (ids.length > BULK_MAX_ITEMS) {
    throw badRequest(formatMessage(MESSAGES.tooManyItems, { n: BULK_MAX_ITEMS }), 'too_many_items');
  }
  for (const file of await recordFiles(services.db, ctx.databaseId, ids)) {
    if (file.status !== 'ready' || file.sha256) continue;
    await fingerprintFile(services, {
      databaseId: ctx.databaseId,
      id: file.id,
      storageKey: file.storage_key,
    }).catch(() => null);
  }
  const { answer, keys, sha256s } = await inTransaction(services, async (trx) => {
    const today = todayOf(services.clock);
    const protection = await protectionOf(trx, ctx.databaseId, { fileIds: ids }, today);
    const files = ids.map((id) => {
      const p = protection.files.get(id);
      if (!p) throw notFound();
      return p;
    });
    const refusals = files
      .map((p) =>
        p.schedules.length === 0
          ? recordsMessage(RECORDS_MESSAGES.notInQueue, { name: p.name })
          : refusalOf(p, today),
      )
      .filter((m): m is string => m !== null);
    if (refusals.length > 0) {
      const more = refusals.length - 1;
      throw conflict(
        more === 0
          ? refusals[0]!
          : recordsMessage(RECORDS_MESSAGES.moreProtected, {
              message: refusals[0]!,
              n: more,
              items: plural(more, 'item'),
            }),
        'not_due',
      );
    }
    const folderIds = [...new Set(files.map((p) => p.folderId))].filter(
      (id) => id !== ROOT_FOLDER_ID,
    );
    const folderNames = new Map(
      (await folderLinks(trx, ctx.databaseId, folderIds)).map((f) => [f.id, f.name]),
    );
    const disposals: Disposal[] = files.map((p) => {
      const schedule = governing(p);
      return {
        id: p.id,
        name: p.name,
        parent: {
          id: p.folderId,
          name:
            p.folderId === ROOT_FOLDER_ID ? ROOT_FOLDER_NAME : (folderNames.get(p.folderId) ?? ''),
        },
        disposition: {
          sha256: p.file.sha256,
          size: p.file.size,
          path: p.path,
          schedule: { id: schedule.schedule_id, name: schedule.schedule_name },
          ended_on: p.retainedUntil!,
          approved_by: ctx.userName,
        },
      };
    });
    await deleteItems(trx, ctx.databaseId, [], ids);
    await recordDisposals(trx, services, ctx, disposals);
    return {
      answer: {
        count: files.length,
        items: files.map((p) => ({ id: p.id, name: p.name, sha256: p.file.sha256 })),
      },
      keys: files.map((p) => p.file.storage_key),
      sha256s: [...new Set(files.map((p) => p.file.sha256).filter((s): s is string => !!s))],
    };
  });
  await removeObjects(services.store, keys);
  await removeUnusedDerivatives(services, sha256s).catch(() => undefined);
  return answer;
}
