import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import type { HistoryEventDto, HistoryPageDto, HistoryStatsDto } from '@common/history';
import {
  selectHasMoreHistory,
  selectHistoryCountText,
  selectHistoryRows,
  selectItemHistoryRows,
} from '@src/features/history/historySelectors';
import {
  historyActions,
  historyReducer,
  initialHistoryState,
} from '@src/features/history/historySlice';
import { EMPTY_VIEW } from '@src/features/history/historyView';
import { sessionActions } from '@src/features/session/sessionSlice';
import { rootReducer, type RootState } from '@src/store/rootReducer';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeEvent,
  makeRecordingStore,
  makeUser,
  signedInState,
  stubRoutes,
} from '../../fixtures';
import { allowConsoleError } from '../../consoleErrors';

/** A page of history as the server answers it. */
function historyPage(
  items: HistoryEventDto[],
  page = 1,
  nextCursor: string | null = null,
  total = items.length,
): HistoryPageDto {
  return { items, page, page_size: 50, total, total_exact: true, next_cursor: nextCursor };
}

const STATS: HistoryStatsDto = {
  start: '2024-05-01T00:00:00.000Z',
  end: '2024-05-03T00:00:00.000Z',
  time_zone: 'UTC',
  total: 3,
  days: [
    { date: '2024-05-01', count: 1 },
    { date: '2024-05-02', count: 2 },
  ],
  types: [
    { label: 'Added', count: 2 },
    { label: 'Other', count: 1 },
  ],
  labels: [],
};

const opened = (filters = {}) =>
  historyActions.viewOpened({
    view: EMPTY_VIEW,
    filters,
    statsRange: { start: STATS.start, end: STATS.end },
  });

describe('historySlice', () => {
  it('loads pages newest first by cursor and ignores stale pages', () => {
    let state = historyReducer(initialHistoryState, opened({ labels: ['Added'] }));
    expect(state.list.status).toBe('loading');
    expect(state.filters).toEqual({ labels: ['Added'] });
    expect(state.stats).toMatchObject({ status: 'loading', range: { start: STATS.start } });
    state = historyReducer(
      state,
      historyActions.pageLoaded(historyPage([makeEvent({ id: 'e2' })], 1, 'e2', 2)),
    );
    expect(state).toMatchObject({
      page: 1,
      total: 2,
      nextCursor: 'e2',
      list: { status: 'succeeded' },
    });
    state = historyReducer(state, historyActions.nextPageRequested());
    expect(state.more.status).toBe('loading');
    state = historyReducer(
      state,
      historyActions.pageLoaded(historyPage([makeEvent({ id: 'e1' })], 2, null, 2)),
    );
    expect(state.events.map((event) => event.id)).toEqual(['e2', 'e1']);
    expect(state.nextCursor).toBeNull();
    // A page that is not the next one is ignored.
    expect(historyReducer(state, historyActions.pageLoaded(historyPage([makeEvent()], 2)))).toBe(
      state,
    );
    // No cursor: nothing more to load.
    expect(historyReducer(state, historyActions.nextPageRequested()).more.status).toBe('succeeded');
  });

  it('starts over when the view changes, keeping the last stats on screen', () => {
    let state = historyReducer(initialHistoryState, opened());
    state = historyReducer(state, historyActions.pageLoaded(historyPage([makeEvent()], 1)));
    state = historyReducer(state, historyActions.statsLoaded(STATS));
    state = historyReducer(state, opened({ user_id: 'u2' }));
    expect(state).toMatchObject({ events: [], page: 0, list: { status: 'loading' } });
    expect(state.stats).toMatchObject({ status: 'loading', data: STATS });
  });

  it('records failures, export states, and resets on a database switch', () => {
    const failed = historyReducer(
      historyReducer(initialHistoryState, opened()),
      historyActions.pageLoadFailed({ page: 1, message: 'Down.' }),
    );
    expect(failed.list).toEqual({ status: 'failed', error: 'Down.' });
    let exporting = historyReducer(failed, historyActions.exportRequested());
    expect(exporting.exporting.status).toBe('loading');
    expect(historyReducer(exporting, historyActions.exportRequested())).toBe(exporting);
    exporting = historyReducer(exporting, historyActions.exportFailed('No.'));
    expect(exporting.exporting).toEqual({ status: 'failed', error: 'No.', fileName: null });
    expect(historyReducer(failed, sessionActions.databaseSwitched(makeUser()))).toEqual(
      initialHistoryState,
    );
  });

  it('keeps the item panel apart and ignores pages of another item', () => {
    let state = historyReducer(
      initialHistoryState,
      historyActions.itemPanelOpened({ type: 'folder', id: 'f1', name: 'Clients' }),
    );
    expect(state.item).toMatchObject({ target: { id: 'f1' }, list: { status: 'loading' } });
    const stale = historyReducer(
      state,
      historyActions.itemPageLoaded({ id: 'f9', page: historyPage([makeEvent()]) }),
    );
    expect(stale).toBe(state);
    state = historyReducer(
      state,
      historyActions.itemPageLoaded({
        id: 'f1',
        page: historyPage([makeEvent({ id: 'i1' })], 1, 'i1'),
      }),
    );
    expect(state.item.events.map((e) => e.id)).toEqual(['i1']);
    expect(state.events).toEqual([]);
    state = historyReducer(state, historyActions.itemPanelClosed());
    expect(state.item.target).toBeNull();
  });
});

describe('history selectors', () => {
  function stateWith(events = [makeEvent()], total = events.length, exact = true): RootState {
    const initial = rootReducer(undefined, { type: 'test/init' });
    return {
      ...initial,
      history: {
        ...initial.history,
        events,
        total,
        totalExact: exact,
        nextCursor: total > events.length ? 'c' : null,
        item: { ...initial.history.item, events },
      },
    };
  }

  it('renders each event with renderHistoryEvent', () => {
    const state = stateWith([
      makeEvent({ entity_type: 'folder', action: 'create', attributes: { name: 'Reports' } }),
    ]);
    const [row] = selectHistoryRows(state);
    expect(row!.summary).toBe('Ada Lovelace added folder "Reports"');
    expect(row!.icon).toBe('add');
    expect(row!.dateText).toMatch(/2024/);
    expect(selectItemHistoryRows(state)[0]!.summary).toBe(row!.summary);
  });

  it('knows when more events remain and how to count them', () => {
    expect(selectHasMoreHistory(stateWith([makeEvent()], 5))).toBe(true);
    expect(selectHasMoreHistory(stateWith([makeEvent()], 1))).toBe(false);
    expect(selectHistoryCountText(stateWith([makeEvent()], 1))).toBe('1 event');
    expect(selectHistoryCountText(stateWith([makeEvent()], 1234))).toBe('1,234 events');
    expect(selectHistoryCountText(stateWith([makeEvent()], 10_000, false))).toBe('10,000+ events');
  });
});

describe('history sagas', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  it('POSTs the filters for page 1, then the cursor for page 2; loads stats and users', async () => {
    const { calls } = stubRoutes({
      'POST /api/rest/history': (call) => ({
        body: (call.body as { cursor?: string }).cursor
          ? historyPage([makeEvent({ id: 'old' })], 2, null, 2)
          : historyPage([makeEvent({ id: 'new' })], 1, 'new', 2),
      }),
      'GET /api/rest/history/stats': { body: STATS },
      'GET /api/rest/history/users': { body: [{ id: 'u1', name: 'Ada Lovelace' }] },
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    store.dispatch(opened({ labels: ['Added'] }));
    await waitFor(() => expect(store!.getState().history.list.status).toBe('succeeded'));
    store.dispatch(historyActions.nextPageRequested());
    await waitFor(() => expect(store!.getState().history.more.status).toBe('succeeded'));
    expect(callsTo(calls, 'POST /api/rest/history').map((call) => [call.url, call.body])).toEqual([
      ['/api/rest/history?page=1&page_size=50', { labels: ['Added'] }],
      ['/api/rest/history?page=2&page_size=50', { labels: ['Added'], cursor: 'new' }],
    ]);
    expect(store.getState().history.events.map((event) => event.id)).toEqual(['new', 'old']);
    await waitFor(() => expect(store!.getState().history.stats.data).toEqual(STATS));
    const statsUrl = callsTo(calls, 'GET /api/rest/history/stats')[0]!.url;
    expect(statsUrl).toContain(`start=${encodeURIComponent(STATS.start)}`);
    expect(statsUrl).toContain(`end=${encodeURIComponent(STATS.end)}`);
    expect(statsUrl).toMatch(/time_zone=[^&]+/);
    await waitFor(() => expect(store!.getState().history.users.items).toHaveLength(1));
    // The members are loaded once per firm.
    store.dispatch(opened());
    await waitFor(() => expect(store!.getState().history.list.status).toBe('succeeded'));
    expect(callsTo(calls, 'GET /api/rest/history/users')).toHaveLength(1);
  });

  it("reports the server's message on failure", async () => {
    allowConsoleError(
      /^POST \/api\/rest\/history\S* answered 500/,
      /^GET \/api\/rest\/history\/stats\S* answered 400/,
    );
    stubRoutes({
      'POST /api/rest/history': { status: 500, body: { message: 'History is down.', code: 'x' } },
      'GET /api/rest/history/stats': { status: 400, body: { message: 'Bad range.', code: 'y' } },
      'GET /api/rest/history/users': { body: [] },
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    store.dispatch(opened());
    await waitFor(() => expect(store!.getState().history.list.status).toBe('failed'));
    expect(store.getState().history.list.error).toBe('History is down.');
    await waitFor(() => expect(store!.getState().history.stats.error).toBe('Bad range.'));
  });

  it("loads the item panel's pages by cursor", async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/files/file1/history': (call) => ({
        body: call.url.includes('cursor=')
          ? historyPage([makeEvent({ id: 'b' })], 2)
          : historyPage([makeEvent({ id: 'a' })], 1, 'a', 2),
      }),
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    store.dispatch(historyActions.itemPanelOpened({ type: 'file', id: 'file1', name: 'a.pdf' }));
    await waitFor(() => expect(store!.getState().history.item.list.status).toBe('succeeded'));
    store.dispatch(historyActions.itemNextPageRequested());
    await waitFor(() => expect(store!.getState().history.item.events).toHaveLength(2));
    expect(callsTo(calls, 'GET /api/rest/files/file1/history').map((c) => c.url)).toEqual([
      '/api/rest/files/file1/history?page=1&page_size=50',
      '/api/rest/files/file1/history?page=2&page_size=50&cursor=a',
    ]);
  });
});
