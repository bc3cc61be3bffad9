/**
 * Sagas of the folder view: open a folder (details, breadcrumbs and the first page in parallel),
 * load the next page at the end of the list, and create a folder.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, race, select, take, takeLatest, takeLeading } from 'typed-redux-saga';
import { FOLDER_SORT_PREFERENCE, type FolderSort } from '@common/sort';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { notificationsActions } from '../notifications/notificationsSlice';
import { setCachedPreference } from '../session/userCache';
import * as entitiesApi from './entitiesApi';
import { selectEntitiesState } from './entitiesSelectors';
import { entitiesActions } from './entitiesSlice';
import type { Saga } from '@src/sagas/saga';

/** Loads one page of a folder (in `sort`, default by name) and reports it. */
export function* loadPage(
  folderId: string,
  page: number,
  pageSize: number,
  cursor?: string,
  sort?: FolderSort,
): Saga {
  try {
    const result = yield* call(entitiesApi.fetchEntities, folderId, page, pageSize, cursor, sort);
    yield* put(entitiesActions.pageLoaded({ folderId, page: result }));
  } catch (error) {
    yield* put(entitiesActions.pageLoadFailed({ folderId, page, message: errorMessage(error) }));
  }
}

/** Loads a folder's details and breadcrumbs. */
export function* loadFolderDetails(folderId: string): Saga {
  try {
    const { folder, breadcrumbs } = yield* all({
      folder: call(entitiesApi.fetchFolder, folderId),
      breadcrumbs: call(entitiesApi.fetchBreadcrumbs, folderId),
    });
    yield* put(entitiesActions.folderLoaded({ folder, breadcrumbs }));
  } catch (error) {
    yield* put(entitiesActions.folderLoadFailed({ folderId, message: errorMessage(error) }));
  }
}

/**
 * Opens a folder: its details (not for the root, nor again for the folder already open) and its
 * first page, in parallel, in the list's sort (the address's, else the user's remembered one that
 * came with the current user).
 */
export function* openFolder(
  action: PayloadAction<{ folderId: string; sort?: FolderSort | null }>,
): Saga {
  const { folderId } = action.payload;
  const { pageSize, sort, details } = yield* select(selectEntitiesState);
  if (details.status === 'succeeded') {
    yield* call(loadPage, folderId, 1, pageSize, undefined, sort);
  } else {
    yield* all([
      call(loadFolderDetails, folderId),
      call(loadPage, folderId, 1, pageSize, undefined, sort),
    ]);
  }
}

/**
 * Remembers the sort the user chose by a column header: saved on the server (it follows the user
 * to any browser) and in the cached user data. A failure is reported; the list keeps the sort.
 */
export function* saveSortChoice(action: PayloadAction<{ sort: FolderSort }>): Saga {
  const { sort } = action.payload;
  yield* call(setCachedPreference, FOLDER_SORT_PREFERENCE, { ...sort });
  try {
    yield* call(entitiesApi.saveFolderSort, sort);
  } catch (error) {
    yield* put(
      notificationsActions.infoMessageRequested({
        text: `The sort could not be remembered: ${errorMessage(error)}`,
        kind: 'warning',
      }),
    );
  }
}

/**
 * Loads the next page (after the server's keyset cursor when it sent one) when the reducer accepted `entities/nextPageRequested` (status 'loading');
 * gives up when another folder is opened meanwhile.
 */
export function* loadNextPage(): Saga {
  const state = yield* select(selectEntitiesState);
  if (state.more.status !== 'loading') return;
  yield* race({
    loaded: call(
      loadPage,
      state.folder.id,
      state.page + 1,
      state.pageSize,
      state.nextCursor ?? undefined,
      state.sort,
    ),
    superseded: take(entitiesActions.folderOpened.type),
  });
}

/** Creates a folder in the given parent; the server answers with the final (unique) name. */
export function* createFolder(action: PayloadAction<{ name: string; parentId: string }>): Saga {
  try {
    const folder = yield* call(entitiesApi.createFolder, {
      name: action.payload.name.trim(),
      parent_id: action.payload.parentId,
    });
    yield* put(entitiesActions.folderCreated({ folder }));
  } catch (error) {
    yield* put(entitiesActions.folderCreateFailed({ message: errorMessage(error) }));
  }
}

/** Root saga of the entities feature. */
export function* entitiesSaga(): Saga {
  yield* all([
    takeLatest(entitiesActions.folderOpened.type, safely(openFolder)),
    takeLeading(entitiesActions.nextPageRequested.type, safely(loadNextPage)),
    takeLeading(entitiesActions.folderCreateRequested.type, safely(createFolder)),
    takeLatest(entitiesActions.sortChosen.type, safely(saveSortChoice)),
  ]);
}
