import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { sessionActions } from '@src/features/session/sessionSlice';
import {
  COULD_NOT_GET_MESSAGE,
  COULD_NOT_GET_OUTBOX,
  initialOutboxState,
  outboxActions,
  outboxReducer,
} from '@src/features/outbox/outboxSlice';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { makeMessage, makeSummary, outboxPage } from './outboxFixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

let store: AppStore | undefined;

function start(routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  return { ...stub, ...recording, store: recording.store };
}

afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

describe('outbox slice', () => {
  it('replaces the list with page 1 and appends later pages without duplicates', () => {
    let state = outboxReducer(initialOutboxState, outboxActions.outboxRequested());
    expect(state.status).toBe('loading');
    state = outboxReducer(
      state,
      outboxActions.outboxLoaded(outboxPage([makeSummary(3), makeSummary(2)], 3)),
    );
    expect(state).toMatchObject({ status: 'succeeded', page: 1, total: 3 });
    state = outboxReducer(state, outboxActions.outboxMoreRequested());
    expect(state.more).toBe('loading');
    state = outboxReducer(
      state,
      outboxActions.outboxLoaded(outboxPage([makeSummary(2), makeSummary(1)], 3, 2)),
    );
    expect(state.items.map((m) => m.to)).toEqual([
      'guest3@example.com',
      'guest2@example.com',
      'guest1@example.com',
    ]);
    // Everything is read: no further page is asked for.
    expect(outboxReducer(state, outboxActions.outboxMoreRequested()).more).toBe('idle');
  });

  it('keeps only the answer for the message still selected', () => {
    let state = outboxReducer(initialOutboxState, outboxActions.messageSelected(makeSummary(1).id));
    expect(state.message.status).toBe('loading');
    state = outboxReducer(state, outboxActions.messageSelected(makeSummary(2).id));
    const stale = outboxReducer(state, outboxActions.messageLoaded(makeMessage(1)));
    expect(stale.message.item).toBeNull();
    state = outboxReducer(state, outboxActions.messageLoaded(makeMessage(2)));
    expect(state.message).toEqual({ status: 'succeeded', error: null, item: makeMessage(2) });
    state = outboxReducer(state, outboxActions.messageSelected(null));
    expect(state.message).toEqual({ status: 'idle', error: null, item: null });
  });

  it('is emptied by a sign-out and a firm switch', () => {
    const loaded = outboxReducer(
      initialOutboxState,
      outboxActions.outboxLoaded(outboxPage([makeSummary(1)])),
    );
    expect(outboxReducer(loaded, sessionActions.signedOut())).toEqual(initialOutboxState);
    expect(outboxReducer(loaded, { type: sessionActions.databaseSwitched.type })).toEqual(
      initialOutboxState,
    );
  });
});

describe('outbox sagas', () => {
  it('reads the first page, then the next page at the end of the list', async () => {
    const { calls, store } = start({
      'GET /api/rest/private/outbox': (call) =>
        call.url.includes('page=2')
          ? { body: outboxPage([makeSummary(1)], 3, 2) }
          : { body: outboxPage([makeSummary(3), makeSummary(2)], 3) },
    });
    store.dispatch(outboxActions.outboxRequested());
    await waitFor(() => expect(store.getState().outbox.status).toBe('succeeded'));
    expect(calls[0]?.url).toBe('/api/rest/private/outbox?page=1&page_size=100');
    store.dispatch(outboxActions.outboxMoreRequested());
    await waitFor(() => expect(store.getState().outbox.items).toHaveLength(3));
    expect(calls[1]?.url).toBe('/api/rest/private/outbox?page=2&page_size=100');
  });

  it("says 'Could not get the outbox.' with the server's reason", async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/outbox\S* answered 403/);
    const { store } = start({
      'GET /api/rest/private/outbox': {
        status: 403,
        body: { message: 'Only administrators of this firm can do this.', code: 'admin_only' },
      },
    });
    store.dispatch(outboxActions.outboxRequested());
    await waitFor(() => expect(store.getState().outbox.status).toBe('failed'));
    expect(store.getState().outbox.error).toBe(
      `${COULD_NOT_GET_OUTBOX} Only administrators of this firm can do this.`,
    );
  });

  it('reads the selected message, and reports one that cannot be read', async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    const { calls, store } = start({
      [`GET /api/rest/private/outbox/${makeSummary(1).id}`]: { body: makeMessage(1) },
    });
    store.dispatch(outboxActions.messageSelected(makeSummary(1).id));
    await waitFor(() => expect(store.getState().outbox.message.status).toBe('succeeded'));
    expect(store.getState().outbox.message.item?.text).toContain('Please sign.');
    expect(callsTo(calls, `GET /api/rest/private/outbox/${makeSummary(1).id}`)).toHaveLength(1);

    store.dispatch(outboxActions.messageSelected(makeSummary(2).id));
    await waitFor(() => expect(store.getState().outbox.message.status).toBe('failed'));
    expect(store.getState().outbox.message.error).toBe(`${COULD_NOT_GET_MESSAGE} Not found.`);
  });
});
