/**
 * Members slice (SPEC section 2 "Member dialogs"): the firm's members, the selected member with the
 * open member dialog (update, password, disable, enable, unlock, permission, and create), the
 * member's teams, and removing all of a member's folder permissions. Actions are events;
 * membersSagas.ts makes the calls. Passwords travel only in the request actions (never in the
 * state).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Role } from '@common/session';
import type {
  CreateUserRequest,
  DatabaseUserDto,
  UpdateUserRequest,
  UserTeamDto,
} from '@common/users';
import { sessionActions } from '@src/features/session/sessionSlice';
import { dialogSaving, emptyList, upsertById, type ListState } from '@src/store/listState';
import type { Status } from '@src/store/status';

/** The member dialogs of SPEC section 2, and 'create' for a new member. */
export type MemberDialogKind =
  'create' | 'update' | 'password' | 'disable' | 'enable' | 'unlock' | 'permission';

/** A member state change that answers the member (the disable, enable and unlock dialogs). */
export type MemberStateChange = 'disable' | 'enable' | 'unlock';

/** The member list: the pages read so far for the current search. */
export interface MemberListState extends ListState<DatabaseUserDto> {
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

/** The members slice's state. */
export interface MembersState {
  list: MemberListState;
  dialog: MemberDialogState;
  /** The selected member's teams (the permission dialog shows them). */
  teams: ListState<UserTeamDto>;
  /** Removing all of one member's folder permissions (DELETE folder_permissions/by_user). */
  permissionsClear: { memberId: string | null; status: Status; error: string | null };
}

const closedMemberDialog: MemberDialogState = {
  kind: null,
  memberId: null,
  status: 'idle',
  error: null,
};

/** The state before anything is loaded. */
export const initialMembersState: MembersState = {
  list: { ...emptyList<DatabaseUserDto>(), search: '', page: 0, total: 0, more: 'idle' },
  dialog: closedMemberDialog,
  teams: emptyList(),
  permissionsClear: { memberId: null, status: 'idle', error: null },
};

const membersSlice = createSlice({
  name: 'members',
  initialState: initialMembersState,
  reducers: {
    /** The member list is shown (or searched): read the first page of the firm's members. */
    membersRequested(state) {
      state.list.status = 'loading';
      state.list.error = null;
      state.list.more = 'idle';
    },
    /** The end of the list was reached: read the next page, if any. */
    membersMoreRequested(state) {
      const members = state.list;
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
      if (search !== state.list.search.trim()) return;
      state.list.status = 'succeeded';
      state.list.error = null;
      state.list.more = 'idle';
      state.list.page = page;
      state.list.total = total;
      if (page <= 1) {
        state.list.items = items;
      } else {
        const known = new Set(state.list.items.map((member) => member.id));
        state.list.items.push(...items.filter((member) => !known.has(member.id)));
      }
    },
    /** Payload: MESSAGES.couldNotGetDatabaseUsers (with the reason). */
    membersFailed(state, action: PayloadAction<string>) {
      state.list.status = 'failed';
      state.list.error = action.payload;
      state.list.more = 'idle';
    },
    /** A later page could not be read (the list stays, "Try again" at its end). */
    membersMoreFailed(state, action: PayloadAction<string>) {
      state.list.more = 'failed';
      state.list.error = action.payload;
    },
    /** The search box of the member list changed (the saga searches after a pause). */
    memberSearchChanged(state, action: PayloadAction<string>) {
      state.list.search = action.payload;
    },
    /** A member dialog opens; `memberId` is the selected member (absent for 'create'). */
    memberDialogOpened(
      state,
      action: PayloadAction<{ kind: MemberDialogKind; memberId?: string | null }>,
    ) {
      state.dialog = {
        kind: action.payload.kind,
        memberId: action.payload.memberId ?? null,
        status: 'idle',
        error: null,
      };
      if (action.payload.kind === 'permission') state.teams = emptyList();
      state.permissionsClear = initialMembersState.permissionsClear;
    },
    memberDialogClosed(state) {
      state.dialog = closedMemberDialog;
    },
    /** The create dialog was submitted. */
    memberCreateRequested(state, _action: PayloadAction<CreateUserRequest>) {
      dialogSaving(state.dialog);
    },
    /** The update dialog was submitted. */
    memberUpdateRequested(
      state,
      _action: PayloadAction<{ memberId: string; changes: UpdateUserRequest }>,
    ) {
      dialogSaving(state.dialog);
    },
    /** The password dialog was submitted. */
    passwordChangeRequested(state, _action: PayloadAction<{ memberId: string; password: string }>) {
      dialogSaving(state.dialog);
    },
    /** The permission dialog was submitted with a new role. */
    roleChangeRequested(state, _action: PayloadAction<{ memberId: string; role: Role }>) {
      dialogSaving(state.dialog);
    },
    /** The disable, enable or unlock dialog was confirmed. */
    memberStateChangeRequested(
      state,
      _action: PayloadAction<{ memberId: string; change: MemberStateChange }>,
    ) {
      dialogSaving(state.dialog);
    },
    /** The server answered the created or changed member: the dialog closes. */
    memberSaved(state, action: PayloadAction<DatabaseUserDto>) {
      const isNew = !state.list.items.some((member) => member.id === action.payload.id);
      upsertById(state.list.items, action.payload);
      if (isNew) state.list.total += 1;
      state.dialog = closedMemberDialog;
    },
    /** A dialog's request succeeded without a member to show (password): the dialog closes. */
    memberDialogSucceeded(state) {
      state.dialog = closedMemberDialog;
    },
    /** The dialog's request failed: the dialog stays open with the server's message. */
    memberDialogFailed(state, action: PayloadAction<string>) {
      state.dialog.status = 'failed';
      state.dialog.error = action.payload;
    },
    memberTeamsRequested(state, _action: PayloadAction<{ memberId: string }>) {
      state.teams = { status: 'loading', error: null, items: [] };
    },
    memberTeamsLoaded(state, action: PayloadAction<UserTeamDto[]>) {
      state.teams = { status: 'succeeded', error: null, items: action.payload };
    },
    memberTeamsFailed(state, action: PayloadAction<string>) {
      state.teams = { status: 'failed', error: action.payload, items: [] };
    },
    /**
     * Remove every folder permission naming the member (confirmed by the administrator); their
     * teams' permissions stay.
     */
    memberPermissionsClearRequested(
      state,
      action: PayloadAction<{ memberId: string; name: string }>,
    ) {
      state.permissionsClear = {
        memberId: action.payload.memberId,
        status: 'loading',
        error: null,
      };
    },
    memberPermissionsCleared(state, action: PayloadAction<{ memberId: string }>) {
      if (state.permissionsClear.memberId !== action.payload.memberId) return;
      state.permissionsClear.status = 'succeeded';
    },
    memberPermissionsClearFailed(
      state,
      action: PayloadAction<{ memberId: string; message: string }>,
    ) {
      if (state.permissionsClear.memberId !== action.payload.memberId) return;
      state.permissionsClear.status = 'failed';
      state.permissionsClear.error = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialMembersState)
      .addCase(sessionActions.expired, () => initialMembersState)
      .addCase(sessionActions.endedInAnotherTab, () => initialMembersState)
      .addCase(sessionActions.databaseSwitched, () => initialMembersState);
  },
});

/** Event creators of the members slice. */
export const membersActions = membersSlice.actions;
/** The members slice's reducer. */
export const membersReducer = membersSlice.reducer;
