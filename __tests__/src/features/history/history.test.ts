import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import {
  selectHasMoreHistory,
  selectHistoryRows,
} from '../../../../src/features/history/historySelectors';
import {
  historyActions,
  historyReducer,
  initialHistoryState,
} from '../../../../src/features/history/historySlice';
import { sessionActions } from '../../../../src/features/session/sessionSlice';
import { rootReducer, type RootState } from '../../../../src/store/rootReducer';
import type { AppStore } from '../../../../src/store/store';
import {
  callsTo,
  makeEvent,
  makePage,
  makeRecordingStore,
  makeUser,
  signedInState,
  stubRoutes,
} from '../../fixtures';

describe('historySlice', () => {
  it('loads pages newest first and ignores stale pages', () => {
    let state = historyReducer(initialHistoryState, historyActions.opened());
    expect(state.list.status).toBe('loading');
    state = historyReducer(
      state,
      historyActions.pageLoaded(makePage([makeEvent({ id: 'e2' })], 1, 2)),
    );
    expect(state).toMatchObject({ page: 1, total: 2, list: { status: 'succeeded' } });
    state = historyReducer(state, historyActions.nextPageRequested());
    expect(state.more.status).toBe('loading');
    state = historyReducer(
      state,
      historyActions.pageLoaded(makePage([makeEvent({ id: 'e1' })], 2, 2)),
    );
    expect(state.events.map((event) => event.id)).toEqual(['e2', 'e1']);
    expect(historyReducer(state, historyActions.pageLoaded(makePage([makeEvent()], 2, 2)))).toBe(
      state,
    );
    expect(historyReducer(state, historyActions.nextPageRequested()).more.status).toBe('succeeded');
  });

  it('records failures and resets on a database switch', () => {
    const failed = historyReducer(
      historyReducer(initialHistoryState, historyActions.opened()),
      historyActions.pageLoadFailed({ page: 1, message: 'Down.' }),
    );
    expect(failed.list).toEqual({ status: 'failed', error: 'Down.' });
    expect(historyReducer(failed, sessionActions.databaseSwitched(makeUser()))).toEqual(
      initialHistoryState,
    );
  });
});

describe('history selectors', () => {
  function stateWith(events = [makeEvent()], total = events.length): RootState {
    const initial = rootReducer(undefined, { type: 'test/init' });
    return { ...initial, history: { ...initial.history, events, total } };
  }

  it('renders each event with renderHistoryEvent', () => {
    const [row] = selectHistoryRows(
      stateWith([
        makeEvent({ entity_type: 'folder', action: 'create', attributes: { name: 'Reports' } }),
      ]),
    );
    expect(row!.summary).toBe('Ada Lovelace added folder "Reports"');
    expect(row!.icon).toBe('add');
    expect(row!.dateText).toMatch(/2024/);
  });

  it('knows when more events remain', () => {
    expect(selectHasMoreHistory(stateWith([makeEvent()], 5))).toBe(true);
    expect(selectHasMoreHistory(stateWith([makeEvent()], 1))).toBe(false);
  });
});

describe('history sagas', () => {
  let store: AppStore | undefined;
  let consoleError: jest.SpiedFunction<typeof console.error>;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    consoleError.mockRestore();
  });

  it('POSTs empty filters for page 1, then page 2 at the end', async () => {
    const { calls } = stubRoutes({
      'POST /api/rest/history': (call) => ({
        body: call.url.endsWith('page=2')
          ? makePage([makeEvent({ id: 'old' })], 2, 2, 1)
          : makePage([makeEvent({ id: 'new' })], 1, 2, 1),
      }),
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    store.dispatch(historyActions.opened());
    await waitFor(() => expect(store!.getState().history.list.status).toBe('succeeded'));
    store.dispatch(historyActions.nextPageRequested());
    await waitFor(() => expect(store!.getState().history.more.status).toBe('succeeded'));
    expect(callsTo(calls, 'POST /api/rest/history').map((call) => [call.url, call.body])).toEqual([
      ['/api/rest/history?page=1', {}],
      ['/api/rest/history?page=2', {}],
    ]);
    expect(store.getState().history.events.map((event) => event.id)).toEqual(['new', 'old']);
  });

  it("reports the server's message on failure", async () => {
    stubRoutes({
      'POST /api/rest/history': { status: 500, body: { message: 'History is down.', code: 'x' } },
    });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    store.dispatch(historyActions.opened());
    await waitFor(() => expect(store!.getState().history.list.status).toBe('failed'));
    expect(store.getState().history.list.error).toBe('History is down.');
  });
});
