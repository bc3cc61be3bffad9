import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import { App } from '@src/app/App';
import { makeStore, type AppStore } from '@src/store/store';
import { callsTo, makePage, makeUser, renderWithProviders, stubRoutes } from '../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

describe('single sign-on page (/sso?token=…)', () => {
  let store: AppStore;
  beforeEach(() => {
    store = makeStore();
  });
  afterEach(() => {
    store.sagaTask.cancel();
  });

  it('posts the token, records the login event and goes to the landing location', async () => {
    const { calls } = stubRoutes({
      'POST /api/auth/login': { body: makeUser({ sso: true }) },
      'GET /api/rest/private/user_event/login': { body: {} },
      'GET /api/rest/entities': { body: makePage([]) },
    });
    renderWithProviders(<App />, { store, route: '/sso?token=tok-123&landing=home' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/auth/login').map((c) => c.body)).toEqual([
      { token: 'tok-123' },
    ]);
    await waitFor(() =>
      expect(callsTo(calls, 'GET /api/rest/private/user_event/login')).toHaveLength(1),
    );
    expect(store.getState().session.user?.sso).toBe(true);
  });

  it("shows the server's refusal with a way to the sign-in page", async () => {
    allowConsoleError(/^POST \/api\/auth\/login\S* answered 401/);
    stubRoutes({
      'POST /api/auth/login': {
        status: 401,
        body: { message: 'This sign-in link is invalid or has expired.', code: 'invalid_token' },
      },
    });
    renderWithProviders(<App />, { store, route: '/sso?token=used' });
    expect(await screen.findByText('Single sign-on failed')).toBeInTheDocument();
    expect(screen.getByText('This sign-in link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('calls nothing when the link has no token', async () => {
    const { calls } = stubRoutes({});
    renderWithProviders(<App />, { store, route: '/sso' });
    expect(await screen.findByText('Single sign-on failed')).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/auth/login')).toHaveLength(0);
  });
});
