/**
 * Teams slice (SPEC section 7 "Teams"): the firm's teams and the open team dialog (create, rename,
 * members, delete). Actions are events; teamsSagas.ts makes the calls.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { TeamDto } from '@common/users';
import { sessionActions } from '@src/features/session/sessionSlice';
import { dialogSaving, emptyList, upsertById, type ListState } from '@src/store/listState';
import type { Status } from '@src/store/status';

/** The team dialogs. */
export type TeamDialogKind = 'create' | 'rename' | 'members' | 'delete';

/** The open team dialog and its request. */
export interface TeamDialogState {
  kind: TeamDialogKind | null;
  teamId: string | null;
  status: Status;
  error: string | null;
}

/** The teams slice's state. */
export interface TeamsState {
  list: ListState<TeamDto>;
  dialog: TeamDialogState;
}

const closedTeamDialog: TeamDialogState = { kind: null, teamId: null, status: 'idle', error: null };

/** The state before anything is loaded. */
export const initialTeamsState: TeamsState = { list: emptyList(), dialog: closedTeamDialog };

const teamsSlice = createSlice({
  name: 'teams',
  initialState: initialTeamsState,
  reducers: {
    teamsRequested(state) {
      state.list.status = 'loading';
      state.list.error = null;
    },
    teamsLoaded(state, action: PayloadAction<TeamDto[]>) {
      state.list.status = 'succeeded';
      state.list.items = action.payload;
    },
    teamsFailed(state, action: PayloadAction<string>) {
      state.list.status = 'failed';
      state.list.error = action.payload;
    },
    teamDialogOpened(state, action: PayloadAction<{ kind: TeamDialogKind; teamId?: string }>) {
      state.dialog = {
        kind: action.payload.kind,
        teamId: action.payload.teamId ?? null,
        status: 'idle',
        error: null,
      };
    },
    teamDialogClosed(state) {
      state.dialog = closedTeamDialog;
    },
    teamCreateRequested(state, _action: PayloadAction<{ name: string; memberIds: string[] }>) {
      dialogSaving(state.dialog);
    },
    teamRenameRequested(state, _action: PayloadAction<{ teamId: string; name: string }>) {
      dialogSaving(state.dialog);
    },
    teamMembersAddRequested(state, _action: PayloadAction<{ teamId: string; userIds: string[] }>) {
      dialogSaving(state.dialog);
    },
    teamMemberRemoveRequested(state, _action: PayloadAction<{ teamId: string; userId: string }>) {
      dialogSaving(state.dialog);
    },
    teamDeleteRequested(state, _action: PayloadAction<{ teamId: string }>) {
      dialogSaving(state.dialog);
    },
    /** A team was created or changed; `close` closes the dialog (the members dialog stays). */
    teamSaved(state, action: PayloadAction<{ team: TeamDto; close: boolean }>) {
      upsertById(state.list.items, action.payload.team);
      state.dialog = action.payload.close
        ? closedTeamDialog
        : { ...state.dialog, status: 'succeeded', error: null };
    },
    teamDeleted(state, action: PayloadAction<{ teamId: string }>) {
      state.list.items = state.list.items.filter((team) => team.id !== action.payload.teamId);
      state.dialog = closedTeamDialog;
    },
    teamDialogFailed(state, action: PayloadAction<string>) {
      state.dialog.status = 'failed';
      state.dialog.error = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialTeamsState)
      .addCase(sessionActions.expired, () => initialTeamsState)
      .addCase(sessionActions.endedInAnotherTab, () => initialTeamsState)
      .addCase(sessionActions.databaseSwitched, () => initialTeamsState);
  },
});

/** Event creators of the teams slice. */
export const teamsActions = teamsSlice.actions;
/** The teams slice's reducer. */
export const teamsReducer = teamsSlice.reducer;
