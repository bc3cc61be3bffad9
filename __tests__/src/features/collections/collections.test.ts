import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlags } from '@common/constants';
import type { CursorPage } from '@common/api';
import type { ArchivedEntityDto, EntityDto, RecentEntityDto } from '@common/entities';
import { refreshPlan } from '@src/features/collections/collectionsSagas';
import {
  collectionsActions,
  collectionsReducer,
  initialCollectionsState,
  type CollectionsState,
} from '@src/features/collections/collectionsSlice';
import { initialFlagsState } from '@src/features/flags/flagsSlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import type { RootState } from '@src/store/rootReducer';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeFolder,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

/** An archived item. */
function archived(id: string, overrides: Partial<ArchivedEntityDto> = {}): ArchivedEntityDto {
  return {
    ...makeFile({ id, name: `${id}.pdf`, archived_at: '2024-03-05T14:07:00.000Z' }),
    parent_path: '',
    ...overrides,
  } as ArchivedEntityDto;
}

/** A recent item. */
function recent(id: string): RecentEntityDto {
  return {
    ...makeFile({ id, name: `${id}.pdf` }),
    recent_at: '2024-03-05T14:07:00.000Z',
    recent_action: 'create',
  };
}

/** A cursor page. */
function cursorPage<T>(
  items: T[],
  nextCursor: string | null,
  total = items.length,
  page = 1,
): CursorPage<T> {
  return { items, page, page_size: 100, total, next_cursor: nextCursor };
}

function flagsState(values: Partial<FeatureFlags>): Partial<RootState> {
  return {
    flags: {
      ...initialFlagsState,
      status: 'succeeded',
      values: { ...FEATURE_FLAG_DEFAULTS, ...values },
    },
  };
}

describe('collections slice', () => {
  const loaded = (state: CollectionsState, items: EntityDto[], next: string | null) =>
    collectionsReducer(
      collectionsReducer(state, collectionsActions.opened({ kind: 'favorites' })),
      collectionsActions.pageLoaded({
        kind: 'favorites',
        pageNumber: 1,
        page: cursorPage(items, next, 10),
      }),
    );

  it('appends the next page, skips duplicates and ignores stale answers', () => {
    let state = loaded(initialCollectionsState, [makeFolder({ id: 'a' })], 'c1');
    state = collectionsReducer(state, collectionsActions.nextPageRequested({ kind: 'favorites' }));
    expect(state.favorites.more.status).toBe('loading');
    // An answer for page 3 (stale or out of order) changes nothing.
    const stale = collectionsReducer(
      state,
      collectionsActions.pageLoaded({
        kind: 'favorites',
        pageNumber: 3,
        page: cursorPage([makeFile({ id: 'z' })], null),
      }),
    );
    expect(stale.favorites.items.map((item) => item.id)).toEqual(['a']);
    state = collectionsReducer(
      state,
      collectionsActions.pageLoaded({
        kind: 'favorites',
        pageNumber: 2,
        page: cursorPage([makeFolder({ id: 'a' }), makeFile({ id: 'b' })], null, 10, 2),
      }),
    );
    expect(state.favorites.items.map((item) => item.id)).toEqual(['a', 'b']);
    expect(state.favorites.nextCursor).toBeNull();
    // Without a cursor there is no next page.
    const after = collectionsReducer(
      state,
      collectionsActions.nextPageRequested({ kind: 'favorites' }),
    );
    expect(after.favorites.more.status).toBe('succeeded');
  });

  it('removes unfavorited items from Favorites and updates the star elsewhere', () => {
    let state = loaded(
      initialCollectionsState,
      [makeFolder({ id: 'a' }), makeFile({ id: 'b' })],
      null,
    );
    state = collectionsReducer(state, collectionsActions.opened({ kind: 'recent' }));
    state = collectionsReducer(
      state,
      collectionsActions.pageLoaded({
        kind: 'recent',
        pageNumber: 1,
        page: cursorPage([{ ...recent('b'), favorite: true }], null),
      }),
    );
    state = collectionsReducer(
      state,
      organiseEvents.itemsChanged({
        change: 'unfavorited',
        entities: [],
        results: [{ id: 'b', type: 'file', name: 'b.pdf' }],
      }),
    );
    expect(state.favorites.items.map((item) => item.id)).toEqual(['a']);
    expect(state.favorites.total).toBe(9);
    expect(state.recent.items[0]!.favorite).toBe(false);
    expect(state.recent.items[0]!.recent_action).toBe('create');
  });

  it('renames in place and keeps the fields the list adds', () => {
    let state = collectionsReducer(
      initialCollectionsState,
      collectionsActions.opened({ kind: 'recent' }),
    );
    state = collectionsReducer(
      state,
      collectionsActions.pageLoaded({
        kind: 'recent',
        pageNumber: 1,
        page: cursorPage([recent('r1')], null),
      }),
    );
    state = collectionsReducer(
      state,
      organiseEvents.itemsChanged({
        change: 'renamed',
        entities: [makeFile({ id: 'r1', name: 'Renamed.pdf' })],
        results: [],
      }),
    );
    expect(state.recent.items[0]).toMatchObject({ name: 'Renamed.pdf', recent_action: 'create' });
  });

  it('puts a refreshed first page on top and keeps the rest in order', () => {
    let state = loaded(
      initialCollectionsState,
      [makeFile({ id: 'a' }), makeFile({ id: 'b' })],
      'c1',
    );
    state = collectionsReducer(
      state,
      collectionsActions.topRefreshed({
        kind: 'favorites',
        page: cursorPage([makeFile({ id: 'new' }), makeFile({ id: 'a' })], 'c9', 11),
      }),
    );
    expect(state.favorites.items.map((item) => item.id)).toEqual(['new', 'a', 'b']);
    expect(state.favorites.total).toBe(11);
    expect(state.favorites.nextCursor).toBe('c1');
  });

  it('selects a Shift-click range from the last toggled row, keeping the selection', () => {
    let state = collectionsReducer(
      initialCollectionsState,
      collectionsActions.opened({ kind: 'archive' }),
    );
    state = collectionsReducer(
      state,
      collectionsActions.pageLoaded({
        kind: 'archive',
        pageNumber: 1,
        page: cursorPage(
          ['a', 'b', 'c', 'd', 'e'].map((id) => archived(id)),
          null,
        ),
      }),
    );
    state = collectionsReducer(state, collectionsActions.selectionToggled({ id: 'e' }));
    state = collectionsReducer(state, collectionsActions.selectionToggled({ id: 'b' }));
    state = collectionsReducer(state, collectionsActions.rangeSelected({ id: 'd' }));
    expect(state.selected).toEqual(['e', 'b', 'c', 'd']);
    // Upwards from the new anchor.
    state = collectionsReducer(state, collectionsActions.rangeSelected({ id: 'a' }));
    expect([...state.selected].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    state = collectionsReducer(state, collectionsActions.selectionCleared());
    expect(state.selected).toEqual([]);
    // Without an anchor a Shift-click selects the row alone.
    state = collectionsReducer(state, collectionsActions.rangeSelected({ id: 'c' }));
    expect(state.selected).toEqual(['c']);
  });

  it('plans which lists to read again', () => {
    const file = { id: 'x', type: 'file' as const, name: 'x.pdf' };
    const folder = { id: 'f', type: 'folder' as const, name: 'F' };
    expect(refreshPlan({ change: 'archived', entities: [], results: [file] })).toEqual({
      archive: 'top',
    });
    expect(refreshPlan({ change: 'archived', entities: [], results: [folder] })).toEqual({
      archive: 'top',
      favorites: 'reload',
      recent: 'reload',
    });
    expect(refreshPlan({ change: 'favorited', entities: [], results: [file] })).toEqual({
      favorites: 'top',
    });
    expect(refreshPlan({ change: 'moved', entities: [], results: [file] })).toEqual({
      recent: 'top',
    });
    expect(refreshPlan({ change: 'unfavorited', entities: [], results: [file] })).toEqual({});
  });
});

describe('collections sagas', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  function start(routes: StubRoutes, preloaded: Partial<RootState> = {}) {
    const stub = stubRoutes(routes);
    const recording = makeRecordingStore({ ...signedInState(), ...preloaded });
    store = recording.store;
    return { ...stub, ...recording };
  }

  it('reads the archive by GET with the cursor when archivePaging is off', async () => {
    const { store, calls } = start(
      {
        'GET /api/rest/entities/archived': (call) =>
          call.url.includes('cursor=c1')
            ? { body: cursorPage([archived('b')], null, 2, 2) }
            : { body: cursorPage([archived('a')], 'c1', 2) },
      },
      flagsState({ archivePaging: false }),
    );
    store.dispatch(collectionsActions.opened({ kind: 'archive' }));
    await waitFor(() => expect(store.getState().collections.archive.list.status).toBe('succeeded'));
    store.dispatch(collectionsActions.nextPageRequested({ kind: 'archive' }));
    await waitFor(() => expect(store.getState().collections.archive.items).toHaveLength(2));
    expect(calls.map((call) => call.url)).toEqual([
      '/api/rest/entities/archived?page=1&page_size=100',
      '/api/rest/entities/archived?page=2&page_size=100&cursor=c1',
    ]);
    expect(store.getState().collections.archive.more.status).toBe('succeeded');
  });

  it('reads the archive by POST with page, skip and the cursor when archivePaging is on', async () => {
    const { store, calls } = start(
      {
        'POST /api/rest/entities/archived': (call) =>
          call.url.includes('page=2')
            ? { body: cursorPage([archived('d')], null, 4, 2) }
            : { body: cursorPage([archived('a'), archived('b'), archived('c')], 'c1', 4) },
      },
      flagsState({ archivePaging: true }),
    );
    store.dispatch(collectionsActions.opened({ kind: 'archive' }));
    await waitFor(() => expect(store.getState().collections.archive.items).toHaveLength(3));
    // Two items restored meanwhile (the organise saga's announcement).
    store.dispatch(
      organiseEvents.itemsChanged({
        change: 'restored',
        entities: [],
        results: [
          { id: 'a', type: 'file', name: 'a.pdf' },
          { id: 'b', type: 'file', name: 'b.pdf' },
        ],
      }),
    );
    expect(store.getState().collections.archive.items.map((item) => item.id)).toEqual(['c']);
    store.dispatch(collectionsActions.nextPageRequested({ kind: 'archive' }));
    await waitFor(() =>
      expect(store.getState().collections.archive.items.map((item) => item.id)).toEqual(['c', 'd']),
    );
    const posts = callsTo(calls, 'POST /api/rest/entities/archived');
    expect(posts.map((call) => call.url)).toEqual([
      '/api/rest/entities/archived?page=1&skip=0',
      '/api/rest/entities/archived?page=2&skip=2',
    ]);
    expect(posts[0]!.body).toEqual({ page_size: 100 });
    expect(posts[1]!.body).toEqual({ page_size: 100, cursor: 'c1' });
  });

  it('reports a failed first page and a failed next page', async () => {
    allowConsoleError(
      /^GET \/api\/rest\/entities\/recent\S* answered 503/,
      /^GET \/api\/rest\/entities\/favorites\S* answered 500/,
    );
    const { store } = start({
      'GET /api/rest/entities/favorites': (call) =>
        call.url.includes('cursor')
          ? { status: 500, body: { message: 'Boom.', code: 'internal' } }
          : { body: cursorPage([makeFile()], 'c1', 5) },
      'GET /api/rest/entities/recent': {
        status: 503,
        body: { message: 'Down.', code: 'x' },
      },
    });
    store.dispatch(collectionsActions.opened({ kind: 'recent' }));
    await waitFor(() =>
      expect(store.getState().collections.recent.list).toEqual({
        status: 'failed',
        error: 'Down.',
      }),
    );
    store.dispatch(collectionsActions.opened({ kind: 'favorites' }));
    await waitFor(() =>
      expect(store.getState().collections.favorites.list.status).toBe('succeeded'),
    );
    store.dispatch(collectionsActions.nextPageRequested({ kind: 'favorites' }));
    await waitFor(() =>
      expect(store.getState().collections.favorites.more).toEqual({
        status: 'failed',
        error: 'Boom.',
      }),
    );
  });

  it('removes restored items from the Archive, its selection and the pending ids', async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    const { store } = start({
      'POST /api/rest/entities/archived': {
        body: cursorPage([archived('a'), archived('b'), archived('c')], null),
      },
    });
    store.dispatch(collectionsActions.opened({ kind: 'archive' }));
    await waitFor(() => expect(store.getState().collections.archive.items).toHaveLength(3));
    store.dispatch(collectionsActions.selectionToggled({ id: 'a' }));
    store.dispatch(collectionsActions.selectionToggled({ id: 'c' }));
    store.dispatch(
      organiseEvents.restoreRequested({
        items: [
          { id: 'a', type: 'file' },
          { id: 'b', type: 'file' },
        ],
      }),
    );
    expect(store.getState().collections.pending).toEqual(['a', 'b']);
    store.dispatch(
      organiseEvents.itemsChanged({
        change: 'restored',
        entities: [],
        results: [
          { id: 'a', type: 'file', name: 'a.pdf', restored_to_root: true },
          { id: 'b', type: 'file', name: 'b.pdf' },
        ],
      }),
    );
    const state = store.getState().collections;
    expect(state.archive.items.map((item) => item.id)).toEqual(['c']);
    expect(state.archive.total).toBe(1);
    expect(state.selected).toEqual(['c']);
    expect(state.pending).toEqual([]);
  });

  it('puts newly archived items (an undone restore) back at the top of the Archive', async () => {
    let archivedNow = [archived('b')];
    const { store, calls } = start({
      'POST /api/rest/entities/archived': () => ({ body: cursorPage(archivedNow, null) }),
    });
    store.dispatch(collectionsActions.opened({ kind: 'archive' }));
    await waitFor(() => expect(store.getState().collections.archive.items).toHaveLength(1));
    archivedNow = [archived('a'), archived('b')];
    store.dispatch(
      organiseEvents.itemsChanged({
        change: 'archived',
        undo: true,
        entities: [],
        results: [{ id: 'a', type: 'file', name: 'a.pdf' }],
      }),
    );
    await waitFor(() =>
      expect(store.getState().collections.archive.items.map((item) => item.id)).toEqual(['a', 'b']),
    );
    expect(callsTo(calls, 'POST /api/rest/entities/archived')).toHaveLength(2);
    expect(store.getState().collections.archive.skip).toBe(-1);
  });

  it('adds favorited items at the top of Favorites and drops archived ones', async () => {
    let favorites: EntityDto[] = [makeFile({ id: 'b', favorite: true })];
    const { store } = start({
      'GET /api/rest/entities/favorites': () => ({ body: cursorPage(favorites, null) }),
    });
    store.dispatch(collectionsActions.opened({ kind: 'favorites' }));
    await waitFor(() => expect(store.getState().collections.favorites.items).toHaveLength(1));
    favorites = [makeFolder({ id: 'f', favorite: true }), ...favorites];
    store.dispatch(
      organiseEvents.itemsChanged({
        change: 'favorited',
        entities: [makeFolder({ id: 'f', favorite: true })],
        results: [],
      }),
    );
    await waitFor(() =>
      expect(store.getState().collections.favorites.items.map((item) => item.id)).toEqual([
        'f',
        'b',
      ]),
    );
    store.dispatch(
      organiseEvents.itemsChanged({
        change: 'archived',
        entities: [],
        results: [{ id: 'b', type: 'file', name: 'b.pdf' }],
      }),
    );
    expect(store.getState().collections.favorites.items.map((item) => item.id)).toEqual(['f']);
  });

  it('reads the path of a parent folder once, however many rows ask', async () => {
    const { store, calls } = start({
      'GET /api/rest/folders/p1/breadcrumbs': {
        body: [
          { id: 'top', name: 'Clients', type: 'breadcrumb' },
          { id: 'p1', name: 'Smith', type: 'breadcrumb' },
        ],
      },
    });
    store.dispatch(collectionsActions.folderPathNeeded({ folderId: 'p1' }));
    store.dispatch(collectionsActions.folderPathNeeded({ folderId: 'p1' }));
    await waitFor(() =>
      expect(store.getState().collections.paths.p1).toEqual({
        status: 'succeeded',
        names: ['Clients', 'Smith'],
      }),
    );
    store.dispatch(collectionsActions.folderPathNeeded({ folderId: 'p1' }));
    await Promise.resolve();
    expect(callsTo(calls, 'GET /api/rest/folders/p1/breadcrumbs')).toHaveLength(1);
  });
});
