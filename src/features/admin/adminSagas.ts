/**
 * Sagas of the admin area: members and their dialogs, teams, folder permissions,
 * integrations and partner keys. Every worker is wrapped with `safely`; expected failures end in
 * the slice's `…Failed` events with the server's message (or the spec's "Could not get database
 * users." / "Could not get integrations." when those lists cannot be read).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import {
  all,
  call,
  delay,
  put,
  select,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import { MESSAGES } from '../../../common/messages';
import type { CreateUserRequest, Role, UpdateUserRequest } from '../../../common/types';
import { ApiError, errorMessage } from '../../api/client';
import { safely } from '../../sagas/safely';
import { notificationsActions } from '../notifications/notificationsSlice';
import * as adminApi from './adminApi';
import { memberDisplayName } from './adminSelectors';
import type { RootState } from '../../store/rootReducer';
import { adminActions, type MemberStateChange, type PermissionableRef } from './adminSlice';
import { integrationsActions, type IntegrationKeyRef } from './integrationsSlice';
import type { Saga } from '../../sagas/saga';

/** A list's failure text: the spec's message, then the reason when the server gave one. */
export function listError(message: string, error: unknown): string {
  return error instanceof ApiError && error.status !== 0 && error.message
    ? `${message} ${error.message}`
    : message;
}

function* success(text: string): Saga {
  yield* put(notificationsActions.infoMessageRequested({ text, kind: 'success' }));
}

// Members

/** Pause after the last keystroke in the member search before the server is asked, in ms. */
export const MEMBER_SEARCH_DELAY_MS = 300;

const selectMembersState = (state: RootState) => state.admin.members;

/** Reads the first page of the firm's members matching the search (GET private/users). */
export function* loadMembers(): Saga {
  const { search } = yield* select(selectMembersState);
  const query = search.trim();
  try {
    const page = yield* call(adminApi.fetchMembers, { query, page: 1 });
    yield* put(
      adminActions.membersLoaded({ search: query, page: 1, total: page.total, items: page.items }),
    );
  } catch (error) {
    yield* put(adminActions.membersFailed(listError(MESSAGES.couldNotGetDatabaseUsers, error)));
  }
}

/** Reads the next page of members when the list's end is reached and more match. */
export function* loadMoreMembers(): Saga {
  const members = yield* select(selectMembersState);
  if (members.more !== 'loading') return;
  const query = members.search.trim();
  const next = members.page + 1;
  try {
    const page = yield* call(adminApi.fetchMembers, {
      query,
      page: next,
    });
    yield* put(
      adminActions.membersLoaded({
        search: query,
        page: next,
        total: page.total,
        items: page.items,
      }),
    );
  } catch (error) {
    yield* put(adminActions.membersMoreFailed(listError(MESSAGES.couldNotGetDatabaseUsers, error)));
  }
}

/** The search text changed: after a short pause, read the first page for it. */
export function* searchMembers(): Saga {
  yield* delay(MEMBER_SEARCH_DELAY_MS);
  yield* put(adminActions.membersRequested());
}

/** Creates a member (POST private/users). */
export function* createMember(action: PayloadAction<CreateUserRequest>): Saga {
  try {
    const member = yield* call(adminApi.createMember, action.payload);
    yield* put(adminActions.memberSaved(member));
    yield* call(success, `${memberDisplayName(member)} was added.`);
  } catch (error) {
    yield* put(adminActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Updates a member's names, username or e-mail (PATCH private/users/{id}). */
export function* updateMember(
  action: PayloadAction<{ memberId: string; changes: UpdateUserRequest }>,
): Saga {
  try {
    const { memberId, changes } = action.payload;
    const member = yield* call(adminApi.updateMember, memberId, changes);
    yield* put(adminActions.memberSaved(member));
    yield* call(success, `${memberDisplayName(member)} was updated.`);
  } catch (error) {
    yield* put(adminActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Sets a member's password (PATCH private/users/{id}/update_password). */
export function* changePassword(
  action: PayloadAction<{ memberId: string; password: string }>,
): Saga {
  try {
    const { memberId, password } = action.payload;
    yield* call(adminApi.updateMemberPassword, memberId, password);
    yield* put(adminActions.memberDialogSucceeded());
    yield* call(success, 'The password was changed.');
  } catch (error) {
    yield* put(adminActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Changes a member's role (PATCH private/users/role/{id}). */
export function* changeRole(action: PayloadAction<{ memberId: string; role: Role }>): Saga {
  try {
    const { memberId, role } = action.payload;
    const member = yield* call(adminApi.updateMemberRole, memberId, role);
    yield* put(adminActions.memberSaved(member));
    yield* call(success, `${memberDisplayName(member)}'s role was changed.`);
  } catch (error) {
    yield* put(adminActions.memberDialogFailed(errorMessage(error)));
  }
}

const STATE_CHANGE_DONE: Record<MemberStateChange, string> = {
  disable: 'was disabled',
  enable: 'was enabled',
  unlock: 'was unlocked',
};

/** Disables, enables or unlocks a member (POST private/users/{id}/{change}). */
export function* changeMemberState(
  action: PayloadAction<{ memberId: string; change: MemberStateChange }>,
): Saga {
  const { memberId, change } = action.payload;
  try {
    const member = yield* call(adminApi.changeMemberState, memberId, change);
    yield* put(adminActions.memberSaved(member));
    yield* call(success, `${memberDisplayName(member)} ${STATE_CHANGE_DONE[change]}.`);
  } catch (error) {
    yield* put(adminActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Reads the selected member's teams (GET private/users/{id}/teams). */
export function* loadMemberTeams(action: PayloadAction<{ memberId: string }>): Saga {
  try {
    const teams = yield* call(adminApi.fetchMemberTeams, action.payload.memberId);
    yield* put(adminActions.memberTeamsLoaded(teams));
  } catch (error) {
    yield* put(adminActions.memberTeamsFailed(errorMessage(error)));
  }
}

/** The permission dialog opened: read the member's teams. */
export function* memberDialogOpened(
  action: PayloadAction<{ kind: string; memberId?: string | null }>,
): Saga {
  const { kind, memberId } = action.payload;
  if (kind === 'permission' && memberId) {
    yield* put(adminActions.memberTeamsRequested({ memberId }));
  }
}

// Teams

/** Reads the firm's teams (GET private/teams). */
export function* loadTeams(): Saga {
  try {
    const teams = yield* call(adminApi.fetchTeams);
    yield* put(adminActions.teamsLoaded(teams));
  } catch (error) {
    yield* put(adminActions.teamsFailed(errorMessage(error)));
  }
}

/** Creates a team. */
export function* createTeam(action: PayloadAction<{ name: string; memberIds: string[] }>): Saga {
  try {
    const team = yield* call(adminApi.createTeam, action.payload.name, action.payload.memberIds);
    yield* put(adminActions.teamSaved({ team, close: true }));
    yield* call(success, `Team ${team.name} was created.`);
  } catch (error) {
    yield* put(adminActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Renames a team. */
export function* renameTeam(action: PayloadAction<{ teamId: string; name: string }>): Saga {
  try {
    const team = yield* call(adminApi.renameTeam, action.payload.teamId, action.payload.name);
    yield* put(adminActions.teamSaved({ team, close: true }));
    yield* call(success, `The team was renamed to ${team.name}.`);
  } catch (error) {
    yield* put(adminActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Reads the teams again after a member left one (the call answers 204, without the team). */
function* reloadTeam(teamId: string): Saga {
  const teams = yield* call(adminApi.fetchTeams);
  yield* put(adminActions.teamsLoaded(teams));
  const team = teams.find((candidate) => candidate.id === teamId);
  if (team) yield* put(adminActions.teamSaved({ team, close: false }));
}

/** Adds members to a team (the members dialog stays open). */
export function* addTeamMembers(
  action: PayloadAction<{ teamId: string; userIds: string[] }>,
): Saga {
  const { teamId, userIds } = action.payload;
  try {
    const team = yield* call(adminApi.addTeamMembers, teamId, userIds);
    yield* put(adminActions.teamSaved({ team, close: false }));
  } catch (error) {
    yield* put(adminActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Removes a member from a team (the members dialog stays open). */
export function* removeTeamMember(action: PayloadAction<{ teamId: string; userId: string }>): Saga {
  const { teamId, userId } = action.payload;
  try {
    yield* call(adminApi.removeTeamMember, teamId, userId);
    yield* call(reloadTeam, teamId);
  } catch (error) {
    yield* put(adminActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Deletes a team. */
export function* deleteTeam(action: PayloadAction<{ teamId: string }>): Saga {
  try {
    yield* call(adminApi.deleteTeam, action.payload.teamId);
    yield* put(adminActions.teamDeleted({ teamId: action.payload.teamId }));
    yield* call(success, 'The team was deleted.');
  } catch (error) {
    yield* put(adminActions.teamDialogFailed(errorMessage(error)));
  }
}

// Folder permissions

/** Reads the users and teams a permission can name (GET private/permissionables). */
export function* loadPermissionables(): Saga {
  try {
    const items = yield* call(adminApi.fetchPermissionables);
    yield* put(adminActions.permissionablesLoaded(items));
  } catch (error) {
    yield* put(adminActions.permissionablesFailed(errorMessage(error)));
  }
}

/** Reads one folder's permissions. */
export function* loadFolderPermissions(folderId: string): Saga {
  try {
    const items = yield* call(adminApi.fetchFolderPermissions, folderId);
    yield* put(adminActions.folderPermissionsLoaded({ folderId, items }));
  } catch (error) {
    yield* put(adminActions.folderPermissionsFailed({ folderId, message: errorMessage(error) }));
  }
}

/** The folder permissions dialog opened: the folder's permissions and the permissionables. */
export function* openFolderPermissions(action: PayloadAction<{ id: string; name: string }>): Saga {
  yield* put(adminActions.permissionablesRequested());
  yield* call(loadFolderPermissions, action.payload.id);
}

/** Adds users and teams to a folder (POST folder_permissions), then reads the list again. */
export function* addPermissions(
  action: PayloadAction<{ folderId: string; permissionables: PermissionableRef[] }>,
): Saga {
  const { folderId, permissionables } = action.payload;
  try {
    yield* call(adminApi.createFolderPermissions, { folder_id: folderId, permissionables });
    yield* put(adminActions.permissionsChanged({ folderId }));
    yield* call(loadFolderPermissions, folderId);
  } catch (error) {
    yield* put(adminActions.permissionsChangeFailed({ folderId, message: errorMessage(error) }));
  }
}

/** Removes one permission (DELETE folder_permissions/{id}). */
export function* removePermission(
  action: PayloadAction<{ folderId: string; permissionId: string }>,
): Saga {
  const { folderId, permissionId } = action.payload;
  try {
    yield* call(adminApi.deleteFolderPermission, permissionId);
    yield* put(adminActions.permissionsChanged({ folderId }));
    yield* call(loadFolderPermissions, folderId);
  } catch (error) {
    yield* put(adminActions.permissionsChangeFailed({ folderId, message: errorMessage(error) }));
  }
}

/** Removes every permission of the folder (DELETE folders/{id}/permissions). */
export function* clearPermissions(action: PayloadAction<{ folderId: string }>): Saga {
  const { folderId } = action.payload;
  try {
    yield* call(adminApi.deleteAllFolderPermissions, folderId);
    yield* put(adminActions.permissionsChanged({ folderId }));
    yield* call(loadFolderPermissions, folderId);
  } catch (error) {
    yield* put(adminActions.permissionsChangeFailed({ folderId, message: errorMessage(error) }));
  }
}

/**
 * Removes every folder permission naming a member (DELETE folder_permissions/by_user?user_id) and
 * says so; a refusal is shown in the member's dialog.
 */
export function* clearMemberPermissions(
  action: PayloadAction<{ memberId: string; name: string }>,
): Saga {
  const { memberId, name } = action.payload;
  try {
    yield* call(adminApi.deleteUserFolderPermissions, memberId);
    yield* put(adminActions.memberPermissionsCleared({ memberId }));
    yield* call(success, `All folder permissions of ${name} were removed.`);
  } catch (error) {
    yield* put(
      adminActions.memberPermissionsClearFailed({ memberId, message: errorMessage(error) }),
    );
  }
}

// Integrations and keys

/** Reads the integration switches (GET private/integrations). */
export function* loadIntegrations(): Saga {
  try {
    const items = yield* call(adminApi.fetchIntegrations);
    yield* put(integrationsActions.integrationsLoaded(items));
  } catch (error) {
    yield* put(
      integrationsActions.integrationsFailed(listError(MESSAGES.couldNotGetIntegrations, error)),
    );
  }
}

/** Enables or disables a firm's integrations. */
export function* switchIntegration(
  action: PayloadAction<{ databaseId: string; enabled: boolean }>,
): Saga {
  const { databaseId, enabled } = action.payload;
  try {
    const answer = yield* call(adminApi.switchIntegration, databaseId, enabled);
    yield* put(integrationsActions.switched(answer));
    yield* call(success, enabled ? 'Integrations were enabled.' : 'Integrations were disabled.');
  } catch (error) {
    yield* put(integrationsActions.switchFailed(errorMessage(error)));
  }
}

/** Reads the firm's partner keys. */
export function* loadKeys(): Saga {
  try {
    const keys = yield* call(adminApi.fetchIntegrationKeys);
    yield* put(integrationsActions.keysLoaded(keys));
  } catch (error) {
    yield* put(integrationsActions.keysFailed(listError(MESSAGES.couldNotGetIntegrations, error)));
  }
}

/** Creates a key; the answer carries the key, shown once. */
export function* createKey(action: PayloadAction<IntegrationKeyRef>): Saga {
  const { userId, partnerAppId } = action.payload;
  try {
    const created = yield* call(adminApi.createIntegrationKey, partnerAppId, userId);
    yield* put(integrationsActions.keyIssued(created));
  } catch (error) {
    yield* put(integrationsActions.keyChangeFailed(errorMessage(error)));
  }
}

/** Rotates a key: the old one stops working, the new one is shown once. */
export function* rotateKey(action: PayloadAction<IntegrationKeyRef>): Saga {
  const { userId, partnerAppId } = action.payload;
  try {
    const rotated = yield* call(adminApi.rotateIntegrationKey, userId, partnerAppId);
    yield* put(integrationsActions.keyIssued(rotated));
  } catch (error) {
    yield* put(integrationsActions.keyChangeFailed(errorMessage(error)));
  }
}

/** Deletes a key. */
export function* deleteKey(action: PayloadAction<IntegrationKeyRef>): Saga {
  const { userId, partnerAppId } = action.payload;
  try {
    yield* call(adminApi.deleteIntegrationKey, userId, partnerAppId);
    yield* put(integrationsActions.keyDeleted({ userId, partnerAppId }));
    yield* call(success, 'The key was deleted.');
  } catch (error) {
    yield* put(integrationsActions.keyChangeFailed(errorMessage(error)));
  }
}

/** Root saga of the admin area. */
export function* adminSaga(): Saga {
  yield* all([
    takeLatest(adminActions.membersRequested.type, safely(loadMembers)),
    takeLeading(adminActions.membersMoreRequested.type, safely(loadMoreMembers)),
    takeLatest(adminActions.memberSearchChanged.type, safely(searchMembers)),
    takeLeading(adminActions.memberCreateRequested.type, safely(createMember)),
    takeLeading(adminActions.memberUpdateRequested.type, safely(updateMember)),
    takeLeading(adminActions.passwordChangeRequested.type, safely(changePassword)),
    takeLeading(adminActions.roleChangeRequested.type, safely(changeRole)),
    takeLeading(adminActions.memberStateChangeRequested.type, safely(changeMemberState)),
    takeLatest(adminActions.memberDialogOpened.type, safely(memberDialogOpened)),
    takeLatest(adminActions.memberTeamsRequested.type, safely(loadMemberTeams)),
    takeLatest(adminActions.teamsRequested.type, safely(loadTeams)),
    takeLeading(adminActions.teamCreateRequested.type, safely(createTeam)),
    takeLeading(adminActions.teamRenameRequested.type, safely(renameTeam)),
    takeEvery(adminActions.teamMembersAddRequested.type, safely(addTeamMembers)),
    takeEvery(adminActions.teamMemberRemoveRequested.type, safely(removeTeamMember)),
    takeLeading(adminActions.teamDeleteRequested.type, safely(deleteTeam)),
    takeLatest(adminActions.permissionablesRequested.type, safely(loadPermissionables)),
    takeLatest(adminActions.folderPermissionsOpened.type, safely(openFolderPermissions)),
    takeEvery(adminActions.permissionsAddRequested.type, safely(addPermissions)),
    takeEvery(adminActions.permissionRemoveRequested.type, safely(removePermission)),
    takeLeading(adminActions.permissionsClearRequested.type, safely(clearPermissions)),
    takeLeading(adminActions.memberPermissionsClearRequested.type, safely(clearMemberPermissions)),
    takeLatest(integrationsActions.integrationsRequested.type, safely(loadIntegrations)),
    takeEvery(integrationsActions.switchRequested.type, safely(switchIntegration)),
    takeLatest(integrationsActions.keysRequested.type, safely(loadKeys)),
    takeLeading(integrationsActions.keyCreateRequested.type, safely(createKey)),
    takeLeading(integrationsActions.keyRotateRequested.type, safely(rotateKey)),
    takeLeading(integrationsActions.keyDeleteRequested.type, safely(deleteKey)),
  ]);
}

/**
 * Keeps secrets out of the developer tools' action log: the password of a new member or a
 * password change, and a new integration key. Other actions are returned unchanged.
 */
export function sanitizeAdminAction<A extends { type: string }>(action: A): A {
  const hidden = '••••••';
  if (
    adminActions.memberCreateRequested.match(action) ||
    adminActions.passwordChangeRequested.match(action)
  ) {
    return { ...action, payload: { ...action.payload, password: hidden } };
  }
  if (integrationsActions.keyIssued.match(action)) {
    return { ...action, payload: { ...action.payload, key: hidden } };
  }
  return action;
}
