/**
 * Calls of the Archive, Favorites and Recent pages (SPEC section 7 "Entities",
 * 7 and 12). Every list answers a CursorPage: pass `next_cursor` back as `cursor` for the next page.
 */
import { DEFAULT_PAGE_SIZE } from '@common/constants';
import type { CursorPage } from '@common/api';
import type {
  ArchivedEntityDto,
  ArchivedPageRequest,
  BreadcrumbDto,
  EntityDto,
  RecentEntityDto,
} from '@common/entities';
import { REST, get, post } from '@src/api/client';

/** Which page of a list to read: its number (from 1) and the previous page's cursor, if any. */
export interface PageRequest {
  page: number;
  cursor: string | null;
  pageSize?: number;
}

/** GET /api/rest/entities/archived: the items archived themselves, newest archive first. */
export function fetchArchived({
  page,
  cursor,
  pageSize = DEFAULT_PAGE_SIZE,
}: PageRequest): Promise<CursorPage<ArchivedEntityDto>> {
  return get<CursorPage<ArchivedEntityDto>>(`${REST}/entities/archived`, {
    query: { page, page_size: pageSize, cursor: cursor ?? undefined },
  });
}

/**
 * POST /api/rest/entities/archived?page&skip (flag archivePaging): as {@link fetchArchived}, with
 * `skip` = the items the client took out of its loaded pages since they loaded (restored or
 * deleted), so that an offset read does not jump over items.
 */
export function fetchArchivedPaged(
  { page, cursor, pageSize = DEFAULT_PAGE_SIZE }: PageRequest,
  skip: number,
): Promise<CursorPage<ArchivedEntityDto>> {
  const body: ArchivedPageRequest = { page_size: pageSize };
  if (cursor) body.cursor = cursor;
  return post<CursorPage<ArchivedEntityDto>>(`${REST}/entities/archived`, body, {
    query: { page, skip: Math.max(0, skip) },
  });
}

/** GET /api/rest/entities/favorites: the current user's live favorites, newest favorite first. */
export function fetchFavorites({
  page,
  cursor,
  pageSize = DEFAULT_PAGE_SIZE,
}: PageRequest): Promise<CursorPage<EntityDto>> {
  return get<CursorPage<EntityDto>>(`${REST}/entities/favorites`, {
    query: { page, page_size: pageSize, cursor: cursor ?? undefined },
  });
}

/** GET /api/rest/entities/recent: what the user created, opened or changed, newest first. */
export function fetchRecent({
  page,
  cursor,
  pageSize = DEFAULT_PAGE_SIZE,
}: PageRequest): Promise<CursorPage<RecentEntityDto>> {
  return get<CursorPage<RecentEntityDto>>(`${REST}/entities/recent`, {
    query: { page, page_size: pageSize, cursor: cursor ?? undefined },
  });
}

/** GET /api/rest/folders/{id}/breadcrumbs: the chain from the top-level folder down to it. */
export function fetchFolderBreadcrumbs(folderId: string): Promise<BreadcrumbDto[]> {
  return get<BreadcrumbDto[]>(`${REST}/folders/${encodeURIComponent(folderId)}/breadcrumbs`);
}
