/**
 * Side effects of the imaging feature: reading a file's derivation state and the administrator's
 * status page, retrying a failed job, and remembering the list layout with the cached user's
 * preferences (session/userCache.ts: kept per user, dropped at sign-out). Every worker is wrapped
 * with `safely`; expected failures end in `imaging/…Failed` events.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import type { FileRenditionDto, ImagingStatusDto } from '../../../common/imaging';
import type { CurrentUserDto } from '../../../common/types';
import { errorMessage } from '../../api/client';
import type { ListLayout } from '../../components/listLayout';
import { safely } from '../../sagas/safely';
import { sessionActions } from '../session/sessionSlice';
import { readCachedUser, setCachedPreference, type CachedUser } from '../session/userCache';
import * as imagingApi from './imagingApi';
import { selectListLayout } from './imagingSelectors';
import {
  COULD_NOT_GET_IMAGING_STATUS,
  COULD_NOT_GET_RENDITION,
  COULD_NOT_RETRY,
  imagingActions,
} from './imagingSlice';

/** The cached-user preference holding the list layout. */
export const LIST_LAYOUT_PREFERENCE = 'listLayout';

/** `prefix` followed by the server's reason. */
function withReason(prefix: string, error: unknown): string {
  return `${prefix} ${errorMessage(error)}`;
}

/** Reads a file's derivation state. */
export function* loadRendition(action: PayloadAction<{ fileId: string }>): SagaIterator {
  const { fileId } = action.payload;
  try {
    const rendition = (yield call(imagingApi.fetchRendition, fileId)) as FileRenditionDto;
    yield put(imagingActions.renditionLoaded({ fileId, rendition }));
  } catch (error) {
    yield put(
      imagingActions.renditionFailed({
        fileId,
        error: withReason(COULD_NOT_GET_RENDITION, error),
      }),
    );
  }
}

/** Reads the administrator's status page. */
export function* loadImagingStatus(): SagaIterator {
  try {
    const status = (yield call(imagingApi.fetchImagingStatus)) as ImagingStatusDto;
    yield put(imagingActions.statusLoaded(status));
  } catch (error) {
    yield put(imagingActions.statusFailed(withReason(COULD_NOT_GET_IMAGING_STATUS, error)));
  }
}

/** Retries a failed job. */
export function* retryJob(action: PayloadAction<{ jobId: string; fileId: string }>): SagaIterator {
  const { jobId, fileId } = action.payload;
  try {
    const rendition = (yield call(imagingApi.retryImagingJob, jobId)) as FileRenditionDto;
    yield put(imagingActions.retrySucceeded({ jobId, fileId, rendition }));
  } catch (error) {
    yield put(imagingActions.retryFailed({ jobId, error: withReason(COULD_NOT_RETRY, error) }));
  }
}

/** The layout remembered for a user in the cached user data ('list' when none or another's). */
export function rememberedLayout(cached: CachedUser | null, userId?: string): ListLayout {
  if (!cached || (userId !== undefined && cached.userId !== userId)) return 'list';
  return cached.preferences[LIST_LAYOUT_PREFERENCE] === 'grid' ? 'grid' : 'list';
}

/**
 * Restores the signed-in user's layout (at start, and whenever the user becomes known); nothing is
 * dispatched when it is the layout already shown.
 */
export function* restoreLayout(action?: PayloadAction<CurrentUserDto | null>): SagaIterator {
  const user = action?.payload;
  if (action && !user) return;
  const cached = (yield call(readCachedUser)) as CachedUser | null;
  const layout = rememberedLayout(cached, user?.userId);
  if (layout !== ((yield select(selectListLayout)) as ListLayout)) {
    yield put(imagingActions.layoutRestored(layout));
  }
}

/** Remembers the chosen layout for the signed-in user. */
export function* rememberLayout(action: PayloadAction<ListLayout>): SagaIterator {
  yield call(setCachedPreference, LIST_LAYOUT_PREFERENCE, action.payload);
}

/** Root saga of the imaging feature. */
export function* imagingSaga(): SagaIterator {
  yield all([
    call(safely(restoreLayout)),
    takeEvery(
      [
        sessionActions.signedIn.type,
        sessionActions.currentUserLoaded.type,
        sessionActions.databaseSwitched.type,
      ],
      safely(restoreLayout),
    ),
    takeEvery(imagingActions.layoutChosen.type, safely(rememberLayout)),
    takeEvery(imagingActions.renditionRequested.type, safely(loadRendition)),
    takeLatest(imagingActions.statusRequested.type, safely(loadImagingStatus)),
    takeEvery(imagingActions.retryRequested.type, safely(retryJob)),
  ]);
}
