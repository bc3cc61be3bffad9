/**
 * Calls of the admin area (SPEC section 7 "Private users and auth", "Folder permissions",
 * "Integrations", "Integration user keys"). Every call goes through the one HTTP client, so a
 * failed call throws an ApiError with the server's message.
 */
import type {
  CreateIntegrationKeyRequest,
  CreatedIntegrationKeyDto,
  IntegrationDto,
  IntegrationKeyDto,
  IntegrationKeysResponse,
  IntegrationsResponse,
} from '../../../common/integrations';
import type {
  CreateFolderPermissionsRequest,
  CreateUserRequest,
  DatabaseUserDto,
  FolderPermissionDto,
  Page,
  PermissionableDto,
  Role,
  TeamDto,
  UpdateUserRequest,
  UserTeamDto,
} from '../../../common/types';
import { REST, get, post, request } from '../../api/client';

const id = (value: string) => encodeURIComponent(value);

// Members (private/users)

/** Members read per page of the member list. */
export const MEMBERS_PAGE_SIZE = 100;

/**
 * GET REST/private/users?query&page&page_size: one page of the members of the session's firm
 * database, by last and first name; `query` keeps those whose username, names or e-mail contain
 * every word of it.
 */
export function fetchMembers(options: {
  query?: string;
  page?: number;
  pageSize?: number;
}): Promise<Page<DatabaseUserDto>> {
  return get<Page<DatabaseUserDto>>(`${REST}/private/users`, {
    query: {
      query: options.query ? options.query : undefined,
      page: options.page ?? 1,
      page_size: options.pageSize ?? MEMBERS_PAGE_SIZE,
    },
  });
}

/** POST REST/private/users: a new member of the session's firm database. */
export function createMember(body: CreateUserRequest): Promise<DatabaseUserDto> {
  return post<DatabaseUserDto>(`${REST}/private/users`, body);
}

/** PATCH REST/private/users/{id}: names, username, e-mail. */
export function updateMember(userId: string, body: UpdateUserRequest): Promise<DatabaseUserDto> {
  return request<DatabaseUserDto>('PATCH', `${REST}/private/users/${id(userId)}`, { body });
}

/** PATCH REST/private/users/role/{id}: the member's role in the session's firm. */
export function updateMemberRole(userId: string, role: Role): Promise<DatabaseUserDto> {
  return request<DatabaseUserDto>('PATCH', `${REST}/private/users/role/${id(userId)}`, {
    body: { role },
  });
}

/**
 * PATCH REST/private/users/{id}/update_password: sets a new password (checked against the
 * password policy by the server; the member's other sessions end).
 */
export function updateMemberPassword(userId: string, password: string): Promise<unknown> {
  return request<unknown>('PATCH', `${REST}/private/users/${id(userId)}/update_password`, {
    body: { password },
  });
}

/** The member state changes answered with the member: unlock, disable, enable. */
export type MemberStateAction = 'unlock' | 'disable' | 'enable';

/** POST REST/private/users/{id}/unlock, /disable or /enable. */
export function changeMemberState(
  userId: string,
  action: MemberStateAction,
): Promise<DatabaseUserDto> {
  return post<DatabaseUserDto>(`${REST}/private/users/${id(userId)}/${action}`, {});
}

/** GET REST/private/users/{id}/teams: the teams the member belongs to. */
export function fetchMemberTeams(userId: string): Promise<UserTeamDto[]> {
  return get<UserTeamDto[]>(`${REST}/private/users/${id(userId)}/teams`);
}

// Teams (private/teams)

/** GET REST/private/teams: the firm's teams with their members' ids. */
export function fetchTeams(): Promise<TeamDto[]> {
  return get<TeamDto[]>(`${REST}/private/teams`);
}

/** POST REST/private/teams: a new team, optionally with members. */
export function createTeam(name: string, memberIds: string[]): Promise<TeamDto> {
  return post<TeamDto>(`${REST}/private/teams`, { name, member_ids: memberIds });
}

/** PATCH REST/private/teams/{id}: renames a team. */
export function renameTeam(teamId: string, name: string): Promise<TeamDto> {
  return request<TeamDto>('PATCH', `${REST}/private/teams/${id(teamId)}`, { body: { name } });
}

/** POST REST/private/teams/{id}/members: adds members to a team. */
export function addTeamMembers(teamId: string, userIds: string[]): Promise<TeamDto> {
  return post<TeamDto>(`${REST}/private/teams/${id(teamId)}/members`, { user_ids: userIds });
}

/** DELETE REST/private/teams/{id}/members/{userId}: removes one member from a team (204). */
export async function removeTeamMember(teamId: string, userId: string): Promise<void> {
  await request<unknown>('DELETE', `${REST}/private/teams/${id(teamId)}/members/${id(userId)}`);
}

/** DELETE REST/private/teams/{id}: deletes a team (and the folder permissions naming it). */
export function deleteTeam(teamId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/private/teams/${id(teamId)}`);
}

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

/**
 * DELETE REST/folder_permissions/by_user?user_id: removes every folder permission naming the user
 * (not those of the user's teams).
 */
export function deleteUserFolderPermissions(userId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/folder_permissions/by_user`, {
    query: { user_id: userId },
  });
}

// Integrations and partner keys

/** GET REST/private/integrations: the integration switch of the firms the user administers. */
export async function fetchIntegrations(): Promise<IntegrationDto[]> {
  const answer = await get<IntegrationsResponse | IntegrationDto[]>(`${REST}/private/integrations`);
  return Array.isArray(answer) ? answer : answer.integrations;
}

/** POST REST/private/integrations/enable or /disable with databaseId. */
export function switchIntegration(databaseId: string, enabled: boolean): Promise<IntegrationDto> {
  return post<IntegrationDto>(`${REST}/private/integrations/${enabled ? 'enable' : 'disable'}`, {
    databaseId,
  });
}

/** GET REST/private/integrations/userkey: the firm's partner keys (never the keys themselves). */
export async function fetchIntegrationKeys(): Promise<IntegrationKeyDto[]> {
  const answer = await get<IntegrationKeysResponse>(`${REST}/private/integrations/userkey`);
  return answer.keys;
}

/** POST REST/private/integrations/userkey?partner_app_id: a new key, shown this once. */
export function createIntegrationKey(
  partnerAppId: string,
  userId: string,
): Promise<CreatedIntegrationKeyDto> {
  const body: CreateIntegrationKeyRequest = { userId };
  return post<CreatedIntegrationKeyDto>(`${REST}/private/integrations/userkey`, body, {
    query: { partner_app_id: partnerAppId },
  });
}

/** POST REST/private/integrations/users/{id}?partner_app_id: rotates a user's key. */
export function rotateIntegrationKey(
  userId: string,
  partnerAppId: string,
): Promise<CreatedIntegrationKeyDto> {
  return post<CreatedIntegrationKeyDto>(
    `${REST}/private/integrations/users/${id(userId)}`,
    {},
    {
      query: { partner_app_id: partnerAppId },
    },
  );
}

/** DELETE REST/private/integrations/users/{id}?partner_app_id: deletes a user's key. */
export function deleteIntegrationKey(userId: string, partnerAppId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/private/integrations/users/${id(userId)}`, {
    query: { partner_app_id: partnerAppId },
  });
}
