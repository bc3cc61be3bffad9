/** Selectors of the folder permissions dialog and of the users a permission can name. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';

/** The users and teams a folder permission can name. */
export const selectPermissionables = (state: RootState) => state.folderPermissions.permissionables;
/** The folder permissions dialog. */
export const selectFolderPermissions = (state: RootState) => state.folderPermissions.dialog;

/** The firm's users among the permissionables, as select options (teams and keys use them). */
export const selectUserOptions = createSelector([selectPermissionables], (permissionables) =>
  permissionables.items
    .filter((item) => item.permissionable_type === 'user')
    .map((item) => ({ id: item.permissionable_id, name: item.name })),
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
