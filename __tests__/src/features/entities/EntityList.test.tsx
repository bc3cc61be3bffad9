import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EntityList } from '../../../../src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '../../../../src/features/entities/entitiesSlice';
import type { EntityDto } from '../../../../common/types';
import { makeStore, type AppStore } from '../../../../src/store/store';
import {
  LocationProbe,
  makeFile,
  makeFolder,
  makePage,
  renderWithProviders,
  signedInState,
  stubFetch,
} from '../../testUtils';

function storeWith(items: EntityDto[], total = items.length): AppStore {
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: '' }),
  );
  const entities = entitiesReducer(
    opened,
    entitiesActions.pageLoaded({ folderId: '', page: makePage(items, 1, total) }),
  );
  return makeStore({ ...signedInState(), entities });
}

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients' }),
  makeFile({ id: 'p1', name: 'Statement.pdf', extension: 'pdf', size: 1536 }),
  makeFile({ id: 'x1', name: 'Budget.xlsx', extension: 'xlsx', size: 2_621_440 }),
  makeFile({ id: 'm1', name: 'Call.mp3', extension: 'mp3', size: 0 }),
];

describe('EntityList', () => {
  let store: AppStore;
  beforeEach(() => {
    // Calls stay pending: these tests look at the requests the list makes, not their results.
    stubFetch(() => new Promise(() => undefined));
  });
  afterEach(() => store.sagaTask.cancel());

  it('renders a row per item with icon kind, name, size and date, folders first', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    const rows = screen.getAllByTestId('entity-row');
    expect(rows.map((row) => row.getAttribute('data-entity-id'))).toEqual(['f1', 'p1', 'x1', 'm1']);
    expect(rows.every((row) => row.getAttribute('role') === 'row')).toBe(true);
    const cells = rows.map((row) => {
      const icon = within(row).getByRole('img');
      return [icon.getAttribute('data-kind'), icon.getAttribute('aria-label'), row.textContent];
    });
    expect(cells[0]![0]).toBe('folder');
    expect(cells[0]![1]).toBe('folder');
    expect(cells.map(([kind]) => kind)).toEqual(['folder', 'pdf', 'spreadsheet', 'audio']);
    expect(within(rows[0]!).getByText('—')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('0 KB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/^Mar [67], 2024/)).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Contents of Home' })).toHaveAttribute(
      'aria-rowcount',
      '5',
    );
  });

  it('links folders to their route and opens file previews in a new tab', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    expect(screen.getByRole('link', { name: 'Clients' })).toHaveAttribute(
      'href',
      '/home/folders/f1',
    );
    const name = screen.getByRole('link', { name: 'Statement.pdf' });
    expect(name).toHaveAttribute('href', '/api/rest/files/p1/preview');
    expect(name).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Download Statement.pdf' })).toHaveAttribute(
      'href',
      '/api/rest/files/p1/download',
    );
    const preview = screen.getByRole('link', { name: 'Preview Statement.pdf' });
    expect(preview).toHaveAttribute('href', '/api/rest/files/p1/preview');
    expect(preview).toHaveAttribute('target', '_blank');
    expect(screen.queryByRole('link', { name: 'Download Clients' })).not.toBeInTheDocument();
  });

  it('opens a folder row with Enter and a file row preview in a new tab', async () => {
    store = storeWith(items);
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    renderWithProviders(
      <>
        <EntityList />
        <LocationProbe />
      </>,
      { store, route: '/home' },
    );
    const [folderRow, fileRow] = screen.getAllByTestId('entity-row');
    fireEvent.keyDown(fileRow!, { key: 'Enter' });
    expect(open).toHaveBeenCalledWith(
      '/api/rest/files/p1/preview',
      '_blank',
      'noopener,noreferrer',
    );
    folderRow!.focus();
    await userEvent.setup().keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/home/folders/f1');
    open.mockRestore();
  });

  it('asks for the next page when the end is reached, and shows it loading', async () => {
    store = storeWith(items, 10);
    const { fetchStub } = stubFetch(() => new Promise(() => undefined));
    renderWithProviders(<EntityList />, { store });
    expect(store.getState().entities.more.status).toBe('loading');
    expect(await screen.findByText('Loading more…')).toBeInTheDocument();
    expect(fetchStub.mock.calls[0]![0]).toBe('/api/rest/entities?folder_id=&page=2&page_size=100');
  });

  it('does not ask for more when everything is loaded', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    expect(store.getState().entities.more.status).toBe('idle');
  });

  it('shows the empty state', () => {
    store = storeWith([]);
    renderWithProviders(<EntityList />, { store });
    expect(
      screen.getByText('This folder is empty. Drop files here or use Upload files.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a loading state, and an error with Try again', async () => {
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '' }),
    );
    store = makeStore({ ...signedInState(), entities: opened });
    const { unmount } = renderWithProviders(<EntityList />, { store });
    expect(screen.getByRole('status')).toHaveTextContent('Loading folder…');
    unmount();
    store.sagaTask.cancel();

    const failed = entitiesReducer(
      opened,
      entitiesActions.pageLoadFailed({ folderId: '', page: 1, message: 'The server is down.' }),
    );
    store = makeStore({ ...signedInState(), entities: failed });
    renderWithProviders(<EntityList />, { store });
    expect(screen.getByText('This folder could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('The server is down.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(store.getState().entities.list.status).toBe('loading');
  });
});
