/** Selectors of the admin area (members, teams, folder permissions, integrations). */
import { createSelector } from '@reduxjs/toolkit';
import type { DatabaseUserDto, Role } from '../../../common/types';
import { capitalize } from '../../../common/text';
import type { RootState } from '../../store/rootReducer';
import { selectCurrentDatabaseId } from '../session/sessionSelectors';

/** The members list with its status and search text. */
export const selectMembers = (state: RootState) => state.admin.members;
/** The open member dialog (kind, selected member id, request). */
export const selectMemberDialog = (state: RootState) => state.admin.memberDialog;
/** The selected member's teams. */
export const selectMemberTeams = (state: RootState) => state.admin.memberTeams;
/** Removing all of one member's folder permissions: its member, status and error. */
export const selectMemberPermissionsClear = (state: RootState) =>
  state.admin.memberPermissionsClear;
/** The teams list. */
export const selectTeams = (state: RootState) => state.admin.teams;
/** The open team dialog. */
export const selectTeamDialog = (state: RootState) => state.admin.teamDialog;
/** The users and teams a folder permission can name. */
export const selectPermissionables = (state: RootState) => state.admin.permissionables;
/** The folder permissions dialog. */
export const selectFolderPermissions = (state: RootState) => state.admin.folderPermissions;
/** The integration switches. */
export const selectIntegrations = (state: RootState) => state.integrations.integrations;
/** The integrations slice (switching, keys, the new key). */
export const selectIntegrationsState = (state: RootState) => state.integrations;

/** A member's display name: "First Last", or the username when both are empty. */
export function memberDisplayName(
  member: Pick<DatabaseUserDto, 'firstName' | 'lastName' | 'username'>,
): string {
  return [member.firstName, member.lastName].filter(Boolean).join(' ').trim() || member.username;
}

/** A role as a label: `read_only` → "Read only", `admin` → "Admin" (capitalize, SPEC section 5). */
export function roleLabel(role: Role): string {
  return capitalize(role.replace(/_/g, ' '));
}

/**
 * Whether a member matches the search text: every word of it is in the name, username, e-mail
 * or role (case-insensitive). The server searches the same way (without the role), so the loaded
 * rows can be narrowed at once while the server's answer for the new text is on its way.
 */
export function memberMatches(member: DatabaseUserDto, search: string): boolean {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [
    member.firstName,
    member.lastName,
    member.username,
    member.email ?? '',
    roleLabel(member.role),
  ]
    .join('\n')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/** The loaded members matching the search text, in the server's order (last, first name). */
export const selectVisibleMembers = createSelector([selectMembers], (members) =>
  members.items.filter((member) => memberMatches(member, members.search)),
);

/** The firm's users among the permissionables, as select options (teams and keys use them). */
export const selectUserOptions = createSelector([selectPermissionables], (permissionables) =>
  permissionables.items
    .filter((item) => item.permissionable_type === 'user')
    .map((item) => ({ id: item.permissionable_id, name: item.name })),
);

/** The selected member of the open dialog, or null. */
export const selectSelectedMember = createSelector(
  [selectMembers, selectMemberDialog],
  (members, dialog) =>
    dialog.memberId === null
      ? null
      : (members.items.find((member) => member.id === dialog.memberId) ?? null),
);

/** The team of the open team dialog, or null. */
export const selectSelectedTeam = createSelector(
  [selectTeams, selectTeamDialog],
  (teams, dialog) =>
    dialog.teamId === null ? null : (teams.items.find((team) => team.id === dialog.teamId) ?? null),
);

/** The current firm database's integration switch, or null when not (yet) known. */
export const selectCurrentIntegration = createSelector(
  [selectIntegrations, selectCurrentDatabaseId],
  (integrations, databaseId) =>
    integrations.items.find((item) => item.databaseId === databaseId) ?? null,
);

/** The permissionables not yet on the open folder (what the dialog can still add). */
export const selectAddablePermissionables = createSelector(
  [selectPermissionables, selectFolderPermissions],
  (permissionables, folder) => {
    const taken = new Set(
      folder.items.map((item) => `${item.permissionable_type}:${item.permissionable_id}`),
    );
    return permissionables.items.filter(
      (item) => !taken.has(`${item.permissionable_type}:${item.permissionable_id}`),
    );
  },
);
