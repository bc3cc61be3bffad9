import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlags } from '@common/constants';
import type { CursorPage } from '@common/api';
import type { FolderStatsDto, TypeStatDto } from '@common/stats';
import { App } from '@src/app/App';
import { detailsActions } from '@src/features/details/detailsSlice';
import { initialFlagsState } from '@src/features/flags/flagsSlice';
import { historyActions } from '@src/features/history/historySlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import type { RootState } from '@src/store/rootReducer';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeFolder,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const empty: CursorPage<never> = {
  items: [],
  page: 1,
  page_size: 100,
  total: 0,
  next_cursor: null,
};

const byType: TypeStatDto[] = [
  { category: 'Video', count: 0, size: 0 },
  { category: 'Image', count: 1, size: 2048 },
  { category: 'Document', count: 0, size: 0 },
  { category: 'PDF', count: 4, size: 4096 },
  { category: 'Spreadsheet', count: 0, size: 0 },
  { category: 'Audio', count: 0, size: 0 },
  { category: 'Presentation', count: 0, size: 0 },
  { category: 'Other', count: 0, size: 0 },
];
const folderStats: FolderStatsDto = {
  folder_id: 'f2',
  folders: 2,
  files: 5,
  size: 6144,
  by_type: byType,
};

const smith = makeFolder({
  id: 'f2',
  name: 'Smith',
  parent_id: 'f1',
  created_by_name: 'Grace Hopper',
  created_at: '2024-03-05T14:07:00.000Z',
  updated_at: '2024-04-01T10:00:00.000Z',
});
const crumbs = [
  { id: 'f1', name: 'Clients', type: 'breadcrumb' },
  { id: 'f2', name: 'Smith', type: 'breadcrumb' },
];

const routes: StubRoutes = {
  'GET /api/rest/entities/favorites': { body: empty },
  'GET /api/rest/folders/f2': { body: smith },
  'GET /api/rest/folders/f2/breadcrumbs': { body: crumbs },
  'GET /api/rest/folders/f2/stats': { body: folderStats },
  'GET /api/rest/files/file1': { body: makeFile({ folder_id: 'f2' }) },
};

/** The button whose text is `text` (text queries are much cheaper than role queries under jsdom). */
function button(container: HTMLElement, text: string): HTMLElement {
  const found = within(container).getByText(text).closest('button');
  if (!found) throw new Error(`No button "${text}"`);
  return found;
}

/** The link whose text is `text`. */
async function findLink(container: HTMLElement, text: string): Promise<HTMLElement> {
  const found = await within(container).findByText(text, { selector: 'a' });
  return found;
}

function withFlags(values: Partial<FeatureFlags>): Partial<RootState> {
  return {
    ...signedInState(),
    flags: {
      ...initialFlagsState,
      status: 'succeeded',
      values: { ...FEATURE_FLAG_DEFAULTS, ...values },
    },
  };
}

describe('entity side panel', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  function openPanel(
    target: { id: string; type: 'file' | 'folder' },
    flags: Partial<FeatureFlags> = {},
    extra: StubRoutes = {},
  ) {
    const stub = stubRoutes({ ...routes, ...extra });
    const recording = makeRecordingStore(withFlags(flags));
    store = recording.store;
    renderWithProviders(<App />, { store, route: '/favorites' });
    act(() => {
      store!.dispatch(detailsActions.panelOpened(target));
    });
    return { ...stub, ...recording };
  }

  it("shows a folder's details, path and statistics with fileStats on", async () => {
    const { calls } = openPanel({ id: 'f2', type: 'folder' });
    const item = await screen.findByTestId('details-item');
    expect(within(item).getByText('Smith', { selector: 'h2' })).toBeInTheDocument();
    expect(item).toHaveTextContent('TypeFolder');
    expect(item).toHaveTextContent('Created byGrace Hopper');
    expect(item).toHaveTextContent('Mar 5, 2024');
    expect(item).toHaveTextContent('Apr 1, 2024');
    // The location is the chain above the folder, not the folder itself.
    expect(within(item).getByText('Clients', { selector: 'a' })).toHaveAttribute(
      'href',
      '/home/folders/f1',
    );
    expect(within(item).getByText('Home', { selector: 'a' })).toHaveAttribute('href', '/home');
    expect(within(item).queryByText('Smith', { selector: 'a' })).not.toBeInTheDocument();

    const stats = await screen.findByTestId('folder-stats');
    await within(stats).findByText('Total size');
    expect(stats).toHaveTextContent('Folders2');
    expect(stats).toHaveTextContent('Files5');
    expect(stats).toHaveTextContent('Total size6.0 KB');
    const rows = within(stats).getAllByRole('listitem');
    expect(rows).toHaveLength(8);
    expect(rows[3]).toHaveTextContent('PDF4 files4.0 KB');
    expect(item).toHaveTextContent('Size6.0 KB (5 files)');
    expect(within(item).getByText('Download zip').closest('a')).toHaveAttribute(
      'href',
      '/api/rest/folders/f2/download',
    );
    expect(callsTo(calls, 'GET /api/rest/folders/f2/stats')).toHaveLength(1);
  });

  it('shows no statistics and does not ask for them with fileStats off', async () => {
    const { calls } = openPanel({ id: 'f2', type: 'folder' }, { fileStats: false });
    const item = await screen.findByTestId('details-item');
    expect(item).toHaveTextContent('TypeFolder');
    expect(screen.queryByTestId('folder-stats')).not.toBeInTheDocument();
    expect(callsTo(calls, 'GET /api/rest/folders/f2/stats')).toHaveLength(0);
  });

  it("shows a file's type, size and path, and asks for its actions", async () => {
    const { actions } = openPanel({ id: 'file1', type: 'file' });
    const item = await screen.findByTestId('details-item');
    expect(item).toHaveTextContent('TypePDF (.pdf)');
    expect(item).toHaveTextContent('Size1.5 KB');
    // A file's location is its folder's whole chain.
    expect(await findLink(item, 'Smith')).toHaveAttribute('href', '/home/folders/f2');
    expect(within(item).getByText('Download').closest('a')).toHaveAttribute(
      'href',
      '/api/rest/files/file1/download',
    );
    const user = userEvent.setup();
    await user.click(button(item, 'Add to favorites'));
    expect(actions.filter(organiseEvents.favoriteRequested.match)).toEqual([
      organiseEvents.favoriteRequested({ item: { id: 'file1', type: 'file' }, enabled: true }),
    ]);
    await user.click(button(item, 'Move to…'));
    expect(actions.filter(organiseEvents.moveDialogOpened.match)).toEqual([
      organiseEvents.moveDialogOpened({ items: [{ id: 'file1', type: 'file' }] }),
    ]);
    await user.click(button(item, 'History'));
    expect(actions.filter(historyActions.itemPanelOpened.match)).toEqual([
      historyActions.itemPanelOpened({ type: 'file', id: 'file1', name: 'Statement.pdf' }),
    ]);

    // The favorite announced by the organise saga turns the star on.
    act(() => {
      store!.dispatch(
        organiseEvents.itemsChanged({
          change: 'favorited',
          entities: [],
          results: [{ id: 'file1', type: 'file', name: 'Statement.pdf' }],
        }),
      );
    });
    await within(item).findByText('Remove from favorites');
    expect(button(item, 'Remove from favorites')).toHaveAttribute('aria-pressed', 'true');
  });

  it('renames inline: Enter asks for the new name with the extension kept; Esc gives up', async () => {
    const { actions } = openPanel({ id: 'file1', type: 'file' });
    const item = await screen.findByTestId('details-item');
    const user = userEvent.setup();
    await user.click(button(item, 'Rename'));
    const input = within(item).getByLabelText('New name');
    expect(input).toHaveValue('Statement');
    await user.clear(input);
    await user.paste('March');
    await user.keyboard('{Enter}');
    expect(actions.filter(organiseEvents.renameRequested.match)).toEqual([
      organiseEvents.renameRequested({
        item: { id: 'file1', type: 'file' },
        name: 'March.pdf',
        previousName: 'Statement.pdf',
      }),
    ]);
    expect(within(item).queryByLabelText('New name')).not.toBeInTheDocument();

    // Another extension typed: the form says the name that will be saved.
    await user.click(button(item, 'Rename'));
    await user.clear(within(item).getByLabelText('New name'));
    await user.paste('smile.jpg');
    expect(within(item).getByRole('status')).toHaveTextContent(
      'A file keeps its extension: this will be saved as “smile.jpg.pdf”.',
    );
    await user.keyboard('{Escape}');

    act(() => {
      store!.dispatch(
        organiseEvents.itemsChanged({
          change: 'renamed',
          entities: [makeFile({ name: 'March.pdf', folder_id: 'f2' })],
          results: [],
        }),
      );
    });
    expect(await within(item).findByText('March.pdf', { selector: 'h2' })).toBeInTheDocument();

    await user.click(button(item, 'Rename'));
    await user.keyboard('{Escape}');
    expect(within(item).queryByLabelText('New name')).not.toBeInTheDocument();
    expect(actions.filter(organiseEvents.renameRequested.match)).toHaveLength(1);
  });

  it('archives, and closes when the archive is announced', async () => {
    const { actions } = openPanel({ id: 'f2', type: 'folder' });
    const item = await screen.findByTestId('details-item');
    await userEvent.setup().click(button(item, 'Archive'));
    expect(actions.filter(organiseEvents.archiveRequested.match)).toEqual([
      organiseEvents.archiveRequested({ items: [{ id: 'f2', type: 'folder' }] }),
    ]);
    act(() => {
      store!.dispatch(
        organiseEvents.itemsChanged({
          change: 'archived',
          entities: [],
          results: [{ id: 'f2', type: 'folder', name: 'Smith' }],
        }),
      );
    });
    await waitFor(() => expect(screen.queryByTestId('details-item')).not.toBeInTheDocument());
    expect(store!.getState().details.target).toBeNull();
  });

  it('reads the item again after it was moved, for its new path', async () => {
    let parent = 'f1';
    const { calls } = openPanel(
      { id: 'f2', type: 'folder' },
      {},
      {
        'GET /api/rest/folders/f2': () => ({ body: { ...smith, parent_id: parent } }),
        'GET /api/rest/folders/f2/breadcrumbs': () => ({
          body:
            parent === 'f1'
              ? crumbs
              : [
                  { id: 'f9', name: 'Archive 2024', type: 'breadcrumb' },
                  { id: 'f2', name: 'Smith', type: 'breadcrumb' },
                ],
        }),
      },
    );
    const item = await screen.findByTestId('details-item');
    await findLink(item, 'Clients');
    parent = 'f9';
    act(() => {
      store!.dispatch(
        organiseEvents.itemsChanged({
          change: 'moved',
          entities: [],
          results: [{ id: 'f2', type: 'folder', name: 'Smith', prev_parent_id: 'f1' }],
          targetFolderId: 'f9',
        }),
      );
    });
    expect(await findLink(item, 'Archive 2024')).toHaveAttribute('href', '/home/folders/f9');
    expect(callsTo(calls, 'GET /api/rest/folders/f2')).toHaveLength(2);
  });

  it('shows the firm statistics for the root', async () => {
    openPanel(
      { id: '', type: 'folder' },
      {},
      {
        'GET /api/rest/files/stats': {
          body: { files: 12, folders: 4, size: 1024 * 1024, archived_files: 1 },
        },
        'GET /api/rest/files/stats/by_type': { body: byType },
      },
    );
    const item = await screen.findByTestId('details-item');
    expect(within(item).getByText('Home', { selector: 'h2' })).toBeInTheDocument();
    const card = within(item).getByTestId('firm-stats');
    await within(card).findByText('Archived files');
    expect(card).toHaveTextContent('Files12');
    expect(card).toHaveTextContent('Total size1.0 MB');
  });

  it('says when the item cannot be loaded', async () => {
    openPanel({ id: 'gone', type: 'folder' });
    expect(await screen.findByText('This item could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Try again')).toBeInTheDocument();
  });
});
