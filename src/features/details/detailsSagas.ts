/**
 * Sagas of the entity side panel: read the item and its path when the panel opens (and again after
 * a change to it that the server alone can describe: a move, a restore, a colour), the folder's
 * statistics when the fileStats flag is on, and the firm's statistics when a view asks for them.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { ROOT_FOLDER_ID } from '@common/constants';
import type { BreadcrumbDto, EntityDto, EntityRef } from '@common/entities';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import { selectFeatureFlag } from '../flags/flagsSelectors';
import { organiseEvents, type ItemsChanged } from '../organise/organiseEvents';
import * as detailsApi from './detailsApi';
import { detailsActions } from './detailsSlice';
import type { Saga } from '@src/sagas/saga';

const selectTarget = (state: RootState) => state.details.target;

/** The item and the folders above it (top-level first; empty for an item in the root). */
export function* readEntity(ref: EntityRef): Saga<{ entity: EntityDto; path: BreadcrumbDto[] }> {
  if (ref.type === 'folder') {
    const { entity, crumbs } = yield* all({
      entity: call(detailsApi.fetchEntity, ref),
      crumbs: call(detailsApi.fetchBreadcrumbs, ref.id),
    });
    // A folder's breadcrumbs end with the folder itself.
    const path =
      crumbs.length > 0 && crumbs[crumbs.length - 1]?.id === ref.id ? crumbs.slice(0, -1) : crumbs;
    return { entity, path };
  }
  const entity = yield* call(detailsApi.fetchEntity, ref);
  const parentId = entity.type === 'file' ? entity.folder_id : entity.parent_id;
  const path =
    parentId === ROOT_FOLDER_ID ? [] : yield* call(detailsApi.fetchBreadcrumbs, parentId);
  return { entity, path };
}

/** Reads a folder's statistics when the fileStats flag is on. */
export function* loadFolderStats(folderId: string): Saga {
  const enabled = yield* select(selectFeatureFlag, 'fileStats');
  if (!enabled) return;
  yield* put(detailsActions.statsRequested({ folderId }));
  try {
    const stats = yield* call(detailsApi.fetchFolderStats, folderId);
    yield* put(detailsActions.statsLoaded({ stats }));
  } catch (error) {
    yield* put(detailsActions.statsLoadFailed({ folderId, message: errorMessage(error) }));
  }
}

/** The panel opened: the item, its path and (folders) its statistics; the root: the firm's. */
export function* openPanel(action: PayloadAction<EntityRef>): Saga {
  const ref = action.payload;
  if (ref.id === ROOT_FOLDER_ID) {
    const enabled = yield* select(selectFeatureFlag, 'fileStats');
    if (enabled) yield* put(detailsActions.firmStatsRequested());
    return;
  }
  try {
    const { entity, path } = yield* call(readEntity, ref);
    yield* put(detailsActions.entityLoaded({ entity, path }));
  } catch (error) {
    yield* put(detailsActions.entityLoadFailed({ id: ref.id, message: errorMessage(error) }));
    return;
  }
  if (ref.type === 'folder') yield* call(loadFolderStats, ref.id);
}

/** Changes after which the panel reads its item again (its path or its contents changed). */
const REREAD_AFTER: ReadonlySet<ItemsChanged['change']> = new Set([
  'moved',
  'restored',
  'colored',
  'copied',
]);

/** A change touched the item the panel shows: read it (and its path and statistics) again. */
export function* followChange(action: PayloadAction<ItemsChanged>): Saga {
  const changed = action.payload;
  const target = yield* select(selectTarget);
  if (!target || target.id === ROOT_FOLDER_ID || !REREAD_AFTER.has(changed.change)) return;
  const touched =
    changed.results.some((item) => item.id === target.id) ||
    changed.entities.some((item) => item.id === target.id) ||
    (changed.change === 'moved' &&
      target.type === 'folder' &&
      changed.targetFolderId === target.id);
  if (!touched) return;
  try {
    const { entity, path } = yield* call(readEntity, target);
    yield* put(detailsActions.entityLoaded({ entity, path }));
  } catch (error) {
    yield* put(detailsActions.entityLoadFailed({ id: target.id, message: errorMessage(error) }));
    return;
  }
  if (target.type === 'folder') yield* call(loadFolderStats, target.id);
}

/** Reads the firm's statistics (both calls at once). */
export function* loadFirmStats(): Saga {
  try {
    const { totals, byType } = yield* all({
      totals: call(detailsApi.fetchFileStats),
      byType: call(detailsApi.fetchFileStatsByType),
    });
    yield* put(detailsActions.firmStatsLoaded({ totals, byType }));
  } catch (error) {
    yield* put(detailsActions.firmStatsLoadFailed({ message: errorMessage(error) }));
  }
}

/** Root saga of the details feature. */
export function* detailsSaga(): Saga {
  yield* all([
    takeLatest(detailsActions.panelOpened.type, safely(openPanel)),
    takeLeading(detailsActions.firmStatsRequested.type, safely(loadFirmStats)),
    takeEvery(organiseEvents.itemsChanged.type, safely(followChange)),
  ]);
}
