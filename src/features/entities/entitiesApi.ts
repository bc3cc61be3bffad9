/** Calls of the folder view: folder contents, folder details, breadcrumbs, create folder. */
import { DEFAULT_PAGE_SIZE, ROOT_FOLDER_ID } from '../../../common/constants';
import type {
  BreadcrumbDto,
  CreateFolderRequest,
  CursorPage,
  EntityDto,
  FolderDto,
  NameListDto,
  Page,
} from '../../../common/types';
import { REST, buildUrl, get, post } from '../../api/client';
import { getWarm, prefetchGet } from '../../api/prefetch';

/** The entities call's query (one shape for the call and its prefetch, so their keys match). */
function entitiesQuery(folderId: string, page: number, pageSize: number, cursor?: string) {
  return { folder_id: folderId, page, page_size: pageSize, cursor };
}

/** The path of a folder's details. */
const folderPath = (folderId: string) => `${REST}/folders/${encodeURIComponent(folderId)}`;

/** The path of a folder's breadcrumbs. */
const breadcrumbsPath = (folderId: string) => `${folderPath(folderId)}/breadcrumbs`;

/**
 * GET /api/rest/entities: one page of a folder's contents, folders first, then files, by name.
 * @param cursor the previous page's `next_cursor`: the page is read after it (keyset, as fast at
 *   any depth); without it page `page` is read by offset
 * @returns the page with `next_cursor` (null or absent when the server sends none)
 */
export function fetchEntities(
  folderId: string,
  page: number,
  pageSize: number = DEFAULT_PAGE_SIZE,
  cursor?: string,
): Promise<CursorPage<EntityDto> | Page<EntityDto>> {
  return getWarm<CursorPage<EntityDto>>(
    `${REST}/entities`,
    entitiesQuery(folderId, page, pageSize, cursor),
  );
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
export function prefetchFolderPage(pathname: string, cached: { role?: string } | null): void {
  if (!cached || cached.role === 'guest') return;
  const match = /^\/home(?:\/folders\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return;
  const folderId = match[1] ? decodeURIComponent(match[1]) : ROOT_FOLDER_ID;
  prefetchGet(`${REST}/entities`, entitiesQuery(folderId, 1, DEFAULT_PAGE_SIZE));
  if (folderId === ROOT_FOLDER_ID) return;
  prefetchGet(folderPath(folderId));
  prefetchGet(breadcrumbsPath(folderId));
}

/** POST /api/rest/folders: creates a folder; the server makes the name unique. */
export function createFolder(body: CreateFolderRequest): Promise<FolderDto> {
  return post<FolderDto>(`${REST}/folders`, body);
}

/** GET /api/rest/folders/name_list: the names in a folder. */
export function fetchNameList(parentId: string): Promise<NameListDto> {
  return get<NameListDto>(`${REST}/folders/name_list`, { query: { parent_id: parentId } });
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
