/** Calls of the folder view: folder contents, folder details, breadcrumbs, create folder. */
import { DEFAULT_PAGE_SIZE, ROOT_FOLDER_ID } from '@common/constants';
import type { CursorPage, Page } from '@common/api';
import type { BreadcrumbDto, CreateFolderRequest, EntityDto, FolderDto } from '@common/entities';
import {
  DEFAULT_FOLDER_SORT,
  FOLDER_SORT_PREFERENCE,
  parseFolderSort,
  type FolderSort,
  type PreferencesDto,
} from '@common/sort';
import { REST, buildUrl, post, request } from '@src/api/client';
import { getWarm, prefetchGet } from '@src/api/prefetch';
import { folderSortFromSearch, sameSort } from './entityOrder';

/**
 * The entities call's query (one shape for the call and its prefetch, so their keys match); the
 * sort is sent only when it is not the default (by name, A to Z).
 */
function entitiesQuery(
  folderId: string,
  page: number,
  pageSize: number,
  cursor?: string,
  sort: FolderSort = DEFAULT_FOLDER_SORT,
) {
  const sorted = sameSort(sort, DEFAULT_FOLDER_SORT) ? {} : { sort: sort.sort, order: sort.order };
  return { folder_id: folderId, page, page_size: pageSize, cursor, ...sorted };
}

/** The path of the user's preferences. */
const preferencesPath = `${REST}/preferences`;

/** The path of a folder's details. */
const folderPath = (folderId: string) => `${REST}/folders/${encodeURIComponent(folderId)}`;

/** The path of a folder's breadcrumbs. */
const breadcrumbsPath = (folderId: string) => `${folderPath(folderId)}/breadcrumbs`;

/**
 * GET /api/rest/entities: one page of a folder's contents, folders first, then files, in `sort`
 * (default by name, A to Z).
 * @param cursor the previous page's `next_cursor` (of the same sort): the page is read after it
 *   (keyset, as fast at any depth); without it page `page` is read by offset
 * @returns the page with `next_cursor` (null or absent when the server sends none)
 */
export function fetchEntities(
  folderId: string,
  page: number,
  pageSize: number = DEFAULT_PAGE_SIZE,
  cursor?: string,
  sort?: FolderSort,
): Promise<CursorPage<EntityDto> | Page<EntityDto>> {
  return getWarm<CursorPage<EntityDto>>(
    `${REST}/entities`,
    entitiesQuery(folderId, page, pageSize, cursor, sort),
  );
}

/** PUT /api/rest/preferences/folder_sort: remembers how the user sorts the folder view. */
export function saveFolderSort(sort: FolderSort): Promise<PreferencesDto> {
  return request<PreferencesDto>('PUT', `${preferencesPath}/folder_sort`, { body: sort });
}

/** GET /api/rest/folders/{id}: one folder's details. */
export function fetchFolder(folderId: string): Promise<FolderDto> {
  return getWarm<FolderDto>(folderPath(folderId));
}

/** GET /api/rest/folders/{id}/breadcrumbs: the chain from the top-level folder down to it. */
export function fetchBreadcrumbs(folderId: string): Promise<BreadcrumbDto[]> {
  return getWarm<BreadcrumbDto[]>(breadcrumbsPath(folderId));
}

/**
 * Starts the calls the folder page of `pathname` makes when it opens (/home: the root's first
 * page; /home/folders/{id}: that folder's first page, details and breadcrumbs), so they run
 * beside the session request (see api/prefetch.ts). Other addresses start nothing, and so does a
 * page load with no signed-in user cached (no session: the calls would answer 401) or with a
 * guest cached (a guest has no folder pages: 404, then the redirect to the Shared page).
 * @param pathname the address's path, e.g. `location.pathname`
 * @param cached the cached user (`readCachedUser()`), or null
 */
export function prefetchFolderPage(
  pathname: string,
  cached: { role?: string; preferences?: Record<string, unknown> } | null,
  search = '',
): void {
  if (!cached || cached.role === 'guest') return;
  const match = /^\/home(?:\/folders\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return;
  const folderId = match[1] ? decodeURIComponent(match[1]) : ROOT_FOLDER_ID;
  // The address's sort, else the remembered one as this browser last cached it (the current user
  // brings the server's; when they differ the folder saga's own call asks again).
  const addressSort = folderSortFromSearch(search);
  const remembered = cached.preferences?.[FOLDER_SORT_PREFERENCE] as
    { sort?: unknown; order?: unknown } | undefined;
  const parsed = parseFolderSort(remembered?.sort, remembered?.order);
  const sort = addressSort ?? (parsed.ok ? parsed.value : DEFAULT_FOLDER_SORT);
  prefetchGet(`${REST}/entities`, entitiesQuery(folderId, 1, DEFAULT_PAGE_SIZE, undefined, sort));
  if (folderId === ROOT_FOLDER_ID) return;
  prefetchGet(folderPath(folderId));
  prefetchGet(breadcrumbsPath(folderId));
}

/** POST /api/rest/folders: creates a folder; the server makes the name unique. */
export function createFolder(body: CreateFolderRequest): Promise<FolderDto> {
  return post<FolderDto>(`${REST}/folders`, body);
}

/** The ways a stored file can be read. */
export type FileLinkKind = 'download' | 'preview' | 'print';

/**
 * The address of a file's download (attachment), preview (inline for PDF and images, opened in a
 * new tab) or print view.
 */
export function fileUrl(fileId: string, kind: FileLinkKind): string {
  return buildUrl(`${REST}/files/${encodeURIComponent(fileId)}/${kind}`);
}
