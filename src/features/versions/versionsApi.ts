/**
 * Calls of file versions (docs/architecture.md "File versions"): a file's versions, restoring or
 * deleting one, the addresses reading one, and the names of an upload that clash with files of
 * its folder.
 */
import type {
  FileVersionsResponse,
  RestoreVersionResponse,
  UploadConflictsResponse,
} from '@common/versions';
import { REST, buildUrl, get, post, request } from '@src/api/client';

/** The REST path of a file's versions. */
function versionsPath(fileId: string): string {
  return `${REST}/files/${encodeURIComponent(fileId)}/versions`;
}

/** GET /api/rest/files/{id}/versions: every version, newest first. */
export function fetchVersions(fileId: string): Promise<FileVersionsResponse> {
  return get<FileVersionsResponse>(versionsPath(fileId));
}

/** POST /api/rest/files/{id}/versions/{n}/restore: version n becomes the newest (a new version). */
export function restoreVersion(fileId: string, number: number): Promise<RestoreVersionResponse> {
  return post<RestoreVersionResponse>(`${versionsPath(fileId)}/${number}/restore`);
}

/** DELETE /api/rest/files/{id}/versions/{n}: an administrator deletes an older version. */
export function deleteVersion(fileId: string, number: number): Promise<void> {
  return request<void>('DELETE', `${versionsPath(fileId)}/${number}`);
}

/**
 * The address reading version n of a file: its download (an attachment) or its preview (inline
 * where the browser shows it safely).
 */
export function versionUrl(fileId: string, number: number, mode: 'download' | 'preview'): string {
  return buildUrl(`${versionsPath(fileId)}/${number}/${mode}`);
}

/** POST /api/rest/files/conflicts: which names a live file of the folder already has. */
export function fetchUploadConflicts(
  folderId: string,
  names: string[],
): Promise<UploadConflictsResponse> {
  return post<UploadConflictsResponse>(`${REST}/files/conflicts`, { folder_id: folderId, names });
}
