// The session-timeout panel and the move to /logout (SPEC section 2).
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@common/messages';
import { App } from '@src/app/App';
import { SessionTimeoutDialog } from '@src/features/sessionTimeout/components/SessionTimeout';
import {
  initialSessionTimeoutState,
  type SessionTimeoutState,
} from '@src/features/sessionTimeout/sessionTimeoutSlice';
import type { AppStore } from '@src/store/store';
import {
  LocationProbe,
  callsTo,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

function withTimeout(patch: Partial<SessionTimeoutState>) {
  return {
    ...signedInState(),
    sessionTimeout: {
      ...initialSessionTimeoutState,
      sessionMs: 1_800_000,
      sessionMinutes: 30,
      lastActivityAt: 0,
      ...patch,
    },
  };
}

describe('session timeout panel', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  it("shows 'Session timeout' with the time left, Close and Extend", async () => {
    const recording = makeRecordingStore(withTimeout({ phase: 'warning', remainingMs: 120_000 }));
    store = recording.store;
    renderWithProviders(<SessionTimeoutDialog />, { store });
    const dialog = await screen.findByRole('dialog', { name: 'Session timeout' });
    expect(dialog).toHaveTextContent('Extend your session? You have 2:00 left.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(recording.types()).toContain('sessionTimeout/extendRequested');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(store.getState().sessionTimeout.phase).toBe('dismissed');
  });

  it('shows the countdown as it ticks and a failed extension', async () => {
    store = makeRecordingStore(
      withTimeout({
        phase: 'warning',
        remainingMs: 59_000,
        extend: 'failed',
        extendError: 'Down.',
      }),
    ).store;
    renderWithProviders(<SessionTimeoutDialog />, { store });
    const dialog = await screen.findByRole('dialog', { name: 'Session timeout' });
    expect(dialog).toHaveTextContent('Extend your session? You have 0:59 left.');
    expect(dialog).toHaveTextContent('Down.');
  });

  it('is closed while the session is active', () => {
    store = makeRecordingStore(withTimeout({ phase: 'active' })).store;
    renderWithProviders(<SessionTimeoutDialog />, { store });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a timed-out tab goes to /logout, signs out and shows the sign-in page with a notice', async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    const { calls } = stubRoutes({
      'GET /api/rest/private/user_event/logout': { body: {} },
      'POST /api/auth/logout': { body: {} },
    });
    store = makeRecordingStore(withTimeout({ phase: 'timedOut' })).store;
    renderWithProviders(
      <>
        <App />
        <LocationProbe />
      </>,
      { store, route: '/home' },
    );
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.sessionTimedOut)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(callsTo(calls, 'POST /api/auth/logout')).toHaveLength(1);
    expect(store.getState().session.endReason).toBe('timedOut');
  });
});
