import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '@src/app/App';
import { makeStore, type AppStore } from '@src/store/store';
import { callsTo, makePage, makeUser, renderWithProviders, stubRoutes } from '../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const notSignedIn = { status: 401, body: { message: 'Please sign in.', code: 'not_signed_in' } };

describe('sign-in', () => {
  let store: AppStore;
  beforeEach(() => {
    store = makeStore();
  });
  afterEach(() => {
    store.sagaTask.cancel();
  });

  it("shows the server's message when the credentials are refused", async () => {
    allowConsoleError(
      /^GET \/api\/auth\/current-user\S* answered 401/,
      /^POST \/api\/rest\/private\/users\/authenticate\S* answered 401/,
    );
    const { calls } = stubRoutes({
      'GET /api/auth/current-user': notSignedIn,
      'POST /api/rest/private/users/authenticate': {
        status: 401,
        body: { message: 'The username or password is incorrect.', code: 'invalid_credentials' },
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<App />, { store, route: '/login' });

    await user.click(await screen.findByLabelText('Username'));
    await user.paste('ada');
    await user.click(screen.getByLabelText('Password'));
    await user.paste('wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The username or password is incorrect.',
    );
    expect(callsTo(calls, 'POST /api/rest/private/users/authenticate')[0]!.body).toEqual({
      username: 'ada',
      password: 'wrong',
    });
    expect(document.title).toBe('Dossier');
  });

  it('asks for both fields before calling the server', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
    const { calls } = stubRoutes({ 'GET /api/auth/current-user': notSignedIn });
    const user = userEvent.setup();
    renderWithProviders(<App />, { store, route: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your username.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/private/users/authenticate')).toHaveLength(0);
  });

  it('signs in, records the login event and goes to the landing location', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
    const { calls } = stubRoutes({
      'GET /api/auth/current-user': notSignedIn,
      'POST /api/rest/private/users/authenticate': { body: makeUser() },
      'GET /api/rest/private/user_event/login': { body: {} },
      'GET /api/rest/entities': { body: makePage([]) },
      'GET /api/rest/entities/shared': { body: { shared_with_me: [], shared_by_me: [] } },
    });
    const user = userEvent.setup();
    renderWithProviders(<App />, { store, route: '/login?landing=/sharing/shared' });
    await user.click(await screen.findByLabelText('Username'));
    await user.paste('ada');
    await user.click(screen.getByLabelText('Password'));
    await user.paste('right');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Shared' })).toBeInTheDocument();
    expect(await screen.findByText('Nothing has been shared with you yet.')).toBeInTheDocument();
    expect(callsTo(calls, 'GET /api/rest/entities/shared')).toHaveLength(1);
    expect(callsTo(calls, 'GET /api/rest/private/user_event/login')).toHaveLength(1);
  });

  it('shows the sign-in page in place of any page when not signed in, then that page', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
    stubRoutes({
      'GET /api/auth/current-user': notSignedIn,
      'POST /api/rest/private/users/authenticate': { body: makeUser() },
      'GET /api/rest/private/user_event/login': { body: {} },
    });
    const user = userEvent.setup();
    renderWithProviders(<App />, { store, route: '/archive' });
    await user.click(await screen.findByLabelText('Username'));
    await user.paste('ada');
    await user.click(screen.getByLabelText('Password'));
    await user.paste('right');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Archive' })).toBeInTheDocument();
  });

  it('skips the form for a user who is already signed in', async () => {
    stubRoutes({
      'GET /api/auth/current-user': { body: makeUser() },
      'GET /api/rest/entities': { body: makePage([]) },
    });
    renderWithProviders(<App />, { store, route: '/login?landing=nowhere' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText('Password')).not.toBeInTheDocument());
  });

  it('offers to try again when the server cannot be reached', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 503/);
    stubRoutes({ 'GET /api/auth/current-user': { status: 503 } });
    renderWithProviders(<App />, { store, route: '/home' });
    expect(await screen.findByText('Dossier could not start')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
