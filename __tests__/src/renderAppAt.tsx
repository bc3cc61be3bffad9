// The whole app rendered at an address over stubbed API routes, for page tests that follow links
// and the address: the recording store's actions, the stubbed calls, and the sagas stopped after
// each test.
import { afterEach } from '@jest/globals';
import { App } from '@src/app/App';
import type { AppStore } from '@src/store/store';
import {
  AddressProbe,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from './testUtils';

let mounted: AppStore | undefined;
afterEach(() => {
  mounted?.sagaTask.cancel();
  mounted = undefined;
});

/**
 * Renders the signed-in app at `route` (path and query) with `routes` stubbed, and the address
 * shown in the `location` test id (path and query). Returns the stub's calls and the recording
 * store with its dispatched actions; the sagas stop after the test.
 */
export function renderAppAt(route: string, routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  mounted = recording.store;
  renderWithProviders(
    <>
      <App />
      <AddressProbe />
    </>,
    { store: recording.store, route },
  );
  return { ...stub, ...recording };
}
