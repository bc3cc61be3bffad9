/**
 * Folder permissions (SPEC section 6): the permissionables (users and teams) a permission names, and the permissions of a folder.
 */
/** What a folder permission names: a user or a team of the firm (SPEC section 1 "Permissionable"). */
export type PermissionableType = 'user' | 'team';

/** GET /api/rest/private/permissionables: one user or team of the session's firm. */
export interface PermissionableDto {
  permissionable_id: string;
  permissionable_type: PermissionableType;
  name: string;
}

/** A folder permission: one user or team allowed on a restricted folder (SPEC section 7). */
export interface FolderPermissionDto {
  id: string;
  folder_id: string;
  permissionable_id: string;
  permissionable_type: PermissionableType;
  /** The user's display name or the team's name. */
  name: string;
  created_at: string;
}

/** POST /api/rest/folder_permissions (create_many): allow these users/teams on one folder. */
export interface CreateFolderPermissionsRequest {
  folder_id: string;
  permissionables: { permissionable_id: string; permissionable_type: PermissionableType }[];
}
