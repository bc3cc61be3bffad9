/**
 * Calls of the entity side panel (SPEC section 7 "Folders" and "Files"): the item, its path, the
 * statistics (flag fileStats) and the download addresses.
 */
import type { BreadcrumbDto, EntityRef, FileDto, FolderDto } from '@common/entities';
import type { FileStatsDto, FolderStatsDto, TypeStatDto } from '@common/stats';
import { REST, buildUrl, get } from '@src/api/client';

/** The REST collection of an item type: 'folders' or 'files'. */
function collection(type: EntityRef['type']): 'folders' | 'files' {
  return type === 'folder' ? 'folders' : 'files';
}

/** GET /api/rest/folders/{id} or /api/rest/files/{id}: one live item (404 when archived or gone). */
export function fetchEntity(ref: EntityRef): Promise<FolderDto | FileDto> {
  return get<FolderDto | FileDto>(`${REST}/${collection(ref.type)}/${encodeURIComponent(ref.id)}`);
}

/** GET /api/rest/folders/{id}/breadcrumbs: from the top-level folder down to the folder itself. */
export function fetchBreadcrumbs(folderId: string): Promise<BreadcrumbDto[]> {
  return get<BreadcrumbDto[]>(`${REST}/folders/${encodeURIComponent(folderId)}/breadcrumbs`);
}

/** GET /api/rest/folders/{id}/stats: counts, bytes and the by-type breakdown of the live tree. */
export function fetchFolderStats(folderId: string): Promise<FolderStatsDto> {
  return get<FolderStatsDto>(`${REST}/folders/${encodeURIComponent(folderId)}/stats`);
}

/** GET /api/rest/files/stats: the firm's live files and folders, bytes and archived files. */
export function fetchFileStats(): Promise<FileStatsDto> {
  return get<FileStatsDto>(`${REST}/files/stats`);
}

/** GET /api/rest/files/stats/by_type: the firm's files per category (all 8, zeros included). */
export function fetchFileStatsByType(): Promise<TypeStatDto[]> {
  return get<TypeStatDto[]>(`${REST}/files/stats/by_type`);
}

/**
 * The download address of an item: a file's bytes (attachment) or a folder's tree as a zip
 * (GET /api/rest/folders/{id}/download).
 */
export function downloadUrl(ref: EntityRef): string {
  return buildUrl(`${REST}/${collection(ref.type)}/${encodeURIComponent(ref.id)}/download`);
}
