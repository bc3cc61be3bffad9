// The admin shell (AdminPage, AdminNavItem): the Admin navigation entry and the page for
// administrators only, and the operators' Firms section: alone for an operator who does not
// administer the firm, after the admin sections for one who does, never for an administrator who
// is not an operator.
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { App } from '@src/app/App';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makePage,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { PERMISSIONABLES } from '../folderPermissions/folderPermissionsFixtures';
import { HARBOUR, OLD, OPERATOR, QUAY } from '../firms/firmsFixtures';
import { makeIntegration } from '../integrations/integrationsFixtures';
import { ADA, ALAN, GRACE, membersPage } from '../members/membersFixtures';
import { makeTeam } from '../teams/teamsFixtures';

/** What the admin area's sections (members, teams, integrations) read when they open. */
const routes: StubRoutes = {
  'GET /api/rest/private/users': { body: membersPage([ADA, GRACE, ALAN]) },
  'GET /api/rest/private/permissionables': { body: PERMISSIONABLES },
  'GET /api/rest/private/teams': { body: [makeTeam()] },
  'GET /api/rest/private/integrations': { body: { integrations: [makeIntegration()] } },
  'GET /api/rest/private/integrations/userkey': { body: { keys: [] } },
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

/** The app at `route` for the Firms section's tests: an operator by default, with the firms. */
function renderFirmsAt(route: string, extra: StubRoutes = {}, user = OPERATOR) {
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

describe('admin area access', () => {
  it('shows the Admin navigation entry to administrators only', async () => {
    renderAt('/home', {
      'GET /api/rest/entities': {
        body: { items: [], page: 1, page_size: 100, total: 0, next_cursor: null },
      },
    });
    const nav = screen.getByLabelText('Main');
    expect(within(nav).getByLabelText('Admin')).toHaveAttribute('href', '/admin');
    act(() => {
      store?.sagaTask.cancel();
    });
  });

  it('hides the entry and refuses the page for a member', async () => {
    const member = makeUser({ currentDatabaseId: 'db2' });
    const { calls } = renderAt('/admin/members', {}, member);
    expect(await screen.findByText('Administrators only')).toBeInTheDocument();
    const nav = screen.getByLabelText('Main');
    expect(within(nav).queryByLabelText('Admin')).not.toBeInTheDocument();
    expect(callsTo(calls, 'GET /api/rest/private/users')).toHaveLength(0);
  });
});

describe('who sees the Firms section', () => {
  it('shows it to an operator who is not an administrator, alone, from /admin', async () => {
    const member = makeUser({
      operator: true,
      databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'member' }],
    });
    renderFirmsAt('/admin', {}, member);
    const nav = screen.getByLabelText('Main');
    expect(within(nav).getByLabelText('Admin')).toHaveAttribute('href', '/admin');
    const tabs = await screen.findByRole('navigation', { name: 'Admin sections' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Firms']);
    expect(await screen.findByRole('group', { name: 'Firm list' })).toBeInTheDocument();
  });

  it('adds the Firms tab after the admin sections for an operator who administers the firm', async () => {
    renderFirmsAt('/admin/members');
    const tabs = await screen.findByRole('navigation', { name: 'Admin sections' });
    const labels = within(tabs)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels[0]).toBe('Members');
    expect(labels[labels.length - 1]).toBe('Firms');
  });

  it('leaves it out for an administrator who is not an operator', async () => {
    const { calls } = renderFirmsAt('/admin/firms', {}, makeUser());
    const tabs = await screen.findByRole('navigation', { name: 'Admin sections' });
    expect(within(tabs).queryByText('Firms')).toBeNull();
    // /admin/firms is not a section for them: it goes to Members, and the firms are never read.
    await screen.findByRole('region', { name: 'Members' });
    expect(callsTo(calls, 'GET /api/rest/private/firms')).toHaveLength(0);
  });
});
