import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '@src/app/App';
import { initialsOf } from '@src/app/UserMenu';
import { makeStore, type AppStore } from '@src/store/store';
import {
  LocationProbe,
  callsTo,
  makeEvent,
  makeFolder,
  makePage,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

describe('app shell', () => {
  let store: AppStore;
  beforeEach(() => {
    stubRoutes({
      'GET /api/rest/entities': { body: makePage([]) },
      'GET /api/rest/folders/f1': { body: makeFolder() },
      'GET /api/rest/folders/f1/breadcrumbs': {
        body: [{ id: 'f1', name: 'Clients', type: 'breadcrumb' }],
      },
      'POST /api/rest/history': { body: makePage([makeEvent()]) },
      'GET /api/rest/entities/shared': { body: { shared_with_me: [], shared_by_me: [] } },
      'GET /api/rest/shared/entities': { body: { items: [], allow_download: true } },
    });
  });
  afterEach(() => {
    store.sagaTask.cancel();
  });

  function renderAt(route: string, user = makeUser()) {
    store = makeStore(signedInState(user));
    return renderWithProviders(<App />, { store, route });
  }

  it('shows the product name, the user and a Sign out link to /logout', async () => {
    renderAt('/recent');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Dossier' })).toHaveAttribute('href', '/home');
    expect(within(banner).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Sign out' })).toHaveAttribute(
      'href',
      '/logout',
    );
    expect(document.title).toBe('Dossier');
    expect(await screen.findByRole('heading', { level: 1, name: 'Recent' })).toBeInTheDocument();
  });

  it('opens the user menu from the initials: full name, username, firm and Sign out', async () => {
    const user = userEvent.setup();
    renderAt('/recent');
    const banner = screen.getByRole('banner');
    const button = within(banner).getByRole('button', { name: 'Ada Lovelace' });
    expect(button).toHaveTextContent(/^ALAda Lovelace$/);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = document.querySelector('.user-menu') as HTMLElement;
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada')).toBeInTheDocument();
    // The firm, in its switcher (several firms).
    expect(within(menu).getByRole('combobox', { name: 'Firm' })).toBeInTheDocument();
    expect(within(menu).getByText('North Advisors')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/logout');
  });

  it('opens the navigation in a drawer from the menu button, closed by following a link', async () => {
    const user = userEvent.setup();
    renderAt('/recent');
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('link', { name: 'Archive' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Archive' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(screen.getByRole('banner')).getByRole('button', { name: 'Menu' }),
      ).toHaveAttribute('aria-expanded', 'false'),
    );
  });

  it.each([
    ['Ada Lovelace', 'AL'],
    ['Demo Administrator', 'DA'],
    ['Jean Paul Sartre', 'JS'],
    ['admin', 'A'],
    ['  ', ''],
  ])('makes the initials of %j', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  it('lists the navigation entries of the spec with their routes', () => {
    renderAt('/favorites');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['Recent', '/recent'],
      ['Favorites', '/favorites'],
      ['Shared', '/shared'],
      ['Archive', '/archive'],
      ['History', '/history'],
      ['Requests', '/requests'],
      // The admin area's entry, for administrators (makeUser is one in db1).
      ['Admin', '/admin'],
    ]);
  });

  it.each([
    ['/favorites', 'Favorites'],
    ['/history', 'History'],
    ['/home', 'Home'],
    ['/home/folders/f1', 'Home'],
  ])('highlights the entry matching %s', async (route, label) => {
    renderAt(route);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const active = within(nav).getByRole('link', { name: label });
    expect(active).toHaveAttribute('aria-current', 'page');
    expect(active).toHaveClass('active');
    const others = within(nav)
      .getAllByRole('link')
      .filter((link) => link !== active);
    for (const link of others) expect(link).not.toHaveAttribute('aria-current');
  });

  it('moves the highlight when another entry is clicked', async () => {
    const user = userEvent.setup();
    renderAt('/recent');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Archive' }));
    expect(within(nav).getByRole('link', { name: 'Archive' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Recent' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByRole('heading', { level: 1, name: 'Archive' })).toBeInTheDocument();
  });

  it('shows the firm switcher only for users of several databases', () => {
    renderAt('/recent');
    expect(screen.getByRole('combobox', { name: 'Firm' })).toBeInTheDocument();
    expect(screen.getByText('North Advisors')).toBeInTheDocument();
  });

  it('offers only the databases with a description, one per description', async () => {
    const user = userEvent.setup();
    renderAt(
      '/recent',
      makeUser({
        databases: [
          { id: 'db1', name: 'north', description: 'North Advisors', role: 'admin' },
          { id: 'db2', name: 'south', description: 'South Wealth', role: 'member' },
          { id: 'db3', name: 'south-copy', description: ' South Wealth ', role: 'member' },
          { id: 'db4', name: 'sandbox', description: null, role: 'admin' },
          { id: 'db5', name: 'blank', description: '  ', role: 'admin' },
        ],
      }),
    );
    await user.click(screen.getByRole('combobox', { name: 'Firm' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['North Advisors', 'South Wealth']);
    expect(screen.queryByText('sandbox')).not.toBeInTheDocument();
  });

  it('hides the firm switcher when no other database has a description', () => {
    renderAt(
      '/recent',
      makeUser({
        databases: [
          { id: 'db1', name: 'north', description: 'North Advisors', role: 'admin' },
          { id: 'db2', name: 'sandbox', description: null, role: 'member' },
          { id: 'db3', name: 'north-copy', description: 'North Advisors', role: 'member' },
        ],
      }),
    );
    expect(screen.queryByRole('combobox', { name: 'Firm' })).not.toBeInTheDocument();
  });

  it('hides the firm switcher for a single database', () => {
    renderAt('/recent', makeUser({ databases: [makeUser().databases[0]!] }));
    expect(screen.queryByRole('combobox', { name: 'Firm' })).not.toBeInTheDocument();
  });

  it('switches the firm and opens its home folder', async () => {
    const { calls } = stubRoutes({
      'POST /api/auth/switch-database': { body: makeUser({ currentDatabaseId: 'db2' }) },
      'GET /api/rest/entities': { body: makePage([]) },
    });
    const user = userEvent.setup();
    renderAt('/recent');
    await user.click(screen.getByRole('combobox', { name: 'Firm' }));
    await user.click(await screen.findByText('South Wealth'));
    await waitFor(() => expect(store.getState().session.user?.currentDatabaseId).toBe('db2'));
    expect(callsTo(calls, 'POST /api/auth/switch-database')[0]!.body).toEqual({
      currentDatabaseId: 'db2',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
  });

  it('shows a not-found page for unknown addresses', () => {
    renderAt('/nowhere');
    expect(screen.getByText('Page not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to Home' })).toBeInTheDocument();
  });

  it('sends / to Home', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
  });

  it('sends the /sharing/shared landing to Shared', async () => {
    renderAt('/sharing/shared');
    expect(screen.getByRole('heading', { level: 1, name: 'Shared' })).toBeInTheDocument();
    expect(await screen.findByText('Nothing has been shared with you yet.')).toBeInTheDocument();
  });

  describe('for a guest', () => {
    const guest = () =>
      makeUser({
        firstName: 'Gail',
        lastName: 'Guest',
        databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'guest' }],
      });

    it('shows only Shared in the navigation, no firm switcher, search or admin entry', async () => {
      renderAt('/sharing/shared', guest());
      const nav = screen.getByRole('navigation', { name: 'Main' });
      const links = within(nav).getAllByRole('link');
      expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
        ['Shared', '/sharing/shared'],
      ]);
      expect(links[0]).toHaveAttribute('aria-current', 'page');
      expect(screen.queryByRole('combobox', { name: 'Firm' })).not.toBeInTheDocument();
      expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
      expect(
        within(screen.getByRole('banner')).getByRole('link', { name: 'Dossier' }),
      ).toHaveAttribute('href', '/sharing/shared');
      expect(await screen.findByText('Nothing has been shared with you yet.')).toBeInTheDocument();
    });

    it.each(['/home', '/home/folders/f1', '/history', '/admin', '/shared', '/nowhere'])(
      'sends a guest from %s to /sharing/shared',
      async (route) => {
        const { container } = renderWithProviders(
          <>
            <App />
            <LocationProbe />
          </>,
          { store: (store = makeStore(signedInState(guest()))), route },
        );
        expect(await screen.findByTestId('location')).toHaveTextContent('/sharing/shared');
        expect(screen.getByRole('heading', { level: 1, name: 'Shared' })).toBeInTheDocument();
        expect(container).not.toHaveTextContent('Page not found');
      },
    );

    it('keeps a guest inside a shared folder', async () => {
      renderWithProviders(
        <>
          <App />
          <LocationProbe />
        </>,
        { store: (store = makeStore(signedInState(guest()))), route: '/sharing/shared/folders/f9' },
      );
      expect(await screen.findByTestId('location')).toHaveTextContent('/sharing/shared/folders/f9');
    });
  });
});
