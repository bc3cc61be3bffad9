/**
 * Folder permissions slice (SPEC section 7 "Folder permissions"): the users and teams a permission
 * can name (permissionables) and the folder permissions dialog of one folder. Actions are events;
 * folderPermissionsSagas.ts makes the calls.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  FolderPermissionDto,
  PermissionableDto,
  PermissionableType,
} from '@common/folderPermissions';
import { sessionActions } from '@src/features/session/sessionSlice';
import { emptyList, type ListState } from '@src/store/listState';
import type { Status } from '@src/store/status';

/** One user or team to add to a folder. */
export interface PermissionableRef {
  permissionable_id: string;
  permissionable_type: PermissionableType;
}

/** The folder permissions dialog of one folder. */
export interface FolderPermissionsDialogState extends ListState<FolderPermissionDto> {
  /** The folder the dialog is open for; null when closed. */
  folder: { id: string; name: string } | null;
  /** An add or remove in flight, or its failure. */
  change: Status;
  changeError: string | null;
}

/** The folder permissions slice's state. */
export interface FolderPermissionsState {
  permissionables: ListState<PermissionableDto>;
  dialog: FolderPermissionsDialogState;
}

const closedFolderPermissions: FolderPermissionsDialogState = {
  ...emptyList<FolderPermissionDto>(),
  folder: null,
  change: 'idle',
  changeError: null,
};

/** The state before anything is loaded. */
export const initialFolderPermissionsState: FolderPermissionsState = {
  permissionables: emptyList(),
  dialog: closedFolderPermissions,
};

const folderPermissionsSlice = createSlice({
  name: 'folderPermissions',
  initialState: initialFolderPermissionsState,
  reducers: {
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
      state.dialog = {
        ...closedFolderPermissions,
        folder: { id: action.payload.id, name: action.payload.name },
        status: 'loading',
      };
    },
    folderPermissionsClosed(state) {
      state.dialog = closedFolderPermissions;
    },
    folderPermissionsLoaded(
      state,
      action: PayloadAction<{ folderId: string; items: FolderPermissionDto[] }>,
    ) {
      if (state.dialog.folder?.id !== action.payload.folderId) return;
      state.dialog.status = 'succeeded';
      state.dialog.error = null;
      state.dialog.items = action.payload.items;
    },
    folderPermissionsFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (state.dialog.folder?.id !== action.payload.folderId) return;
      state.dialog.status = 'failed';
      state.dialog.error = action.payload.message;
    },
    /** Add these users and teams to the folder. */
    permissionsAddRequested(
      state,
      _action: PayloadAction<{ folderId: string; permissionables: PermissionableRef[] }>,
    ) {
      state.dialog.change = 'loading';
      state.dialog.changeError = null;
    },
    /** Remove one permission. */
    permissionRemoveRequested(
      state,
      _action: PayloadAction<{ folderId: string; permissionId: string }>,
    ) {
      state.dialog.change = 'loading';
      state.dialog.changeError = null;
    },
    /** Remove every permission of the folder (it becomes visible to everyone again). */
    permissionsClearRequested(state, _action: PayloadAction<{ folderId: string }>) {
      state.dialog.change = 'loading';
      state.dialog.changeError = null;
    },
    permissionsChanged(state, action: PayloadAction<{ folderId: string }>) {
      if (state.dialog.folder?.id !== action.payload.folderId) return;
      state.dialog.change = 'succeeded';
    },
    permissionsChangeFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (state.dialog.folder?.id !== action.payload.folderId) return;
      state.dialog.change = 'failed';
      state.dialog.changeError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialFolderPermissionsState)
      .addCase(sessionActions.expired, () => initialFolderPermissionsState)
      .addCase(sessionActions.endedInAnotherTab, () => initialFolderPermissionsState)
      .addCase(sessionActions.databaseSwitched, () => initialFolderPermissionsState);
  },
});

/** Event creators of the folder permissions slice. */
export const folderPermissionsActions = folderPermissionsSlice.actions;
/** The folder permissions slice's reducer. */
export const folderPermissionsReducer = folderPermissionsSlice.reducer;
