// Folder permissions sagas against a stubbed API and the real store: reading the open folder's
// permissions and the permissionables, adding, removing one and removing all.
import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { callsTo } from '../../fixtures';
import { startSagaStore } from '../../sagaStore';
import { PERMISSIONABLES, makePermission } from './folderPermissionsFixtures';
import { folderPermissionsActions } from '@src/features/folderPermissions/folderPermissionsSlice';

const start = startSagaStore;

describe('folder permission sagas', () => {
  it('reads the folder and the permissionables, adds, removes one and removes all', async () => {
    let permissions = [makePermission()];
    const { calls, store } = start({
      'GET /api/rest/folders/f1/permissions': () => ({ body: permissions }),
      'GET /api/rest/private/permissionables': { body: PERMISSIONABLES },
      'POST /api/rest/folder_permissions': () => {
        permissions = [
          ...permissions,
          makePermission({ id: 'p2', permissionable_id: 't1', permissionable_type: 'team' }),
        ];
        return { status: 201, body: permissions.slice(1) };
      },
      'DELETE /api/rest/folder_permissions/p1': () => {
        permissions = permissions.filter((item) => item.id !== 'p1');
        return { status: 204 };
      },
      'DELETE /api/rest/folders/f1/permissions': () => {
        permissions = [];
        return { status: 204 };
      },
    });
    store.dispatch(folderPermissionsActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }));
    await waitFor(() => expect(store.getState().folderPermissions.dialog.status).toBe('succeeded'));
    await waitFor(() =>
      expect(store.getState().folderPermissions.permissionables.items).toHaveLength(4),
    );
    store.dispatch(
      folderPermissionsActions.permissionsAddRequested({
        folderId: 'f1',
        permissionables: [{ permissionable_id: 't1', permissionable_type: 'team' }],
      }),
    );
    await waitFor(() => expect(store.getState().folderPermissions.dialog.items).toHaveLength(2));
    expect(callsTo(calls, 'POST /api/rest/folder_permissions')[0]?.body).toEqual({
      folder_id: 'f1',
      permissionables: [{ permissionable_id: 't1', permissionable_type: 'team' }],
    });
    store.dispatch(
      folderPermissionsActions.permissionRemoveRequested({ folderId: 'f1', permissionId: 'p1' }),
    );
    await waitFor(() =>
      expect(store.getState().folderPermissions.dialog.items.map((item) => item.id)).toEqual([
        'p2',
      ]),
    );
    store.dispatch(folderPermissionsActions.permissionsClearRequested({ folderId: 'f1' }));
    await waitFor(() => expect(store.getState().folderPermissions.dialog.items).toEqual([]));
    expect(store.getState().folderPermissions.dialog.change).toBe('succeeded');
  });
});
