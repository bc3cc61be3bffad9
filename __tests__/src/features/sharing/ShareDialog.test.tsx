import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEATURE_FLAG_DEFAULTS } from '@common/constants';
import type { CreateShareLinkRequest } from '@common/sharing';
import { ShareButton } from '@src/features/sharing/components/ShareButton';
import { parseRecipients, recipientsProblem } from '@src/features/sharing/components/ShareDialog';
import { makeStore, type AppStore } from '@src/store/store';
import {
  callsTo,
  makeFolder,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { makeGuest, makeInvitation, makeLink } from './sharingFixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

describe('recipients field', () => {
  it('splits on commas, semicolons and spaces, lowercases and drops duplicates', () => {
    expect(parseRecipients(' A@Example.com, b@example.org;a@example.com\nc@d.co ')).toEqual([
      'a@example.com',
      'b@example.org',
      'c@d.co',
    ]);
    expect(parseRecipients('')).toEqual([]);
  });

  it('names the first address that breaks the e-mail rule', () => {
    expect(recipientsProblem('a@example.com, b@c')).toBe('"b@c" is not a valid e-mail address.');
    expect(recipientsProblem('a@example.com a@[192.168.0.1]')).toBeNull();
    expect(recipientsProblem('')).toBeNull();
  });
});

// Whole-dialog tests (antd Modal, Form and DatePicker in jsdom) are slow on a loaded machine.
const SLOW_MS = 300_000;

describe('share dialog', () => {
  let store: AppStore;
  const folder = makeFolder();

  afterEach(() => {
    store.sagaTask.cancel();
  });

  function renderButton(routes: StubRoutes, state = signedInState()) {
    const stub = stubRoutes(routes);
    store = makeStore(state);
    renderWithProviders(<ShareButton entity={folder} />, { store });
    return stub;
  }

  async function openDialog() {
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Clients' });
    return { user, dialog };
  }

  it(
    'is hidden for guests and when the sharing flag is off',
    () => {
      stubRoutes({});
      store = makeStore(signedInState(makeGuest()));
      const { unmount } = renderWithProviders(<ShareButton entity={folder} />, { store });
      expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
      unmount();
      store.sagaTask.cancel();
      store = makeStore({
        ...signedInState(),
        flags: { values: { ...FEATURE_FLAG_DEFAULTS, sharing: false }, status: 'succeeded' },
      } as Parameters<typeof makeStore>[0]);
      renderWithProviders(<ShareButton entity={folder} />, { store });
      expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'lists who has access with the invitation states',
    async () => {
      const { calls } = renderButton({
        'GET /api/rest/shared/links': {
          body: {
            items: [
              makeLink({
                invitations: [
                  makeInvitation(),
                  makeInvitation({ id: 'inv2', email: 'done@example.com', state: 'accepted' }),
                  makeInvitation({ id: 'inv3', email: 'gone@example.com', state: 'cancelled' }),
                  makeInvitation({ id: 'inv4', email: 'old@example.com', state: 'expired' }),
                ],
                shares: [
                  {
                    id: 'share1',
                    user_name: 'Done Client',
                    email: 'done@example.com',
                    created_at: '2024-03-06T09:30:00.000Z',
                  },
                ],
              }),
            ],
          },
        },
      });
      const { dialog } = await openDialog();
      const rows = await within(dialog).findAllByTestId('share-invitation');
      expect(
        rows.map((row) => [
          row.querySelector('.ant-list-item-meta-title')?.textContent,
          row.querySelector('.ant-tag')?.textContent,
        ]),
      ).toEqual([
        ['client@example.com', 'Sent'],
        ['done@example.com', 'Accepted'],
        ['gone@example.com', 'Cancelled'],
        ['old@example.com', 'Expired'],
      ]);
      // Only a sent invitation can be cancelled; an accepted one is not re-sent.
      expect(
        within(rows[0]!).getByRole('button', {
          name: 'Cancel invitation to client@example.com',
        }),
      ).toBeInTheDocument();
      expect(within(rows[1]!).queryByRole('button')).not.toBeInTheDocument();
      expect(within(rows[2]!).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
      expect(within(dialog).getByTestId('share-access')).toHaveTextContent('Done Client');
      expect(callsTo(calls, 'GET /api/rest/shared/links')[0]!.url).toBe(
        '/api/rest/shared/links?entity_type=folder&entity_id=f1',
      );
    },
    SLOW_MS,
  );

  it(
    'checks the recipients as typed and refuses a bad address',
    async () => {
      const { calls } = renderButton({ 'GET /api/rest/shared/links': { body: { items: [] } } });
      const { user, dialog } = await openDialog();
      expect(await within(dialog).findByText('Not shared yet.')).toBeInTheDocument();
      await user.click(within(dialog).getByLabelText('Recipients'));
      await user.paste('client@example.com, nobody@nowhere');
      expect(
        await within(dialog).findByText('"nobody@nowhere" is not a valid e-mail address.'),
      ).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Share' }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(callsTo(calls, 'POST /api/rest/shared/links')).toHaveLength(0);
    },
    SLOW_MS,
  );

  it(
    'creates a link, shows it once with Copy link, and lists the new invitations',
    async () => {
      const created = makeLink({
        invitations: [makeInvitation(), makeInvitation({ id: 'inv2', email: 'b@example.org' })],
      });
      const { calls } = renderButton({
        'GET /api/rest/shared/links': { body: { items: [] } },
        'POST /api/rest/shared/links': {
          status: 201,
          body: { link: created, url: 'http://localhost/sharing/invitation/tok123' },
        },
      });
      const { user, dialog } = await openDialog();
      await user.click(within(dialog).getByLabelText('Recipients'));
      await user.paste('Client@Example.com, b@example.org');
      await user.click(within(dialog).getByLabelText('Message'));
      await user.paste('Your statements');
      await user.click(within(dialog).getByLabelText('Password (optional)'));
      await user.paste('link secret');
      await user.click(within(dialog).getByRole('checkbox', { name: 'Allow download' }));
      await user.click(within(dialog).getByRole('button', { name: 'Share' }));

      const link = await within(dialog).findByLabelText('Share link');
      expect(link).toHaveValue('http://localhost/sharing/invitation/tok123');
      const body = callsTo(calls, 'POST /api/rest/shared/links')[0]!.body as CreateShareLinkRequest;
      expect(body).toMatchObject({
        entity_type: 'folder',
        entity_id: 'f1',
        emails: ['client@example.com', 'b@example.org'],
        message: 'Your statements',
        password: 'link secret',
        allow_download: false,
      });
      // The default expiry: 14 days from today, at the end of that day.
      const days = (Date.parse(body.expires_at!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(14);
      expect(days).toBeLessThanOrEqual(15);
      expect(await within(dialog).findAllByTestId('share-invitation')).toHaveLength(2);
      // The password is not kept in the store.
      expect(JSON.stringify(store.getState().sharing)).not.toContain('link secret');

      await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
      await waitFor(async () =>
        expect(await navigator.clipboard.readText()).toBe(
          'http://localhost/sharing/invitation/tok123',
        ),
      );
    },
    SLOW_MS,
  );

  it(
    'shows the server message when the link cannot be created',
    async () => {
      allowConsoleError(/^POST \/api\/rest\/shared\/links\S* answered 400/);
      renderButton({
        'GET /api/rest/shared/links': { body: { items: [] } },
        'POST /api/rest/shared/links': {
          status: 400,
          body: { message: 'A share link can last at most 90 days.', code: 'bad_request' },
        },
      });
      const { user, dialog } = await openDialog();
      await user.click(within(dialog).getByRole('button', { name: 'Share' }));
      expect(
        await within(dialog).findByText('A share link can last at most 90 days.'),
      ).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'cancels an invitation, re-sends one, removes access and revokes the link',
    async () => {
      let link = makeLink({
        invitations: [
          makeInvitation(),
          makeInvitation({ id: 'inv4', email: 'old@example.com', state: 'expired' }),
        ],
        shares: [
          {
            id: 'share1',
            user_name: 'Done Client',
            email: 'done@example.com',
            created_at: '2024-03-06T09:30:00.000Z',
          },
        ],
      });
      const { calls } = renderButton({
        'GET /api/rest/shared/links': () => ({ body: { items: [link] } }),
        'DELETE /api/rest/shared/links/link1/invitations/inv1': () => {
          link = {
            ...link,
            invitations: link.invitations.map((inv) =>
              inv.id === 'inv1' ? { ...inv, state: 'cancelled' as const } : inv,
            ),
          };
          return { status: 204 };
        },
        'POST /api/rest/shared/links/link1/invite': () => ({ body: { link } }),
        'DELETE /api/rest/shared/entities/share1': () => {
          link = { ...link, shares: [] };
          return { status: 204 };
        },
        'DELETE /api/rest/shared/links/link1': () => {
          link = { ...link, revoked_at: '2024-03-07T10:00:00.000Z' };
          return { status: 204 };
        },
      });
      const { user, dialog } = await openDialog();
      await user.click(
        await within(dialog).findByRole('button', {
          name: 'Cancel invitation to client@example.com',
        }),
      );
      await waitFor(() =>
        expect(within(dialog).getAllByTestId('share-invitation')[0]).toHaveTextContent('Cancelled'),
      );

      await user.click(
        within(dialog).getByRole('button', { name: 'Re-send the invitation to old@example.com' }),
      );
      await waitFor(() =>
        expect(callsTo(calls, 'POST /api/rest/shared/links/link1/invite')).toHaveLength(1),
      );
      expect(callsTo(calls, 'POST /api/rest/shared/links/link1/invite')[0]!.body).toEqual({
        emails: ['old@example.com'],
      });

      await user.click(
        within(dialog).getByRole('button', { name: 'Remove access of done@example.com' }),
      );
      await waitFor(() =>
        expect(within(dialog).queryByTestId('share-access')).not.toBeInTheDocument(),
      );

      await user.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
      expect(await within(dialog).findByText('Revoked')).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: /Re-send/ })).not.toBeInTheDocument();
      expect(callsTo(calls, 'DELETE /api/rest/shared/links/link1')).toHaveLength(1);
    },
    SLOW_MS,
  );

  it(
    'lets a read-only member see who has access but not share or manage it',
    async () => {
      const readOnly = makeUser({
        databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'read_only' }],
      });
      renderButton(
        { 'GET /api/rest/shared/links': { body: { items: [makeLink()] } } },
        signedInState(readOnly),
      );
      const { dialog } = await openDialog();
      expect(await within(dialog).findByTestId('share-invitation')).toHaveTextContent('Sent');
      expect(within(dialog).queryByLabelText('Recipients')).not.toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: /Cancel|Re-send|Revoke/ })).toBeNull();
      expect(within(dialog).getByText(/cannot share/)).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'says why a change failed',
    async () => {
      allowConsoleError(UNSTUBBED_ROUTE);
      renderButton({
        'GET /api/rest/shared/links': { body: { items: [makeLink()] } },
        'DELETE /api/rest/shared/links/link1/invitations/inv1': {
          status: 404,
          body: { message: 'Not found.', code: 'not_found' },
        },
      });
      const { user, dialog } = await openDialog();
      await user.click(
        await within(dialog).findByRole('button', {
          name: 'Cancel invitation to client@example.com',
        }),
      );
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not found.');
    },
    SLOW_MS,
  );
});
