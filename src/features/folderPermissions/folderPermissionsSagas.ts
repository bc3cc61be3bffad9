/**
 * Sagas of the folder permissions dialog. Every worker is wrapped with `safely`; a failure ends in
 * the slice's `…Failed` events with the server's message.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { Saga } from '@src/sagas/saga';
import * as folderPermissionsApi from './folderPermissionsApi';
import { folderPermissionsActions, type PermissionableRef } from './folderPermissionsSlice';

/** Reads the users and teams a permission can name (GET private/permissionables). */
export function* loadPermissionables(): Saga {
  try {
    const items = yield* call(folderPermissionsApi.fetchPermissionables);
    yield* put(folderPermissionsActions.permissionablesLoaded(items));
  } catch (error) {
    yield* put(folderPermissionsActions.permissionablesFailed(errorMessage(error)));
  }
}

/** Reads one folder's permissions. */
export function* loadFolderPermissions(folderId: string): Saga {
  try {
    const items = yield* call(folderPermissionsApi.fetchFolderPermissions, folderId);
    yield* put(folderPermissionsActions.folderPermissionsLoaded({ folderId, items }));
  } catch (error) {
    yield* put(
      folderPermissionsActions.folderPermissionsFailed({ folderId, message: errorMessage(error) }),
    );
  }
}

/** The folder permissions dialog opened: the folder's permissions and the permissionables. */
export function* openFolderPermissions(action: PayloadAction<{ id: string; name: string }>): Saga {
  yield* put(folderPermissionsActions.permissionablesRequested());
  yield* call(loadFolderPermissions, action.payload.id);
}

/** Adds users and teams to a folder (POST folder_permissions), then reads the list again. */
export function* addPermissions(
  action: PayloadAction<{ folderId: string; permissionables: PermissionableRef[] }>,
): Saga {
  const { folderId, permissionables } = action.payload;
  try {
    yield* call(folderPermissionsApi.createFolderPermissions, {
      folder_id: folderId,
      permissionables,
    });
    yield* put(folderPermissionsActions.permissionsChanged({ folderId }));
    yield* call(loadFolderPermissions, folderId);
  } catch (error) {
    yield* put(
      folderPermissionsActions.permissionsChangeFailed({ folderId, message: errorMessage(error) }),
    );
  }
}

/** Removes one permission (DELETE folder_permissions/{id}). */
export function* removePermission(
  action: PayloadAction<{ folderId: string; permissionId: string }>,
): Saga {
  const { folderId, permissionId } = action.payload;
  try {
    yield* call(folderPermissionsApi.deleteFolderPermission, permissionId);
    yield* put(folderPermissionsActions.permissionsChanged({ folderId }));
    yield* call(loadFolderPermissions, folderId);
  } catch (error) {
    yield* put(
      folderPermissionsActions.permissionsChangeFailed({ folderId, message: errorMessage(error) }),
    );
  }
}

/** Removes every permission of the folder (DELETE folders/{id}/permissions). */
export function* clearPermissions(action: PayloadAction<{ folderId: string }>): Saga {
  const { folderId } = action.payload;
  try {
    yield* call(folderPermissionsApi.deleteAllFolderPermissions, folderId);
    yield* put(folderPermissionsActions.permissionsChanged({ folderId }));
    yield* call(loadFolderPermissions, folderId);
  } catch (error) {
    yield* put(
      folderPermissionsActions.permissionsChangeFailed({ folderId, message: errorMessage(error) }),
    );
  }
}

/** Root saga of the folder permissions dialog. */
export function* folderPermissionsSaga(): Saga {
  yield* all([
    takeLatest(folderPermissionsActions.permissionablesRequested.type, safely(loadPermissionables)),
    takeLatest(
      folderPermissionsActions.folderPermissionsOpened.type,
      safely(openFolderPermissions),
    ),
    takeEvery(folderPermissionsActions.permissionsAddRequested.type, safely(addPermissions)),
    takeEvery(folderPermissionsActions.permissionRemoveRequested.type, safely(removePermission)),
    takeLeading(folderPermissionsActions.permissionsClearRequested.type, safely(clearPermissions)),
  ]);
}
