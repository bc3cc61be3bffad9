// Rendering helper of the client tests: the app's providers, a memory router and
// react-virtuoso's test viewport.
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { VirtuosoMockContext } from 'react-virtuoso';
import { AppProviders } from '@src/app/App';
import { makeStore, type AppStore } from '@src/store/store';

export * from './fixtures';

/** Options of {@link renderWithProviders}. */
export interface RenderOptions {
  store?: AppStore;
  route?: string;
}

/** Renders `ui` with the app's providers, a memory router at `route` and a test viewport. */
export function renderWithProviders(
  ui: ReactElement,
  { store = makeStore(), route = '/' }: RenderOptions = {},
): RenderResult & { store: AppStore } {
  const result = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[route]}>
        <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 48 }}>
          {ui}
        </VirtuosoMockContext.Provider>
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, store };
}

/** Renders the router's current path, for tests that check navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders the router's current path and query (`/history?type=added`), for tests of addresses. */
export function AddressProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}
