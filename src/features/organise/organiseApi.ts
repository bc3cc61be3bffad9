/**
 * Calls of the organising actions (SPEC section 7 "Folders", "Files", "Colors", "Bulk"):
 * rename, move, copy, archive, restore, destroy, favorite, colour, the folder picker's folder lists
 * and the address of a folder's zip download. Every call throws ApiError with the server's message.
 */
import { MAX_PAGE_SIZE } from '@common/constants';
import type { Page } from '@common/api';
import type { EntityDto, EntityRef, FileDto, FolderDto } from '@common/entities';
import type { BulkResultDto, FolderColorKey } from '@common/organise';
import { REST, buildUrl, get, post, request } from '@src/api/client';

/** `folders` or `files`: the path segment of an item's type. */
function segment(type: EntityRef['type']): 'folders' | 'files' {
  return type === 'folder' ? 'folders' : 'files';
}

/** Plain refs (id and type only): callers may hold rows or DTOs with more fields. */
function refs(items: readonly EntityRef[]): EntityRef[] {
  return items.map(({ id, type }) => ({ id, type }));
}

/**
 * PATCH /api/rest/{folders|files}/{id} with a new name.
 * @returns the item as renamed: the name the server chose (unique in its folder; a file keeps its
 *   extension)
 */
export function renameItem(item: EntityRef, name: string): Promise<EntityDto> {
  return request<FolderDto | FileDto>(
    'PATCH',
    `${REST}/${segment(item.type)}/${encodeURIComponent(item.id)}`,
    { body: { name } },
  );
}

/**
 * POST /api/rest/bulk/move: moves the items into `folderId` ('' for the root) in one transaction.
 * @returns each item with `prev_parent_id` (what an undo moves it back to)
 */
export function moveItems(items: readonly EntityRef[], folderId: string): Promise<BulkResultDto> {
  return post<BulkResultDto>(`${REST}/bulk/move`, { items: refs(items), folder_id: folderId });
}

/**
 * POST /api/rest/folders/{id}/copy: copies a folder tree into `parentId` ('' for the root).
 * @returns the new top folder (its name made unique in the target)
 */
export function copyFolder(folderId: string, parentId: string): Promise<FolderDto> {
  return post<FolderDto>(`${REST}/folders/${encodeURIComponent(folderId)}/copy`, {
    parent_id: parentId,
  });
}

/**
 * POST /api/rest/files/{id}/copy ("Make a copy"): copies a file into its own folder under the
 * next free name ("a.pdf" → "a (1).pdf").
 * @returns the new file
 */
export function copyFile(fileId: string): Promise<FileDto> {
  return post<FileDto>(`${REST}/files/${encodeURIComponent(fileId)}/copy`, {});
}

/** The answer of POST /api/rest/entities/zip: the single-use link of the zip, and its expiry. */
export interface ZipLinkDto {
  url: string;
  expires_at: string;
}

/**
 * POST /api/rest/entities/zip: asks for the zip of these items.
 * @returns a single-use link (valid a minute) the browser downloads with a plain GET, streamed
 */
export function requestZip(items: readonly EntityRef[]): Promise<ZipLinkDto> {
  return post<ZipLinkDto>(`${REST}/entities/zip`, { items: refs(items) });
}

/** POST /api/rest/bulk/archive: archives the items (and what folders hold). */
export function archiveItems(items: readonly EntityRef[]): Promise<BulkResultDto> {
  return post<BulkResultDto>(`${REST}/bulk/archive`, { items: refs(items) });
}

/**
 * POST /api/rest/bulk/restore: restores archived items.
 * @returns each item, with `restored_to_root` when its folder was archived or gone
 */
export function restoreItems(items: readonly EntityRef[]): Promise<BulkResultDto> {
  return post<BulkResultDto>(`${REST}/bulk/restore`, { items: refs(items) });
}

/** POST /api/rest/bulk/destroy: deletes archived items permanently. */
export function destroyItems(items: readonly EntityRef[]): Promise<BulkResultDto> {
  return post<BulkResultDto>(`${REST}/bulk/destroy`, { items: refs(items) });
}

/** PATCH /api/rest/{folders|files}/{id}/favorite: the current user's favorite on or off. */
export function setFavorite(item: EntityRef, enabled: boolean): Promise<EntityDto> {
  return request<FolderDto | FileDto>(
    'PATCH',
    `${REST}/${segment(item.type)}/${encodeURIComponent(item.id)}/favorite`,
    { body: { enabled } },
  );
}

/**
 * POST /api/rest/bulk/color: the current user's colour of folders ('default' clears it).
 * @returns each folder with `prev_color` (what an undo sets back)
 */
export function colorFolders(
  items: readonly EntityRef[],
  color: FolderColorKey,
): Promise<BulkResultDto> {
  return post<BulkResultDto>(`${REST}/bulk/color`, { items: refs(items), color });
}

/** GET /api/rest/folders?parent_id&page&page_size: one page of a folder's subfolders, by name. */
export function fetchFolders(
  parentId: string,
  page: number,
  pageSize: number = MAX_PAGE_SIZE,
): Promise<Page<FolderDto>> {
  return get<Page<FolderDto>>(`${REST}/folders`, {
    query: { parent_id: parentId, page, page_size: pageSize },
  });
}

/** The address of a folder's zip download (GET /api/rest/folders/{id}/download, an attachment). */
export function folderDownloadUrl(folderId: string): string {
  return buildUrl(`${REST}/folders/${encodeURIComponent(folderId)}/download`);
}
