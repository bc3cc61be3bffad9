import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigate, type NavigateFunction } from 'react-router';
import type { SearchHitDto } from '@common/search';
import type { CursorPage } from '@common/api';
import type { HistoryPageDto, HistoryStatsDto } from '@common/history';
import { App } from '@src/app/App';
import {
  DETAILS_PARAM,
  formatDetailsParam,
  parseDetailsParam,
  withoutDetailsParam,
} from '@src/features/details/detailsLink';
import { detailsActions } from '@src/features/details/detailsSlice';
import { hitRoute } from '@src/features/search/components/SearchBox';
import type { AppStore } from '@src/store/store';
import {
  AddressProbe,
  callsTo,
  makeFile,
  makeFolder,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

describe('the details parameter', () => {
  it('names a file or a folder, and not the root folder', () => {
    expect(formatDetailsParam({ type: 'file', id: 'a1-b2' })).toBe('file:a1-b2');
    expect(formatDetailsParam({ type: 'folder', id: 'f2' })).toBe('folder:f2');
    expect(formatDetailsParam({ type: 'folder', id: '' })).toBeNull();
    expect(formatDetailsParam(null)).toBeNull();
  });

  it('reads back what it wrote and ignores anything malformed', () => {
    expect(parseDetailsParam('file:01a210d0-ad8f-71db-bdff-ef267e72a058')).toEqual({
      type: 'file',
      id: '01a210d0-ad8f-71db-bdff-ef267e72a058',
    });
    expect(parseDetailsParam('folder:f2')).toEqual({ type: 'folder', id: 'f2' });
    for (const bad of [null, '', 'file', 'file:', ':f2', 'user:u1', 'file:a/b', 'file:a b']) {
      expect(parseDetailsParam(bad)).toBeNull();
    }
    expect(parseDetailsParam(`file:${'a'.repeat(65)}`)).toBeNull();
  });

  it("leaves a page's own query without it", () => {
    expect(withoutDetailsParam(new URLSearchParams('type=added&details=file:x1&item=f1'))).toBe(
      'type=added&item=f1',
    );
    expect(withoutDetailsParam(new URLSearchParams('q=smith'))).toBe('q=smith');
  });
});

const empty: CursorPage<never> = {
  items: [],
  page: 1,
  page_size: 100,
  total: 0,
  next_cursor: null,
};
const statement = makeFile({ id: 'file1', name: 'Statement.pdf', folder_id: 'f2' });
const smith = makeFolder({ id: 'f2', name: 'Smith', parent_id: '' });
const routes: StubRoutes = {
  'GET /api/rest/entities/favorites': { body: empty },
  'GET /api/rest/files/file1': { body: statement },
  'GET /api/rest/folders/f2': { body: smith },
  'GET /api/rest/folders/f2/breadcrumbs': {
    body: [{ id: 'f2', name: 'Smith', type: 'breadcrumb' }],
  },
  'GET /api/rest/folders/f2/stats': {
    body: { folder_id: 'f2', folders: 0, files: 1, size: 10, by_type: [] },
  },
};

let navigateTo: NavigateFunction | undefined;

/** Hands out the router's navigate function, for navigations made from outside the app. */
function NavigateCapture() {
  navigateTo = useNavigate();
  return null;
}

/** The address shown by the probe, decoded (the router keeps `:` as typed, and writes `%3A`). */
const locationText = () => decodeURIComponent(screen.getByTestId('location').textContent ?? '');
const panelItem = () => screen.findByTestId('details-item');

describe('deep links to the side panel', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
    navigateTo = undefined;
  });

  function renderAt(route: string, extra: StubRoutes = {}) {
    const stub = stubRoutes({ ...routes, ...extra });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(
      <>
        <App />
        <AddressProbe />
        <NavigateCapture />
      </>,
      { store, route },
    );
    return stub;
  }

  it('opens the item an address names, as after a reload', async () => {
    const { calls } = renderAt(`/favorites?${DETAILS_PARAM}=file:file1`);
    const item = await panelItem();
    expect(within(item).getByText('Statement.pdf', { selector: 'h2' })).toBeInTheDocument();
    expect(store!.getState().details.target).toEqual({ id: 'file1', type: 'file' });
    expect(callsTo(calls, 'GET /api/rest/files/file1')).toHaveLength(1);
    expect(locationText()).toBe('/favorites?details=file:file1');
  });

  it('writes the open item into the address and removes it when the panel closes', async () => {
    renderAt('/favorites');
    expect(locationText()).toBe('/favorites');
    act(() => {
      store!.dispatch(detailsActions.panelOpened({ id: 'f2', type: 'folder' }));
    });
    await waitFor(() => expect(locationText()).toBe('/favorites?details=folder:f2'));
    act(() => {
      store!.dispatch(detailsActions.panelOpened({ id: 'file1', type: 'file' }));
    });
    await waitFor(() => expect(locationText()).toBe('/favorites?details=file:file1'));
    act(() => {
      store!.dispatch(detailsActions.panelClosed());
    });
    await waitFor(() => expect(locationText()).toBe('/favorites'));
    expect(store!.getState().details.target).toBeNull();
  });

  it('closes the panel when a navigation leaves the item out, and opens another it names', async () => {
    renderAt(`/favorites?${DETAILS_PARAM}=file:file1`);
    await panelItem();
    act(() => {
      void navigateTo!(`/favorites?${DETAILS_PARAM}=folder:f2`);
    });
    await waitFor(() =>
      expect(store!.getState().details.target).toEqual({ id: 'f2', type: 'folder' }),
    );
    act(() => {
      void navigateTo!('/favorites');
    });
    await waitFor(() => expect(store!.getState().details.target).toBeNull());
    expect(locationText()).toBe('/favorites');
  });

  it("opens a search hit's file over its folder", async () => {
    renderAt('/favorites');
    const hit: SearchHitDto = { ...statement, path: [], matched_in: [] };
    act(() => {
      void navigateTo!(hitRoute(hit));
    });
    const item = await panelItem();
    expect(within(item).getByText('Statement.pdf', { selector: 'h2' })).toBeInTheDocument();
    expect(locationText()).toBe('/home/folders/f2?details=file:file1');
    expect(store!.getState().details.target).toEqual({ id: 'file1', type: 'file' });
  });

  it("closes the panel when its Open button goes to the folder's page", async () => {
    renderAt(`/favorites?${DETAILS_PARAM}=folder:f2`);
    const item = await panelItem();
    await userEvent.click(within(item).getByText('Open').closest('button')!);
    await waitFor(() => expect(store!.getState().details.target).toBeNull());
    expect(locationText()).toBe('/home/folders/f2');
  });

  it('drops a malformed parameter and opens nothing', async () => {
    renderAt(`/favorites?${DETAILS_PARAM}=user:u1`);
    await waitFor(() => expect(locationText()).toBe('/favorites'));
    expect(store!.getState().details.target).toBeNull();
  });

  it('does not reload the History list when an item opens over it', async () => {
    const page: HistoryPageDto = {
      items: [],
      page: 1,
      page_size: 50,
      total: 0,
      total_exact: true,
      next_cursor: null,
    };
    const stats: HistoryStatsDto = {
      start: '2024-05-01T00:00:00.000Z',
      end: '2024-05-02T00:00:00.000Z',
      time_zone: 'UTC',
      total: 0,
      labels: [],
      days: [],
      types: [],
    };
    const { calls } = renderAt('/history?type=added', {
      'POST /api/rest/history': { body: page },
      'GET /api/rest/history/stats': { body: stats },
      'GET /api/rest/history/users': { body: [] },
    });
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/history')).toHaveLength(1));
    act(() => {
      store!.dispatch(detailsActions.panelOpened({ id: 'file1', type: 'file' }));
    });
    await panelItem();
    expect(locationText()).toBe('/history?type=added&details=file:file1');
    expect(callsTo(calls, 'POST /api/rest/history')).toHaveLength(1);
  });
});
