// Sorting the folder view by column (order helpers, slice, header buttons and the address), and
// the selection's Download and "Make a copy" of the folder page's toolbar and row menu.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EntityDto } from '@common/entities';
import { EntityList } from '@src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import { compareEntities, folderSortFromSearch } from '@src/features/entities/entityOrder';
import { BulkToolbar } from '@src/features/organise/components/BulkToolbar';
import { sessionActions } from '@src/features/session/sessionSlice';
import type { AppStore } from '@src/store/store';
import {
  AddressProbe,
  callsTo,
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients', updated_at: '2026-01-03T00:00:00.000Z' }),
  makeFolder({ id: 'f2', name: 'archive', updated_at: '2026-01-01T00:00:00.000Z' }),
  makeFile({ id: 'x1', name: 'Budget.xlsx', extension: 'xlsx', size: 30 }),
  makeFile({ id: 'p1', name: 'Statement.pdf', extension: 'pdf', size: 5 }),
  makeFile({ id: 'p2', name: 'agenda.pdf', extension: 'pdf', size: 30 }),
];

const ids = (list: EntityDto[]) => list.map((item) => item.id);
const byName = ['f2', 'f1', 'p2', 'x1', 'p1'].map((id) => items.find((item) => item.id === id)!);

describe('folder view order', () => {
  it('orders folders first, then by the sort, ties by id, in either direction', () => {
    const sorted = (sort: Parameters<typeof compareEntities>[2]) =>
      ids([...items].sort((a, b) => compareEntities(a, b, sort)));
    expect(sorted({ sort: 'name', order: 'asc' })).toEqual(['f2', 'f1', 'p2', 'x1', 'p1']);
    expect(sorted({ sort: 'name', order: 'desc' })).toEqual(['f1', 'f2', 'p1', 'x1', 'p2']);
    // Folders have no size or type: by name.
    expect(sorted({ sort: 'size', order: 'asc' })).toEqual(['f2', 'f1', 'p1', 'p2', 'x1']);
    expect(sorted({ sort: 'type', order: 'asc' })).toEqual(['f2', 'f1', 'p2', 'p1', 'x1']);
    expect(sorted({ sort: 'type', order: 'desc' })).toEqual(['f1', 'f2', 'x1', 'p1', 'p2']);
    expect(sorted({ sort: 'modified', order: 'desc' }).slice(0, 2)).toEqual(['f1', 'f2']);
  });

  it('reads the sort of the address, ignoring values not allowed', () => {
    expect(folderSortFromSearch('?sort=size&order=desc')).toEqual({ sort: 'size', order: 'desc' });
    expect(folderSortFromSearch('?sort=type')).toEqual({ sort: 'type', order: 'asc' });
    expect(folderSortFromSearch('?sort=type&order=up')).toEqual({ sort: 'type', order: 'asc' });
    expect(folderSortFromSearch('?sort=colour&order=desc')).toBeNull();
    expect(folderSortFromSearch('')).toBeNull();
  });

  it('sorts by the address, else the remembered sort the current user brought, else by name', () => {
    const remembered = entitiesReducer(
      initialEntitiesState,
      sessionActions.currentUserLoaded({
        ...makeUser(),
        preferences: { folder_sort: { sort: 'modified', order: 'desc' } },
      }),
    );
    const plain = entitiesReducer(
      remembered,
      entitiesActions.folderOpened({ folderId: 'a', sort: null }),
    );
    expect(plain.sort).toEqual({ sort: 'modified', order: 'desc' });
    const addressed = entitiesReducer(
      remembered,
      entitiesActions.folderOpened({ folderId: 'a', sort: { sort: 'size', order: 'asc' } }),
    );
    expect(addressed).toMatchObject({
      sort: { sort: 'size', order: 'asc' },
      sortFromAddress: true,
    });
    // "Try again" (no sort said) keeps the address's sort of the same folder.
    const again = entitiesReducer(addressed, entitiesActions.folderOpened({ folderId: 'a' }));
    expect(again.sort).toEqual({ sort: 'size', order: 'asc' });
    const fresh = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: 'a' }),
    );
    expect(fresh.sort).toEqual({ sort: 'name', order: 'asc' });
  });

  it('inserts a new row at its place in the current sort', () => {
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '', sort: { sort: 'size', order: 'desc' } }),
    );
    const loaded = entitiesReducer(
      opened,
      entitiesActions.pageLoaded({
        folderId: '',
        page: makePage([items[0]!, items[1]!, items[2]!, items[3]!]),
      }),
    );
    const changed = entitiesReducer(
      loaded,
      entitiesActions.folderCreated({ folder: makeFolder({ id: 'f9', name: 'Zeta' }) }),
    );
    expect(ids(changed.items)).toEqual(['f9', 'f1', 'f2', 'x1', 'p1']);
  });
});

describe('folder page: sort headers, Download, Make a copy', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
    jest.restoreAllMocks();
  });

  function render(routes: StubRoutes = {}, route = '/home') {
    const stub = stubRoutes(routes);
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({
        folderId: '',
        sort: folderSortFromSearch(route.split('?')[1] ?? ''),
      }),
    );
    const entities = entitiesReducer(
      opened,
      // As the server sends them by name.
      entitiesActions.pageLoaded({ folderId: '', page: makePage(byName) }),
    );
    const recording = makeRecordingStore({ ...signedInState(), entities });
    store = recording.store;
    renderWithProviders(
      <>
        <AddressProbe />
        <BulkToolbar />
        <EntityList />
      </>,
      { store, route },
    );
    return { ...stub, store: recording.store };
  }

  const header = (name: string) =>
    screen
      .getAllByRole('columnheader')
      .find((cell) => within(cell).queryByRole('button', { name: new RegExp(`^${name}`) }))!;

  it('shows the sort on its header; a click puts the next sort in the address and remembers it', async () => {
    const { calls } = render(
      {
        'PUT /api/rest/preferences/folder_sort': {
          body: { folder_sort: { sort: 'size', order: 'asc' } },
        },
      },
      '/home?sort=size&order=desc',
    );
    expect(header('Size')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Name')).toHaveAttribute('aria-sort', 'none');
    expect(
      within(header('Size')).getByRole('button', { name: 'Size (sorted descending)' }),
    ).toBeInTheDocument();

    fireEvent.click(within(header('Size')).getByRole('button', { name: /^Size/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/home?sort=size&order=asc');
    await waitFor(() =>
      expect(callsTo(calls, 'PUT /api/rest/preferences/folder_sort')).toHaveLength(1),
    );
    expect(callsTo(calls, 'PUT /api/rest/preferences/folder_sort')[0]!.body).toEqual({
      sort: 'size',
      order: 'asc',
    });

    fireEvent.click(within(header('Name')).getByRole('button', { name: 'Type' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/home?sort=type&order=asc');
  });

  it('downloads a selection as one zip through the link the server answers', async () => {
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      return undefined;
    });
    const { calls } = render({
      'POST /api/rest/entities/zip': {
        status: 201,
        body: { url: '/api/rest/zips/tok123', expires_at: '2026-01-01T00:01:00.000Z' },
      },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Budget.xlsx' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Clients' }));
    const toolbar = screen.getByRole('toolbar', { name: 'Selected items' });
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(callsTo(calls, 'POST /api/rest/entities/zip')[0]!.body).toEqual({
      // In list order.
      items: [
        { id: 'f1', type: 'folder' },
        { id: 'x1', type: 'file' },
      ],
    });
    expect((click.mock.contexts[0] as HTMLAnchorElement).getAttribute('href')).toBe(
      '/api/rest/zips/tok123',
    );
  });

  it('makes a copy of a file from its row menu and shows it beside the original', async () => {
    const { calls, store } = render({
      'POST /api/rest/files/p1/copy': {
        status: 201,
        body: makeFile({ id: 'p9', name: 'Statement (1).pdf', extension: 'pdf', size: 5 }),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Statement.pdf' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Make a copy' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/files/p1/copy')).toHaveLength(1));
    await waitFor(() =>
      expect(ids(store.getState().entities.items)).toEqual(['f2', 'f1', 'p2', 'x1', 'p9', 'p1']),
    );
    expect(store.getState().notifications.toasts.at(-1)).toMatchObject({
      title: 'Copied',
      body: 'File copied as “Statement (1).pdf”.',
    });
    // Folders have "Copy to…" instead.
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Clients' }));
    const menus = await screen.findAllByRole('menu');
    expect(within(menus.at(-1)!).queryByRole('menuitem', { name: 'Make a copy' })).toBeNull();
  });
});
