// Feature flags and maintenance mode in the client.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import { FEATURE_FLAG_DEFAULTS } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { App } from '@src/app/App';
import { flagsActions, initialFlagsState } from '@src/features/flags/flagsSlice';
import type { RootState } from '@src/store/rootReducer';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makePage,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

const maintenanceOn = {
  flags: {
    ...initialFlagsState,
    status: 'succeeded',
    values: { ...FEATURE_FLAG_DEFAULTS, maintenanceMode: true },
  },
} satisfies Partial<RootState>;

describe('feature flags', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  it('loads the flags, keeping the defaults for anything missing', async () => {
    stubRoutes({
      'GET /api/rest/feature_flags': { body: { maintenanceMode: true, sharing: false, other: 1 } },
    });
    store = makeRecordingStore().store;
    expect(store.getState().flags.values).toEqual(FEATURE_FLAG_DEFAULTS);
    store.dispatch(flagsActions.loadRequested());
    await waitFor(() => expect(store.getState().flags.status).toBe('succeeded'));
    expect(store.getState().flags.values).toEqual({
      ...FEATURE_FLAG_DEFAULTS,
      maintenanceMode: true,
      sharing: false,
    });
  });

  it('keeps the defaults when the flags cannot be read', async () => {
    allowConsoleError(/^GET \/api\/rest\/feature_flags\S* answered 500/);
    stubRoutes({ 'GET /api/rest/feature_flags': { status: 500 } });
    store = makeRecordingStore().store;
    store.dispatch(flagsActions.loadRequested());
    await waitFor(() => expect(store.getState().flags.status).toBe('failed'));
    expect(store.getState().flags.values).toEqual(FEATURE_FLAG_DEFAULTS);
  });

  it('asks for the flags at start-up and shows the maintenance notice on the sign-in page', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
    const { calls } = stubRoutes({
      'GET /api/auth/current-user': {
        status: 401,
        body: { message: 'Please sign in.', code: 'x' },
      },
      'GET /api/rest/feature_flags': { body: { ...FEATURE_FLAG_DEFAULTS, maintenanceMode: true } },
    });
    store = makeRecordingStore().store;
    renderWithProviders(<App />, { store, route: '/login' });
    expect(await screen.findByText(MESSAGES.maintenanceSignIn)).toBeInTheDocument();
    expect(callsTo(calls, 'GET /api/rest/feature_flags')).toHaveLength(1);
  });

  it('shows the maintenance page to a member, with a way to sign out', async () => {
    stubRoutes({});
    const member = makeUser({
      databases: [{ id: 'db1', name: 'north', description: 'North', role: 'member' }],
    });
    store = makeRecordingStore({ ...signedInState(member), ...maintenanceOn }).store;
    renderWithProviders(<App />, { store, route: '/home' });
    expect(await screen.findByText(MESSAGES.maintenanceTitle)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.maintenanceText)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/logout');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('lets an administrator work, under a banner', async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    stubRoutes({ 'GET /api/rest/entities': { body: makePage([]) } });
    store = makeRecordingStore({ ...signedInState(makeUser()), ...maintenanceOn }).store;
    renderWithProviders(<App />, { store, route: '/recent' });
    expect(screen.getByText(MESSAGES.maintenanceAdminBanner)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.maintenanceTitle)).not.toBeInTheDocument();
  });
});
