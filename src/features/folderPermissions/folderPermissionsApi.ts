/**
 * Calls of the folder permissions dialog (SPEC section 7 "Folder permissions"). Every call goes
 * through the one HTTP client, so a failed call throws an ApiError with the server's message.
 */
import type {
  CreateFolderPermissionsRequest,
  FolderPermissionDto,
  PermissionableDto,
} from '@common/folderPermissions';
import { REST, get, post, request } from '@src/api/client';

const id = (value: string) => encodeURIComponent(value);

// Folder permissions

/** GET REST/private/permissionables: the firm's users and teams a permission can name. */
export function fetchPermissionables(): Promise<PermissionableDto[]> {
  return get<PermissionableDto[]>(`${REST}/private/permissionables`);
}

/** GET REST/folders/{id}/permissions: the permissions of one folder. */
export function fetchFolderPermissions(folderId: string): Promise<FolderPermissionDto[]> {
  return get<FolderPermissionDto[]>(`${REST}/folders/${id(folderId)}/permissions`);
}

/** POST REST/folder_permissions (create_many): allows users and teams on a folder. */
export function createFolderPermissions(
  body: CreateFolderPermissionsRequest,
): Promise<FolderPermissionDto[]> {
  return post<FolderPermissionDto[]>(`${REST}/folder_permissions`, body);
}

/** DELETE REST/folder_permissions/{id}: removes one permission. */
export function deleteFolderPermission(permissionId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/folder_permissions/${id(permissionId)}`);
}

/** DELETE REST/folders/{id}/permissions: removes every permission of a folder. */
export function deleteAllFolderPermissions(folderId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/folders/${id(folderId)}/permissions`);
}
