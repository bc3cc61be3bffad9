/**
 * Firms slice (firm provisioning; docs/architecture.md "Firm provisioning"): the operator's list
 * of firm databases, the open dialog (create, rename, describe, disable, enable, members) with
 * its request's status, and the members of the firm whose members dialog is open. Sign-out and a
 * firm switch drop it all.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FirmDto, FirmMemberDto, FirmRole } from '@common/firms';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** The dialogs of the Firms section. */
export type FirmDialogKind = 'create' | 'rename' | 'describe' | 'disable' | 'enable' | 'members';

/** The firms slice's state. */
export interface FirmsState {
  list: { status: Status; error: string | null; items: FirmDto[] };
  /** The open dialog, the firm it is about (none for create), and its request. */
  dialog: {
    kind: FirmDialogKind | null;
    firmId: string | null;
    status: Status;
    error: string | null;
  };
  /** The members of the firm whose members dialog is open. */
  members: { firmId: string | null; status: Status; error: string | null; items: FirmMemberDto[] };
  /** A member change (add, role, remove) in flight, or its failure. */
  memberChange: { status: Status; error: string | null };
}

/** The state before anything is loaded. */
const initialFirmsState: FirmsState = {
  list: { status: 'idle', error: null, items: [] },
  dialog: { kind: null, firmId: null, status: 'idle', error: null },
  members: { firmId: null, status: 'idle', error: null, items: [] },
  memberChange: { status: 'idle', error: null },
};

/** Places a firm in the list by name (then id), replacing the one with its id. */
function upsertFirm(items: FirmDto[], firm: FirmDto): void {
  const index = items.findIndex((item) => item.id === firm.id);
  if (index !== -1) items.splice(index, 1);
  const at = items.findIndex(
    (item) => item.name > firm.name || (item.name === firm.name && item.id > firm.id),
  );
  items.splice(at === -1 ? items.length : at, 0, firm);
}

function changeStarted(state: FirmsState): void {
  state.dialog.status = 'loading';
  state.dialog.error = null;
}

function memberChangeStarted(state: FirmsState): void {
  state.memberChange = { status: 'loading', error: null };
}

function countChanged(state: FirmsState, firmId: string, by: number): void {
  const firm = state.list.items.find((item) => item.id === firmId);
  if (firm) firm.memberCount = Math.max(0, firm.memberCount + by);
}

const firmsSlice = createSlice({
  name: 'firms',
  initialState: initialFirmsState,
  reducers: {
    /** The Firms section is shown (or Try again): read the list. */
    listRequested(state) {
      state.list.status = 'loading';
      state.list.error = null;
    },
    listLoaded(state, action: PayloadAction<FirmDto[]>) {
      state.list = { status: 'succeeded', error: null, items: action.payload };
    },
    listFailed(state, action: PayloadAction<string>) {
      state.list.status = 'failed';
      state.list.error = action.payload;
    },
    /** A dialog was opened; `firmId` for every kind but create. */
    dialogOpened(state, action: PayloadAction<{ kind: FirmDialogKind; firmId?: string }>) {
      state.dialog = {
        kind: action.payload.kind,
        firmId: action.payload.firmId ?? null,
        status: 'idle',
        error: null,
      };
      state.memberChange = { status: 'idle', error: null };
      if (action.payload.kind === 'members') {
        state.members = {
          firmId: action.payload.firmId ?? null,
          status: 'loading',
          error: null,
          items: [],
        };
      }
    },
    dialogClosed(state) {
      state.dialog = initialFirmsState.dialog;
      state.members = initialFirmsState.members;
      state.memberChange = initialFirmsState.memberChange;
    },
    createRequested(state, _action: PayloadAction<{ name: string; description: string }>) {
      changeStarted(state);
    },
    renameRequested(state, _action: PayloadAction<{ firmId: string; name: string }>) {
      changeStarted(state);
    },
    describeRequested(state, _action: PayloadAction<{ firmId: string; description: string }>) {
      changeStarted(state);
    },
    disableRequested(state, _action: PayloadAction<{ firmId: string }>) {
      changeStarted(state);
    },
    enableRequested(state, _action: PayloadAction<{ firmId: string }>) {
      changeStarted(state);
    },
    /** The server answered a create, rename, describe, disable or enable: the dialog closes. */
    firmSaved(state, action: PayloadAction<FirmDto>) {
      upsertFirm(state.list.items, action.payload);
      state.dialog = initialFirmsState.dialog;
    },
    firmChangeFailed(state, action: PayloadAction<string>) {
      state.dialog.status = 'failed';
      state.dialog.error = action.payload;
    },
    membersLoaded(state, action: PayloadAction<{ firmId: string; items: FirmMemberDto[] }>) {
      if (state.members.firmId !== action.payload.firmId) return;
      state.members.status = 'succeeded';
      state.members.items = action.payload.items;
    },
    membersFailed(state, action: PayloadAction<{ firmId: string; message: string }>) {
      if (state.members.firmId !== action.payload.firmId) return;
      state.members.status = 'failed';
      state.members.error = action.payload.message;
    },
    memberAddRequested(
      state,
      _action: PayloadAction<{ firmId: string; username: string; role: FirmRole }>,
    ) {
      memberChangeStarted(state);
    },
    memberRoleChangeRequested(
      state,
      _action: PayloadAction<{ firmId: string; userId: string; role: FirmRole }>,
    ) {
      memberChangeStarted(state);
    },
    memberRemoveRequested(state, _action: PayloadAction<{ firmId: string; userId: string }>) {
      memberChangeStarted(state);
    },
    /** A member was added or their role changed. */
    memberSaved(state, action: PayloadAction<{ firmId: string; member: FirmMemberDto }>) {
      const { firmId, member } = action.payload;
      state.memberChange = { status: 'succeeded', error: null };
      if (state.members.firmId !== firmId) return;
      const index = state.members.items.findIndex((item) => item.userId === member.userId);
      if (index === -1) {
        state.members.items.push(member);
        countChanged(state, firmId, 1);
      } else {
        state.members.items[index] = member;
      }
    },
    memberRemoved(state, action: PayloadAction<{ firmId: string; userId: string }>) {
      const { firmId, userId } = action.payload;
      state.memberChange = { status: 'succeeded', error: null };
      if (state.members.firmId !== firmId) return;
      state.members.items = state.members.items.filter((item) => item.userId !== userId);
      countChanged(state, firmId, -1);
    },
    memberChangeFailed(state, action: PayloadAction<string>) {
      state.memberChange = { status: 'failed', error: action.payload };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialFirmsState)
      .addCase(sessionActions.expired, () => initialFirmsState)
      .addCase(sessionActions.endedInAnotherTab, () => initialFirmsState)
      .addCase(sessionActions.databaseSwitched, () => initialFirmsState);
  },
});

/** Event creators of the firms slice (`firms/…`). */
export const firmsActions = firmsSlice.actions;
/** The firms slice's reducer. */
export const firmsReducer = firmsSlice.reducer;
