/**
 * Sagas of the teams page. Every worker is wrapped with `safely`; a failure ends in
 * `teamsFailed` or `teamDialogFailed` with the server's message.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { errorMessage } from '@src/api/client';
import { notifySuccess } from '@src/features/notifications/notifySuccess';
import { safely } from '@src/sagas/safely';
import type { Saga } from '@src/sagas/saga';
import * as teamsApi from './teamsApi';
import { teamsActions } from './teamsSlice';

/** Reads the firm's teams (GET private/teams). */
export function* loadTeams(): Saga {
  try {
    const teams = yield* call(teamsApi.fetchTeams);
    yield* put(teamsActions.teamsLoaded(teams));
  } catch (error) {
    yield* put(teamsActions.teamsFailed(errorMessage(error)));
  }
}

/** Creates a team. */
export function* createTeam(action: PayloadAction<{ name: string; memberIds: string[] }>): Saga {
  try {
    const team = yield* call(teamsApi.createTeam, action.payload.name, action.payload.memberIds);
    yield* put(teamsActions.teamSaved({ team, close: true }));
    yield* call(notifySuccess, `Team ${team.name} was created.`);
  } catch (error) {
    yield* put(teamsActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Renames a team. */
export function* renameTeam(action: PayloadAction<{ teamId: string; name: string }>): Saga {
  try {
    const team = yield* call(teamsApi.renameTeam, action.payload.teamId, action.payload.name);
    yield* put(teamsActions.teamSaved({ team, close: true }));
    yield* call(notifySuccess, `The team was renamed to ${team.name}.`);
  } catch (error) {
    yield* put(teamsActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Reads the teams again after a member left one (the call answers 204, without the team). */
function* reloadTeam(teamId: string): Saga {
  const teams = yield* call(teamsApi.fetchTeams);
  yield* put(teamsActions.teamsLoaded(teams));
  const team = teams.find((candidate) => candidate.id === teamId);
  if (team) yield* put(teamsActions.teamSaved({ team, close: false }));
}

/** Adds members to a team (the members dialog stays open). */
export function* addTeamMembers(
  action: PayloadAction<{ teamId: string; userIds: string[] }>,
): Saga {
  const { teamId, userIds } = action.payload;
  try {
    const team = yield* call(teamsApi.addTeamMembers, teamId, userIds);
    yield* put(teamsActions.teamSaved({ team, close: false }));
  } catch (error) {
    yield* put(teamsActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Removes a member from a team (the members dialog stays open). */
export function* removeTeamMember(action: PayloadAction<{ teamId: string; userId: string }>): Saga {
  const { teamId, userId } = action.payload;
  try {
    yield* call(teamsApi.removeTeamMember, teamId, userId);
    yield* call(reloadTeam, teamId);
  } catch (error) {
    yield* put(teamsActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Deletes a team. */
export function* deleteTeam(action: PayloadAction<{ teamId: string }>): Saga {
  try {
    yield* call(teamsApi.deleteTeam, action.payload.teamId);
    yield* put(teamsActions.teamDeleted({ teamId: action.payload.teamId }));
    yield* call(notifySuccess, 'The team was deleted.');
  } catch (error) {
    yield* put(teamsActions.teamDialogFailed(errorMessage(error)));
  }
}

/** Root saga of the teams page. */
export function* teamsSaga(): Saga {
  yield* all([
    takeLatest(teamsActions.teamsRequested.type, safely(loadTeams)),
    takeLeading(teamsActions.teamCreateRequested.type, safely(createTeam)),
    takeLeading(teamsActions.teamRenameRequested.type, safely(renameTeam)),
    takeEvery(teamsActions.teamMembersAddRequested.type, safely(addTeamMembers)),
    takeEvery(teamsActions.teamMemberRemoveRequested.type, safely(removeTeamMember)),
    takeLeading(teamsActions.teamDeleteRequested.type, safely(deleteTeam)),
  ]);
}
