/**
 * Folders and the folder view (issue 2 item 5; SPEC sections 3, 5 and 7 "Folders", "Entities").
 * Names are unique within a folder across its folders and files, case-insensitively, decided here
 * with the same helper the client uses (common/names.ts).
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '../../common/constants';
import { nameKey, uniqueName, validateEntityName } from '../../common/names';
import type { BreadcrumbDto, EntityDto, FolderDto, NameListDto, Page } from '../../common/types';
import { badRequest } from '../errors';
import { isoAt, newId } from '../ids';
import { presentFile, presentFolder } from '../presenters';
import { countLiveFiles, favoritesFor, listLiveFiles, liveFileNames } from '../repositories/files';
import {
  colorsFor,
  countLiveFolders,
  folderAncestry,
  insertFolder,
  listLiveFolders,
  liveFolderNames,
  type FolderWithCreator,
} from '../repositories/folders';
import type { Executor } from '../repositories/types';
import { accessibleFolder } from './access';
import type { RequestContext, Services } from './context';
import { recordItemCreated } from './historyEvents';
import { pageWindow } from './paging';

/** Every live name directly in a folder: its folders' and its ready files' names. */
export async function namesIn(
  db: Executor,
  databaseId: string,
  parentId: string,
): Promise<string[]> {
  const [folders, files] = await Promise.all([
    liveFolderNames(db, databaseId, parentId),
    liveFileNames(db, databaseId, parentId),
  ]);
  return [...folders, ...files];
}

async function presentFolders(
  services: Services,
  ctx: RequestContext,
  rows: FolderWithCreator[],
): Promise<FolderDto[]> {
  const ids = rows.map((r) => r.id);
  const [favorites, colors] = await Promise.all([
    favoritesFor(services.db, ctx.databaseId, ctx.userId, ids),
    colorsFor(services.db, ctx.userId, ids),
  ]);
  const colorOf = new Map(colors.map((c) => [c.folder_id, c.color]));
  return rows.map((row) => presentFolder(row, { favorites, color: colorOf.get(row.id) ?? null }));
}

/**
 * Creates a folder; an existing name gets the next free " (n)" suffix.
 * @throws AppError 400 for an invalid name, 404 for a parent not visible to the session
 */
export async function createFolder(
  services: Services,
  ctx: RequestContext,
  input: { name: string; parentId: string },
): Promise<FolderDto> {
  const name = input.name.trim();
  const problem = validateEntityName(name, 'folder');
  if (problem) throw badRequest(problem, 'invalid_name');
  const id = newId();
  await services.db.transaction().execute(async (trx) => {
    const parent = await accessibleFolder(trx, ctx, input.parentId, 'write');
    const finalName = uniqueName(name, await namesIn(trx, ctx.databaseId, input.parentId));
    const now = isoAt(services.clock);
    await insertFolder(trx, {
      id,
      database_id: ctx.databaseId,
      parent_id: input.parentId,
      name: finalName,
      name_key: nameKey(finalName),
      created_by: ctx.userId,
      created_at: now,
      updated_at: now,
      archived_at: null,
    });
    await recordItemCreated(
      trx,
      services,
      ctx,
      { type: 'folder', id, name: finalName },
      { id: input.parentId, name: parent?.name ?? ROOT_FOLDER_NAME },
    );
  });
  return getFolder(services, ctx, id);
}

/**
 * One folder as JSON.
 * @throws AppError 404 when it is not visible to the session
 */
export async function getFolder(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<FolderDto> {
  const folder = await accessibleFolder(services.db, ctx, id, 'read', { allowArchived: true });
  if (!folder) throw badRequest('The root folder has no record.', 'root_folder');
  const [dto] = await presentFolders(services, ctx, [folder]);
  return dto!;
}

/**
 * The breadcrumbs of a folder, from the top level down to the folder itself (the root is the
 * client's home button and is not included).
 * @throws AppError 404 when the folder is not visible to the session
 */
export async function breadcrumbs(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<BreadcrumbDto[]> {
  if (id === ROOT_FOLDER_ID) return [];
  await accessibleFolder(services.db, ctx, id, 'read', { allowArchived: true });
  const chain = await folderAncestry(services.db, ctx.databaseId, id);
  return chain.map((f) => ({ id: f.id, name: f.name, type: 'breadcrumb' }));
}

/** The names in a folder, for the client's unique-name helper. */
export async function nameList(
  services: Services,
  ctx: RequestContext,
  parentId: string,
): Promise<NameListDto> {
  await accessibleFolder(services.db, ctx, parentId, 'read');
  return { parent_id: parentId, names: await namesIn(services.db, ctx.databaseId, parentId) };
}

/**
 * One page of a folder's contents: its folders first, then its files, each by name. Costs a
 * constant number of queries whatever the folder size.
 */
export async function listEntities(
  services: Services,
  ctx: RequestContext,
  folderId: string,
  page: number,
  pageSize: number,
): Promise<Page<EntityDto>> {
  const { db } = services;
  await accessibleFolder(db, ctx, folderId, 'read');
  const { offset, limit } = pageWindow(page, pageSize);
  const [folderCount, fileCount] = await Promise.all([
    countLiveFolders(db, ctx.databaseId, folderId),
    countLiveFiles(db, ctx.databaseId, folderId),
  ]);
  const folderRows =
    offset < folderCount ? await listLiveFolders(db, ctx.databaseId, folderId, offset, limit) : [];
  const remaining = limit - folderRows.length;
  const fileRows =
    remaining > 0
      ? await listLiveFiles(
          db,
          ctx.databaseId,
          folderId,
          Math.max(0, offset - folderCount),
          remaining,
        )
      : [];
  const folders = await presentFolders(services, ctx, folderRows);
  const fileFavorites = await favoritesFor(
    db,
    ctx.databaseId,
    ctx.userId,
    fileRows.map((f) => f.id),
  );
  const files = fileRows.map((row) => presentFile(row, { favorites: fileFavorites }));
  return {
    items: [...folders, ...files],
    page,
    page_size: pageSize,
    total: folderCount + fileCount,
  };
}

/** One page of a folder's subfolders only (GET REST/folders?page&parent_id). */
export async function listFolders(
  services: Services,
  ctx: RequestContext,
  parentId: string,
  page: number,
  pageSize: number,
): Promise<Page<FolderDto>> {
  await accessibleFolder(services.db, ctx, parentId, 'read');
  const { offset, limit } = pageWindow(page, pageSize);
  const [rows, total] = await Promise.all([
    listLiveFolders(services.db, ctx.databaseId, parentId, offset, limit),
    countLiveFolders(services.db, ctx.databaseId, parentId),
  ]);
  return { items: await presentFolders(services, ctx, rows), page, page_size: pageSize, total };
}
