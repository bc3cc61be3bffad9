// The admin section "Members" (/admin/members) inside the app, the api stubbed: the list with
// roles, states, the count and the server search; the spec message of a failed read and Try again;
// the update, password (length and strength checked before sending), unlock and disable dialogs,
// a refusal kept in the dialog; the role and permissions dialog with the member's teams and the
// removal of all of their folder permissions after a confirmation; adding a member.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@common/messages';
import { App } from '@src/app/App';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { ADA, ALAN, GRACE, membersPage } from './membersFixtures';
import { allowConsoleError } from '../../consoleErrors';

/** What the members page reads when it opens. */
const routes: StubRoutes = {
  'GET /api/rest/private/users': { body: membersPage([ADA, GRACE, ALAN]) },
};

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function renderAt(route: string, extra: StubRoutes = {}, user = makeUser()) {
  const stub = stubRoutes({ ...routes, ...extra });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<App />, { store, route });
  return { ...stub, ...recording };
}

/** The button whose text is `text` (text queries are much cheaper than role queries under jsdom). */
function button(container: HTMLElement, text: string): HTMLElement {
  const found = within(container).getByText(text, { selector: 'button span' }).closest('button');
  if (!found) throw new Error(`No button "${text}"`);
  return found;
}

/** The open confirmation (antd modal.confirm) titled `title`. */
async function findConfirm(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-confirm-title' });
  return heading.closest('.ant-modal') as HTMLElement;
}

/** The dialog whose title is `title`. */
async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  const dialog = heading.closest('[role="dialog"]');
  if (!(dialog instanceof HTMLElement)) throw new Error(`No dialog "${title}"`);
  return dialog;
}

describe('members page', () => {
  it('lists the members with roles, states and the count, and searches', async () => {
    const { calls } = renderAt('/admin');
    const list = await screen.findByLabelText('Members', { selector: '[role="list"]' });
    await within(list).findByLabelText('Grace Hopper');
    expect(screen.getByText('3 members')).toBeInTheDocument();
    const alan = within(list).getByLabelText('Alan Turing');
    expect(alan).toHaveTextContent('Read only');
    expect(alan).toHaveTextContent('Locked');
    expect(within(alan).getByLabelText('Unlock Alan Turing')).toBeInTheDocument();
    const ada = within(list).getByLabelText('Ada Lovelace');
    expect(ada).toHaveTextContent('(you)');
    expect(within(ada).queryByLabelText('Disable Ada Lovelace')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Search members'));
    await user.paste('turing');
    await waitFor(() => expect(within(list).queryByLabelText('Grace Hopper')).toBeNull());
    await waitFor(() =>
      expect(
        callsTo(calls, 'GET /api/rest/private/users').some((c) => c.url.includes('query=turing')),
      ).toBe(true),
    );
  });

  it('says "Could not get database users." when the list fails, and tries again', async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/users\S* answered 500/);
    let fail = true;
    renderAt('/admin/members', {
      'GET /api/rest/private/users': () =>
        fail
          ? { status: 500, body: { message: 'Internal error.', code: 'internal' } }
          : { body: membersPage([ADA]) },
    });
    const text = await screen.findByText(MESSAGES.couldNotGetDatabaseUsers, { exact: false });
    const alert = text.closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent(MESSAGES.couldNotGetDatabaseUsers);
    fail = false;
    const user = userEvent.setup();
    await user.click(button(alert, 'Try again'));
    expect(await screen.findByLabelText('Ada Lovelace')).toBeInTheDocument();
  });

  it('edits a member in the update dialog', async () => {
    const { calls } = renderAt('/admin/members', {
      'PATCH /api/rest/private/users/u2': (call) => ({
        body: { ...GRACE, ...(call.body as object) },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Edit Grace Hopper'));
    const dialog = await findDialog('Edit member');
    const first = within(dialog).getByLabelText('First name');
    expect(first).toHaveValue('Grace');
    await user.clear(first);
    await user.click(first);
    await user.paste('Amazing Grace');
    await user.click(button(dialog, 'Save'));
    expect(await screen.findByLabelText('Amazing Grace Hopper')).toBeInTheDocument();
    expect(callsTo(calls, 'PATCH /api/rest/private/users/u2')[0]?.body).toMatchObject({
      firstName: 'Amazing Grace',
      username: 'grace',
    });
  });

  it('checks the password policy before sending, then changes the password', async () => {
    const { calls } = renderAt('/admin/members', {
      'PATCH /api/rest/private/users/u2/update_password': { body: GRACE },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Password Grace Hopper'));
    const dialog = await findDialog('Change password');
    await user.click(within(dialog).getByLabelText('New password'));
    await user.paste('short');
    await user.click(button(dialog, 'Change password'));
    expect(
      await within(dialog).findByText('The password must be at least 12 characters long.'),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'PATCH /api/rest/private/users/u2/update_password')).toHaveLength(0);
    await user.click(within(dialog).getByLabelText('New password'));
    await user.paste(' and long enough');
    await user.click(within(dialog).getByLabelText('Confirm password'));
    await user.paste('short and long enough');
    await user.click(button(dialog, 'Change password'));
    await waitFor(() =>
      expect(callsTo(calls, 'PATCH /api/rest/private/users/u2/update_password')).toHaveLength(1),
    );
    expect(callsTo(calls, 'PATCH /api/rest/private/users/u2/update_password')[0]?.body).toEqual({
      password: 'short and long enough',
    });
    await waitFor(() =>
      expect(screen.queryByText('Change password', { selector: '.ant-modal-title' })).toBeNull(),
    );
  });

  it('refuses a guessable password in the password dialog with the strength message', async () => {
    const { calls } = renderAt('/admin/members', {
      'PATCH /api/rest/private/users/u2/update_password': { body: GRACE },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Password Grace Hopper'));
    const dialog = await findDialog('Change password');
    for (const weak of ['password1234', 'aaaaaaaaaaaa', 'gracehopper2024']) {
      await user.clear(within(dialog).getByLabelText('New password'));
      await user.paste(weak);
      await user.clear(within(dialog).getByLabelText('Confirm password'));
      await user.paste(weak);
      await user.click(button(dialog, 'Change password'));
      expect(
        // The strength dictionaries load on first use: allow for that.
        await within(dialog).findByText(/^This password is too easy to guess\./, undefined, {
          timeout: 30_000,
        }),
      ).toBeInTheDocument();
    }
    expect(callsTo(calls, 'PATCH /api/rest/private/users/u2/update_password')).toHaveLength(0);
  });

  it('unlocks a locked member after the confirmation', async () => {
    renderAt('/admin/members', {
      'POST /api/rest/private/users/u3/unlock': {
        body: { ...ALAN, locked: false, locked_at: null, failed_logins: 0 },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Unlock Alan Turing'));
    const dialog = await findDialog('Unlock member');
    expect(dialog).toHaveTextContent('has 5 failed sign-ins in a row');
    expect(dialog).toHaveTextContent('Other addresses were never locked.');
    await user.click(button(dialog, 'Unlock'));
    await waitFor(() => expect(screen.queryByLabelText('Unlock Alan Turing')).toBeNull());
    expect(screen.getByLabelText('Alan Turing')).not.toHaveTextContent('Locked');
  });

  it('disables a member and offers Enable; a refusal stays in the dialog', async () => {
    allowConsoleError(/^POST \/api\/rest\/private\/users\/u2\/disable\S* answered 409/);
    let refuse = true;
    renderAt('/admin/members', {
      'POST /api/rest/private/users/u2/disable': () =>
        refuse
          ? { status: 409, body: { message: 'You cannot disable your own account.', code: 'x' } }
          : { body: { ...GRACE, disabled: true } },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Disable Grace Hopper'));
    const dialog = await findDialog('Disable member');
    await user.click(button(dialog, 'Disable'));
    expect(
      await within(dialog).findByText('You cannot disable your own account.'),
    ).toBeInTheDocument();
    refuse = false;
    await user.click(button(dialog, 'Disable'));
    expect(await screen.findByLabelText('Enable Grace Hopper')).toBeInTheDocument();
    expect(screen.getByLabelText('Grace Hopper')).toHaveTextContent('Disabled');
  });

  it("changes a member's role in the permission dialog, which lists their teams", async () => {
    // React's warning: the permission dialog's text puts a <div> inside a <p> (the app's markup,
    // not changed here).
    allowConsoleError(
      /In HTML, <div> cannot be a descendant of <p>|<p> cannot contain a nested <div>/,
    );
    const { calls } = renderAt('/admin/members', {
      'GET /api/rest/private/users/u2/teams': { body: [{ id: 't1', name: 'Advisors' }] },
      'PATCH /api/rest/private/users/role/u2': { body: { ...GRACE, role: 'read_only' } },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Role Grace Hopper'));
    const dialog = await findDialog('Role and permissions');
    expect(await within(dialog).findByText('1 team: Advisors')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText(/^Read only/));
    await user.click(button(dialog, 'Save'));
    await waitFor(() =>
      expect(screen.getByLabelText('Grace Hopper')).toHaveTextContent('Read only'),
    );
    expect(callsTo(calls, 'PATCH /api/rest/private/users/role/u2')[0]?.body).toEqual({
      role: 'read_only',
    });
  });

  it("removes all of a member's folder permissions at once after the confirmation", async () => {
    allowConsoleError(
      /In HTML, <div> cannot be a descendant of <p>|<p> cannot contain a nested <div>/,
    );
    const { calls } = renderAt('/admin/members', {
      'GET /api/rest/private/users/u2/teams': { body: [] },
      'DELETE /api/rest/folder_permissions/by_user': { status: 204 },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Role Grace Hopper'));
    const dialog = await findDialog('Role and permissions');
    const section = within(dialog).getByRole('region', { name: 'Folder permissions' });

    // Cancelling the confirmation sends nothing.
    await user.click(button(section, 'Remove all folder permissions'));
    let confirm = await findConfirm('Remove all folder permissions of Grace Hopper?');
    expect(confirm).toHaveTextContent('Permissions of their teams stay.');
    await user.click(button(confirm, 'Cancel'));
    await waitFor(() =>
      expect(
        screen.queryByText('Remove all folder permissions of Grace Hopper?'),
      ).not.toBeInTheDocument(),
    );
    expect(callsTo(calls, 'DELETE /api/rest/folder_permissions/by_user')).toHaveLength(0);

    await user.click(button(section, 'Remove all folder permissions'));
    confirm = await findConfirm('Remove all folder permissions of Grace Hopper?');
    await user.click(button(confirm, 'Remove all'));
    expect(
      await screen.findByText('All folder permissions of Grace Hopper were removed.'),
    ).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'No folder permission names Grace Hopper any more.',
    );
    const removals = callsTo(calls, 'DELETE /api/rest/folder_permissions/by_user');
    expect(removals.map((call) => call.url)).toEqual([
      '/api/rest/folder_permissions/by_user?user_id=u2',
    ]);
  });

  it("shows why removing a member's folder permissions was refused", async () => {
    allowConsoleError(
      /In HTML, <div> cannot be a descendant of <p>|<p> cannot contain a nested <div>/,
    );
    allowConsoleError(/answered 404/);
    renderAt('/admin/members', {
      'GET /api/rest/private/users/u2/teams': { body: [] },
      'DELETE /api/rest/folder_permissions/by_user': {
        status: 404,
        body: { message: 'Not found.', code: 'not_found' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Role Grace Hopper'));
    const dialog = await findDialog('Role and permissions');
    await user.click(button(dialog, 'Remove all folder permissions'));
    await user.click(
      button(await findConfirm('Remove all folder permissions of Grace Hopper?'), 'Remove all'),
    );
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not found.');
  });

  it('adds a member', async () => {
    const { calls } = renderAt('/admin/members', {
      'POST /api/rest/private/users': {
        status: 201,
        body: {
          ...GRACE,
          id: 'u9',
          userId: 'u9',
          firstName: 'Mary',
          lastName: 'Jackson',
          username: 'mary',
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Add member', { selector: 'button span' }));
    const dialog = await findDialog('Add member');
    await user.click(within(dialog).getByLabelText('First name'));
    await user.paste('Mary');
    await user.click(within(dialog).getByLabelText('Last name'));
    await user.paste('Jackson');
    await user.click(within(dialog).getByLabelText('Username'));
    await user.paste('mary');
    await user.click(within(dialog).getByLabelText('Password'));
    await user.paste('a long enough password');
    await user.click(button(dialog, 'Add member'));
    expect(await screen.findByLabelText('Mary Jackson')).toBeInTheDocument();
    expect(screen.getByText('4 members')).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/private/users')[0]?.body).toEqual({
      username: 'mary',
      firstName: 'Mary',
      lastName: 'Jackson',
      email: null,
      password: 'a long enough password',
      role: 'member',
    });
  });
});
