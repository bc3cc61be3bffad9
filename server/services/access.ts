/**
 * The one place that decides whether the acting session may see or change an item: role × folder
 * permissions × firm (docs/roles.md). Every service goes through these functions.
 * An item outside the session's firm database, or inside a restricted folder the session's user is
 * not allowed on, is answered 404, never 403, so its existence is not revealed.
 *
 * Folder permissions (SPEC section 7): a folder with permission rows is visible only to the users
 * and teams listed (and team members) and to administrators, and so is everything inside it. The
 * folders a user may not see are the "hidden roots" (one query per request, cached on the request
 * context); everything below them is hidden too. Lists exclude the hidden subtrees with one
 * recursive `NOT IN` condition (see `hiddenCondition`), single reads check the item's ancestry.
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import { forbidden, notFound } from '../errors';
import { findFile, type FileWithCreator } from '../repositories/files';
import { findFolder, type FolderWithCreator } from '../repositories/folders';
import {
  ancestryHits,
  eventVisibleSql,
  hiddenAmong,
  hiddenBelow,
  hiddenRootIds,
  notHiddenFolder,
} from '../repositories/permissions';
import type { Executor } from '../repositories/types';
import type { RequestContext } from './context';

/** What the caller wants to do with an item. */
export type Access = 'read' | 'write';

/** Message for a read-only member who tries to change something. */
export const READ_ONLY_MESSAGE = 'You have read-only access in this firm.';

/**
 * Refuses a change by a read-only member, and anything by a guest: guests (sharing)
 * reach items only through the share routes (services/sharingAccess.ts), never through these
 * functions, so for them every firm item answers 404 (the auth plugin already answers a guest 404
 * on every other route; this is the second layer).
 * @throws AppError 403 for a read-only member asking to write; 404 for a guest
 */
export function assertRole(ctx: RequestContext, access: Access): void {
  if (ctx.role === 'guest') throw notFound();
  if (access === 'write' && ctx.role === 'read_only')
    throw forbidden(READ_ONLY_MESSAGE, 'read_only');
}

/** Message for a member who is not an administrator and asks for the admin area. */
export const ADMIN_ONLY_MESSAGE = 'Only administrators of this firm can do this.';

/**
 * Refuses anyone but an administrator of the session's firm (the private/admin area: users,
 * teams, folder permissions, integrations).
 * @throws AppError 403 with code `admin_only` for a member or read-only member
 */
export function assertAdmin(ctx: RequestContext): void {
  if (ctx.role !== 'admin') throw forbidden(ADMIN_ONLY_MESSAGE, 'admin_only');
}

const hiddenRootsCache = new WeakMap<RequestContext, Promise<string[]>>();

/**
 * The restricted folders the session's user may not see (the roots of the hidden subtrees), or []
 * for an administrator. One query, made once per request context and cached.
 */
export function hiddenRoots(db: Executor, ctx: RequestContext): Promise<string[]> {
  if (ctx.role === 'admin') return Promise.resolve([]);
  let roots = hiddenRootsCache.get(ctx);
  if (!roots) {
    roots = hiddenRootIds(db, ctx.databaseId, ctx.userId);
    hiddenRootsCache.set(ctx, roots);
    roots.catch(() => hiddenRootsCache.delete(ctx));
  }
  return roots;
}

/**
 * Forgets the cached hidden roots of a context (after the session's own permissions changed in
 * the same request).
 */
export function forgetHiddenRoots(ctx: RequestContext): void {
  hiddenRootsCache.delete(ctx);
}

/**
 * What a list query needs to leave out the session's hidden subtrees: a condition on a folder-id
 * column ('folders.id', 'files.folder_id', ...), or null when nothing is hidden (administrators,
 * firms without restricted folders) so the query stays as it was.
 */
export interface Visibility {
  /** Restricted folders the user may not see; [] when nothing is hidden. */
  roots: string[];
  /** The condition "this folder-id column is outside every hidden subtree", or null. */
  folderVisible: ((column: string) => ReturnType<typeof notHiddenFolder>) | null;
}

/** The session's visibility for list queries (see Visibility). */
export async function visibility(db: Executor, ctx: RequestContext): Promise<Visibility> {
  const roots = await hiddenRoots(db, ctx);
  return {
    roots,
    folderVisible:
      roots.length === 0 ? null : (column) => notHiddenFolder(column, ctx.databaseId, roots),
  };
}

/**
 * The condition that leaves out of history reads the events about items hidden from the session
 * (see eventVisibleSql), or null when nothing is hidden (administrators see every event).
 * @param alias the history table's alias in the query, if any
 */
export async function eventVisibility(
  db: Executor,
  ctx: RequestContext,
  alias?: string,
): Promise<ReturnType<typeof eventVisibleSql> | null> {
  const roots = await hiddenRoots(db, ctx);
  return roots.length === 0 ? null : eventVisibleSql(ctx.databaseId, roots, alias);
}

/** Whether the folder `folderId` (the root '' included) lies in a subtree hidden from the session. */
export async function folderHidden(
  db: Executor,
  ctx: RequestContext,
  folderId: string,
): Promise<boolean> {
  if (folderId === ROOT_FOLDER_ID) return false;
  const roots = await hiddenRoots(db, ctx);
  if (roots.length === 0) return false;
  return ancestryHits(db, ctx.databaseId, folderId, roots);
}

/**
 * Refuses a call that names any item the session may not see: folders by their ids, files by the
 * ids of the folders that hold them. One query whatever the number of items.
 * @throws AppError 404 when any of them lies in a hidden subtree
 */
export async function assertFoldersVisible(
  db: Executor,
  ctx: RequestContext,
  folderIds: readonly string[],
): Promise<void> {
  const roots = await hiddenRoots(db, ctx);
  if (roots.length === 0) return;
  const ids = folderIds.filter((id) => id !== ROOT_FOLDER_ID);
  if ((await hiddenAmong(db, ctx.databaseId, ids, roots)).length > 0) throw notFound();
}

/** Message for a member who archives or deletes a folder holding folders hidden from them. */
export const HIDDEN_CONTENTS_MESSAGE =
  'This folder contains folders you do not have access to. Ask an administrator.';

/**
 * Refuses archiving or permanently deleting folders whose trees hold restricted folders hidden
 * from the session: a member must not remove what they cannot see. Moving and copying are not
 * refused (a move keeps the hidden folder and its permissions; a copy leaves it out).
 * @throws AppError 403 with code `hidden_contents`
 */
export async function assertNoHiddenContents(
  db: Executor,
  ctx: RequestContext,
  folderIds: string[],
): Promise<void> {
  const roots = await hiddenRoots(db, ctx);
  if (await hiddenBelow(db, ctx.databaseId, folderIds, roots)) {
    throw forbidden(HIDDEN_CONTENTS_MESSAGE, 'hidden_contents');
  }
}

/**
 * Resolves a folder id the client sent to a folder the session may use. The root ('') is always
 * usable and answers null.
 * @param options.allowArchived also accept an archived folder (reading from the Archive page)
 * @throws AppError 404 when the folder is not in the session's database (or archived, unless
 *   allowed) or lies in a restricted folder the user is not allowed on; 403 for a read-only
 *   member asking to write
 */
export async function accessibleFolder(
  db: Executor,
  ctx: RequestContext,
  folderId: string,
  access: Access,
  options: { allowArchived?: boolean } = {},
): Promise<FolderWithCreator | null> {
  assertRole(ctx, access);
  if (folderId === ROOT_FOLDER_ID) return null;
  const folder = await findFolder(db, ctx.databaseId, folderId);
  if (!folder || (folder.archived_at !== null && !options.allowArchived)) throw notFound();
  if (await folderHidden(db, ctx, folder.id)) throw notFound();
  return folder;
}

/**
 * Resolves a file id the client sent to a ready file the session may use.
 * @throws AppError 404 when the file is not in the session's database, is still pending, is
 *   archived (unless allowed), or lies in a restricted folder the user is not allowed on; 403 for
 *   a read-only member asking to write
 */
export async function accessibleFile(
  db: Executor,
  ctx: RequestContext,
  fileId: string,
  access: Access,
  options: { allowArchived?: boolean } = {},
): Promise<FileWithCreator> {
  assertRole(ctx, access);
  const file = await findFile(db, ctx.databaseId, fileId);
  if (!file || file.status !== 'ready' || (file.archived_at !== null && !options.allowArchived)) {
    throw notFound();
  }
  if (await folderHidden(db, ctx, file.folder_id)) throw notFound();
  return file;
}
