/** Sagas of the flags feature: read the server's feature flags on `flags/loadRequested`. */
import { all, call, put, takeLatest } from 'typed-redux-saga';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { fetchFeatureFlags } from './flagsApi';
import { flagsActions } from './flagsSlice';
import type { Saga } from '@src/sagas/saga';

/** Loads the flags; a failure keeps the defaults. */
export function* loadFlags(): Saga {
  try {
    const flags = yield* call(fetchFeatureFlags);
    yield* put(flagsActions.loaded(flags));
  } catch (error) {
    yield* put(flagsActions.loadFailed(errorMessage(error)));
  }
}

/** Root saga of the flags feature. */
export function* flagsSaga(): Saga {
  yield* all([takeLatest(flagsActions.loadRequested.type, safely(loadFlags))]);
}
