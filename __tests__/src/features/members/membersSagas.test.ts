// Members sagas against a stubbed API and the real store: the first page with the search text and
// the next page, the server search after the pause, the spec message of a failed read, the
// password sent only to update_password (and never kept), the policy's refusal kept in the dialog,
// unlock, disable and role changes, and the member's teams read for the permission dialog.
import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { MESSAGES } from '@common/messages';
import { callsTo } from '../../fixtures';
import { startSagaStore } from '../../sagaStore';
import { ADA, ALAN, GRACE, membersPage } from './membersFixtures';
import { allowConsoleError } from '../../consoleErrors';
import { membersActions } from '@src/features/members/membersSlice';

const start = startSagaStore;

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
