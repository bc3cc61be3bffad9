import { describe, expect, it } from '@jest/globals';
import {
  memberMatches,
  roleLabel,
  selectAddablePermissionables,
  selectCurrentIntegration,
  selectSelectedMember,
  selectUserOptions,
  selectVisibleMembers,
} from '../../../../src/features/admin/adminSelectors';
import { sanitizeAdminAction } from '../../../../src/features/admin/adminSagas';
import {
  adminActions,
  adminReducer,
  initialAdminState,
  type AdminState,
} from '../../../../src/features/admin/adminSlice';
import {
  initialIntegrationsState,
  integrationsActions,
  integrationsReducer,
} from '../../../../src/features/admin/integrationsSlice';
import { sessionActions } from '../../../../src/features/session/sessionSlice';
import type { RootState } from '../../../../src/store/rootReducer';
import { makeStore } from '../../../../src/store/store';
import { makeUser, signedInState } from '../../fixtures';
import {
  ADA,
  ALAN,
  GRACE,
  PERMISSIONABLES,
  makeCreatedKey,
  makeIntegration,
  makeKey,
  makePermission,
} from './adminFixtures';

function reduce(...actions: Parameters<typeof adminReducer>[1][]): AdminState {
  return actions.reduce(adminReducer, initialAdminState);
}

function rootState(admin: AdminState): RootState {
  const store = makeStore(signedInState());
  const state = { ...store.getState(), admin };
  store.sagaTask.cancel();
  return state;
}

describe('admin slice: members', () => {
  it('replaces the list with page 1 and appends later pages without repeats', () => {
    let state = reduce(
      adminActions.membersRequested(),
      adminActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE] }),
    );
    expect(state.members.status).toBe('succeeded');
    expect(state.members.items.map((m) => m.id)).toEqual(['u1', 'u2']);
    state = adminReducer(state, adminActions.membersMoreRequested());
    expect(state.members.more).toBe('loading');
    state = adminReducer(
      state,
      adminActions.membersLoaded({ search: '', page: 2, total: 3, items: [GRACE, ALAN] }),
    );
    expect(state.members.items.map((m) => m.id)).toEqual(['u1', 'u2', 'u3']);
    expect(state.members.page).toBe(2);
    expect(state.members.more).toBe('idle');
  });

  it('asks for no next page when every match is loaded', () => {
    const state = reduce(
      adminActions.membersLoaded({ search: '', page: 1, total: 2, items: [ADA, GRACE] }),
      adminActions.membersMoreRequested(),
    );
    expect(state.members.more).toBe('idle');
  });

  it('ignores a page answered for an older search text', () => {
    const state = reduce(
      adminActions.memberSearchChanged('gra'),
      adminActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE, ALAN] }),
    );
    expect(state.members.items).toEqual([]);
    expect(state.members.status).toBe('idle');
  });

  it('keeps the spec message of a failed read', () => {
    const state = reduce(
      adminActions.membersRequested(),
      adminActions.membersFailed('Could not get database users.'),
    );
    expect(state.members).toMatchObject({
      status: 'failed',
      error: 'Could not get database users.',
    });
  });

  it('opens a dialog for the selected member, keeps a failure open and closes on save', () => {
    let state = reduce(
      adminActions.membersLoaded({ search: '', page: 1, total: 2, items: [ADA, GRACE] }),
      adminActions.memberDialogOpened({ kind: 'update', memberId: 'u2' }),
    );
    expect(state.memberDialog).toEqual({
      kind: 'update',
      memberId: 'u2',
      status: 'idle',
      error: null,
    });
    expect(selectSelectedMember(rootState(state))?.username).toBe('grace');
    state = adminReducer(
      state,
      adminActions.memberUpdateRequested({ memberId: 'u2', changes: { firstName: 'G' } }),
    );
    expect(state.memberDialog.status).toBe('loading');
    state = adminReducer(state, adminActions.memberDialogFailed('That username is already taken.'));
    expect(state.memberDialog).toMatchObject({
      kind: 'update',
      status: 'failed',
      error: 'That username is already taken.',
    });
    state = adminReducer(state, adminActions.memberSaved({ ...GRACE, firstName: 'G' }));
    expect(state.memberDialog.kind).toBeNull();
    expect(state.members.items[1]?.firstName).toBe('G');
    expect(state.members.total).toBe(2);
  });

  it('counts a created member', () => {
    const state = reduce(
      adminActions.membersLoaded({ search: '', page: 1, total: 1, items: [ADA] }),
      adminActions.memberDialogOpened({ kind: 'create' }),
      adminActions.memberSaved(GRACE),
    );
    expect(state.members.total).toBe(2);
    expect(state.members.items.map((m) => m.id)).toEqual(['u1', 'u2']);
  });

  it('starts over after sign-out and after a firm switch', () => {
    const loaded = reduce(
      adminActions.membersLoaded({ search: '', page: 1, total: 1, items: [ADA] }),
      adminActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
    );
    expect(adminReducer(loaded, sessionActions.signedOut())).toEqual(initialAdminState);
    expect(adminReducer(loaded, sessionActions.expired())).toEqual(initialAdminState);
    expect(
      adminReducer(loaded, sessionActions.databaseSwitched(makeUser({ currentDatabaseId: 'db2' }))),
    ).toEqual(initialAdminState);
  });
});

describe('admin slice: folder permissions', () => {
  it('loads the open folder only and tracks changes', () => {
    let state = reduce(adminActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }));
    expect(state.folderPermissions).toMatchObject({
      folder: { id: 'f1', name: 'Clients' },
      status: 'loading',
    });
    state = adminReducer(
      state,
      adminActions.folderPermissionsLoaded({ folderId: 'f9', items: [makePermission()] }),
    );
    expect(state.folderPermissions.items).toEqual([]);
    state = adminReducer(
      state,
      adminActions.folderPermissionsLoaded({ folderId: 'f1', items: [makePermission()] }),
    );
    expect(state.folderPermissions.items).toHaveLength(1);
    state = adminReducer(
      state,
      adminActions.permissionRemoveRequested({ folderId: 'f1', permissionId: 'p1' }),
    );
    expect(state.folderPermissions.change).toBe('loading');
    state = adminReducer(
      state,
      adminActions.permissionsChangeFailed({ folderId: 'f1', message: 'Not found.' }),
    );
    expect(state.folderPermissions).toMatchObject({ change: 'failed', changeError: 'Not found.' });
    state = adminReducer(state, adminActions.folderPermissionsClosed());
    expect(state.folderPermissions.folder).toBeNull();
  });

  it('offers only the users and teams not yet on the folder', () => {
    const state = reduce(
      adminActions.permissionablesLoaded(PERMISSIONABLES),
      adminActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
      adminActions.folderPermissionsLoaded({
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

describe('admin selectors', () => {
  it('matches every word of the search in names, username, e-mail or role', () => {
    expect(memberMatches(GRACE, '')).toBe(true);
    expect(memberMatches(GRACE, 'hopper GRA')).toBe(true);
    expect(memberMatches(GRACE, 'example.com')).toBe(true);
    expect(memberMatches(ALAN, 'read only')).toBe(true);
    expect(memberMatches(GRACE, 'grace turing')).toBe(false);
  });

  it('narrows the loaded rows by the search text at once', () => {
    const state = reduce(
      adminActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE, ALAN] }),
      adminActions.memberSearchChanged('tur'),
    );
    expect(selectVisibleMembers(rootState(state)).map((m) => m.id)).toEqual(['u3']);
  });

  it('labels roles with capitalize', () => {
    expect(roleLabel('admin')).toBe('Admin');
    expect(roleLabel('read_only')).toBe('Read only');
    expect(roleLabel('member')).toBe('Member');
  });
});

describe('integrations slice', () => {
  it('lists a new key without its secret and holds the secret until dismissed', () => {
    let state = integrationsReducer(
      initialIntegrationsState,
      integrationsActions.keysLoaded([
        makeKey({ id: 'k0', userId: 'u1', userName: 'Ada Lovelace' }),
      ]),
    );
    state = integrationsReducer(
      state,
      integrationsActions.keyCreateRequested({ userId: 'u2', partnerAppId: 'crm' }),
    );
    expect(state.change).toBe('loading');
    state = integrationsReducer(state, integrationsActions.keyIssued(makeCreatedKey()));
    expect(state.keys.items).toHaveLength(2);
    expect(state.keys.items[1]).not.toHaveProperty('key');
    expect(state.newKey?.key).toBe(makeCreatedKey().key);
    state = integrationsReducer(state, integrationsActions.newKeyDismissed());
    expect(state.newKey).toBeNull();
    expect(JSON.stringify(state)).not.toContain('secret');
  });

  it('replaces a rotated key and drops a deleted one', () => {
    let state = integrationsReducer(
      initialIntegrationsState,
      integrationsActions.keysLoaded([makeKey()]),
    );
    state = integrationsReducer(
      state,
      integrationsActions.keyIssued(
        makeCreatedKey({ id: 'k2', prefix: 'dsk_NewPref1', rotatedAt: '2024-04-01T00:00:00.000Z' }),
      ),
    );
    expect(state.keys.items.map((key) => key.prefix)).toEqual(['dsk_NewPref1']);
    state = integrationsReducer(
      state,
      integrationsActions.keyDeleted({ userId: 'u2', partnerAppId: 'crm' }),
    );
    expect(state.keys.items).toEqual([]);
  });

  it('forgets a new key on sign-out', () => {
    const state = integrationsReducer(
      initialIntegrationsState,
      integrationsActions.keyIssued(makeCreatedKey()),
    );
    expect(integrationsReducer(state, sessionActions.signedOut()).newKey).toBeNull();
  });

  it('finds the current firm database switch', () => {
    const store = makeStore(signedInState());
    store.dispatch(
      integrationsActions.integrationsLoaded([
        makeIntegration({ databaseId: 'db2', enabled: true }),
        makeIntegration(),
      ]),
    );
    expect(selectCurrentIntegration(store.getState())).toMatchObject({
      databaseId: 'db1',
      enabled: false,
    });
    store.sagaTask.cancel();
  });
});

describe('sanitizeAdminAction', () => {
  it('masks passwords and new keys, and leaves other actions alone', () => {
    const create = sanitizeAdminAction(
      adminActions.memberCreateRequested({
        username: 'x',
        firstName: 'X',
        lastName: 'Y',
        password: 'correct horse battery',
      }),
    );
    expect(JSON.stringify(create)).not.toContain('correct horse');
    const password = sanitizeAdminAction(
      adminActions.passwordChangeRequested({ memberId: 'u2', password: 'correct horse battery' }),
    );
    expect(JSON.stringify(password)).not.toContain('correct horse');
    const key = sanitizeAdminAction(integrationsActions.keyIssued(makeCreatedKey()));
    expect(JSON.stringify(key)).not.toContain('secret');
    const other = adminActions.membersRequested();
    expect(sanitizeAdminAction(other)).toBe(other);
  });
});
