/** Selectors of the member list and dialogs, and how a member is named. */
import { createSelector } from '@reduxjs/toolkit';
import type { Role } from '@common/session';
import { capitalize } from '@common/text';
import type { DatabaseUserDto } from '@common/users';
import type { RootState } from '@src/store/rootReducer';

/** The members list with its status and search text. */
export const selectMembers = (state: RootState) => state.members.list;
/** The open member dialog (kind, selected member id, request). */
export const selectMemberDialog = (state: RootState) => state.members.dialog;
/** The selected member's teams. */
export const selectMemberTeams = (state: RootState) => state.members.teams;
/** Removing all of one member's folder permissions: its member, status and error. */
export const selectMemberPermissionsClear = (state: RootState) => state.members.permissionsClear;

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

/** The selected member of the open dialog, or null. */
export const selectSelectedMember = createSelector(
  [selectMembers, selectMemberDialog],
  (members, dialog) =>
    dialog.memberId === null
      ? null
      : (members.items.find((member) => member.id === dialog.memberId) ?? null),
);
