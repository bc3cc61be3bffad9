import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { MESSAGES } from '@common/messages';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import {
  ADA,
  ALAN,
  GRACE,
  PERMISSIONABLES,
  makeCreatedKey,
  makeIntegration,
  makeKey,
  makePermission,
  makeTeam,
  membersPage,
} from './adminFixtures';
import { allowConsoleError } from '../../consoleErrors';
import { folderPermissionsActions } from '@src/features/folderPermissions/folderPermissionsSlice';
import { integrationsActions } from '@src/features/integrations/integrationsSlice';
import { membersActions } from '@src/features/members/membersSlice';
import { teamsActions } from '@src/features/teams/teamsSlice';

let store: AppStore | undefined;

function start(routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  return { ...stub, ...recording, store: recording.store };
}

afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

describe('member sagas', () => {
  it('reads the first page with the search text, then the next page at the end', async () => {
    const { calls, store } = start({
      'GET /api/rest/private/users': (call) =>
        call.url.includes('page=2')
          ? { body: membersPage([ALAN], 3, 2) }
          : { body: membersPage([ADA, GRACE], 3) },
    });
    store.dispatch(membersActions.membersRequested());
    await waitFor(() => expect(store.getState().members.list.status).toBe('succeeded'));
    expect(calls[0]?.url).toBe('/api/rest/private/users?page=1&page_size=100');
    store.dispatch(membersActions.membersMoreRequested());
    await waitFor(() => expect(store.getState().members.list.items).toHaveLength(3));
    expect(calls[1]?.url).toBe('/api/rest/private/users?page=2&page_size=100');
  });

  it('searches on the server after the pause', async () => {
    const { calls, store } = start({
      'GET /api/rest/private/users': { body: membersPage([GRACE]) },
    });
    store.dispatch(membersActions.memberSearchChanged('gra'));
    store.dispatch(membersActions.memberSearchChanged('grace hop'));
    await waitFor(() => expect(store.getState().members.list.status).toBe('succeeded'));
    expect(callsTo(calls, 'GET /api/rest/private/users')).toHaveLength(1);
    expect(calls[0]?.url).toContain('query=grace+hop');
    expect(store.getState().members.list.items).toEqual([GRACE]);
  });

  it('says "Could not get database users." when the list cannot be read', async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/users\S* answered 403/);
    const { store } = start({
      'GET /api/rest/private/users': {
        status: 403,
        body: { message: 'Only administrators can do this.', code: 'admin_only' },
      },
    });
    store.dispatch(membersActions.membersRequested());
    await waitFor(() => expect(store.getState().members.list.status).toBe('failed'));
    expect(store.getState().members.list.error).toBe(
      `${MESSAGES.couldNotGetDatabaseUsers} Only administrators can do this.`,
    );
  });

  it('sends the password only to update_password and closes the dialog', async () => {
    const { calls, store, types } = start({
      'GET /api/rest/private/users': { body: membersPage([ADA, GRACE]) },
      'PATCH /api/rest/private/users/u2/update_password': {
        body: { ...GRACE, sessions_ended: 1 },
      },
    });
    store.dispatch(membersActions.membersRequested());
    await waitFor(() => expect(store.getState().members.list.status).toBe('succeeded'));
    store.dispatch(membersActions.memberDialogOpened({ kind: 'password', memberId: 'u2' }));
    store.dispatch(
      membersActions.passwordChangeRequested({ memberId: 'u2', password: 'a long passphrase' }),
    );
    await waitFor(() => expect(store.getState().members.dialog.kind).toBeNull());
    const [call] = callsTo(calls, 'PATCH /api/rest/private/users/u2/update_password');
    expect(call?.body).toEqual({ password: 'a long passphrase' });
    expect(JSON.stringify(store.getState())).not.toContain('a long passphrase');
    expect(types()).toContain('notifications/infoMessageRequested');
  });

  it('keeps the dialog open with the server message when the policy refuses', async () => {
    allowConsoleError(/^PATCH \/api\/rest\/private\/users\/u2\/update_password\S* answered 400/);
    const { store } = start({
      'PATCH /api/rest/private/users/u2/update_password': {
        status: 400,
        body: { message: 'The password must not be the username.', code: 'weak_password' },
      },
    });
    store.dispatch(membersActions.memberDialogOpened({ kind: 'password', memberId: 'u2' }));
    store.dispatch(membersActions.passwordChangeRequested({ memberId: 'u2', password: 'grace' }));
    await waitFor(() => expect(store.getState().members.dialog.status).toBe('failed'));
    expect(store.getState().members.dialog).toMatchObject({
      kind: 'password',
      error: 'The password must not be the username.',
    });
  });

  it('unlocks, disables and changes the role with the member answered', async () => {
    const { calls, store } = start({
      'GET /api/rest/private/users': { body: membersPage([ADA, GRACE, ALAN]) },
      'POST /api/rest/private/users/u3/unlock': {
        body: { ...ALAN, locked: false, locked_at: null, failed_logins: 0 },
      },
      'POST /api/rest/private/users/u2/disable': { body: { ...GRACE, disabled: true } },
      'PATCH /api/rest/private/users/role/u2': {
        body: { ...GRACE, disabled: true, role: 'admin' },
      },
    });
    store.dispatch(membersActions.membersRequested());
    await waitFor(() => expect(store.getState().members.list.status).toBe('succeeded'));
    store.dispatch(membersActions.memberStateChangeRequested({ memberId: 'u3', change: 'unlock' }));
    await waitFor(() => expect(store.getState().members.list.items[2]?.locked).toBe(false));
    store.dispatch(
      membersActions.memberStateChangeRequested({ memberId: 'u2', change: 'disable' }),
    );
    await waitFor(() => expect(store.getState().members.list.items[1]?.disabled).toBe(true));
    store.dispatch(membersActions.roleChangeRequested({ memberId: 'u2', role: 'admin' }));
    await waitFor(() => expect(store.getState().members.list.items[1]?.role).toBe('admin'));
    expect(callsTo(calls, 'PATCH /api/rest/private/users/role/u2')[0]?.body).toEqual({
      role: 'admin',
    });
  });

  it("reads the member's teams when the permission dialog opens", async () => {
    const { store } = start({
      'GET /api/rest/private/users/u2/teams': { body: [{ id: 't1', name: 'Advisors' }] },
    });
    store.dispatch(membersActions.memberDialogOpened({ kind: 'permission', memberId: 'u2' }));
    await waitFor(() => expect(store.getState().members.teams.status).toBe('succeeded'));
    expect(store.getState().members.teams.items).toEqual([{ id: 't1', name: 'Advisors' }]);
  });
});

describe('team sagas', () => {
  it('creates a team, and reads the teams again after removing a member (204)', async () => {
    const { calls, store } = start({
      'POST /api/rest/private/teams': { body: makeTeam() },
      'DELETE /api/rest/private/teams/t1/members/u2': { status: 204 },
      'GET /api/rest/private/teams': { body: [makeTeam({ member_ids: [] })] },
    });
    store.dispatch(teamsActions.teamDialogOpened({ kind: 'create' }));
    store.dispatch(teamsActions.teamCreateRequested({ name: 'Advisors', memberIds: ['u2'] }));
    await waitFor(() => expect(store.getState().teams.list.items).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/private/teams')[0]?.body).toEqual({
      name: 'Advisors',
      member_ids: ['u2'],
    });
    store.dispatch(teamsActions.teamDialogOpened({ kind: 'members', teamId: 't1' }));
    store.dispatch(teamsActions.teamMemberRemoveRequested({ teamId: 't1', userId: 'u2' }));
    await waitFor(() => expect(store.getState().teams.list.items[0]?.member_ids).toEqual([]));
    expect(store.getState().teams.dialog).toMatchObject({
      kind: 'members',
      status: 'succeeded',
    });
  });
});

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

describe('integration sagas', () => {
  it('says "Could not get integrations." when the switches cannot be read', async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/integrations\S* answered 500/);
    const { store } = start({
      'GET /api/rest/private/integrations': { status: 500, body: { message: 'Boom.', code: 'x' } },
    });
    store.dispatch(integrationsActions.integrationsRequested());
    await waitFor(() => expect(store.getState().integrations.integrations.status).toBe('failed'));
    expect(store.getState().integrations.integrations.error).toBe(
      `${MESSAGES.couldNotGetIntegrations} Boom.`,
    );
  });

  it('switches the current firm and creates, rotates and deletes keys', async () => {
    const { calls, store } = start({
      'GET /api/rest/private/integrations': { body: { integrations: [makeIntegration()] } },
      'POST /api/rest/private/integrations/enable': {
        body: makeIntegration({ enabled: true, updatedAt: '2024-04-01T00:00:00.000Z' }),
      },
      'GET /api/rest/private/integrations/userkey': { body: { keys: [] } },
      'POST /api/rest/private/integrations/userkey': { status: 201, body: makeCreatedKey() },
      'POST /api/rest/private/integrations/users/u2': {
        body: makeCreatedKey({ key: 'dsk_rotatedrotated', prefix: 'dsk_rotatedr' }),
      },
      'DELETE /api/rest/private/integrations/users/u2': { status: 204 },
    });
    store.dispatch(integrationsActions.integrationsRequested());
    store.dispatch(integrationsActions.keysRequested());
    await waitFor(() => expect(store.getState().integrations.keys.status).toBe('succeeded'));
    store.dispatch(integrationsActions.switchRequested({ databaseId: 'db1', enabled: true }));
    await waitFor(() =>
      expect(store.getState().integrations.integrations.items[0]?.enabled).toBe(true),
    );
    expect(callsTo(calls, 'POST /api/rest/private/integrations/enable')[0]?.body).toEqual({
      databaseId: 'db1',
    });

    store.dispatch(integrationsActions.keyCreateRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() => expect(store.getState().integrations.newKey).not.toBeNull());
    const create = callsTo(calls, 'POST /api/rest/private/integrations/userkey')[0];
    expect(create?.url).toBe('/api/rest/private/integrations/userkey?partner_app_id=crm');
    expect(create?.body).toEqual({ userId: 'u2' });
    store.dispatch(integrationsActions.newKeyDismissed());

    store.dispatch(integrationsActions.keyRotateRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() =>
      expect(store.getState().integrations.newKey?.key).toBe('dsk_rotatedrotated'),
    );
    expect(store.getState().integrations.keys.items.map((key) => key.prefix)).toEqual([
      'dsk_rotatedr',
    ]);
    store.dispatch(integrationsActions.newKeyDismissed());

    store.dispatch(integrationsActions.keyDeleteRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() => expect(store.getState().integrations.keys.items).toEqual([]));
    expect(callsTo(calls, 'DELETE /api/rest/private/integrations/users/u2')[0]?.url).toBe(
      '/api/rest/private/integrations/users/u2?partner_app_id=crm',
    );
  });

  it('keeps a create failure (409 key_exists) for the dialog', async () => {
    allowConsoleError(/^POST \/api\/rest\/private\/integrations\/userkey\S* answered 409/);
    const { store } = start({
      'GET /api/rest/private/integrations/userkey': { body: { keys: [makeKey()] } },
      'POST /api/rest/private/integrations/userkey': {
        status: 409,
        body: { message: 'This user already has a key.', code: 'key_exists' },
      },
    });
    store.dispatch(integrationsActions.keyCreateRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() => expect(store.getState().integrations.change).toBe('failed'));
    expect(store.getState().integrations.changeError).toBe('This user already has a key.');
    expect(store.getState().integrations.newKey).toBeNull();
  });
});
