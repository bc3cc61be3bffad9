import { afterEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { App } from '@src/app/App';
import { ApiError, get } from '@src/api/client';
import type { AppStore } from '@src/store/store';
import {
  LocationProbe,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

describe('sign-out and session end', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  it('/logout records the event, ends the session and shows the sign-in page at /login', async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/private/user_event/logout': { body: {} },
      'POST /api/auth/logout': { body: {} },
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(
      <>
        <App />
        <LocationProbe />
      </>,
      { store, route: '/logout' },
    );
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText('You have signed out.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /api/rest/private/user_event/logout',
      'POST /api/auth/logout',
    ]);
    expect(recording.types().filter((type) => type === 'session/signOutRequested')).toHaveLength(1);
  });

  it('shows the sign-in page with a notice when a call answers 401', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* answered 401/, UNSTUBBED_ROUTE);
    stubRoutes({
      'GET /api/rest/entities': { status: 401, body: { message: 'Please sign in.', code: 'x' } },
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<App />, { store, route: '/recent' });
    expect(screen.getByRole('heading', { level: 1, name: 'Recent' })).toBeInTheDocument();
    await act(async () => {
      await expect(get('/api/rest/entities')).rejects.toBeInstanceOf(ApiError);
    });
    expect(
      await screen.findByText('Your session has ended. Please sign in again.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Username')).toBeInTheDocument());
  });
});
