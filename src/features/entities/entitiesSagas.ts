/**
 * Sagas of the folder view: open a folder (details, breadcrumbs and the first page in parallel),
 * load the next page at the end of the list, and create a folder.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, race, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import { ROOT_FOLDER_ID } from '../../../common/constants';
import type { BreadcrumbDto, CursorPage, EntityDto, FolderDto, Page } from '../../../common/types';
import { errorMessage } from '../../api/client';
import { safely } from '../../sagas/safely';
import * as entitiesApi from './entitiesApi';
import { selectEntitiesState } from './entitiesSelectors';
import { entitiesActions, type EntitiesState } from './entitiesSlice';

/** Loads one page of a folder and reports it. */
export function* loadPage(
  folderId: string,
  page: number,
  pageSize: number,
  cursor?: string,
): SagaIterator {
  try {
    const result = (yield call(entitiesApi.fetchEntities, folderId, page, pageSize, cursor)) as
      CursorPage<EntityDto> | Page<EntityDto>;
    yield put(entitiesActions.pageLoaded({ folderId, page: result }));
  } catch (error) {
    yield put(entitiesActions.pageLoadFailed({ folderId, page, message: errorMessage(error) }));
  }
}

/** Loads a folder's details and breadcrumbs. */
export function* loadFolderDetails(folderId: string): SagaIterator {
  try {
    const [folder, breadcrumbs] = (yield all([
      call(entitiesApi.fetchFolder, folderId),
      call(entitiesApi.fetchBreadcrumbs, folderId),
    ])) as [FolderDto, BreadcrumbDto[]];
    yield put(entitiesActions.folderLoaded({ folder, breadcrumbs }));
  } catch (error) {
    yield put(entitiesActions.folderLoadFailed({ folderId, message: errorMessage(error) }));
  }
}

/** Opens a folder: its details (not for the root) and its first page, in parallel. */
export function* openFolder(action: PayloadAction<{ folderId: string }>): SagaIterator {
  const { folderId } = action.payload;
  const { pageSize } = (yield select(selectEntitiesState)) as EntitiesState;
  if (folderId === ROOT_FOLDER_ID) {
    yield call(loadPage, folderId, 1, pageSize);
  } else {
    yield all([call(loadFolderDetails, folderId), call(loadPage, folderId, 1, pageSize)]);
  }
}

/**
 * Loads the next page (after the server's keyset cursor when it sent one) when the reducer accepted `entities/nextPageRequested` (status 'loading');
 * gives up when another folder is opened meanwhile.
 */
export function* loadNextPage(): SagaIterator {
  const state = (yield select(selectEntitiesState)) as EntitiesState;
  if (state.more.status !== 'loading') return;
  yield race({
    loaded: call(
      loadPage,
      state.folder.id,
      state.page + 1,
      state.pageSize,
      state.nextCursor ?? undefined,
    ),
    superseded: take(entitiesActions.folderOpened.type),
  });
}

/** Creates a folder in the given parent; the server answers with the final (unique) name. */
export function* createFolder(
  action: PayloadAction<{ name: string; parentId: string }>,
): SagaIterator {
  try {
    const folder = (yield call(entitiesApi.createFolder, {
      name: action.payload.name.trim(),
      parent_id: action.payload.parentId,
    })) as FolderDto;
    yield put(entitiesActions.folderCreated({ folder }));
  } catch (error) {
    yield put(entitiesActions.folderCreateFailed({ message: errorMessage(error) }));
  }
}

/** Root saga of the entities feature. */
export function* entitiesSaga(): SagaIterator {
  yield all([
    takeLatest(entitiesActions.folderOpened.type, safely(openFolder)),
    takeLeading(entitiesActions.nextPageRequested.type, safely(loadNextPage)),
    takeLeading(entitiesActions.folderCreateRequested.type, safely(createFolder)),
  ]);
}
