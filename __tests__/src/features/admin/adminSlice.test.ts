import { describe, expect, it } from '@jest/globals';
import { combineReducers } from '@reduxjs/toolkit';
import { sessionActions } from '@src/features/session/sessionSlice';
import type { RootState } from '@src/store/rootReducer';
import { makeStore } from '@src/store/store';
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
import { sanitizeAdminAction } from '@src/features/admin/sanitizeAdminAction';
import {
  selectAddablePermissionables,
  selectUserOptions,
} from '@src/features/folderPermissions/folderPermissionsSelectors';
import {
  folderPermissionsActions,
  folderPermissionsReducer,
  initialFolderPermissionsState,
} from '@src/features/folderPermissions/folderPermissionsSlice';
import { selectCurrentIntegration } from '@src/features/integrations/integrationsSelectors';
import {
  initialIntegrationsState,
  integrationsActions,
  integrationsReducer,
} from '@src/features/integrations/integrationsSlice';
import {
  memberMatches,
  roleLabel,
  selectSelectedMember,
  selectVisibleMembers,
} from '@src/features/members/membersSelectors';
import {
  initialMembersState,
  membersActions,
  membersReducer,
} from '@src/features/members/membersSlice';
import { initialTeamsState, teamsReducer } from '@src/features/teams/teamsSlice';

/** The admin area's slices together, as the root reducer holds them. */
const adminReducer = combineReducers({
  members: membersReducer,
  teams: teamsReducer,
  folderPermissions: folderPermissionsReducer,
});
type AdminState = ReturnType<typeof adminReducer>;
const initialAdminState: AdminState = {
  members: initialMembersState,
  teams: initialTeamsState,
  folderPermissions: initialFolderPermissionsState,
};

function reduce(...actions: Parameters<typeof adminReducer>[1][]): AdminState {
  return actions.reduce(adminReducer, initialAdminState);
}

function rootState(admin: AdminState): RootState {
  const store = makeStore(signedInState());
  const state = { ...store.getState(), ...admin };
  store.sagaTask.cancel();
  return state;
}

describe('admin slice: members', () => {
  it('replaces the list with page 1 and appends later pages without repeats', () => {
    let state = reduce(
      membersActions.membersRequested(),
      membersActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE] }),
    );
    expect(state.members.list.status).toBe('succeeded');
    expect(state.members.list.items.map((m) => m.id)).toEqual(['u1', 'u2']);
    state = adminReducer(state, membersActions.membersMoreRequested());
    expect(state.members.list.more).toBe('loading');
    state = adminReducer(
      state,
      membersActions.membersLoaded({ search: '', page: 2, total: 3, items: [GRACE, ALAN] }),
    );
    expect(state.members.list.items.map((m) => m.id)).toEqual(['u1', 'u2', 'u3']);
    expect(state.members.list.page).toBe(2);
    expect(state.members.list.more).toBe('idle');
  });

  it('asks for no next page when every match is loaded', () => {
    const state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 2, items: [ADA, GRACE] }),
      membersActions.membersMoreRequested(),
    );
    expect(state.members.list.more).toBe('idle');
  });

  it('ignores a page answered for an older search text', () => {
    const state = reduce(
      membersActions.memberSearchChanged('gra'),
      membersActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE, ALAN] }),
    );
    expect(state.members.list.items).toEqual([]);
    expect(state.members.list.status).toBe('idle');
  });

  it('keeps the spec message of a failed read', () => {
    const state = reduce(
      membersActions.membersRequested(),
      membersActions.membersFailed('Could not get database users.'),
    );
    expect(state.members.list).toMatchObject({
      status: 'failed',
      error: 'Could not get database users.',
    });
  });

  it('opens a dialog for the selected member, keeps a failure open and closes on save', () => {
    let state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 2, items: [ADA, GRACE] }),
      membersActions.memberDialogOpened({ kind: 'update', memberId: 'u2' }),
    );
    expect(state.members.dialog).toEqual({
      kind: 'update',
      memberId: 'u2',
      status: 'idle',
      error: null,
    });
    expect(selectSelectedMember(rootState(state))?.username).toBe('grace');
    state = adminReducer(
      state,
      membersActions.memberUpdateRequested({ memberId: 'u2', changes: { firstName: 'G' } }),
    );
    expect(state.members.dialog.status).toBe('loading');
    state = adminReducer(
      state,
      membersActions.memberDialogFailed('That username is already taken.'),
    );
    expect(state.members.dialog).toMatchObject({
      kind: 'update',
      status: 'failed',
      error: 'That username is already taken.',
    });
    state = adminReducer(state, membersActions.memberSaved({ ...GRACE, firstName: 'G' }));
    expect(state.members.dialog.kind).toBeNull();
    expect(state.members.list.items[1]?.firstName).toBe('G');
    expect(state.members.list.total).toBe(2);
  });

  it('counts a created member', () => {
    const state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 1, items: [ADA] }),
      membersActions.memberDialogOpened({ kind: 'create' }),
      membersActions.memberSaved(GRACE),
    );
    expect(state.members.list.total).toBe(2);
    expect(state.members.list.items.map((m) => m.id)).toEqual(['u1', 'u2']);
  });

  it('starts over after sign-out and after a firm switch', () => {
    const loaded = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 1, items: [ADA] }),
      folderPermissionsActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
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
    let state = reduce(
      folderPermissionsActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
    );
    expect(state.folderPermissions.dialog).toMatchObject({
      folder: { id: 'f1', name: 'Clients' },
      status: 'loading',
    });
    state = adminReducer(
      state,
      folderPermissionsActions.folderPermissionsLoaded({
        folderId: 'f9',
        items: [makePermission()],
      }),
    );
    expect(state.folderPermissions.dialog.items).toEqual([]);
    state = adminReducer(
      state,
      folderPermissionsActions.folderPermissionsLoaded({
        folderId: 'f1',
        items: [makePermission()],
      }),
    );
    expect(state.folderPermissions.dialog.items).toHaveLength(1);
    state = adminReducer(
      state,
      folderPermissionsActions.permissionRemoveRequested({ folderId: 'f1', permissionId: 'p1' }),
    );
    expect(state.folderPermissions.dialog.change).toBe('loading');
    state = adminReducer(
      state,
      folderPermissionsActions.permissionsChangeFailed({ folderId: 'f1', message: 'Not found.' }),
    );
    expect(state.folderPermissions.dialog).toMatchObject({
      change: 'failed',
      changeError: 'Not found.',
    });
    state = adminReducer(state, folderPermissionsActions.folderPermissionsClosed());
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
      membersActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE, ALAN] }),
      membersActions.memberSearchChanged('tur'),
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
      membersActions.memberCreateRequested({
        username: 'x',
        firstName: 'X',
        lastName: 'Y',
        password: 'correct horse battery',
      }),
    );
    expect(JSON.stringify(create)).not.toContain('correct horse');
    const password = sanitizeAdminAction(
      membersActions.passwordChangeRequested({ memberId: 'u2', password: 'correct horse battery' }),
    );
    expect(JSON.stringify(password)).not.toContain('correct horse');
    const key = sanitizeAdminAction(integrationsActions.keyIssued(makeCreatedKey()));
    expect(JSON.stringify(key)).not.toContain('secret');
    const other = membersActions.membersRequested();
    expect(sanitizeAdminAction(other)).toBe(other);
  });
});
