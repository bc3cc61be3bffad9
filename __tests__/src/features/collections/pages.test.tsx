import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEATURE_FLAG_DEFAULTS, FOLDER_COLORS, type FeatureFlags } from '@common/constants';
import type { CursorPage } from '@common/api';
import type { ArchivedEntityDto, RecentEntityDto } from '@common/entities';
import type { TypeStatDto } from '@common/stats';
import { App } from '@src/app/App';
import { EMPTY_ARCHIVE_TEXT } from '@src/features/collections/components/ArchivePage';
import { EMPTY_FAVORITES_TEXT } from '@src/features/collections/components/FavoritesPage';
import { EMPTY_RECENT_TEXT } from '@src/features/collections/components/RecentPage';
import { initialFlagsState } from '@src/features/flags/flagsSlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { sessionActions } from '@src/features/session/sessionSlice';
import type { RootState } from '@src/store/rootReducer';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeFolder,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

function cursorPage<T>(items: T[], nextCursor: string | null, total = items.length): CursorPage<T> {
  return { items, page: 1, page_size: 100, total, next_cursor: nextCursor };
}

function archived(id: string, name: string, parentPath = ''): ArchivedEntityDto {
  return {
    ...makeFile({ id, name, archived_at: '2024-03-05T14:07:00.000Z', size: 2048 }),
    parent_path: parentPath,
  };
}

const BY_TYPE: TypeStatDto[] = [
  { category: 'Video', count: 0, size: 0 },
  { category: 'Image', count: 2, size: 4096 },
  { category: 'Document', count: 1, size: 1024 },
  { category: 'PDF', count: 3, size: 3 * 1024 * 1024 },
  { category: 'Spreadsheet', count: 0, size: 0 },
  { category: 'Audio', count: 0, size: 0 },
  { category: 'Presentation', count: 0, size: 0 },
  { category: 'Other', count: 1, size: 10 },
];

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

describe('collection pages', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  function renderAt(route: string, routes: StubRoutes, flags: Partial<FeatureFlags> = {}) {
    const stub = stubRoutes(routes);
    const recording = makeRecordingStore(withFlags(flags));
    store = recording.store;
    renderWithProviders(<App />, { store, route });
    return { ...stub, ...recording };
  }

  describe('Archive', () => {
    const twoArchived = {
      'POST /api/rest/entities/archived': {
        body: cursorPage(
          [archived('a1', 'Old.pdf', 'Clients / Smith'), archived('a2', 'Older.pdf')],
          null,
        ),
      },
    };

    it('shows the empty state', async () => {
      renderAt('/archive', { 'POST /api/rest/entities/archived': { body: cursorPage([], null) } });
      expect(await screen.findByText(EMPTY_ARCHIVE_TEXT)).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Archive' })).toBeInTheDocument();
    });

    it('shows an error with Try again', async () => {
      allowConsoleError(/^POST \/api\/rest\/entities\/archived\S* answered 500/);
      const { calls } = renderAt('/archive', {
        'POST /api/rest/entities/archived': {
          status: 500,
          body: { message: 'Something broke.', code: 'x' },
        },
      });
      expect(await screen.findByText('The archive could not be loaded.')).toBeInTheDocument();
      expect(screen.getByText('Something broke.')).toBeInTheDocument();
      await userEvent.setup().click(screen.getByText('Try again'));
      await waitFor(() =>
        expect(callsTo(calls, 'POST /api/rest/entities/archived')).toHaveLength(2),
      );
    });

    it('lists archived items with where they came from, and restores one', async () => {
      const { actions } = renderAt('/archive', twoArchived);
      const rows = await screen.findAllByTestId('archive-row');
      expect(rows).toHaveLength(2);
      expect(rows[0]).toHaveTextContent('Old.pdf');
      expect(rows[0]).toHaveTextContent('Clients / Smith');
      expect(rows[0]).toHaveTextContent('2.0 KB');
      expect(rows[1]).toHaveTextContent('Home');
      expect(screen.getByText('2 archived items')).toBeInTheDocument();

      await userEvent.setup().click(screen.getByLabelText('Restore Old.pdf'));
      expect(actions.filter(organiseEvents.restoreRequested.match)).toEqual([
        organiseEvents.restoreRequested({ items: [{ id: 'a1', type: 'file' }] }),
      ]);
      // The organise saga announces the restore: the row leaves the list.
      act(() => {
        store!.dispatch(
          organiseEvents.itemsChanged({
            change: 'restored',
            entities: [],
            results: [{ id: 'a1', type: 'file', name: 'Old.pdf' }],
          }),
        );
      });
      await waitFor(() => expect(screen.getAllByTestId('archive-row')).toHaveLength(1));
      expect(screen.getByTestId('archive-row')).toHaveTextContent('Older.pdf');
    });

    it('deletes permanently only after the confirmation', async () => {
      const { actions } = renderAt('/archive', twoArchived);
      const user = userEvent.setup();
      await user.click(await screen.findByLabelText('Delete Older.pdf permanently'));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('Delete “Older.pdf” permanently?');
      expect(actions.filter(organiseEvents.destroyRequested.match)).toHaveLength(0);

      await user.click(within(dialog).getByText('Cancel'));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(actions.filter(organiseEvents.destroyRequested.match)).toHaveLength(0);

      await user.click(screen.getByLabelText('Delete Older.pdf permanently'));
      const again = await screen.findByRole('dialog');
      await user.click(within(again).getByText('Delete permanently'));
      expect(actions.filter(organiseEvents.destroyRequested.match)).toEqual([
        organiseEvents.destroyRequested({ items: [{ id: 'a2', type: 'file' }] }),
      ]);
    });

    it('selects all rows for a bulk restore and a bulk delete', async () => {
      const { actions } = renderAt('/archive', twoArchived);
      const user = userEvent.setup();
      await screen.findAllByTestId('archive-row');
      await user.click(screen.getByLabelText('Select all'));
      expect(screen.getByText('2 items selected')).toBeInTheDocument();
      await user.click(screen.getByText('Restore selected'));
      const both = [
        { id: 'a1', type: 'file' },
        { id: 'a2', type: 'file' },
      ];
      expect(actions.filter(organiseEvents.restoreRequested.match).at(-1)?.payload.items).toEqual(
        both,
      );

      await user.click(screen.getByText('Delete selected permanently'));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('Delete 2 items permanently?');
      await user.click(within(dialog).getByText('Delete permanently'));
      expect(actions.filter(organiseEvents.destroyRequested.match).at(-1)?.payload.items).toEqual(
        both,
      );

      // One row unticked: the header box is indeterminate and the count follows.
      await user.click(screen.getByLabelText('Select Old.pdf'));
      expect(screen.getByText('1 item selected')).toBeInTheDocument();
    });

    it('loads the next page by cursor when the end of the list is reached', async () => {
      const first = Array.from({ length: 3 }, (_, i) => archived(`a${i}`, `File ${i}.pdf`));
      const { calls } = renderAt(
        '/archive',
        {
          'GET /api/rest/entities/archived': (call) =>
            call.url.includes('cursor=')
              ? new Promise(() => undefined)
              : { body: cursorPage(first, 'next-1', 250) },
        },
        { archivePaging: false },
      );
      expect(await screen.findByText('Loading more…')).toBeInTheDocument();
      const urls = callsTo(calls, 'GET /api/rest/entities/archived').map((call) => call.url);
      expect(urls).toEqual([
        '/api/rest/entities/archived?page=1&page_size=100',
        '/api/rest/entities/archived?page=2&page_size=100&cursor=next-1',
      ]);
    });
  });

  describe('Favorites', () => {
    const favorites = {
      'GET /api/rest/entities/favorites': {
        body: cursorPage(
          [
            makeFolder({
              id: 'f1',
              name: 'Smith',
              favorite: true,
              parent_id: '',
              color: 'dark_green',
            }),
            makeFile({ id: 'p1', name: 'Plan.pdf', favorite: true, folder_id: 'f1' }),
          ],
          null,
        ),
      },
      'GET /api/rest/folders/f1/breadcrumbs': {
        body: [{ id: 'f1', name: 'Smith', type: 'breadcrumb' }],
      },
    };

    it('shows the empty state', async () => {
      renderAt('/favorites', {
        'GET /api/rest/entities/favorites': { body: cursorPage([], null) },
      });
      expect(await screen.findByText(EMPTY_FAVORITES_TEXT)).toBeInTheDocument();
    });

    it('links a folder to the folder view and a file to the viewer, with the location', async () => {
      renderAt('/favorites', favorites);
      const rows = await screen.findAllByTestId('favorite-row');
      expect(within(rows[0]!).getByText('Smith', { selector: 'a' })).toHaveAttribute(
        'href',
        '/home/folders/f1',
      );
      expect(within(rows[1]!).getByText('Plan.pdf', { selector: 'a' })).toHaveAttribute(
        'href',
        '/favorites?view=file%3Ap1',
      );
      expect(await within(rows[1]!).findByText('Home / Smith', { selector: 'a' })).toHaveAttribute(
        'href',
        '/home/folders/f1',
      );
    });

    it('a row’s context menu has the row actions; Delete archives; a double-click opens', async () => {
      const { actions } = renderAt('/favorites', favorites);
      const rows = await screen.findAllByTestId('favorite-row');
      const link = within(rows[1]!).getByText('Plan.pdf', { selector: 'a' });
      link.focus();
      fireEvent.keyDown(link, { key: 'F10', shiftKey: true });
      const move = await screen.findByRole('menuitem', { name: 'Move to…' });
      await waitFor(() => expect(move).toHaveFocus());
      expect(
        within(move.closest<HTMLElement>('[role="menu"]')!)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(['Move to…', 'Make a copy', 'Details', 'Archive']);
      fireEvent.keyDown(move, { key: 'Escape' });
      expect(link).toHaveFocus();

      fireEvent.keyDown(link, { key: 'Delete' });
      expect(actions).toContainEqual({
        type: 'organise/archiveRequested',
        payload: { items: [{ id: 'p1', type: 'file' }] },
      });

      fireEvent.doubleClick(within(rows[0]!).getByRole('img', { name: 'folder' }));
      await waitFor(() =>
        expect(actions).toContainEqual({
          type: 'entities/folderOpened',
          payload: expect.objectContaining({ folderId: 'f1' }),
        }),
      );
    });

    it('shows a folder in the colour the user gave it', async () => {
      renderAt('/favorites', favorites);
      const rows = await screen.findAllByTestId('favorite-row');
      const icon = within(rows[0]!).getByRole('img', { name: 'folder' });
      expect(icon).toHaveAttribute('data-color', 'dark_green');
      expect(icon).toHaveStyle({ color: FOLDER_COLORS.find((c) => c.key === 'dark_green')!.dark });
      expect(within(rows[1]!).getByRole('img', { name: 'pdf' })).not.toHaveAttribute('data-color');
    });

    it('unfavorites with the star and drops the row when the change is announced', async () => {
      const { actions } = renderAt('/favorites', favorites);
      await userEvent.setup().click(await screen.findByLabelText('Remove Plan.pdf from favorites'));
      expect(actions.filter(organiseEvents.favoriteRequested.match)).toEqual([
        organiseEvents.favoriteRequested({ item: { id: 'p1', type: 'file' }, enabled: false }),
      ]);
      act(() => {
        store!.dispatch(
          organiseEvents.itemsChanged({
            change: 'unfavorited',
            entities: [makeFile({ id: 'p1', name: 'Plan.pdf', favorite: false })],
            results: [],
          }),
        );
      });
      await waitFor(() => expect(screen.getAllByTestId('favorite-row')).toHaveLength(1));
      expect(screen.queryByText('Plan.pdf')).not.toBeInTheDocument();
    });
  });

  describe('Recent', () => {
    const now = new Date();
    const recentItem: RecentEntityDto = {
      ...makeFile({ id: 'r1', name: 'Minutes.docx', extension: 'docx', folder_id: '' }),
      recent_at: now.toISOString(),
      recent_action: 'rename',
    };
    const stats = {
      'GET /api/rest/files/stats': {
        body: { files: 7, folders: 3, size: 3 * 1024 * 1024 + 5130, archived_files: 2 },
      },
      'GET /api/rest/files/stats/by_type': { body: BY_TYPE },
    };

    it('shows when and what, and the firm statistics with fileStats on', async () => {
      renderAt('/recent', {
        'GET /api/rest/entities/recent': { body: cursorPage([recentItem], null) },
        ...stats,
      });
      const row = await screen.findByTestId('recent-row');
      expect(row).toHaveTextContent('Minutes.docx');
      expect(row).toHaveTextContent('Just Now');
      expect(row).toHaveTextContent('Renamed');
      expect(row).toHaveTextContent('Home');
      const card = await screen.findByTestId('firm-stats');
      await within(card).findByText('Archived files');
      expect(card).toHaveTextContent('Files7');
      expect(card).toHaveTextContent('Folders3');
      const breakdown = within(card).getByLabelText('Firm files by type');
      expect(
        within(breakdown)
          .getAllByRole('listitem')
          .map((li) => li.dataset.category),
      ).toEqual(BY_TYPE.map((stat) => stat.category));
      expect(within(breakdown).getAllByRole('listitem')[3]).toHaveTextContent('PDF3 files3.0 MB');
    });

    it('reads the list and the statistics again after a firm switch', async () => {
      const { calls } = renderAt('/recent', {
        'GET /api/rest/entities/recent': { body: cursorPage([recentItem], null) },
        ...stats,
      });
      await within(await screen.findByTestId('firm-stats')).findByText('Archived files');
      await screen.findByTestId('recent-row');
      act(() => {
        store!.dispatch(sessionActions.databaseSwitched(makeUser({ currentDatabaseId: 'db2' })));
      });
      await waitFor(() => expect(callsTo(calls, 'GET /api/rest/files/stats')).toHaveLength(2));
      await waitFor(() => expect(callsTo(calls, 'GET /api/rest/entities/recent')).toHaveLength(2));
      expect(await screen.findByTestId('recent-row')).toHaveTextContent('Minutes.docx');
    });

    it('shows no statistics and calls none with fileStats off; empty state', async () => {
      const { calls } = renderAt(
        '/recent',
        { 'GET /api/rest/entities/recent': { body: cursorPage([], null) }, ...stats },
        { fileStats: false },
      );
      expect(await screen.findByText(EMPTY_RECENT_TEXT)).toBeInTheDocument();
      expect(screen.queryByTestId('firm-stats')).not.toBeInTheDocument();
      expect(callsTo(calls, 'GET /api/rest/files/stats')).toHaveLength(0);
    });
  });
});
