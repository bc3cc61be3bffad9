/**
 * Calls of the teams page (SPEC section 7 "Teams"). Every call goes through the one HTTP client,
 * so a failed call throws an ApiError with the server's message.
 */
import type { TeamDto } from '@common/users';
import { REST, get, post, request } from '@src/api/client';

const id = (value: string) => encodeURIComponent(value);

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
