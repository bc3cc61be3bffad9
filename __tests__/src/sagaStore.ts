// The real store and its sagas over stubbed API routes, for saga tests: the stub's calls, the
// recording store with its dispatched actions, and the sagas stopped (and mocks restored) after
// each test.
import { afterEach, jest } from '@jest/globals';
import type { AppStore } from '@src/store/store';
import { makeRecordingStore, signedInState, stubRoutes, type StubRoutes } from './fixtures';

let started: AppStore | undefined;
afterEach(() => {
  started?.sagaTask.cancel();
  started = undefined;
  jest.restoreAllMocks();
});

/**
 * Starts a signed-in store with `routes` stubbed. Returns the stub's calls and the recording
 * store (`store`, `actions`, `types`); its sagas stop after the test.
 */
export function startSagaStore(routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  started = recording.store;
  return { ...stub, ...recording };
}
