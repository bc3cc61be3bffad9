/**
 * Admin slice (SPEC section 2 "Member dialogs"): the firm's members and the selected
 * member with the open member dialog (update, password, disable, enable, unlock, permission, and
 * create), the firm's teams and the team dialog, the permissionables (users and teams) and the
 * folder permissions dialog of one folder. Actions are events; adminSagas.ts makes the calls.
 * Passwords travel only in the request actions (never in the state).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  CreateUserRequest,
  DatabaseUserDto,
  FolderPermissionDto,
  PermissionableDto,
  PermissionableType,
  Role,
  TeamDto,
  UpdateUserRequest,
  UserTeamDto,
} from '../../../common/types';
import type { Status } from '../../store/status';
import { sessionActions } from '../session/sessionSlice';

/** The member dialogs of SPEC section 2, and 'create' for a new member. */
export type MemberDialogKind =
  'create' | 'update' | 'password' | 'disable' | 'enable' | 'unlock' | 'permission';

/** The team dialogs. */
export type TeamDialogKind = 'create' | 'rename' | 'members' | 'delete';

/** A list read from the server. */
export interface ListState<T> {
  status: Status;
  error: string | null;
  items: T[];
}

/** The member list: the pages read so far for the current search. */
export interface MembersState extends ListState<DatabaseUserDto> {
  /** The search box's text (sent as `query`). */
  search: string;
  /** The last page read (0 before the first). */
  page: number;
  /** How many members match the search on the server. */
  total: number;
  /** Reading the next page ('loading'), or its failure. */
  more: Status;
}

/** The open member dialog and its request. */
export interface MemberDialogState {
  kind: MemberDialogKind | null;
  /** The selected member's id (null for 'create' and when closed). */
  memberId: string | null;
  /** The dialog's request: 'loading' while saving, 'failed' with the server's message. */
  status: Status;
  error: string | null;
}

/** The open team dialog and its request. */
export interface TeamDialogState {
  kind: TeamDialogKind | null;
  teamId: string | null;
  status: Status;
  error: string | null;
}

/** The folder permissions dialog of one folder. */
export interface FolderPermissionsState extends ListState<FolderPermissionDto> {
  /** The folder the dialog is open for; null when closed. */
  folder: { id: string; name: string } | null;
  /** An add or remove in flight, or its failure. */
  change: Status;
  changeError: string | null;
}

/** The admin slice's state. */
export interface AdminState {
  members: MembersState;
  memberDialog: MemberDialogState;
  /** The selected member's teams (the permission dialog shows them). */
  memberTeams: ListState<UserTeamDto>;
  teams: ListState<TeamDto>;
  teamDialog: TeamDialogState;
  permissionables: ListState<PermissionableDto>;
  folderPermissions: FolderPermissionsState;
  /** Removing all of one member's folder permissions (DELETE folder_permissions/by_user). */
  memberPermissionsClear: { memberId: string | null; status: Status; error: string | null };
}

function emptyList<T>(): ListState<T> {
  return { status: 'idle', error: null, items: [] };
}

const closedMemberDialog: MemberDialogState = {
  kind: null,
  memberId: null,
  status: 'idle',
  error: null,
};
const closedTeamDialog: TeamDialogState = { kind: null, teamId: null, status: 'idle', error: null };
const closedFolderPermissions: FolderPermissionsState = {
  ...emptyList<FolderPermissionDto>(),
  folder: null,
  change: 'idle',
  changeError: null,
};

/** The state before anything is loaded. */
export const initialAdminState: AdminState = {
  members: { ...emptyList<DatabaseUserDto>(), search: '', page: 0, total: 0, more: 'idle' },
  memberDialog: closedMemberDialog,
  memberTeams: emptyList(),
  teams: emptyList(),
  teamDialog: closedTeamDialog,
  permissionables: emptyList(),
  folderPermissions: closedFolderPermissions,
  memberPermissionsClear: { memberId: null, status: 'idle', error: null },
};

/** A member state change that answers the member (the disable, enable and unlock dialogs). */
export type MemberStateChange = 'disable' | 'enable' | 'unlock';

/** One user or team to add to a folder. */
export interface PermissionableRef {
  permissionable_id: string;
  permissionable_type: PermissionableType;
}

function upsert<T extends { id: string }>(items: T[], item: T): void {
  const index = items.findIndex((candidate) => candidate.id === item.id);
  if (index === -1) items.push(item);
  else items[index] = item;
}

function dialogSaving(state: { status: Status; error: string | null }): void {
  state.status = 'loading';
  state.error = null;
}

const adminSlice = createSlice({
  name: 'admin',
  initialState: initialAdminState,
  reducers: {
    // Members
    /** The member list is shown (or searched): read the first page of the firm's members. */
    membersRequested(state) {
      state.members.status = 'loading';
      state.members.error = null;
      state.members.more = 'idle';
    },
    /** The end of the list was reached: read the next page, if any. */
    membersMoreRequested(state) {
      const members = state.members;
      if (members.status !== 'succeeded' || members.more === 'loading') return;
      if (members.items.length >= members.total) return;
      members.more = 'loading';
    },
    /** A page arrived for `search`: page 1 replaces the list, later pages are appended. */
    membersLoaded(
      state,
      action: PayloadAction<{
        search: string;
        page: number;
        total: number;
        items: DatabaseUserDto[];
      }>,
    ) {
      const { search, page, total, items } = action.payload;
      if (search !== state.members.search.trim()) return;
      state.members.status = 'succeeded';
      state.members.error = null;
      state.members.more = 'idle';
      state.members.page = page;
      state.members.total = total;
      if (page <= 1) {
        state.members.items = items;
      } else {
        const known = new Set(state.members.items.map((member) => member.id));
        state.members.items.push(...items.filter((member) => !known.has(member.id)));
      }
    },
    /** Payload: MESSAGES.couldNotGetDatabaseUsers (with the reason). */
    membersFailed(state, action: PayloadAction<string>) {
      state.members.status = 'failed';
      state.members.error = action.payload;
      state.members.more = 'idle';
    },
    /** A later page could not be read (the list stays, "Try again" at its end). */
    membersMoreFailed(state, action: PayloadAction<string>) {
      state.members.more = 'failed';
      state.members.error = action.payload;
    },
    /** The search box of the member list changed (the saga searches after a pause). */
    memberSearchChanged(state, action: PayloadAction<string>) {
      state.members.search = action.payload;
    },
    /** A member dialog opens; `memberId` is the selected member (absent for 'create'). */
    memberDialogOpened(
      state,
      action: PayloadAction<{ kind: MemberDialogKind; memberId?: string | null }>,
    ) {
      state.memberDialog = {
        kind: action.payload.kind,
        memberId: action.payload.memberId ?? null,
        status: 'idle',
        error: null,
      };
      if (action.payload.kind === 'permission') state.memberTeams = emptyList();
      state.memberPermissionsClear = initialAdminState.memberPermissionsClear;
    },
    memberDialogClosed(state) {
      state.memberDialog = closedMemberDialog;
    },
    /** The create dialog was submitted. */
    memberCreateRequested(state, _action: PayloadAction<CreateUserRequest>) {
      dialogSaving(state.memberDialog);
    },
    /** The update dialog was submitted. */
    memberUpdateRequested(
      state,
      _action: PayloadAction<{ memberId: string; changes: UpdateUserRequest }>,
    ) {
      dialogSaving(state.memberDialog);
    },
    /** The password dialog was submitted. */
    passwordChangeRequested(state, _action: PayloadAction<{ memberId: string; password: string }>) {
      dialogSaving(state.memberDialog);
    },
    /** The permission dialog was submitted with a new role. */
    roleChangeRequested(state, _action: PayloadAction<{ memberId: string; role: Role }>) {
      dialogSaving(state.memberDialog);
    },
    /** The disable, enable or unlock dialog was confirmed. */
    memberStateChangeRequested(
      state,
      _action: PayloadAction<{ memberId: string; change: MemberStateChange }>,
    ) {
      dialogSaving(state.memberDialog);
    },
    /** The server answered the created or changed member: the dialog closes. */
    memberSaved(state, action: PayloadAction<DatabaseUserDto>) {
      const isNew = !state.members.items.some((member) => member.id === action.payload.id);
      upsert(state.members.items, action.payload);
      if (isNew) state.members.total += 1;
      state.memberDialog = closedMemberDialog;
    },
    /** A dialog's request succeeded without a member to show (password): the dialog closes. */
    memberDialogSucceeded(state) {
      state.memberDialog = closedMemberDialog;
    },
    /** The dialog's request failed: the dialog stays open with the server's message. */
    memberDialogFailed(state, action: PayloadAction<string>) {
      state.memberDialog.status = 'failed';
      state.memberDialog.error = action.payload;
    },
    memberTeamsRequested(state, _action: PayloadAction<{ memberId: string }>) {
      state.memberTeams = { status: 'loading', error: null, items: [] };
    },
    memberTeamsLoaded(state, action: PayloadAction<UserTeamDto[]>) {
      state.memberTeams = { status: 'succeeded', error: null, items: action.payload };
    },
    memberTeamsFailed(state, action: PayloadAction<string>) {
      state.memberTeams = { status: 'failed', error: action.payload, items: [] };
    },

    // Teams
    teamsRequested(state) {
      state.teams.status = 'loading';
      state.teams.error = null;
    },
    teamsLoaded(state, action: PayloadAction<TeamDto[]>) {
      state.teams.status = 'succeeded';
      state.teams.items = action.payload;
    },
    teamsFailed(state, action: PayloadAction<string>) {
      state.teams.status = 'failed';
      state.teams.error = action.payload;
    },
    teamDialogOpened(state, action: PayloadAction<{ kind: TeamDialogKind; teamId?: string }>) {
      state.teamDialog = {
        kind: action.payload.kind,
        teamId: action.payload.teamId ?? null,
        status: 'idle',
        error: null,
      };
    },
    teamDialogClosed(state) {
      state.teamDialog = closedTeamDialog;
    },
    teamCreateRequested(state, _action: PayloadAction<{ name: string; memberIds: string[] }>) {
      dialogSaving(state.teamDialog);
    },
    teamRenameRequested(state, _action: PayloadAction<{ teamId: string; name: string }>) {
      dialogSaving(state.teamDialog);
    },
    teamMembersAddRequested(state, _action: PayloadAction<{ teamId: string; userIds: string[] }>) {
      dialogSaving(state.teamDialog);
    },
    teamMemberRemoveRequested(state, _action: PayloadAction<{ teamId: string; userId: string }>) {
      dialogSaving(state.teamDialog);
    },
    teamDeleteRequested(state, _action: PayloadAction<{ teamId: string }>) {
      dialogSaving(state.teamDialog);
    },
    /** A team was created or changed; `close` closes the dialog (the members dialog stays). */
    teamSaved(state, action: PayloadAction<{ team: TeamDto; close: boolean }>) {
      upsert(state.teams.items, action.payload.team);
      state.teamDialog = action.payload.close
        ? closedTeamDialog
        : { ...state.teamDialog, status: 'succeeded', error: null };
    },
    teamDeleted(state, action: PayloadAction<{ teamId: string }>) {
      state.teams.items = state.teams.items.filter((team) => team.id !== action.payload.teamId);
      state.teamDialog = closedTeamDialog;
    },
    teamDialogFailed(state, action: PayloadAction<string>) {
      state.teamDialog.status = 'failed';
      state.teamDialog.error = action.payload;
    },

    // Folder permissions
    permissionablesRequested(state) {
      state.permissionables.status = 'loading';
      state.permissionables.error = null;
    },
    permissionablesLoaded(state, action: PayloadAction<PermissionableDto[]>) {
      state.permissionables = { status: 'succeeded', error: null, items: action.payload };
    },
    permissionablesFailed(state, action: PayloadAction<string>) {
      state.permissionables.status = 'failed';
      state.permissionables.error = action.payload;
    },
    /** The folder side panel's "Permissions" button: open the dialog and read the folder's. */
    folderPermissionsOpened(state, action: PayloadAction<{ id: string; name: string }>) {
      state.folderPermissions = {
        ...closedFolderPermissions,
        folder: { id: action.payload.id, name: action.payload.name },
        status: 'loading',
      };
    },
    folderPermissionsClosed(state) {
      state.folderPermissions = closedFolderPermissions;
    },
    folderPermissionsLoaded(
      state,
      action: PayloadAction<{ folderId: string; items: FolderPermissionDto[] }>,
    ) {
      if (state.folderPermissions.folder?.id !== action.payload.folderId) return;
      state.folderPermissions.status = 'succeeded';
      state.folderPermissions.error = null;
      state.folderPermissions.items = action.payload.items;
    },
    folderPermissionsFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (state.folderPermissions.folder?.id !== action.payload.folderId) return;
      state.folderPermissions.status = 'failed';
      state.folderPermissions.error = action.payload.message;
    },
    /** Add these users and teams to the folder. */
    permissionsAddRequested(
      state,
      _action: PayloadAction<{ folderId: string; permissionables: PermissionableRef[] }>,
    ) {
      state.folderPermissions.change = 'loading';
      state.folderPermissions.changeError = null;
    },
    /** Remove one permission. */
    permissionRemoveRequested(
      state,
      _action: PayloadAction<{ folderId: string; permissionId: string }>,
    ) {
      state.folderPermissions.change = 'loading';
      state.folderPermissions.changeError = null;
    },
    /** Remove every permission of the folder (it becomes visible to everyone again). */
    permissionsClearRequested(state, _action: PayloadAction<{ folderId: string }>) {
      state.folderPermissions.change = 'loading';
      state.folderPermissions.changeError = null;
    },
    /**
     * Remove every folder permission naming the member (confirmed by the administrator); their
     * teams' permissions stay.
     */
    memberPermissionsClearRequested(
      state,
      action: PayloadAction<{ memberId: string; name: string }>,
    ) {
      state.memberPermissionsClear = {
        memberId: action.payload.memberId,
        status: 'loading',
        error: null,
      };
    },
    memberPermissionsCleared(state, action: PayloadAction<{ memberId: string }>) {
      if (state.memberPermissionsClear.memberId !== action.payload.memberId) return;
      state.memberPermissionsClear.status = 'succeeded';
    },
    memberPermissionsClearFailed(
      state,
      action: PayloadAction<{ memberId: string; message: string }>,
    ) {
      if (state.memberPermissionsClear.memberId !== action.payload.memberId) return;
      state.memberPermissionsClear.status = 'failed';
      state.memberPermissionsClear.error = action.payload.message;
    },
    permissionsChanged(state, action: PayloadAction<{ folderId: string }>) {
      if (state.folderPermissions.folder?.id !== action.payload.folderId) return;
      state.folderPermissions.change = 'succeeded';
    },
    permissionsChangeFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (state.folderPermissions.folder?.id !== action.payload.folderId) return;
      state.folderPermissions.change = 'failed';
      state.folderPermissions.changeError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialAdminState)
      .addCase(sessionActions.expired, () => initialAdminState)
      .addCase(sessionActions.endedInAnotherTab, () => initialAdminState)
      .addCase(sessionActions.databaseSwitched, () => initialAdminState);
  },
});

/** Event creators of the admin slice. */
export const adminActions = adminSlice.actions;
/** The admin slice's reducer. */
export const adminReducer = adminSlice.reducer;
