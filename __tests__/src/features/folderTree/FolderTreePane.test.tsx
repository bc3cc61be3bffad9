// The folder tree pane (flag folderTreeView): a deep folder's ancestors expanded, the tree kept up
// to date by the organising events, the pane's collapse kept between page loads, and the slice's
// handling of those events.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEATURE_FLAG_DEFAULTS } from '@common/constants';
import { TREE_PANE_QUERY } from '@src/components/useMediaQuery';
import { entitiesActions } from '@src/features/entities/entitiesSlice';
import {
  FolderTreePane,
  TREE_COLLAPSED_PREFERENCE,
} from '@src/features/folderTree/components/FolderTreePane';
import {
  folderTreeReducer,
  initialFolderTreeState,
  type FolderTreeState,
} from '@src/features/folderTree/folderTreeSlice';
import { initialFlagsState } from '@src/features/flags/flagsSlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { cacheUser, clearCachedUser, getCachedPreference } from '@src/features/session/userCache';
import type { AppStore } from '@src/store/store';
import { makeStore } from '@src/store/store';
import {
  callsTo,
  makeFolder,
  makePage,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';
import { allowConsoleError } from '../../consoleErrors';
import { matchOnly } from '../../matchMedia';

// Home ─ Clients (a) ─ Smith (b) ─ 2024 (c), and Archive (z) beside Clients.
const subfolders: Record<string, { id: string; name: string }[]> = {
  '': [
    { id: 'a', name: 'Clients' },
    { id: 'z', name: 'Zeta' },
  ],
  a: [{ id: 'b', name: 'Smith' }],
  b: [{ id: 'c', name: '2024' }],
  c: [],
};

/** Stubs GET /folders?parent_id with `subfolders`. */
function stubTree() {
  return stubRoutes({
    'GET /api/rest/folders': (call) => {
      const parentId = new URL(call.url, 'http://test').searchParams.get('parent_id') ?? '';
      const folders = (subfolders[parentId] ?? []).map((folder) =>
        makeFolder({ ...folder, parent_id: parentId }),
      );
      return { body: makePage(folders) };
    },
  });
}

/** The tree item whose title is `name`. */
function treeItem(name: string): HTMLElement {
  const item = screen.getByText(name, { selector: '.folder-tree-node' }).closest('[role=treeitem]');
  if (!item) throw new Error(`No tree item ${name}`);
  return item as HTMLElement;
}

describe('folder tree pane', () => {
  let store: AppStore | undefined;
  let restore: () => void;
  beforeEach(() => {
    restore = matchOnly(TREE_PANE_QUERY);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    restore();
    clearCachedUser();
  });

  function renderPane(folderId: string) {
    const stub = stubTree();
    store = makeStore(signedInState());
    const view = renderWithProviders(<FolderTreePane folderId={folderId} />, {
      store,
      route: folderId ? `/home/folders/${folderId}` : '/home',
    });
    return { ...stub, ...view, store };
  }

  it('expands a deep folder’s ancestors and selects it', async () => {
    const { calls, store: app } = renderPane('c');
    // The breadcrumbs of the open folder arrive (as after a reload of /home/folders/c).
    act(() => {
      app.dispatch(
        entitiesActions.folderLoaded({
          folder: makeFolder({ id: 'c', name: '2024', parent_id: 'b' }),
          breadcrumbs: [
            { id: 'a', name: 'Clients', type: 'breadcrumb' },
            { id: 'b', name: 'Smith', type: 'breadcrumb' },
            { id: 'c', name: '2024', type: 'breadcrumb' },
          ],
        }),
      );
    });
    expect(screen.getByRole('tree', { name: 'Folders' })).toBeInTheDocument();
    await screen.findByText('2024', { selector: '.folder-tree-node' });
    expect(treeItem('Home')).toHaveAttribute('aria-expanded', 'true');
    expect(treeItem('Clients')).toHaveAttribute('aria-expanded', 'true');
    expect(treeItem('Smith')).toHaveAttribute('aria-expanded', 'true');
    expect(treeItem('2024')).toHaveAttribute('aria-selected', 'true');
    expect(treeItem('Zeta')).toHaveAttribute('aria-expanded', 'false');
    // Each level was read once.
    const parents = callsTo(calls, 'GET /api/rest/folders').map((call) =>
      new URL(call.url, 'http://test').searchParams.get('parent_id'),
    );
    expect([...parents].sort()).toEqual(['', 'a', 'b']);
  });

  it('shows a rename, a move away and an archive announced by organise/itemsChanged', async () => {
    const { store: app } = renderPane('');
    await screen.findByText('Clients', { selector: '.folder-tree-node' });
    act(() => {
      app.dispatch(
        organiseEvents.itemsChanged({
          change: 'renamed',
          entities: [makeFolder({ id: 'a', name: 'Accounts', parent_id: '' })],
          results: [],
        }),
      );
    });
    expect(screen.getByText('Accounts', { selector: '.folder-tree-node' })).toBeInTheDocument();
    expect(screen.queryByText('Clients', { selector: '.folder-tree-node' })).toBeNull();

    act(() => {
      app.dispatch(
        organiseEvents.itemsChanged({
          change: 'archived',
          entities: [],
          results: [{ id: 'z', type: 'folder', name: 'Zeta' }],
        }),
      );
    });
    expect(screen.queryByText('Zeta', { selector: '.folder-tree-node' })).toBeNull();
  });

  it('remembers that the pane was collapsed', async () => {
    cacheUser(makeUser());
    const user = userEvent.setup();
    const first = renderPane('');
    await user.click(screen.getByRole('button', { name: 'Hide folder tree' }));
    expect(screen.queryByRole('tree')).toBeNull();
    expect(getCachedPreference(TREE_COLLAPSED_PREFERENCE)).toBe(true);
    first.unmount();
    store?.sagaTask.cancel();

    renderPane('');
    const show = screen.getByRole('button', { name: 'Show folder tree' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    expect(await screen.findByRole('tree', { name: 'Folders' })).toBeInTheDocument();
    expect(getCachedPreference(TREE_COLLAPSED_PREFERENCE)).toBe(false);
  });

  it('is not shown with the folderTreeView flag off or below a desktop width', () => {
    stubTree();
    store = makeStore({
      ...signedInState(),
      flags: {
        ...initialFlagsState,
        values: { ...FEATURE_FLAG_DEFAULTS, folderTreeView: false },
      },
    });
    const { unmount } = renderWithProviders(<FolderTreePane folderId="" />, { store });
    expect(screen.queryByRole('navigation', { name: 'Folder tree' })).toBeNull();
    unmount();

    restore();
    restore = matchOnly('(min-width: 9999px)');
    renderWithProviders(<FolderTreePane folderId="" />, { store: makeStore(signedInState()) });
    expect(screen.queryByRole('navigation', { name: 'Folder tree' })).toBeNull();
  });
});

describe('folder tree slice', () => {
  const loaded = (levels: Record<string, { id: string; name: string }[]>): FolderTreeState => ({
    ...initialFolderTreeState,
    levels: Object.fromEntries(
      Object.entries(levels).map(([id, folders]) => [
        id,
        { status: 'succeeded' as const, folders, error: null },
      ]),
    ),
  });

  it('puts a created folder and a moved one at their place by name', () => {
    let state = loaded({ '': [{ id: 'a', name: 'Clients' }], a: [{ id: 'b', name: 'Smith' }] });
    state = folderTreeReducer(
      state,
      entitiesActions.folderCreated({ folder: makeFolder({ id: 'n', name: 'Banks' }) }),
    );
    expect(state.levels['']!.folders.map((folder) => folder.name)).toEqual(['Banks', 'Clients']);
    state = folderTreeReducer(
      state,
      organiseEvents.itemsChanged({
        change: 'moved',
        entities: [],
        results: [{ id: 'b', type: 'folder', name: 'Smith', prev_parent_id: 'a' }],
        targetFolderId: '',
      }),
    );
    expect(state.levels['']!.folders.map((folder) => folder.name)).toEqual([
      'Banks',
      'Clients',
      'Smith',
    ]);
    expect(state.levels['a']!.folders).toEqual([]);
  });

  it('leaves levels that were never read alone', () => {
    const state = folderTreeReducer(
      loaded({ '': [] }),
      entitiesActions.folderCreated({
        folder: makeFolder({ id: 'n', name: 'New', parent_id: 'x' }),
      }),
    );
    expect(state.levels['x']).toBeUndefined();
  });
});

// The levels are read by the saga with the picker's loader; a failure shows with Try again.
describe('folder tree loading', () => {
  let store: AppStore | undefined;
  let restore: () => void;
  beforeEach(() => {
    restore = matchOnly(TREE_PANE_QUERY);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    restore();
  });

  it('shows the server’s message when a level cannot be read, and reads it again', async () => {
    allowConsoleError(/answered 500: The folders could not be read\.$/);
    let fail = true;
    stubRoutes({
      'GET /api/rest/folders': () =>
        fail
          ? { status: 500, body: { message: 'The folders could not be read.' } }
          : { body: makePage([makeFolder({ id: 'a', name: 'Clients' })]) },
    });
    store = makeStore(signedInState());
    renderWithProviders(<FolderTreePane folderId="" />, { store });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The folders could not be read.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.getByText('Clients', { selector: '.folder-tree-node' })).toBeInTheDocument(),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
