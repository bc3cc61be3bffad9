// The details panel's container: a non-modal side pane beside the folder list in a desktop window
// (1100px and up), which follows the row selected and gives the focus back when closed; a drawer
// in narrower windows.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '@src/app/App';
import { DETAILS_PANE_QUERY } from '@src/components/useMediaQuery';
import { detailsActions } from '@src/features/details/detailsSlice';
import type { AppStore } from '@src/store/store';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';
import { matchOnly } from '../../matchMedia';
import {
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';

const smith = makeFolder({ id: 'f2', name: 'Smith', parent_id: 'f1' });
const year = makeFolder({ id: 'f3', name: '2024', parent_id: 'f2' });
const statement = makeFile({ id: 'p1', name: 'Statement.pdf', folder_id: 'f2', size: 1536 });
const crumbs = [
  { id: 'f1', name: 'Clients', type: 'breadcrumb' },
  { id: 'f2', name: 'Smith', type: 'breadcrumb' },
];
const routes: StubRoutes = {
  'GET /api/rest/folders/f2': { body: smith },
  'GET /api/rest/folders/f2/breadcrumbs': { body: crumbs },
  'GET /api/rest/folders/f3': { body: year },
  'GET /api/rest/folders/f3/breadcrumbs': {
    body: [...crumbs, { id: 'f3', name: '2024', type: 'breadcrumb' }],
  },
  'GET /api/rest/files/p1': { body: statement },
  'GET /api/rest/entities': { body: makePage([year, statement]) },
};

// The whole App under jsdom (see FolderPage.test.tsx).
jest.setTimeout(180_000);

describe('details panel container', () => {
  let store: AppStore | undefined;
  let restore = () => undefined as void;
  afterEach(() => {
    store?.sagaTask.cancel();
    restore();
  });

  function renderApp(route: string) {
    allowConsoleError(UNSTUBBED_ROUTE);
    stubRoutes(routes);
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<App />, { store, route });
    return recording;
  }

  /** The folder view's row of `name`. */
  async function findRow(name: string): Promise<HTMLElement> {
    const rows = await screen.findAllByTestId('entity-row');
    const row = rows.find((candidate) => within(candidate).queryByText(name));
    if (!row) throw new Error(`No row ${name}`);
    return row;
  }

  it('is a non-modal pane beside the list at desktop width, following the selected row', async () => {
    restore = matchOnly(DETAILS_PANE_QUERY);
    renderApp('/home/folders/f2');
    const fileRow = await findRow('Statement.pdf');
    fileRow.focus();
    act(() => {
      store!.dispatch(detailsActions.panelOpened({ id: 'p1', type: 'file' }));
    });

    const pane = screen.getByRole('complementary', { name: 'Details' });
    expect(await within(pane).findByText('Statement.pdf', { selector: 'h2' })).toBeVisible();
    // Not a dialog: no drawer, no mask, the list's rows stay in the accessibility tree.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('.ant-drawer')).toBeNull();
    expect(pane).toHaveFocus();

    // Selecting another row shows that row's details.
    fireEvent.click(await findRow('2024'));
    expect(await within(pane).findByText('2024', { selector: 'h2' })).toBeInTheDocument();
    expect(store!.getState().details.target).toEqual({ id: 'f3', type: 'folder' });

    // Close gives the focus back to what opened the pane.
    await userEvent.click(within(pane).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(screen.queryByRole('complementary', { name: 'Details' })).toBeNull(),
    );
    expect(store!.getState().details.target).toBeNull();
    expect(await findRow('Statement.pdf')).toHaveFocus();
  });

  it('is a modal drawer below 1100px', async () => {
    renderApp('/favorites');
    act(() => {
      store!.dispatch(detailsActions.panelOpened({ id: 'p1', type: 'file' }));
    });
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Statement.pdf', { selector: 'h2' })).toBeVisible();
    expect(screen.queryByRole('complementary', { name: 'Details' })).toBeNull();
  });
});
