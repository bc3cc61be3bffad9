// The operator's Firms section (/admin/firms; firm provisioning): the list (name, description,
// disabled, member count), and the create, rename, describe, disable and members dialogs driven
// by keyboard where a person would type, with the server's refusals shown in the dialog. Who sees
// the section is the admin page's (admin/AdminPage.test.tsx).
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FirmDto, FirmMemberDto } from '@common/firms';
import { App } from '@src/app/App';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { allowConsoleError } from '../../consoleErrors';
import { HARBOUR, OLD, OPERATOR, QUAY, RITA, makeFirm } from './firmsFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function renderAt(route: string, extra: StubRoutes = {}, user = OPERATOR) {
  const stub = stubRoutes({
    'GET /api/rest/private/firms': { body: makePage([HARBOUR, OLD, QUAY]) },
    'GET /api/rest/private/users': { body: makePage([]) },
    'GET /api/rest/entities': {
      body: { items: [], page: 1, page_size: 100, total: 0, next_cursor: null },
    },
    ...extra,
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<App />, { store, route });
  return { ...stub, ...recording };
}

/** The dialog whose title is `title`. */
async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  const dialog = heading.closest('[role="dialog"]');
  if (!(dialog instanceof HTMLElement)) throw new Error(`No dialog "${title}"`);
  return dialog;
}

describe('the firm list and its dialogs', () => {
  it('lists every firm with its description, state and member count', async () => {
    renderAt('/admin/firms');
    const list = await screen.findByRole('group', { name: 'Firm list' });
    // A row is a list item named by its firm (its action buttons are list items too).
    const rows = within(list)
      .getAllByRole('listitem')
      .filter((row) => row.hasAttribute('aria-label'));
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual([
      'Harbour Wealth',
      'Old Mill',
      'Quay Partners',
    ]);
    expect(rows[0]).toHaveTextContent('Harbour office · 3 members');
    expect(rows[1]).toHaveTextContent('Disabled');
    expect(within(rows[1]!).getByRole('button', { name: 'Enable Old Mill' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('No description: not listed in firm switchers · 1 member');
    const section = screen.getByRole('region', { name: 'Firms' });
    expect(within(section).getAllByRole('status')[0]).toHaveTextContent('3 firms, 1 disabled');
  });

  it('creates a firm from the keyboard, showing the server’s refusal first', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const { calls } = renderAt('/admin/firms', {
      'POST /api/rest/private/firms': () => {
        attempts += 1;
        return attempts === 1
          ? {
              status: 409,
              body: { code: 'firm_name_taken', message: 'A firm named "Pier" already exists.' },
            }
          : { status: 201, body: makeFirm({ id: 'f9', name: 'Pier', description: 'Pier office' }) };
      },
    });
    await screen.findByRole('group', { name: 'Firm list' });
    await user.click(screen.getByRole('button', { name: /Create firm/ }));
    const dialog = await findDialog('Create firm');
    // A blank name is refused before anything is sent.
    await user.click(within(dialog).getByLabelText('Firm name'));
    await user.keyboard('{Enter}');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A firm needs a name.');
    await user.type(within(dialog).getByLabelText('Firm name'), 'Pier');
    await user.tab();
    expect(within(dialog).getByLabelText('Description')).toHaveFocus();
    allowConsoleError(/409/);
    await user.keyboard('Pier office{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A firm named "Pier" already exists.',
    );
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(screen.queryByText('Create firm', { selector: '.ant-modal-title' })).toBeNull(),
    );
    expect(callsTo(calls, 'POST /api/rest/private/firms').map((c) => c.body)).toEqual([
      { name: 'Pier', description: 'Pier office' },
      { name: 'Pier', description: 'Pier office' },
    ]);
    const list = screen.getByRole('group', { name: 'Firm list' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label'))
        .filter(Boolean),
    ).toEqual(['Harbour Wealth', 'Old Mill', 'Pier', 'Quay Partners']);
  });

  it('renames, describes and disables a firm', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/admin/firms', {
      'PATCH /api/rest/private/firms/f2': (call) => ({
        body: { ...QUAY, ...(call.body as Partial<FirmDto>) },
      }),
      'POST /api/rest/private/firms/f1/disable': {
        body: { ...HARBOUR, disabled: true, disabledAt: '2024-05-01T00:00:00.000Z' },
      },
    });
    await screen.findByRole('group', { name: 'Firm list' });
    await user.click(screen.getByRole('button', { name: 'Description of Quay Partners' }));
    const describe = await findDialog('Description of Quay Partners');
    await user.type(within(describe).getByLabelText('Description'), 'Quay office{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('listitem', { name: 'Quay Partners' })).toHaveTextContent(
        'Quay office · 1 member',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Rename Quay Partners' }));
    const rename = await findDialog('Rename Quay Partners');
    const name = within(rename).getByLabelText('Firm name');
    await user.clear(name);
    await user.type(name, 'Quayside{Enter}');
    expect(await screen.findByRole('listitem', { name: 'Quayside' })).toBeInTheDocument();
    expect(callsTo(calls, 'PATCH /api/rest/private/firms/f2').map((c) => c.body)).toEqual([
      { description: 'Quay office' },
      { name: 'Quayside' },
    ]);

    await user.click(screen.getByRole('button', { name: 'Disable Harbour Wealth' }));
    const confirm = await findDialog('Disable firm');
    expect(confirm).toHaveTextContent('Everyone signed in to it is signed out at once');
    await user.click(within(confirm).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(screen.getByRole('listitem', { name: 'Harbour Wealth' })).toHaveTextContent(
        'Disabled',
      ),
    );
    expect(callsTo(calls, 'POST /api/rest/private/firms/f1/disable')).toHaveLength(1);
  });

  it('adds a user with a role, changes a role and removes a member', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/admin/firms', {
      'GET /api/rest/private/firms/f1/members': { body: makePage([RITA]) },
      'POST /api/rest/private/firms/f1/members': (call) => {
        const body = call.body as { username: string; role: FirmMemberDto['role'] };
        return body.username === 'ghost'
          ? { status: 404, body: { code: 'user_not_found', message: 'No user "ghost".' } }
          : {
              status: 201,
              body: {
                ...RITA,
                userId: 'u8',
                username: body.username,
                firstName: 'Sam',
                role: body.role,
              },
            };
      },
      'PATCH /api/rest/private/firms/f1/members/u7': { body: { ...RITA, role: 'read_only' } },
      'DELETE /api/rest/private/firms/f1/members/u7': { status: 204 },
    });
    await screen.findByRole('group', { name: 'Firm list' });
    await user.click(screen.getByRole('button', { name: 'Members of Harbour Wealth' }));
    const dialog = await findDialog('Members of Harbour Wealth');
    const members = await within(dialog).findByRole('group', { name: 'Members of Harbour Wealth' });
    expect(within(members).getByRole('listitem', { name: 'Rita Levi' })).toHaveTextContent('rita');

    const username = within(dialog).getByLabelText('Add an existing user by username');
    allowConsoleError(/404/);
    await user.type(username, 'ghost{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No user "ghost".');
    await user.type(username, 'sam{Enter}');
    expect(await within(members).findByRole('listitem', { name: 'Sam Levi' })).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/private/firms/f1/members').map((c) => c.body)).toEqual([
      { username: 'ghost', role: 'member' },
      { username: 'sam', role: 'member' },
    ]);
    expect(screen.getByRole('listitem', { name: 'Harbour Wealth' })).toHaveTextContent('4 members');

    act(() => {
      store!.dispatch({
        type: 'firms/memberRoleChangeRequested',
        payload: { firmId: 'f1', userId: 'u7', role: 'read_only' },
      });
    });
    await waitFor(() =>
      expect(callsTo(calls, 'PATCH /api/rest/private/firms/f1/members/u7')[0]?.body).toEqual({
        role: 'read_only',
      }),
    );
    await user.click(
      within(dialog).getByRole('button', { name: 'Remove Rita Levi from Harbour Wealth' }),
    );
    await waitFor(() =>
      expect(within(members).queryByRole('listitem', { name: 'Rita Levi' })).toBeNull(),
    );
    expect(screen.getByRole('listitem', { name: 'Harbour Wealth' })).toHaveTextContent('3 members');
  });
});
