import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { SHARING_MESSAGES } from '@common/sharing';
import { InvitationPage } from '@src/features/sharing/components/InvitationPage';
import { makeStore, type AppStore } from '@src/store/store';
import {
  LocationProbe,
  callsTo,
  makeUser,
  renderWithProviders,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { makeGuest, makeInvitationInfo } from './sharingFixtures';
import { allowConsoleError } from '../../consoleErrors';

const SLOW_MS = 300_000;
const notSignedIn = { status: 401, body: { message: 'Please sign in.', code: 'unauthorized' } };

describe('invitation page', () => {
  let store: AppStore;

  afterEach(() => {
    store.sagaTask.cancel();
  });

  function renderPage(routes: StubRoutes) {
    const stub = stubRoutes({
      'GET /api/auth/current-user': notSignedIn,
      'GET /api/rest/feature_flags': { body: {} },
      ...routes,
    });
    store = makeStore();
    renderWithProviders(
      <>
        <Routes>
          <Route path="/sharing/invitation/:invitationId" element={<InvitationPage />} />
          <Route path="/sharing/shared" element={<h1>Shared landing</h1>} />
        </Routes>
        <LocationProbe />
      </>,
      { store, route: '/sharing/invitation/tok123' },
    );
    return stub;
  }

  it(
    'says who shared what, signs a new guest up and goes to /sharing/shared',
    async () => {
      allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
      let signedUp = false;
      const { calls } = renderPage({
        'GET /api/rest/shared/invitation/tok123': { body: makeInvitationInfo() },
        'POST /api/rest/shared/signup': {
          status: 202,
          body: { next: 'sign_in', message: SHARING_MESSAGES.signUpDone },
        },
        'POST /api/rest/shared/signin': () => {
          signedUp = true;
          return { body: { landing: '/sharing/shared' } };
        },
        'GET /api/auth/current-user': () => (signedUp ? { body: makeGuest() } : notSignedIn),
      });
      const user = userEvent.setup();
      const main = await screen.findByRole('main');
      expect(await within(main).findByText(/shared the folder/)).toHaveTextContent(
        'Ada Lovelace shared the folder Clients with you.',
      );
      expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
      expect(screen.getByLabelText('E-mail')).toHaveValue('client@example.com');
      expect(screen.queryByLabelText('Link password')).not.toBeInTheDocument();

      await user.click(screen.getByLabelText('First name'));
      await user.paste('Gail');
      await user.click(screen.getByLabelText('Last name'));
      await user.paste('Guest');
      await user.click(screen.getByLabelText('Password'));
      await user.paste('short');
      await user.click(screen.getByLabelText('Confirm password'));
      await user.paste('different');
      await user.click(screen.getByRole('button', { name: 'Create account and open' }));
      expect(await screen.findByText(/at least 12/)).toBeInTheDocument();
      expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
      expect(callsTo(calls, 'POST /api/rest/shared/signup')).toHaveLength(0);

      await user.clear(screen.getByLabelText('Password'));
      await user.paste('guest password 2024');
      await user.clear(screen.getByLabelText('Confirm password'));
      await user.paste('guest password 2024');
      await user.click(screen.getByRole('button', { name: 'Create account and open' }));

      expect(await screen.findByRole('heading', { name: 'Shared landing' })).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('/sharing/shared');
      expect(callsTo(calls, 'POST /api/rest/shared/signup')[0]!.body).toEqual({
        first_name: 'Gail',
        last_name: 'Guest',
        email: 'client@example.com',
        password: 'guest password 2024',
        shareId: 'tok123',
      });
      // The sign-up opens no session: the same address and password sign in next.
      expect(callsTo(calls, 'POST /api/rest/shared/signin')[0]!.body).toEqual({
        email: 'client@example.com',
        password: 'guest password 2024',
        inviteId: 'tok123',
      });
      expect(store.getState().session.user?.userId).toBe('g1');
      expect(JSON.stringify(store.getState().sharing)).not.toContain('guest password 2024');
    },
    SLOW_MS,
  );

  it(
    'signs in an existing account with the link password and shows a refusal',
    async () => {
      allowConsoleError(
        /^GET \/api\/auth\/current-user\S* answered 401/,
        /^POST \/api\/rest\/shared\/signin\S* answered 403/,
      );
      const { calls } = renderPage({
        'GET /api/rest/shared/invitation/tok123': {
          body: makeInvitationInfo({ has_account: true, requires_password: true }),
        },
        'POST /api/rest/shared/signin': {
          status: 403,
          body: { message: 'The password is not correct.', code: 'forbidden' },
        },
      });
      const user = userEvent.setup();
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
      expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();
      await user.click(screen.getByLabelText('Password'));
      await user.paste('my password');
      await user.click(screen.getByLabelText('Link password'));
      await user.paste('wrong');
      await user.click(screen.getByRole('button', { name: 'Sign in and open' }));
      expect(await screen.findByText('The password is not correct.')).toBeInTheDocument();
      expect(callsTo(calls, 'POST /api/rest/shared/signin')[0]!.body).toEqual({
        email: 'client@example.com',
        password: 'my password',
        inviteId: 'tok123',
        link_password: 'wrong',
      });
      expect(screen.getByTestId('location')).toHaveTextContent('/sharing/invitation/tok123');

      // Either form can be chosen.
      await user.click(screen.getByRole('button', { name: 'Create an account' }));
      expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'lets a signed-in user accept in one step, with the link password, and shows a refusal',
    async () => {
      allowConsoleError(/^POST \/api\/rest\/shared\/links\/link1\/accept\S* answered 403/);
      let refusals = 1;
      const { calls } = renderPage({
        'GET /api/auth/current-user': { body: makeUser() },
        'GET /api/rest/shared/invitation/tok123': {
          body: makeInvitationInfo({ has_account: true, requires_password: true }),
        },
        'POST /api/rest/shared/links/link1/accept': () =>
          refusals-- > 0
            ? { status: 403, body: { message: 'The password is not correct.', code: 'forbidden' } }
            : { body: { share: {} } },
      });
      const user = userEvent.setup();
      const accept = await screen.findByRole('button', { name: 'Accept' });
      // The link password is asked first.
      expect(accept).toBeDisabled();
      await user.click(screen.getByLabelText('Link password to accept'));
      await user.paste('wrong');
      await user.click(accept);
      expect(await screen.findByText('The password is not correct.')).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('/sharing/invitation/tok123');
      await user.clear(screen.getByLabelText('Link password to accept'));
      await user.paste('right');
      await user.click(screen.getByRole('button', { name: 'Accept' }));
      expect(await screen.findByRole('heading', { name: 'Shared landing' })).toBeInTheDocument();
      expect(callsTo(calls, 'POST /api/rest/shared/links/link1/accept').map((c) => c.body)).toEqual(
        [
          { token: 'tok123', password: 'wrong' },
          { token: 'tok123', password: 'right' },
        ],
      );
      // The sign-in form stayed there for signing in with the invited account instead.
      expect(JSON.stringify(store.getState().sharing)).not.toContain('right');
    },
    SLOW_MS,
  );

  it.each([
    [410, 'This share link has expired.'],
    [404, 'This share link does not exist or is no longer valid.'],
  ])(
    'says so when the invitation answers %i',
    async (status, text) => {
      allowConsoleError(
        /^GET \/api\/auth\/current-user\S* answered 401/,
        new RegExp(`^GET /api/rest/shared/invitation/tok123 answered ${status}`),
      );
      renderPage({
        'GET /api/rest/shared/invitation/tok123': {
          status,
          body: { message: 'x', code: status === 410 ? 'gone' : 'not_found' },
        },
      });
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /open/ })).not.toBeInTheDocument();
    },
    SLOW_MS,
  );
});
