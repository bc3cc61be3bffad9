// The folder permissions slice and selectors: only the open folder's answer is kept, a change's
// progress and failure, closing the dialog; the users and teams not yet on the folder, and the
// users as select options.
import { describe, expect, it } from '@jest/globals';
import { combineReducers } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';
import { makeStore } from '@src/store/store';
import { signedInState } from '../../fixtures';
import { PERMISSIONABLES, makePermission } from './folderPermissionsFixtures';
import {
  selectAddablePermissionables,
  selectUserOptions,
} from '@src/features/folderPermissions/folderPermissionsSelectors';
import {
  folderPermissionsActions,
  folderPermissionsReducer,
  initialFolderPermissionsState,
} from '@src/features/folderPermissions/folderPermissionsSlice';

/** The folder permissions slice under its key, as the root reducer holds it. */
const reducer = combineReducers({
  folderPermissions: folderPermissionsReducer,
});
type State = ReturnType<typeof reducer>;
const initialState: State = {
  folderPermissions: initialFolderPermissionsState,
};

function reduce(...actions: Parameters<typeof reducer>[1][]): State {
  return actions.reduce(reducer, initialState);
}

function rootState(slices: State): RootState {
  const store = makeStore(signedInState());
  const state = { ...store.getState(), ...slices };
  store.sagaTask.cancel();
  return state;
}

describe('folder permissions slice', () => {
  it('loads the open folder only and tracks changes', () => {
    let state = reduce(
      folderPermissionsActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
    );
    expect(state.folderPermissions.dialog).toMatchObject({
      folder: { id: 'f1', name: 'Clients' },
      status: 'loading',
    });
    state = reducer(
      state,
      folderPermissionsActions.folderPermissionsLoaded({
        folderId: 'f9',
        items: [makePermission()],
      }),
    );
    expect(state.folderPermissions.dialog.items).toEqual([]);
    state = reducer(
      state,
      folderPermissionsActions.folderPermissionsLoaded({
        folderId: 'f1',
        items: [makePermission()],
      }),
    );
    expect(state.folderPermissions.dialog.items).toHaveLength(1);
    state = reducer(
      state,
      folderPermissionsActions.permissionRemoveRequested({ folderId: 'f1', permissionId: 'p1' }),
    );
    expect(state.folderPermissions.dialog.change).toBe('loading');
    state = reducer(
      state,
      folderPermissionsActions.permissionsChangeFailed({ folderId: 'f1', message: 'Not found.' }),
    );
    expect(state.folderPermissions.dialog).toMatchObject({
      change: 'failed',
      changeError: 'Not found.',
    });
    state = reducer(state, folderPermissionsActions.folderPermissionsClosed());
    expect(state.folderPermissions.dialog.folder).toBeNull();
  });

  it('offers only the users and teams not yet on the folder', () => {
    const state = reduce(
      folderPermissionsActions.permissionablesLoaded(PERMISSIONABLES),
      folderPermissionsActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
      folderPermissionsActions.folderPermissionsLoaded({
        folderId: 'f1',
        items: [
          makePermission(),
          makePermission({
            id: 'p2',
            permissionable_id: 't1',
            permissionable_type: 'team',
            name: 'Advisors',
          }),
        ],
      }),
    );
    const addable = selectAddablePermissionables(rootState(state));
    expect(addable.map((item) => item.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect(selectUserOptions(rootState(state))).toEqual([
      { id: 'u1', name: 'Ada Lovelace' },
      { id: 'u2', name: 'Grace Hopper' },
      { id: 'u3', name: 'Alan Turing' },
    ]);
  });
});
