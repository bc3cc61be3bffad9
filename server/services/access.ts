/**
 * The one place that decides whether the acting session may see or change an item. Every service
 * goes through these functions, so folder permissions and guest access plug in here later.
 * An item outside the session's firm database is answered 404, never 403, so its existence is not
 * revealed.
 */
import { ROOT_FOLDER_ID } from '../../common/constants';
import { forbidden, notFound } from '../errors';
import { findFile, type FileWithCreator } from '../repositories/files';
import { findFolder, type FolderWithCreator } from '../repositories/folders';
import type { Executor } from '../repositories/types';
import type { RequestContext } from './context';

/** What the caller wants to do with an item. */
export type Access = 'read' | 'write';

/** Message for a read-only member who tries to change something. */
export const READ_ONLY_MESSAGE = 'You have read-only access in this firm.';

/**
 * Refuses a change by a read-only member.
 * @throws AppError 403
 */
export function assertRole(ctx: RequestContext, access: Access): void {
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

/**
 * Resolves a folder id the client sent to a folder the session may use. The root ('') is always
 * usable and answers null.
 * @param options.allowArchived also accept an archived folder (reading from the Archive page)
 * @throws AppError 404 when the folder is not in the session's database (or archived, unless
 *   allowed), 403 for a read-only member asking to write
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
  return folder;
}

/**
 * Resolves a file id the client sent to a ready file the session may use.
 * @throws AppError 404 when the file is not in the session's database, is still pending, or is
 *   archived (unless allowed); 403 for a read-only member asking to write
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
  return file;
}
