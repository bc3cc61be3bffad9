/**
 * Folders and the folder view (SPEC sections 3, 5 and 7 "Folders", "Entities").
 * Names are unique within a folder across its folders and files, case-insensitively, decided here
 * with the same helper the client uses (common/names.ts).
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { nameKey, validateEntityName } from '@common/names';
import { DEFAULT_FOLDER_SORT, parseFolderSort, type FolderSort } from '@common/sort';
import type { CursorPage, Page } from '@common/api';
import type { BreadcrumbDto, EntityDto, FolderDto, NameListDto } from '@common/entities';
import { badRequest } from '../errors';
import { isoAt, newId } from '../ids';
import {
  countLiveFiles,
  listLiveFilesAfter,
  liveFileNames,
  liveFilePositionAt,
} from '../repositories/files';
import {
  countLiveFolders,
  folderAncestry,
  insertFolder,
  listLiveFolders,
  listLiveFoldersAfter,
  liveFolderNames,
  liveFolderPositionAt,
  type FolderWithCreator,
} from '../repositories/folders';
import {
  fileListOrder,
  folderListOrder,
  positionOf,
  type ListPosition,
} from '../repositories/listOrder';
import { accessibleFolder, hiddenRoots } from './access';
import type { RequestContext, Services } from './context';
import { FolderNames } from './folderNames';
import { recordItemCreated } from './historyEvents';
import { decodeCursor, encodeCursor, INVALID_CURSOR_MESSAGE, presentEntities } from './lists';
import { pageWindow } from './paging';
import { inTransaction } from './transactions';

async function presentFolders(
  services: Services,
  ctx: RequestContext,
  rows: FolderWithCreator[],
): Promise<FolderDto[]> {
  return (await presentEntities(services, ctx, rows, [])).folders;
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
  await inTransaction(services, async (trx) => {
    const parent = await accessibleFolder(trx, ctx, input.parentId, 'write');
    const names = new FolderNames(trx, ctx.databaseId, input.parentId);
    await names.want([name]);
    const finalName = await names.claim(name, false);
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

/**
 * The names in a folder, for the client's unique-name helper. The names of restricted folders
 * hidden from the session are left out (their existence is not revealed); the server still decides
 * unique names against every name (FolderNames), so a name the client proposes that clashes with a
 * hidden one gets the next free " (n)" suffix.
 */
export async function nameList(
  services: Services,
  ctx: RequestContext,
  parentId: string,
): Promise<NameListDto> {
  await accessibleFolder(services.db, ctx, parentId, 'read');
  const hidden = await hiddenRoots(services.db, ctx);
  const [folders, files] = await Promise.all([
    liveFolderNames(services.db, ctx.databaseId, parentId, hidden),
    liveFileNames(services.db, ctx.databaseId, parentId),
  ]);
  return { parent_id: parentId, names: [...folders, ...files] };
}

/**
 * Reads the `sort` and `order` query parameters of the folder view.
 * @throws AppError 400 invalid_sort (MESSAGES.invalidSort / invalidOrder) for a value not allowed
 */
export function folderSortOf(sort: string | undefined, order: string | undefined): FolderSort {
  const parsed = parseFolderSort(sort, order);
  if (!parsed.ok) throw badRequest(parsed.message, 'invalid_sort');
  return parsed.value;
}

/** The cursor of the row after which the next page starts: its kind, the sort, its position. */
function entitiesCursor(kind: 'folder' | 'file', sort: FolderSort, position: ListPosition) {
  return encodeCursor('entities', [kind, sort.sort, sort.order, ...position.map(String)]);
}

/**
 * Reads an entities cursor made for this sort.
 * @throws AppError 400 invalid_cursor for a broken cursor, another list's, or another sort's
 */
function decodeEntitiesCursor(
  cursor: string,
  sort: FolderSort,
): { kind: 'folder' | 'file'; after: ListPosition } {
  const arityOf = (kind: string) =>
    3 + (kind === 'folder' ? folderListOrder(sort) : fileListOrder(sort)).columns.length;
  const [kind, sortKey, order, ...values] = decodeCursor('entities', cursor, (v) =>
    arityOf(v[0] ?? ''),
  );
  const invalid = () => badRequest(INVALID_CURSOR_MESSAGE, 'invalid_cursor');
  if ((kind !== 'folder' && kind !== 'file') || sortKey !== sort.sort || order !== sort.order) {
    throw invalid();
  }
  const columns = (kind === 'folder' ? folderListOrder(sort) : fileListOrder(sort)).columns;
  const after = values.map((value, i) => {
    if (columns[i] !== 'size') return value;
    const size = Number(value);
    if (!Number.isSafeInteger(size)) throw invalid();
    return size;
  });
  return { kind, after };
}

/**
 * One page of a folder's contents: its folders first, then its files, each in the order of `sort`
 * (name: name_key; modified: updated_at; size: files by size; type: files by extension then
 * name_key; folders have no size or type and go by name then), then id, all in the sort's
 * direction. With `cursor` (a previous page's `next_cursor`, of the same sort) the page is the
 * rows after that position, read through the list index of the order (0006, 0022), so page 400
 * costs what page 1 costs; without it page n starts at offset (n - 1) * pageSize, found in the
 * index alone.
 * A page costs at most 10 queries whatever the folder size: access (the folder, then for a
 * non-administrator the restricted folders hidden from them, once per request, and when there
 * are any the folder's ancestry), two counts, the offset's position, folders, files, favorites,
 * colours. Hidden child folders are left out by `id NOT IN (hidden roots)` on the same index.
 * @throws AppError 404 for a folder not visible to the session, 400 invalid_cursor
 */
export async function listEntities(
  services: Services,
  ctx: RequestContext,
  folderId: string,
  page: number,
  pageSize: number,
  cursor?: string,
  sort: FolderSort = DEFAULT_FOLDER_SORT,
): Promise<CursorPage<EntityDto>> {
  const { db } = services;
  const { databaseId } = ctx;
  const folderOrder = folderListOrder(sort);
  const fileOrder = fileListOrder(sort);
  // A broken cursor is refused before any query.
  const fromCursor = cursor ? decodeEntitiesCursor(cursor, sort) : null;
  await accessibleFolder(db, ctx, folderId, 'read');
  // Restricted child folders the user is not allowed in are left out of rows and counts alike
  // (the folder itself is visible, so only its direct children can be hidden roots).
  const hidden = await hiddenRoots(db, ctx);
  // The counts (the part of a page that grows with the folder) run beside the rows on PostgreSQL's
  // pool; only a page by offset past the first needs the folder count before its rows.
  const counts = Promise.all([
    countLiveFolders(db, databaseId, folderId, hidden),
    countLiveFiles(db, databaseId, folderId),
  ]);
  counts.catch(() => undefined); // awaited below; a failure there is the one reported
  // Where the page starts: in the folders or in the files, after a position or at the start.
  let start: { kind: 'folder' | 'file'; after: ListPosition | null } | null;
  const { offset } = pageWindow(page, pageSize);
  if (fromCursor) {
    start = fromCursor;
  } else if (offset === 0) {
    start = { kind: 'folder', after: null };
  } else {
    const [folderCount] = await counts;
    const fileOffset = offset - folderCount;
    if (fileOffset === 0) start = { kind: 'file', after: null };
    else if (fileOffset < 0) {
      const after = await liveFolderPositionAt(
        db,
        databaseId,
        folderId,
        offset - 1,
        hidden,
        folderOrder,
      );
      start = after ? { kind: 'folder', after } : null;
    } else {
      const after = await liveFilePositionAt(db, databaseId, folderId, fileOffset - 1, fileOrder);
      start = after ? { kind: 'file', after } : null;
    }
  }
  // One row more than the page tells whether there is a next page.
  const want = pageSize + 1;
  const folderRows =
    start?.kind === 'folder'
      ? await listLiveFoldersAfter(db, databaseId, folderId, start.after, want, hidden, folderOrder)
      : [];
  const fileRows =
    start && folderRows.length < want
      ? await listLiveFilesAfter(
          db,
          databaseId,
          folderId,
          start.kind === 'file' ? start.after : null,
          want - folderRows.length,
          fileOrder,
        )
      : [];
  const more = folderRows.length + fileRows.length > pageSize;
  if (more) {
    if (fileRows.length > 0) fileRows.pop();
    else folderRows.pop();
  }
  const [{ folders, files }, [folderCount, fileCount]] = await Promise.all([
    presentEntities(services, ctx, folderRows, fileRows),
    counts,
  ]);
  const lastFile = fileRows[fileRows.length - 1];
  const lastFolder = folderRows[folderRows.length - 1];
  let nextCursor: string | null = null;
  if (more && lastFile) nextCursor = entitiesCursor('file', sort, positionOf(fileOrder, lastFile));
  else if (more && lastFolder)
    nextCursor = entitiesCursor('folder', sort, positionOf(folderOrder, lastFolder));
  return {
    items: [...folders, ...files],
    page,
    page_size: pageSize,
    total: folderCount + fileCount,
    next_cursor: nextCursor,
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
  const hidden = await hiddenRoots(services.db, ctx);
  const { offset, limit } = pageWindow(page, pageSize);
  const [rows, total] = await Promise.all([
    listLiveFolders(services.db, ctx.databaseId, parentId, offset, limit, hidden),
    countLiveFolders(services.db, ctx.databaseId, parentId, hidden),
  ]);
  return { items: await presentFolders(services, ctx, rows), page, page_size: pageSize, total };
}
