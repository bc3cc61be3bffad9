/** The store factory used by the app and the tests (DESIGN.md section 5). */
import { configureStore, type Action, type Middleware } from '@reduxjs/toolkit';
import createSagaMiddleware, { type Task } from 'redux-saga';
import { sessionActions } from '../features/session/sessionSlice';
import { sanitizeSharingAction } from '../features/sharing/sharingSagas';
import { rootReducer, type RootState } from './rootReducer';
import { rootSaga } from './rootSaga';
import { sanitizeAdminAction } from '../features/admin/sanitizeAdminAction';
import { sanitizeDocumentRequestsAction } from '../features/documentRequests/documentRequestsSagas';
import { sanitizePublicRequestAction } from '../features/documentRequests/public/publicRequestSagas';

/** Keeps passwords and keys out of the developer tools' action log. */
function sanitizeAction<A extends Action>(action: A): A {
  if (sessionActions.signInRequested.match(action)) {
    return { ...action, payload: { ...action.payload, password: '••••••' } };
  }
  return sanitizePublicRequestAction(
    sanitizeDocumentRequestsAction(sanitizeSharingAction(sanitizeAdminAction(action))),
  );
}

/** Options of {@link makeStore}. */
export interface MakeStoreOptions {
  /** Middleware added before the saga middleware (tests record the dispatched actions). */
  middleware?: Middleware[];
  /**
   * The sagas' context (redux-saga `getContext`): tests pass fakes of browser handles, e.g. a
   * `sessionEnvironment` (sessionTimeoutSagas.ts) per simulated tab.
   */
  sagaContext?: Record<string, unknown>;
}

/**
 * Creates the store with the saga middleware and runs the root saga.
 * @param preloadedState state to start from (tests preload slices)
 * @param options extra middleware and saga context
 * @returns the store, with the root saga's task as `sagaTask` (cancel it to stop the sagas)
 */
export function makeStore(preloadedState?: Partial<RootState>, options: MakeStoreOptions = {}) {
  const sagaMiddleware = createSagaMiddleware(
    options.sagaContext ? { context: options.sagaContext } : {},
  );
  const extra = options.middleware ?? [];
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: false }).concat(...extra, sagaMiddleware),
    devTools: process.env.NODE_ENV === 'production' ? false : { actionSanitizer: sanitizeAction },
  });
  const sagaTask: Task = sagaMiddleware.run(rootSaga);
  return Object.assign(store, { sagaTask });
}

/** The app's store type. */
export type AppStore = ReturnType<typeof makeStore>;
/** The store's dispatch type. */
export type AppDispatch = AppStore['dispatch'];
export type { RootState };
