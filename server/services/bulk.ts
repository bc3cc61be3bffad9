/**
 * Acting on many items at once (SPEC section 7 "Bulk"): move, colour, archive,
 * restore and permanent delete. Each call is ONE transaction that changes the rows and records one
 * history event per named item (recordEvents), so a failure part-way (an id of another firm, a
 * rule broken by one item) leaves nothing changed. Reads and writes go by chunks of ID_CHUNK ids,
 * never one statement per item, so 10,000 items cost tens of statements.
 *
 * The single-item routes (archive, restore, colour of one folder) use the same functions with one
 * item.
 *
 * Archive model (migration 0004): archiving an item sets its archived_at and archived_root_id = its
 * own id; archiving a folder also archives its live contents with archived_root_id = the folder's
 * id. A restore brings back exactly the rows whose archived_root_id names the restored item. An
 * item restored whose parent is archived (and not restored by the same call) or gone goes to the
 * root (`restored_to_root`).
 */
import { BULK_MAX_ITEMS, FOLDER_COLORS, ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { formatMessage, MESSAGES } from '@common/messages';
import { nameKey } from '@common/names';
import type { EntityRef } from '@common/entities';
import type { BulkItemResult, BulkResultDto, FolderColorKey } from '@common/organise';
import { badRequest, notFound } from '../errors';
import { isoAt } from '../ids';
import { folderAncestry } from '../repositories/folders';
import {
  archiveContents,
  archiveNamed,
  childrenOf,
  clearColors,
  colorsOf,
  deleteItems,
  descendantFolderIds,
  detachArchive,
  fileItems,
  filesInFolders,
  folderItems,
  restoreArchives,
  setColors,
  setItemNameAndParent,
  setParent,
  type ItemRow,
} from '../repositories/organise';
import { sha256OfFiles } from '../repositories/renditions';
import { versionObjectsOf } from '../repositories/fileVersions';
import type { Executor } from '../repositories/types';
import type { ObjectStore } from '../storage/objectStore';
import {
  accessibleFolder,
  assertFoldersVisible,
  assertNoHiddenContents,
  assertRole,
} from './access';
import type { RequestContext, Services } from './context';
import { FolderNames } from './folderNames';
import { inTransaction } from './transactions';
import { removeUnusedDerivatives } from './imaging/cleanup';
import { recordEvents, type NewEvent } from './history';
import { folderColorEvent, itemMovedEvent, itemStateEvent, type ParentRef } from './historyEvents';
import {
  assertArchivable,
  assertDestroyable,
  protectionGuard,
  subtreeOf,
  todayOf,
} from './records/protection';
import { recordsRulesOf } from '../repositories/records';

/** Objects removed at once after a permanent delete. */
const DELETE_CONCURRENCY = 16;

/**
 * Refuses a call naming more than BULK_MAX_ITEMS items.
 * @throws AppError 400 'too_many_items' (MESSAGES.tooManyItems)
 */
export function assertBulkSize(items: readonly EntityRef[]): void {
  if (items.length > BULK_MAX_ITEMS) {
    throw badRequest(formatMessage(MESSAGES.tooManyItems, { n: BULK_MAX_ITEMS }), 'too_many_items');
  }
}

/** The refs without repeats, in the order given. */
function distinct(refs: readonly EntityRef[]): EntityRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.type}:${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Reads the named items of the session's firm, in the order given (repeats dropped).
 * @param options.live refuse archived items as not found (they cannot be moved)
 * @throws AppError 404 when any item is not in the session's firm database, is a pending upload,
 *   lies in a restricted folder hidden from the session, or (with `live`) is archived — the whole
 *   call is refused
 */
export async function loadItems(
  db: Executor,
  ctx: RequestContext,
  refs: readonly EntityRef[],
  options: { live?: boolean } = {},
): Promise<ItemRow[]> {
  const wanted = distinct(refs);
  const folderIds = wanted.filter((r) => r.type === 'folder').map((r) => r.id);
  const fileIds = wanted.filter((r) => r.type === 'file').map((r) => r.id);
  const [folders, files] = [
    await folderItems(db, ctx.databaseId, folderIds),
    await fileItems(db, ctx.databaseId, fileIds),
  ];
  const byKey = new Map<string, ItemRow>();
  for (const row of [...folders, ...files]) byKey.set(`${row.type}:${row.id}`, row);
  const rows = wanted.map((ref) => {
    const row = byKey.get(`${ref.type}:${ref.id}`);
    if (!row || row.status !== 'ready' || (options.live && row.archived_at !== null)) {
      throw notFound();
    }
    return row;
  });
  // Folder permissions: any item in a restricted folder hidden from the session refuses the call
  // as if it did not exist (one query for all the items: the folders and the files' folders).
  await assertFoldersVisible(
    db,
    ctx,
    rows.map((r) => (r.type === 'folder' ? r.id : r.parent_id)),
  );
  return rows;
}

/** The folders some items sit in, as events name them ('' is the root). */
async function parentRefs(
  db: Executor,
  databaseId: string,
  parentIds: Iterable<string>,
): Promise<Map<string, ParentRef>> {
  const ids = [...new Set(parentIds)].filter((id) => id !== ROOT_FOLDER_ID);
  const refs = new Map<string, ParentRef>([
    [ROOT_FOLDER_ID, { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME }],
  ]);
  for (const row of await folderItems(db, databaseId, ids)) {
    refs.set(row.id, { id: row.id, name: row.name });
  }
  return refs;
}

function parentOf(refs: Map<string, ParentRef>, id: string): ParentRef {
  return refs.get(id) ?? { id, name: '' };
}

/**
 * Refuses moving or copying folders into themselves or their descendants.
 * @throws AppError 400 with `message` when the target is one of `folderIds` or below one
 */
export async function assertNotIntoItself(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
  targetId: string,
  message: string,
  code: string,
): Promise<void> {
  if (folderIds.length === 0 || targetId === ROOT_FOLDER_ID) return;
  const named = new Set(folderIds);
  const chain = await folderAncestry(db, databaseId, targetId);
  if (chain.some((f) => named.has(f.id))) throw badRequest(message, code);
}

/** The folder and file ids of some items. */
function refsOf(items: readonly ItemRow[]): { folderIds: string[]; fileIds: string[] } {
  return {
    folderIds: items.filter((i) => i.type === 'folder').map((i) => i.id),
    fileIds: items.filter((i) => i.type === 'file').map((i) => i.id),
  };
}

function result(item: ItemRow, extra: Partial<BulkItemResult> = {}): BulkItemResult {
  return { id: item.id, type: item.type, name: item.name, ...extra };
}

/**
 * POST bulk/move: moves items into a live folder. Names are made unique in the target; items
 * already there are answered unchanged. One move event per moved item (changes.prevParent /
 * nextParent). A move that would take an item out of a legal hold, or shorten a file's retention
 * under a locked schedule, is refused (records/protection.ts protectionGuard).
 * @throws AppError 400 too_many_items / move_into_itself (nothing changed), 403 read-only,
 *   404 an item or the target not visible or archived, 409 leaves_legal_hold /
 *   shortens_locked_retention
 */
export async function bulkMove(
  services: Services,
  ctx: RequestContext,
  refs: readonly EntityRef[],
  targetId: string,
): Promise<BulkResultDto> {
  assertBulkSize(refs);
  return inTransaction(services, async (trx) => {
    const target = await accessibleFolder(trx, ctx, targetId, 'write');
    const items = await loadItems(trx, ctx, refs, { live: true });
    await assertNotIntoItself(
      trx,
      ctx.databaseId,
      items.filter((i) => i.type === 'folder').map((i) => i.id),
      targetId,
      MESSAGES.moveIntoItself,
      'move_into_itself',
    );
    const moving = items.filter((i) => i.parent_id !== targetId);
    // Holds follow what they cover and locked schedules only lengthen: a move may not take an
    // item out of either.
    const guard = await protectionGuard(
      trx,
      ctx.databaseId,
      () => subtreeOf(trx, ctx.databaseId, refsOf(moving)),
      todayOf(services.clock),
    );
    const names = new FolderNames(trx, ctx.databaseId, targetId);
    await names.want(moving.map((i) => i.name));
    const at = isoAt(services.clock);
    const plain: Record<'folder' | 'file', string[]> = { folder: [], file: [] };
    const finalNames = new Map<ItemRow, string>();
    for (const item of moving) {
      const finalName = await names.claim(item.name, item.type === 'file');
      finalNames.set(item, finalName);
      if (finalName === item.name) plain[item.type].push(item.id);
      else {
        await setItemNameAndParent(trx, ctx.databaseId, item, {
          name: finalName,
          nameKey: nameKey(finalName),
          parentId: targetId,
          at,
        });
      }
    }
    await setParent(trx, ctx.databaseId, 'folder', plain.folder, targetId, at);
    await setParent(trx, ctx.databaseId, 'file', plain.file, targetId, at);
    await guard.assertKept();
    const parents = await parentRefs(
      trx,
      ctx.databaseId,
      moving.map((i) => i.parent_id),
    );
    const nextParent: ParentRef = target
      ? { id: target.id, name: target.name }
      : { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME };
    await recordEvents(
      trx,
      services,
      ctx,
      moving.map((item) =>
        itemMovedEvent(
          { type: item.type, id: item.id, name: finalNames.get(item)! },
          parentOf(parents, item.parent_id),
          nextParent,
        ),
      ),
    );
    return {
      count: items.length,
      items: items.map((item) =>
        result(item, { name: finalNames.get(item) ?? item.name, prev_parent_id: item.parent_id }),
      ),
    };
  });
}

/** Whether the flag folderColors is on; colours are 404 otherwise. */
function assertColorsOn(services: Services): void {
  if (!services.config.featureFlags.folderColors) throw notFound();
}

/**
 * POST bulk/color (and PATCH colors for one folder): the current user's colour of folders;
 * 'default' removes it. Personal: allowed to read-only members. One update event per folder whose
 * colour changed (replay.color), so the folder's past colours can be replayed.
 * @throws AppError 400 unknown_color / color_folders_only / too_many_items, 404 a folder not
 *   visible (or the folderColors flag off)
 */
export async function bulkColor(
  services: Services,
  ctx: RequestContext,
  refs: readonly EntityRef[],
  color: FolderColorKey,
): Promise<BulkResultDto> {
  assertColorsOn(services);
  assertBulkSize(refs);
  if (!FOLDER_COLORS.some((c) => c.key === color)) {
    throw badRequest(MESSAGES.unknownColor, 'unknown_color');
  }
  if (refs.some((r) => r.type !== 'folder')) {
    throw badRequest(MESSAGES.colorFoldersOnly, 'color_folders_only');
  }
  return inTransaction(services, async (trx) => {
    assertRole(ctx, 'read');
    const items = await loadItems(trx, ctx, refs);
    const ids = items.map((i) => i.id);
    const previous = await colorsOf(trx, ctx.userId, ids);
    if (color === 'default') await clearColors(trx, ctx.userId, ids);
    else await setColors(trx, ctx.userId, ids, color, isoAt(services.clock));
    const changed = items.filter((item) => (previous.get(item.id) ?? 'default') !== color);
    const parents = await parentRefs(
      trx,
      ctx.databaseId,
      changed.map((i) => i.parent_id),
    );
    await recordEvents(
      trx,
      services,
      ctx,
      changed.map((item) =>
        folderColorEvent(
          { id: item.id, name: item.name },
          parentOf(parents, item.parent_id),
          ctx.userId,
          color === 'default' ? null : color,
        ),
      ),
    );
    return {
      count: items.length,
      items: items.map((item) =>
        result(item, { prev_color: (previous.get(item.id) ?? 'default') as FolderColorKey }),
      ),
    };
  });
}

/**
 * POST bulk/archive (and archive of one item): archives live items; a folder takes its live
 * contents with it (archived_root_id = the folder). Items already archived are answered
 * unchanged. One archive event per named item archived. Nothing a legal hold covers is archived.
 * @throws AppError 400 too_many_items, 403 read-only or a folder holding restricted folders hidden
 *   from the session (hidden_contents), 404 an item not visible, 409 under_legal_hold
 */
export async function bulkArchive(
  services: Services,
  ctx: RequestContext,
  refs: readonly EntityRef[],
): Promise<BulkResultDto> {
  assertBulkSize(refs);
  return inTransaction(services, async (trx) => {
    assertRole(ctx, 'write');
    const items = await loadItems(trx, ctx, refs);
    const archiving = items.filter((i) => i.archived_at === null);
    const at = isoAt(services.clock);
    const folderIds = archiving.filter((i) => i.type === 'folder').map((i) => i.id);
    const fileIds = archiving.filter((i) => i.type === 'file').map((i) => i.id);
    await assertNoHiddenContents(trx, ctx, folderIds);
    // A legal hold keeps what it covers out of the Archive (it could be deleted from there).
    if ((await recordsRulesOf(trx, ctx.databaseId)).holds) {
      await assertArchivable(
        trx,
        ctx.databaseId,
        await subtreeOf(trx, ctx.databaseId, { folderIds, fileIds }),
        todayOf(services.clock),
      );
    }
    await archiveNamed(trx, ctx.databaseId, 'folder', folderIds, at);
    await archiveNamed(trx, ctx.databaseId, 'file', fileIds, at);
    await archiveContents(trx, ctx.databaseId, folderIds, at);
    const parents = await parentRefs(
      trx,
      ctx.databaseId,
      archiving.map((i) => i.parent_id),
    );
    await recordEvents(
      trx,
      services,
      ctx,
      archiving.map((item) =>
        itemStateEvent(
          'archive',
          { type: item.type, id: item.id, name: item.name },
          parentOf(parents, item.parent_id),
        ),
      ),
    );
    return { count: items.length, items: items.map((item) => result(item)) };
  });
}

/**
 * POST bulk/restore (and restore of one item): brings archived items back with everything their
 * archive took. An item archived with its folder is restored alone with what went with it below
 * it. Each goes back to its folder when that folder is live (or restored by the same call),
 * otherwise to the root (`restored_to_root`). Names are made unique where the items land. Items
 * already live are answered unchanged. One restore event per named item restored. A restore to
 * the root that would take an item out of a legal hold or shorten its locked retention is refused.
 * @throws AppError 400 too_many_items, 403 read-only, 404 an item not visible, 409
 *   leaves_legal_hold / shortens_locked_retention
 */
export async function bulkRestore(
  services: Services,
  ctx: RequestContext,
  refs: readonly EntityRef[],
): Promise<BulkResultDto> {
  assertBulkSize(refs);
  return inTransaction(services, async (trx) => {
    assertRole(ctx, 'write');
    const items = await loadItems(trx, ctx, refs);
    const restoring = items.filter((i) => i.archived_at !== null);
    // An item restored to the root leaves its folder: holds and locked schedules must not lapse.
    const guard = await protectionGuard(
      trx,
      ctx.databaseId,
      () => subtreeOf(trx, ctx.databaseId, refsOf(restoring)),
      todayOf(services.clock),
    );
    for (const item of restoring) {
      if (item.archived_root_id !== item.id) {
        await detachArchive(trx, ctx.databaseId, item, item.archived_root_id ?? item.id);
      }
    }
    const roots = new Set(restoring.map((i) => i.id));
    const parentIds = [
      ...new Set(restoring.map((i) => i.parent_id).filter((id) => id !== ROOT_FOLDER_ID)),
    ];
    const parentRows = new Map(
      (await folderItems(trx, ctx.databaseId, parentIds)).map((p) => [p.id, p]),
    );
    const liveAfter = (id: string): boolean => {
      if (id === ROOT_FOLDER_ID) return true;
      const parent = parentRows.get(id);
      if (!parent) return false;
      return (
        parent.archived_at === null ||
        roots.has(parent.id) ||
        (parent.archived_root_id !== null && roots.has(parent.archived_root_id))
      );
    };
    const targetOf = new Map<ItemRow, string>();
    for (const item of restoring) {
      targetOf.set(item, liveAfter(item.parent_id) ? item.parent_id : ROOT_FOLDER_ID);
    }
    const names = new Map<string, FolderNames>();
    for (const target of new Set(targetOf.values())) {
      const folderNames = new FolderNames(trx, ctx.databaseId, target);
      await folderNames.want(
        restoring.filter((i) => targetOf.get(i) === target).map((i) => i.name),
      );
      names.set(target, folderNames);
    }
    // A target folder that is archived now comes back with one of the roots: the rows that come
    // back with it take their names too.
    const archivedTargets = [...names.keys()].filter(
      (id) => id !== ROOT_FOLDER_ID && parentRows.get(id)?.archived_at !== null,
    );
    for (const child of await childrenOf(trx, ctx.databaseId, archivedTargets, {
      includeArchived: true,
    })) {
      const comesBack = child.archived_root_id !== null && roots.has(child.archived_root_id);
      if (comesBack && !roots.has(child.id)) names.get(child.parent_id)?.addTaken([child.name]);
    }
    const at = isoAt(services.clock);
    const finalNames = new Map<ItemRow, string>();
    const toRoot: Record<'folder' | 'file', string[]> = { folder: [], file: [] };
    for (const item of restoring) {
      const target = targetOf.get(item)!;
      const finalName = await names.get(target)!.claim(item.name, item.type === 'file');
      finalNames.set(item, finalName);
      if (finalName !== item.name) {
        await setItemNameAndParent(trx, ctx.databaseId, item, {
          name: finalName,
          nameKey: nameKey(finalName),
          parentId: target,
          at,
        });
      } else if (target !== item.parent_id) {
        toRoot[item.type].push(item.id);
      }
    }
    await setParent(trx, ctx.databaseId, 'folder', toRoot.folder, ROOT_FOLDER_ID, at);
    await setParent(trx, ctx.databaseId, 'file', toRoot.file, ROOT_FOLDER_ID, at);
    await restoreArchives(trx, ctx.databaseId, [...roots]);
    await guard.assertKept();
    const parents = new Map<string, ParentRef>([
      [ROOT_FOLDER_ID, { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME }],
    ]);
    for (const row of parentRows.values()) parents.set(row.id, { id: row.id, name: row.name });
    await recordEvents(
      trx,
      services,
      ctx,
      restoring.map((item) =>
        itemStateEvent(
          'restore',
          { type: item.type, id: item.id, name: finalNames.get(item)! },
          parentOf(parents, targetOf.get(item)!),
        ),
      ),
    );
    return {
      count: items.length,
      items: items.map((item) => {
        const target = targetOf.get(item);
        return result(item, {
          name: finalNames.get(item) ?? item.name,
          restored_to_root: target !== undefined && target !== item.parent_id,
        });
      }),
    };
  });
}

/** Removes objects, DELETE_CONCURRENCY at a time; a failure is left for the store's cleanup. */
export async function removeObjects(store: ObjectStore, keys: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      await store.delete(key).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, keys.length) }, worker));
}

/**
 * POST bulk/destroy: permanently deletes archived items with everything below them (rows,
 * favorites, colours and recent items of every user, file versions), then, after the commit,
 * their objects (every version's). One delete event per named item; history events of the items
 * stay. Nothing a retention schedule or a legal hold protects is deleted (records/protection.ts):
 * one protected file or folder anywhere in the trees refuses the whole call.
 * @throws AppError 400 destroy_not_archived (an item is live; nothing deleted) / too_many_items,
 *   403 read-only, 404 an item not visible, 409 under_legal_hold / under_retention (the message
 *   names the first protected item, its hold or schedule and the day the retention ends)
 */
export async function bulkDestroy(
  services: Services,
  ctx: RequestContext,
  refs: readonly EntityRef[],
): Promise<BulkResultDto> {
  assertBulkSize(refs);
  const { answer, keys, sha256s } = await inTransaction(services, async (trx) => {
    assertRole(ctx, 'write');
    const items = await loadItems(trx, ctx, refs);
    if (items.some((i) => i.archived_at === null)) {
      throw badRequest(MESSAGES.destroyNotArchived, 'destroy_not_archived');
    }
    const namedFolders = items.filter((i) => i.type === 'folder').map((i) => i.id);
    await assertNoHiddenContents(trx, ctx, namedFolders);
    const folderIds = [
      ...new Set([
        ...namedFolders,
        ...(await descendantFolderIds(trx, ctx.databaseId, namedFolders)),
      ]),
    ];
    const files = new Map<string, string>();
    for (const f of await filesInFolders(trx, ctx.databaseId, folderIds)) {
      files.set(f.id, f.storage_key);
    }
    for (const item of items) if (item.type === 'file') files.set(item.id, item.storage_key!);
    // Retention and legal holds: nothing they protect is deleted (the whole call is refused).
    await assertDestroyable(
      trx,
      ctx.databaseId,
      { folderIds, fileIds: [...files.keys()] },
      todayOf(services.clock),
    );
    const parents = await parentRefs(
      trx,
      ctx.databaseId,
      items.map((i) => i.parent_id),
    );
    const sha256s = await sha256OfFiles(trx, ctx.databaseId, [...files.keys()]);
    // Every version's object goes too (the rows go with their file).
    const keys = new Set(files.values());
    for (const version of await versionObjectsOf(trx, ctx.databaseId, [...files.keys()])) {
      keys.add(version.storage_key);
      if (version.sha256 && !sha256s.includes(version.sha256)) sha256s.push(version.sha256);
    }
    await deleteItems(trx, ctx.databaseId, folderIds, [...files.keys()]);
    const events: NewEvent[] = items.map((item) =>
      itemStateEvent(
        'delete',
        { type: item.type, id: item.id, name: item.name },
        parentOf(parents, item.parent_id),
      ),
    );
    await recordEvents(trx, services, ctx, events);
    return {
      answer: { count: items.length, items: items.map((item) => result(item)) },
      keys: [...keys],
      sha256s,
    };
  });
  await removeObjects(services.store, keys);
  // Document imaging's derivatives of bytes no file holds any more; a failure is left to the
  // start-up sweep.
  await removeUnusedDerivatives(services, sha256s).catch(() => undefined);
  return answer;
}
