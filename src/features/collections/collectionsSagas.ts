/**
 * Sagas of the Archive, Favorites and Recent pages: load the first page when a page opens, the next
 * one (by the server's cursor) when the end of the list is reached, the paths of parent folders for
 * the "where" of rows, and keep the lists in step with `organise/itemsChanged` where only the server
 * knows the order (an item archived, favorited or touched anew goes to the top of its list). The
 * organise saga (organiseSagas.ts) performs the actions and shows MESSAGES.restoredToRoot.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import {
  all,
  call,
  put,
  race,
  select,
  take,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import type { CursorPage } from '@common/api';
import type { EntityDto } from '@common/entities';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import { selectFeatureFlag } from '../flags/flagsSelectors';
import { organiseEvents, type ItemsChanged } from '../organise/organiseEvents';
import * as collectionsApi from './collectionsApi';
import {
  collectionsActions,
  type CollectionKind,
  type CollectionList,
  type CollectionPageLoaded,
  type CollectionTopRefreshed,
} from './collectionsSlice';
import type { Saga } from '@src/sagas/saga';

const selectList = (state: RootState, kind: CollectionKind): CollectionList =>
  state.collections[kind];

/** Reads one page of a list: by cursor, and for the Archive by POST with `skip` when archivePaging is on. */
export function* fetchCollectionPage(
  kind: CollectionKind,
  request: collectionsApi.PageRequest,
): Saga<CursorPage<EntityDto>> {
  if (kind === 'archive') {
    const paging = yield* select(selectFeatureFlag, 'archivePaging');
    if (paging) {
      const { skip } = yield* select(selectList, 'archive');
      return yield* call(collectionsApi.fetchArchivedPaged, request, skip);
    }
    return yield* call(collectionsApi.fetchArchived, request);
  }
  if (kind === 'favorites') {
    return yield* call(collectionsApi.fetchFavorites, request);
  }
  return yield* call(collectionsApi.fetchRecent, request);
}

/** Loads page `pageNumber` of a list and reports it. */
export function* loadPage(
  kind: CollectionKind,
  pageNumber: number,
  cursor: string | null,
  pageSize: number,
): Saga {
  try {
    const page = yield* call(fetchCollectionPage, kind, {
      page: pageNumber,
      cursor,
      pageSize,
    });
    yield* put(collectionsActions.pageLoaded({ kind, pageNumber, page } as CollectionPageLoaded));
  } catch (error) {
    yield* put(
      collectionsActions.pageLoadFailed({ kind, pageNumber, message: errorMessage(error) }),
    );
  }
}

/** A page opened: its first page. */
export function* openCollection(action: PayloadAction<{ kind: CollectionKind }>): Saga {
  const { kind } = action.payload;
  const list = yield* select(selectList, kind);
  yield* call(loadPage, kind, 1, null, list.pageSize);
}

const openedKind = (kind: CollectionKind) => (action: unknown) =>
  collectionsActions.opened.match(action) && action.payload.kind === kind;

/**
 * Loads the next page when the reducer accepted `nextPageRequested` (more: 'loading'); gives up
 * when the page is opened again meanwhile.
 */
export function* loadNextPage(action: PayloadAction<{ kind: CollectionKind }>): Saga {
  const { kind } = action.payload;
  const list = yield* select(selectList, kind);
  if (list.more.status !== 'loading') return;
  yield* race({
    loaded: call(loadPage, kind, list.page + 1, list.nextCursor, list.pageSize),
    superseded: take(openedKind(kind)),
  });
}

/** Reads the first page again and puts its items at the top of the loaded list. */
export function* refreshTop(kind: CollectionKind): Saga {
  const list = yield* select(selectList, kind);
  if (list.list.status !== 'succeeded') return;
  try {
    const page = yield* call(fetchCollectionPage, kind, {
      page: 1,
      cursor: null,
      pageSize: list.pageSize,
    });
    yield* put(collectionsActions.topRefreshed({ kind, page } as CollectionTopRefreshed));
  } catch (error) {
    // The list stays as it was; the next visit reads it afresh.
    console.error(`Refreshing ${kind} failed:`, errorMessage(error));
  }
}

/** How a change reaches a list beyond what the reducer did: read its top again, or all of it. */
export type RefreshPlan = Partial<Record<CollectionKind, 'top' | 'reload'>>;

/**
 * What each list must read again after a change. Archiving a folder takes its favorite and recent
 * descendants away, restoring brings them back: those lists are read again from the start. An
 * item archived goes to the top of the Archive, favorited to the top of Favorites, renamed, moved
 * or copied to the top of Recent.
 */
export function refreshPlan(changed: ItemsChanged): RefreshPlan {
  const hasFolder = [...changed.entities, ...changed.results].some(
    (item) => item.type === 'folder',
  );
  switch (changed.change) {
    case 'archived':
      return hasFolder
        ? { archive: 'top', favorites: 'reload', recent: 'reload' }
        : { archive: 'top' };
    case 'restored':
      return { favorites: 'reload', recent: 'reload' };
    case 'favorited':
      return { favorites: 'top' };
    case 'renamed':
    case 'moved':
    case 'copied':
      return { recent: 'top' };
    default:
      return {};
  }
}

/** Follows a confirmed change: reads again the lists whose order only the server knows. */
export function* followChange(action: PayloadAction<ItemsChanged>): Saga {
  const plan = refreshPlan(action.payload);
  for (const kind of Object.keys(plan) as CollectionKind[]) {
    const list = yield* select(selectList, kind);
    if (list.list.status !== 'succeeded') continue;
    if (plan[kind] === 'reload') yield* put(collectionsActions.opened({ kind }));
    else yield* call(refreshTop, kind);
  }
}

/** Reads the paths of parent folders asked for by rows, once per folder. */
export function* watchFolderPaths(): Saga {
  const inFlight = new Set<string>();
  function* readPath(folderId: string): Saga {
    try {
      const crumbs = yield* call(collectionsApi.fetchFolderBreadcrumbs, folderId);
      yield* put(collectionsActions.folderPathLoaded({ folderId, crumbs }));
    } catch {
      yield* put(collectionsActions.folderPathFailed({ folderId }));
    } finally {
      inFlight.delete(folderId);
    }
  }
  yield* takeEvery(
    collectionsActions.folderPathNeeded.type,
    safely(function* pathNeeded(action: PayloadAction<{ folderId: string }>): Saga {
      const { folderId } = action.payload;
      if (!folderId || inFlight.has(folderId)) return;
      const state = yield* select((s: RootState) => s.collections.paths[folderId]);
      if (state?.status !== 'loading') return;
      inFlight.add(folderId);
      yield* call(readPath, folderId);
    }),
  );
}

/** Root saga of the collections feature. */
export function* collectionsSaga(): Saga {
  const kinds: CollectionKind[] = ['archive', 'favorites', 'recent'];
  const nextOfKind = (kind: CollectionKind) => (action: unknown) =>
    collectionsActions.nextPageRequested.match(action) && action.payload.kind === kind;
  yield* all([
    ...kinds.map((kind) => takeLatest(openedKind(kind), safely(openCollection))),
    ...kinds.map((kind) => takeLeading(nextOfKind(kind), safely(loadNextPage))),
    takeEvery(organiseEvents.itemsChanged.type, safely(followChange)),
    call(watchFolderPaths),
  ]);
}
