/** Sagas of the flags feature: read the server's feature flags on `flags/loadRequested`. */
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest } from 'redux-saga/effects';
import type { FeatureFlags } from '../../../common/constants';
import { errorMessage } from '../../api/client';
import { safely } from '../../sagas/safely';
import { fetchFeatureFlags } from './flagsApi';
import { flagsActions } from './flagsSlice';

/** Loads the flags; a failure keeps the defaults. */
export function* loadFlags(): SagaIterator {
  try {
    const flags = (yield call(fetchFeatureFlags)) as FeatureFlags;
    yield put(flagsActions.loaded(flags));
  } catch (error) {
    yield put(flagsActions.loadFailed(errorMessage(error)));
  }
}

/** Root saga of the flags feature. */
export function* flagsSaga(): SagaIterator {
  yield all([takeLatest(flagsActions.loadRequested.type, safely(loadFlags))]);
}
