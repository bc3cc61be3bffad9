/**
 * Sagas of the member list and dialogs. Every worker is wrapped with `safely`; expected failures end
 * in the slice's `…Failed` events with the server's message (or the spec's "Could not get database
 * users." when the list cannot be read).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, delay, put, select, takeLatest, takeLeading } from 'typed-redux-saga';
import { MESSAGES } from '@common/messages';
import type { Role } from '@common/session';
import type { CreateUserRequest, UpdateUserRequest } from '@common/users';
import { errorMessage, listError } from '@src/api/client';
import { notifySuccess } from '@src/features/notifications/notifySuccess';
import { safely } from '@src/sagas/safely';
import type { Saga } from '@src/sagas/saga';
import * as membersApi from './membersApi';
import { memberDisplayName, selectMembers } from './membersSelectors';
import { membersActions, type MemberStateChange } from './membersSlice';

/** Pause after the last keystroke in the member search before the server is asked, in ms. */
export const MEMBER_SEARCH_DELAY_MS = 300;

/** Reads the first page of the firm's members matching the search (GET private/users). */
export function* loadMembers(): Saga {
  const { search } = yield* select(selectMembers);
  const query = search.trim();
  try {
    const page = yield* call(membersApi.fetchMembers, { query, page: 1 });
    yield* put(
      membersActions.membersLoaded({
        search: query,
        page: 1,
        total: page.total,
        items: page.items,
      }),
    );
  } catch (error) {
    yield* put(membersActions.membersFailed(listError(MESSAGES.couldNotGetDatabaseUsers, error)));
  }
}

/** Reads the next page of members when the list's end is reached and more match. */
export function* loadMoreMembers(): Saga {
  const members = yield* select(selectMembers);
  if (members.more !== 'loading') return;
  const query = members.search.trim();
  const next = members.page + 1;
  try {
    const page = yield* call(membersApi.fetchMembers, {
      query,
      page: next,
    });
    yield* put(
      membersActions.membersLoaded({
        search: query,
        page: next,
        total: page.total,
        items: page.items,
      }),
    );
  } catch (error) {
    yield* put(
      membersActions.membersMoreFailed(listError(MESSAGES.couldNotGetDatabaseUsers, error)),
    );
  }
}

/** The search text changed: after a short pause, read the first page for it. */
export function* searchMembers(): Saga {
  yield* delay(MEMBER_SEARCH_DELAY_MS);
  yield* put(membersActions.membersRequested());
}

/** Creates a member (POST private/users). */
export function* createMember(action: PayloadAction<CreateUserRequest>): Saga {
  try {
    const member = yield* call(membersApi.createMember, action.payload);
    yield* put(membersActions.memberSaved(member));
    yield* call(notifySuccess, `${memberDisplayName(member)} was added.`);
  } catch (error) {
    yield* put(membersActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Updates a member's names, username or e-mail (PATCH private/users/{id}). */
export function* updateMember(
  action: PayloadAction<{ memberId: string; changes: UpdateUserRequest }>,
): Saga {
  try {
    const { memberId, changes } = action.payload;
    const member = yield* call(membersApi.updateMember, memberId, changes);
    yield* put(membersActions.memberSaved(member));
    yield* call(notifySuccess, `${memberDisplayName(member)} was updated.`);
  } catch (error) {
    yield* put(membersActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Sets a member's password (PATCH private/users/{id}/update_password). */
export function* changePassword(
  action: PayloadAction<{ memberId: string; password: string }>,
): Saga {
  try {
    const { memberId, password } = action.payload;
    yield* call(membersApi.updateMemberPassword, memberId, password);
    yield* put(membersActions.memberDialogSucceeded());
    yield* call(notifySuccess, 'The password was changed.');
  } catch (error) {
    yield* put(membersActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Changes a member's role (PATCH private/users/role/{id}). */
export function* changeRole(action: PayloadAction<{ memberId: string; role: Role }>): Saga {
  try {
    const { memberId, role } = action.payload;
    const member = yield* call(membersApi.updateMemberRole, memberId, role);
    yield* put(membersActions.memberSaved(member));
    yield* call(notifySuccess, `${memberDisplayName(member)}'s role was changed.`);
  } catch (error) {
    yield* put(membersActions.memberDialogFailed(errorMessage(error)));
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
    const member = yield* call(membersApi.changeMemberState, memberId, change);
    yield* put(membersActions.memberSaved(member));
    yield* call(notifySuccess, `${memberDisplayName(member)} ${STATE_CHANGE_DONE[change]}.`);
  } catch (error) {
    yield* put(membersActions.memberDialogFailed(errorMessage(error)));
  }
}

/** Reads the selected member's teams (GET private/users/{id}/teams). */
export function* loadMemberTeams(action: PayloadAction<{ memberId: string }>): Saga {
  try {
    const teams = yield* call(membersApi.fetchMemberTeams, action.payload.memberId);
    yield* put(membersActions.memberTeamsLoaded(teams));
  } catch (error) {
    yield* put(membersActions.memberTeamsFailed(errorMessage(error)));
  }
}

/** The permission dialog opened: read the member's teams. */
export function* memberDialogOpened(
  action: PayloadAction<{ kind: string; memberId?: string | null }>,
): Saga {
  const { kind, memberId } = action.payload;
  if (kind === 'permission' && memberId) {
    yield* put(membersActions.memberTeamsRequested({ memberId }));
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
    yield* call(membersApi.deleteUserFolderPermissions, memberId);
    yield* put(membersActions.memberPermissionsCleared({ memberId }));
    yield* call(notifySuccess, `All folder permissions of ${name} were removed.`);
  } catch (error) {
    yield* put(
      membersActions.memberPermissionsClearFailed({ memberId, message: errorMessage(error) }),
    );
  }
}

/** Root saga of the member list and dialogs. */
export function* membersSaga(): Saga {
  yield* all([
    takeLatest(membersActions.membersRequested.type, safely(loadMembers)),
    takeLeading(membersActions.membersMoreRequested.type, safely(loadMoreMembers)),
    takeLatest(membersActions.memberSearchChanged.type, safely(searchMembers)),
    takeLeading(membersActions.memberCreateRequested.type, safely(createMember)),
    takeLeading(membersActions.memberUpdateRequested.type, safely(updateMember)),
    takeLeading(membersActions.passwordChangeRequested.type, safely(changePassword)),
    takeLeading(membersActions.roleChangeRequested.type, safely(changeRole)),
    takeLeading(membersActions.memberStateChangeRequested.type, safely(changeMemberState)),
    takeLatest(membersActions.memberDialogOpened.type, safely(memberDialogOpened)),
    takeLatest(membersActions.memberTeamsRequested.type, safely(loadMemberTeams)),
    takeLeading(
      membersActions.memberPermissionsClearRequested.type,
      safely(clearMemberPermissions),
    ),
  ]);
}
