/**
 * Sagas of the folder tree pane: read a folder's subfolders once when the tree asks for them (or
 * again on a refresh), with the folder picker's loader (every page of GET /folders?parent_id, so
 * only the folders the user may see); and read the loaded levels again after a restore that put a
 * folder back under a parent the announcement does not name.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery } from 'typed-redux-saga';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { organiseEvents, type ItemsChanged } from '../organise/organiseEvents';
import { fetchAllSubfolders } from '../organise/organiseSagas';
import { selectTreeLevels } from './folderTreeSelectors';
import { folderTreeActions } from './folderTreeSlice';
import type { Saga } from '@src/sagas/saga';

/**
 * Reads one level unless it is loading or loaded (with `refresh`, unless it is loading). The
 * check and `levelLoadStarted` run before the first call, so a second request for the same level
 * made meanwhile is dropped.
 */
export function* loadTreeLevel(
  action: PayloadAction<{ parentId: string; refresh?: boolean }>,
): Saga {
  const { parentId, refresh = false } = action.payload;
  const levels = yield* select(selectTreeLevels);
  const status = levels[parentId]?.status;
  if (status === 'loading' || (status === 'succeeded' && !refresh)) return;
  yield* put(folderTreeActions.levelLoadStarted({ parentId }));
  try {
    const folders = yield* call(fetchAllSubfolders, parentId);
    yield* put(folderTreeActions.levelLoaded({ parentId, folders }));
  } catch (error) {
    yield* put(folderTreeActions.levelFailed({ parentId, message: errorMessage(error) }));
  }
}

/** Reads every loaded (or failed) level again. */
export function* refreshLevels(): Saga {
  const levels = yield* select(selectTreeLevels);
  for (const [parentId, level] of Object.entries(levels)) {
    if (level.status === 'loading') continue;
    yield* put(folderTreeActions.levelRequested({ parentId, refresh: true }));
  }
}

/**
 * A restore whose announcement lacks a restored folder's parent (neither its row nor "restored to
 * the root" is known) asks for a refresh: the reducer cannot place it.
 */
export function* restoredFolders(action: PayloadAction<ItemsChanged>): Saga {
  const { change, entities, results } = action.payload;
  if (change !== 'restored') return;
  const placed = new Set(entities.map((entity) => entity.id));
  const unplaced = results.some(
    (result) => result.type === 'folder' && !result.restored_to_root && !placed.has(result.id),
  );
  if (unplaced) yield* put(folderTreeActions.refreshRequested());
}

/** Root saga of the folder tree feature. */
export function* folderTreeSaga(): Saga {
  yield* all([
    takeEvery(folderTreeActions.levelRequested.type, safely(loadTreeLevel)),
    takeEvery(folderTreeActions.refreshRequested.type, safely(refreshLevels)),
    takeEvery(organiseEvents.itemsChanged.type, safely(restoredFolders)),
  ]);
}
