/**
 * Organising one item (SPEC sections 3, 5 and 7): rename and move (PATCH of a
 * folder or file), copy of a folder tree, archive and restore of one item, favourites and the
 * user's folder colour. Rules (unique names, not into itself, archive roots) are decided here and
 * in bulk.ts, inside one transaction that also records the history event.
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { fileNameKeepingExtension, nameKey, validateEntityName } from '@common/names';
import type { EntityDto, FileDto, FolderDto, UpdateEntityRequest } from '@common/entities';
import type { BulkResultDto, FolderColorKey, RestoreResultDto } from '@common/organise';
import type { FilesTable, FoldersTable } from '../db/schema';
import { badRequest } from '../errors';
import { isoAt, newId } from '../ids';
import {
  folderItems,
  insertFiles,
  insertFolders,
  liveFilesIn,
  liveTree,
  setItemNameAndParent,
  upsertFavorite,
} from '../repositories/organise';
import type { Executor } from '../repositories/types';
import { insertVersions } from '../repositories/fileVersions';
import type { Insertable } from 'kysely';
import { accessibleFile, accessibleFolder, hiddenRoots } from './access';
import { firstVersionOf } from './fileVersions';
import { fingerprintLater } from './fingerprints';
import { assertNotIntoItself, bulkArchive, bulkColor, bulkRestore, removeObjects } from './bulk';
import { FolderNames } from './folderNames';
import { inTransaction } from './transactions';
import type { RequestContext, Services } from './context';
import { getFile } from './files';
import { getFolder } from './folders';
import { recordEvents, type NewEvent } from './history';
import { protectionGuard, subtreeOf, todayOf } from './records/protection';
import {
  itemMovedEvent,
  itemRenamedEvent,
  recordFavoriteChanged,
  recordFolderCopied,
  recordItemCreated,
  type ParentRef,
} from './historyEvents';

/** Objects copied at once by a folder copy. */
const COPY_CONCURRENCY = 8;

/** Which kind of item a route acts on. */
export type ItemKind = 'folder' | 'file';

async function parentRef(db: Executor, databaseId: string, id: string): Promise<ParentRef> {
  if (id === ROOT_FOLDER_ID) return { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME };
  const [row] = await folderItems(db, databaseId, [id]);
  return { id, name: row?.name ?? '' };
}

/**
 * The name a rename asks for, trimmed and checked; a file keeps its extension (a name not ending
 * in `.<extension>` gets it appended: "Jan" → "Jan.pdf").
 * @throws AppError 400 'invalid_name'
 */
export function requestedName(name: string, kind: ItemKind, extension: string): string {
  let wanted = name.trim();
  let problem = validateEntityName(wanted, kind);
  if (!problem && kind === 'file' && extension) {
    const kept = fileNameKeepingExtension(wanted, extension);
    if (kept !== wanted) {
      wanted = kept;
      problem = validateEntityName(wanted, kind);
    }
  }
  if (problem) throw badRequest(problem, 'invalid_name');
  return wanted;
}

/** The item as the route answers it. */
function present(
  services: Services,
  ctx: RequestContext,
  kind: ItemKind,
  id: string,
): Promise<FolderDto | FileDto> {
  return kind === 'folder' ? getFolder(services, ctx, id) : getFile(services, ctx, id);
}

/**
 * PATCH folders/{id} and files/{id}: renames and/or moves one live item. The name is made unique
 * in the target folder (the item itself excluded); a file keeps its extension. Records rename
 * (prev/next name) and/or move (changes.prevParent/nextParent); nothing when nothing changes. A
 * move out of a legal hold, or one that shortens a locked retention, is refused (bulkMove's rule).
 * @throws AppError 400 invalid_name / move_into_itself (nothing changed), 403 read-only, 404 the
 *   item or the target not visible or archived, 409 leaves_legal_hold / shortens_locked_retention
 */
export async function updateEntity(
  services: Services,
  ctx: RequestContext,
  kind: ItemKind,
  id: string,
  request: UpdateEntityRequest,
): Promise<FolderDto | FileDto> {
  await inTransaction(services, async (trx) => {
    const item =
      kind === 'folder'
        ? await accessibleFolder(trx, ctx, id, 'write')
        : await accessibleFile(trx, ctx, id, 'write');
    if (!item) throw badRequest('The root folder cannot be changed.', 'root_folder');
    const currentParent = 'parent_id' in item ? item.parent_id : item.folder_id;
    const extension = 'extension' in item ? item.extension : '';
    const targetId = request.parent_id ?? currentParent;
    const moving = targetId !== currentParent;
    const target = moving ? await accessibleFolder(trx, ctx, targetId, 'write') : null;
    if (moving && kind === 'folder') {
      await assertNotIntoItself(
        trx,
        ctx.databaseId,
        [id],
        targetId,
        MESSAGES.moveIntoItself,
        'move_into_itself',
      );
    }
    const wanted =
      request.name !== undefined ? requestedName(request.name, kind, extension) : item.name;
    const names = new FolderNames(trx, ctx.databaseId, targetId, new Set([id]));
    await names.want([wanted]);
    const finalName = await names.claim(wanted, kind === 'file');
    if (finalName === item.name && !moving) return;
    // A move may not take the item out of a legal hold or shorten its locked retention.
    const guard = moving
      ? await protectionGuard(
          trx,
          ctx.databaseId,
          () =>
            subtreeOf(
              trx,
              ctx.databaseId,
              kind === 'folder' ? { folderIds: [id] } : { fileIds: [id] },
            ),
          todayOf(services.clock),
        )
      : null;
    await setItemNameAndParent(
      trx,
      ctx.databaseId,
      { type: kind, id },
      {
        name: finalName,
        nameKey: nameKey(finalName),
        parentId: targetId,
        at: isoAt(services.clock),
      },
    );
    await guard?.assertKept();
    const prevParent = await parentRef(trx, ctx.databaseId, currentParent);
    const nextParent = moving
      ? { id: targetId, name: target?.name ?? ROOT_FOLDER_NAME }
      : prevParent;
    const events: NewEvent[] = [];
    if (finalName !== item.name) {
      events.push(
        itemRenamedEvent({ type: kind, id }, { prev: item.name, next: finalName }, nextParent),
      );
    }
    if (moving) {
      events.push(itemMovedEvent({ type: kind, id, name: finalName }, prevParent, nextParent));
    }
    await recordEvents(trx, services, ctx, events);
  });
  return present(services, ctx, kind, id);
}

/**
 * Runs `task` over `items`, `limit` at a time. After a failure no new task starts; it waits for
 * the running ones to end (so the caller can clean up after all of them) and throws the first
 * failure.
 */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

/**
 * POST folders/{id}/copy: copies a live folder with its live subfolders and ready files into a
 * live folder (default: the folder's own parent). New ids and object keys; the objects are copied
 * in the store before the rows are written, and deleted again when the transaction fails. The top
 * folder's name is made unique in the target; names below are kept. One copy event on the source
 * (copy names the new folder). Restricted subfolders hidden from the session are left out.
 * @returns the new top folder
 * @throws AppError 400 copy_into_itself, 403 read-only, 404 the folder or target not visible
 */
export async function copyFolder(
  services: Services,
  ctx: RequestContext,
  id: string,
  parentId: string | undefined,
): Promise<FolderDto> {
  const { db } = services;
  const source = await accessibleFolder(db, ctx, id, 'write');
  if (!source) throw badRequest('The root folder cannot be copied.', 'root_folder');
  const targetId = parentId ?? source.parent_id;
  await accessibleFolder(db, ctx, targetId, 'write');
  await assertNotIntoItself(
    db,
    ctx.databaseId,
    [id],
    targetId,
    MESSAGES.copyIntoItself,
    'copy_into_itself',
  );
  // Restricted subfolders hidden from the session are not copied (nor revealed by the copy).
  const tree = await liveTree(db, ctx.databaseId, id, await hiddenRoots(db, ctx));
  const files = await liveFilesIn(
    db,
    ctx.databaseId,
    tree.map((f) => f.id),
  );
  const at = isoAt(services.clock);
  const newIds = new Map(tree.map((f) => [f.id, newId()]));
  const topId = newIds.get(id)!;
  const folderRows: Insertable<FoldersTable>[] = tree.map((f) => ({
    id: newIds.get(f.id)!,
    database_id: ctx.databaseId,
    parent_id: f.id === id ? targetId : newIds.get(f.parent_id)!,
    name: f.name,
    name_key: f.name_key,
    created_by: ctx.userId,
    created_at: at,
    updated_at: at,
    archived_at: null,
    archived_root_id: null,
  }));
  const copies: { from: string; to: string }[] = [];
  // Every copied item beside its copy, top folder first (the copy event's replay facts).
  const pairs: [string, string][] = tree.map((f) => [f.id, newIds.get(f.id)!]);
  const fileRows: Insertable<FilesTable>[] = files.map((f) => {
    const fileId = newId();
    pairs.push([f.id, fileId]);
    const storageKey = `${ctx.databaseId}/${fileId}`;
    copies.push({ from: f.storage_key, to: storageKey });
    return {
      ...f,
      id: fileId,
      folder_id: newIds.get(f.folder_id)!,
      storage_key: storageKey,
      created_by: ctx.userId,
      created_at: at,
      updated_at: at,
      archived_at: null,
      archived_root_id: null,
    };
  });
  const copied: string[] = [];
  try {
    await eachLimited(copies, COPY_CONCURRENCY, async (c) => {
      await services.store.copyObject(c.from, c.to);
      copied.push(c.to);
    });
    await inTransaction(services, async (trx) => {
      const live = await accessibleFolder(trx, ctx, id, 'write');
      const target = await accessibleFolder(trx, ctx, targetId, 'write');
      await assertNotIntoItself(
        trx,
        ctx.databaseId,
        [id],
        targetId,
        MESSAGES.copyIntoItself,
        'copy_into_itself',
      );
      const names = new FolderNames(trx, ctx.databaseId, targetId);
      await names.want([live!.name]);
      const topName = await names.claim(live!.name, false);
      folderRows[0] = { ...folderRows[0]!, name: topName, name_key: nameKey(topName) };
      await insertFolders(trx, folderRows);
      await insertFiles(trx, fileRows);
      // A copy is a new file: its version 1 is the copied object (the source's older versions
      // stay with the source).
      await insertVersions(
        trx,
        fileRows.filter((row) => row.status === 'ready').map((row) => firstVersionOf(row)),
      );
      await recordFolderCopied(
        trx,
        services,
        ctx,
        { id, name: live!.name },
        { id: topId, name: topName },
        await parentRef(trx, ctx.databaseId, live!.parent_id),
        { id: targetId, name: target?.name ?? ROOT_FOLDER_NAME },
        pairs,
      );
    });
  } catch (error) {
    await removeObjects(services.store, copied);
    throw error;
  }
  // Copies of files not fingerprinted yet have no sha256 either: fingerprinted after this answer.
  for (const row of fileRows) {
    if (row.sha256 || row.status !== 'ready') continue;
    fingerprintLater(services, {
      databaseId: ctx.databaseId,
      id: row.id,
      storageKey: row.storage_key,
    });
  }
  return getFolder(services, ctx, topId);
}

/**
 * POST files/{id}/copy ("Make a copy"): copies a live file into a live folder (default: its own
 * folder) under the next free name ("Statement.pdf" → "Statement (1).pdf", common/names.ts). The
 * copy is a new row with a new object key whose object is copied in the store first (a copy-on-
 * write clone where the file system offers one, a server-side copy on S3), so it has the same
 * bytes, size, type and sha256; the object is deleted again when the transaction fails. The spec
 * keeps `copy` events for folders, so the copy is recorded as the new file's `create` ("added")
 * in the target folder.
 * @returns the new file
 * @throws AppError 403 read-only, 404 the file or target not visible (or archived)
 */
export async function copyFile(
  services: Services,
  ctx: RequestContext,
  id: string,
  parentId: string | undefined,
): Promise<FileDto> {
  const { db } = services;
  const source = await accessibleFile(db, ctx, id, 'write');
  const targetId = parentId ?? source.folder_id;
  await accessibleFolder(db, ctx, targetId, 'write');
  const fileId = newId();
  const storageKey = `${ctx.databaseId}/${fileId}`;
  await services.store.copyObject(source.storage_key, storageKey);
  let sha256: string | null = null;
  try {
    await inTransaction(services, async (trx) => {
      const live = await accessibleFile(trx, ctx, id, 'write');
      const target = await accessibleFolder(trx, ctx, targetId, 'write');
      const names = new FolderNames(trx, ctx.databaseId, targetId);
      await names.want([live.name]);
      const name = await names.claim(live.name, true);
      const at = isoAt(services.clock);
      sha256 = live.sha256;
      const copy = {
        id: fileId,
        database_id: ctx.databaseId,
        folder_id: targetId,
        name,
        name_key: nameKey(name),
        extension: live.extension,
        size: live.size,
        content_type: live.content_type,
        storage_key: storageKey,
        status: 'ready' as const,
        sha256: live.sha256,
        created_by: ctx.userId,
        created_at: at,
        updated_at: at,
        archived_at: null,
        archived_root_id: null,
      };
      await insertFiles(trx, [copy]);
      // A copy is a new file: its version 1 is the copied object (the newest of the source).
      await insertVersions(trx, [firstVersionOf(copy)]);
      await recordItemCreated(
        trx,
        services,
        ctx,
        { type: 'file', id: fileId, name },
        { id: targetId, name: target?.name ?? ROOT_FOLDER_NAME },
        { number: 1, size: live.size, sha256: live.sha256 },
      );
    });
  } catch (error) {
    await removeObjects(services.store, [storageKey]);
    throw error;
  }
  // A source not fingerprinted yet gives a copy without a sha256: fingerprinted after the answer.
  if (!sha256) fingerprintLater(services, { databaseId: ctx.databaseId, id: fileId, storageKey });
  return getFile(services, ctx, fileId);
}

/**
 * POST folders/{id}/archive and files/{id}/archive: archives one item (a folder with its live
 * contents), as bulk/archive with one item.
 * @throws AppError 403 read-only, 404 not visible
 */
export function archiveEntity(
  services: Services,
  ctx: RequestContext,
  kind: ItemKind,
  id: string,
): Promise<BulkResultDto> {
  return bulkArchive(services, ctx, [{ type: kind, id }]);
}

/**
 * POST folders/{id}/restore and files/{id}/restore: restores one item and what its archive took;
 * to the root when its folder is archived or gone.
 * @throws AppError 403 read-only, 404 not visible
 */
export async function restoreEntity(
  services: Services,
  ctx: RequestContext,
  kind: ItemKind,
  id: string,
): Promise<RestoreResultDto> {
  const done = await bulkRestore(services, ctx, [{ type: kind, id }]);
  const item: EntityDto = await present(services, ctx, kind, id);
  return { item, restored_to_root: done.items[0]?.restored_to_root === true };
}

/**
 * PATCH folders/{id}/favorite and files/{id}/favorite: the current user's favourite entry (one row
 * per item and user). Personal: allowed to read-only members, archived items included. A change
 * records an update with changes.favorites (favorited / unfavorited), so replay knows it.
 * @throws AppError 404 not visible
 */
export async function setFavorite(
  services: Services,
  ctx: RequestContext,
  kind: ItemKind,
  id: string,
  enabled: boolean,
): Promise<FolderDto | FileDto> {
  await inTransaction(services, async (trx) => {
    const item =
      kind === 'folder'
        ? await accessibleFolder(trx, ctx, id, 'read', { allowArchived: true })
        : await accessibleFile(trx, ctx, id, 'read', { allowArchived: true });
    if (!item) throw badRequest('The root folder cannot be a favorite.', 'root_folder');
    const unchanged = await upsertFavorite(trx, {
      id: newId(),
      databaseId: ctx.databaseId,
      entityType: kind,
      entityId: id,
      userId: ctx.userId,
      enabled,
      at: isoAt(services.clock),
    });
    if (unchanged) return;
    await recordFavoriteChanged(
      trx,
      services,
      ctx,
      { type: kind, id, name: item.name },
      [{ user_id: ctx.userId, enabled }],
      await parentRef(trx, ctx.databaseId, 'parent_id' in item ? item.parent_id : item.folder_id),
    );
  });
  return present(services, ctx, kind, id);
}

/**
 * PATCH colors: the current user's colour of one folder ('default' clears it), when the
 * folderColors flag is on. Personal: allowed to read-only members, no history.
 * @throws AppError 400 unknown_color, 404 not visible or the flag off
 */
export async function setFolderColor(
  services: Services,
  ctx: RequestContext,
  folderId: string,
  color: FolderColorKey,
): Promise<FolderDto> {
  await bulkColor(services, ctx, [{ type: 'folder', id: folderId }], color);
  return getFolder(services, ctx, folderId);
}
