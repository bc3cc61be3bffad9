/**
 * Calls of the member list and dialogs (SPEC section 7 "Private users and auth"). Every call goes
 * through the one HTTP client, so a failed call throws an ApiError with the server's message.
 */
import type { Page } from '@common/api';
import type { Role } from '@common/session';
import type {
  CreateUserRequest,
  DatabaseUserDto,
  UpdateUserRequest,
  UserTeamDto,
} from '@common/users';
import { REST, get, post, request } from '@src/api/client';

const id = (value: string) => encodeURIComponent(value);

// Members (private/users)

/** Members read per page of the member list. */
const MEMBERS_PAGE_SIZE = 100;

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

/**
 * DELETE REST/folder_permissions/by_user?user_id: removes every folder permission naming the user
 * (not those of the user's teams).
 */
export function deleteUserFolderPermissions(userId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/folder_permissions/by_user`, {
    query: { user_id: userId },
  });
}
