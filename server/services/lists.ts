/**
 * The item lists besides the folder view: the Archive page (items archived themselves,
 * newest archive first), Favorites (the user's enabled favorites of live items, newest first) and
 * Recent (the user's last touches of live items, newest first). SPEC section 7 "Entities".
 *
 * Every list is a CursorPage: `next_cursor` is an opaque keyset position; passed back as `cursor`
 * it reads the rows after it through an index, so a deep page costs what the first costs. Without
 * a cursor page n is read by offset. Each page costs a constant number of queries: positions, a
 * count, the rows by id, the user's favorites and colours of those rows.
 */
import type { CursorPage } from '@common/api';
import type {
  ArchivedEntityDto,
  EntityDto,
  FileDto,
  FolderDto,
  RecentEntityDto,
} from '@common/entities';
import type { HistoryAction } from '@common/history';
import { badRequest } from '../errors';
import { presentFile, presentFolder } from '../presenters';
import { favoritesFor, findFilesByIds, type FileWithCreator } from '../repositories/files';
import { colorsFor, findFoldersByIds, type FolderWithCreator } from '../repositories/folders';
import {
  countArchivedRoots,
  countFavoriteItems,
  countRecentItems,
  folderPaths,
  listArchivedPositions,
  listFavoriteItems,
  listRecentItems,
  type ArchivedPosition,
  type ListedItem,
  type TimePosition,
} from '../repositories/lists';
import { visibility } from './access';
import type { RequestContext, Services } from './context';
import { pageWindow } from './paging';
import { sha256WithThumbnail } from '../repositories/renditions';

/** Message of a cursor that is not one this server made for this list. */
export const INVALID_CURSOR_MESSAGE = 'The list position is not valid; reload the list.';

/** The lists a cursor belongs to (a cursor of one list is refused by another). */
export type CursorList = 'entities' | 'archived' | 'favorites' | 'recent';

/**
 * Encodes a keyset position as an opaque cursor: base64url of JSON `[list, ...values]`.
 * @param values the position's values, in the list's order
 */
export function encodeCursor(list: CursorList, values: string[]): string {
  return Buffer.from(JSON.stringify([list, ...values]), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor made by {@link encodeCursor} for `list`.
 * @param arity how many values the list's positions have (or, for a list whose positions vary,
 *   a function of the values that answers it)
 * @returns the position's values
 * @throws AppError 400 invalid_cursor for anything else
 */
export function decodeCursor(
  list: CursorList,
  cursor: string,
  arity: number | ((values: string[]) => number),
): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID_CURSOR_MESSAGE, 'invalid_cursor');
  }
  if (!Array.isArray(parsed) || parsed[0] !== list || !parsed.every((v) => typeof v === 'string')) {
    throw badRequest(INVALID_CURSOR_MESSAGE, 'invalid_cursor');
  }
  const values: string[] = parsed.slice(1);
  if (values.length !== (typeof arity === 'number' ? arity : arity(values))) {
    throw badRequest(INVALID_CURSOR_MESSAGE, 'invalid_cursor');
  }
  return values;
}

/**
 * Presents folder and file rows for the current user: their favorite entries (one query for all),
 * for folders the user's colours (one query) and for files whether a thumbnail is stored (one
 * query). Order is kept: folders, then files.
 */
export async function presentEntities(
  services: Services,
  ctx: RequestContext,
  folderRows: FolderWithCreator[],
  fileRows: FileWithCreator[],
): Promise<{ folders: FolderDto[]; files: FileDto[] }> {
  const folderIds = folderRows.map((r) => r.id);
  const [favorites, colors, thumbnails] = await Promise.all([
    favoritesFor(services.db, ctx.databaseId, ctx.userId, [
      ...folderIds,
      ...fileRows.map((r) => r.id),
    ]),
    colorsFor(services.db, ctx.userId, folderIds),
    sha256WithThumbnail(
      services.db,
      fileRows.map((r) => r.sha256),
    ),
  ]);
  const colorOf = new Map(colors.map((c) => [c.folder_id, c.color]));
  return {
    folders: folderRows.map((row) =>
      presentFolder(row, { favorites, color: colorOf.get(row.id) ?? null }),
    ),
    files: fileRows.map((row) => presentFile(row, { favorites, thumbnails })),
  };
}

/** Reads rows by id for some list positions and presents them in the positions' order. */
async function entitiesFor(
  services: Services,
  ctx: RequestContext,
  items: { type: 'folder' | 'file'; id: string }[],
): Promise<Map<string, EntityDto>> {
  const { db } = services;
  const [folderRows, fileRows] = await Promise.all([
    findFoldersByIds(
      db,
      ctx.databaseId,
      items.filter((i) => i.type === 'folder').map((i) => i.id),
    ),
    findFilesByIds(
      db,
      ctx.databaseId,
      items.filter((i) => i.type === 'file').map((i) => i.id),
    ),
  ]);
  const { folders, files } = await presentEntities(services, ctx, folderRows, fileRows);
  return new Map<string, EntityDto>([...folders, ...files].map((e) => [e.id, e]));
}

/** Where a page starts: after a cursor's position, or at an offset. */
interface PageStart<P> {
  after: P | null;
  offset: number;
}

function pageStart<P>(
  list: CursorList,
  cursor: string | undefined,
  arity: number,
  toPosition: (values: string[]) => P,
  offset: number,
): PageStart<P> {
  if (!cursor) return { after: null, offset: Math.max(0, offset) };
  return { after: toPosition(decodeCursor(list, cursor, arity)), offset: 0 };
}

/**
 * One page of the Archive list: the items archived themselves (not those archived with a folder),
 * newest archive first, each with the path of the folder it was archived from.
 * @param skip items the client removed from pages it already holds since it read them (restored
 *   or destroyed), so page n by offset starts at (page - 1) * pageSize - skip (archivePaging)
 * @throws AppError 400 invalid_cursor
 */
export async function listArchived(
  services: Services,
  ctx: RequestContext,
  page: number,
  pageSize: number,
  options: { cursor?: string; skip?: number } = {},
): Promise<CursorPage<ArchivedEntityDto>> {
  const { db } = services;
  const start = pageStart<ArchivedPosition>(
    'archived',
    options.cursor,
    3,
    ([archivedAt, type, id]) => ({
      archived_at: archivedAt!,
      type: type === 'folder' ? 'folder' : 'file',
      id: id!,
    }),
    pageWindow(page, pageSize).offset - (options.skip ?? 0),
  );
  const { folderVisible } = await visibility(db, ctx);
  const [positions, total] = await Promise.all([
    listArchivedPositions(
      db,
      ctx.databaseId,
      start.after,
      start.offset,
      pageSize + 1,
      folderVisible,
    ),
    countArchivedRoots(db, ctx.databaseId, folderVisible),
  ]);
  const pagePositions = positions.slice(0, pageSize);
  const entities = await entitiesFor(services, ctx, pagePositions);
  const parents = [...entities.values()].map((e) =>
    e.type === 'folder' ? e.parent_id : e.folder_id,
  );
  const paths = await folderPaths(db, ctx.databaseId, parents);
  const items: ArchivedEntityDto[] = [];
  for (const position of pagePositions) {
    const entity = entities.get(position.id);
    if (!entity) continue;
    const parentId = entity.type === 'folder' ? entity.parent_id : entity.folder_id;
    items.push({ ...entity, parent_path: paths.get(parentId) ?? '' });
  }
  const last = pagePositions[pagePositions.length - 1];
  return {
    items,
    page,
    page_size: pageSize,
    total,
    next_cursor:
      positions.length > pageSize && last
        ? encodeCursor('archived', [last.archived_at, last.type, last.id])
        : null,
  };
}

/** Builds a favorites or recent page from its listed items. */
async function timeListPage<T extends EntityDto>(
  services: Services,
  ctx: RequestContext,
  list: 'favorites' | 'recent',
  listed: ListedItem[],
  page: number,
  pageSize: number,
  total: number,
  decorate: (entity: EntityDto, item: ListedItem) => T,
): Promise<CursorPage<T>> {
  const pageItems = listed.slice(0, pageSize);
  const entities = await entitiesFor(
    services,
    ctx,
    pageItems.map((i) => ({ type: i.entity_type, id: i.entity_id })),
  );
  const items: T[] = [];
  for (const item of pageItems) {
    const entity = entities.get(item.entity_id);
    if (entity) items.push(decorate(entity, item));
  }
  const last = pageItems[pageItems.length - 1];
  return {
    items,
    page,
    page_size: pageSize,
    total,
    next_cursor: listed.length > pageSize && last ? encodeCursor(list, [last.at, last.id]) : null,
  };
}

const toTimePosition = ([at, id]: string[]): TimePosition => ({ at: at!, id: id! });

/**
 * One page of the current user's favorites: enabled entries whose item is live, newest favorite
 * first.
 * @throws AppError 400 invalid_cursor
 */
export async function listFavorites(
  services: Services,
  ctx: RequestContext,
  page: number,
  pageSize: number,
  cursor?: string,
): Promise<CursorPage<EntityDto>> {
  const { db } = services;
  const start = pageStart(
    'favorites',
    cursor,
    2,
    toTimePosition,
    pageWindow(page, pageSize).offset,
  );
  const { folderVisible } = await visibility(db, ctx);
  const [listed, total] = await Promise.all([
    listFavoriteItems(
      db,
      ctx.databaseId,
      ctx.userId,
      start.after,
      start.offset,
      pageSize + 1,
      folderVisible,
    ),
    countFavoriteItems(db, ctx.databaseId, ctx.userId, folderVisible),
  ]);
  return timeListPage(services, ctx, 'favorites', listed, page, pageSize, total, (e) => e);
}

/**
 * One page of the current user's recent items (what they created, opened or changed), live items
 * only, newest touch first, each with when and how it was touched.
 * @throws AppError 400 invalid_cursor
 */
export async function listRecent(
  services: Services,
  ctx: RequestContext,
  page: number,
  pageSize: number,
  cursor?: string,
): Promise<CursorPage<RecentEntityDto>> {
  const { db } = services;
  const start = pageStart('recent', cursor, 2, toTimePosition, pageWindow(page, pageSize).offset);
  const { folderVisible } = await visibility(db, ctx);
  const [listed, total] = await Promise.all([
    listRecentItems(
      db,
      ctx.databaseId,
      ctx.userId,
      start.after,
      start.offset,
      pageSize + 1,
      folderVisible,
    ),
    countRecentItems(db, ctx.databaseId, ctx.userId, folderVisible),
  ]);
  return timeListPage(
    services,
    ctx,
    'recent',
    listed,
    page,
    pageSize,
    total,
    (entity, item): RecentEntityDto => ({
      ...entity,
      recent_at: item.at,
      recent_action: (item.action ?? 'update') as HistoryAction,
    }),
  );
}
