// The replay slice, selectors and sagas on a real store: the state at each position of the window
// (stepped with common/replay.ts), the highlights of each entry, where Previous and Next go
// (inside the window, or reading the one before or after it), and the breadcrumbs' renames.
import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { crumbsAt, planStep, stateThrough } from '@src/features/replay/replayModel';
import {
  selectReplayCanStep,
  selectReplayChanges,
  selectReplayCrumbs,
  selectReplayFolderMissing,
  selectReplayIsLegacy,
  selectReplayState,
  selectReplayTimeline,
} from '@src/features/replay/replaySelectors';
import {
  NOW_MOMENT,
  initialReplayState,
  replayActions,
  replayReducer,
} from '@src/features/replay/replaySlice';
import type { AppStore } from '@src/store/store';
import { callsTo, makeRecordingStore, signedInState, stubRoutes } from '../../testUtils';
import { ENTRY_EVENTS, makeReplayEvent, makeView } from './replayFixtures';

const VIEW_ROUTE = 'GET /api/rest/replay/folders/f1';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

/** A store holding `view` at its position, as if the page had read it. */
function storeWith(view = makeView()) {
  const recording = makeRecordingStore({
    ...signedInState(),
    replay: {
      ...initialReplayState,
      folderId: 'f1',
      visit: 1,
      moment: {
        as_of: null,
        event: view.entries[view.position]?.event.id ?? null,
        before_event: null,
      },
      status: 'ready',
      view,
      position: view.position,
    },
  });
  store = recording.store;
  return recording;
}

describe('replay selectors', () => {
  it('steps the base through the entries up to the position', () => {
    const view = makeView();
    const names = (position: number) =>
      Object.values(stateThrough(view, position).items)
        .filter((item) => item.parentId === 'f1')
        .map((item) => `${item.name}${item.archivedRootId ? ' (archived)' : ''}`)
        .sort();
    expect(names(-1)).toEqual(['Statement.pdf', 'Tax']);
    expect(names(0)).toEqual(['Letter.pdf', 'Statement.pdf', 'Tax']);
    expect(names(1)).toEqual(['Letter.pdf', 'Statement 2024.pdf', 'Tax']);
    expect(names(2)).toEqual(['Letter.pdf', 'Statement 2024.pdf', 'Tax (archived)']);
    expect(names(3)).toEqual(['Statement 2024.pdf', 'Tax (archived)']);
    // The view itself is left as it was.
    expect(Object.keys(view.base.items).sort()).toEqual(['a', 'f1', 's']);
  });

  it('answers the same state at every position whatever the order it is asked in (its cache)', () => {
    const positions = [3, 1, 2, -1, 0, 3, 2, 1, 0, 2, 3, -1];
    const fresh = (position: number) => JSON.stringify(stateThrough(makeView(), position).items);
    const view = makeView();
    const base = JSON.stringify(view.base);
    for (const position of positions) {
      expect(JSON.stringify(stateThrough(view, position).items)).toBe(fresh(position));
    }
    expect(JSON.stringify(view.base)).toBe(base);
  });

  it('highlights what each entry changed, and says when replay could not read one', () => {
    const { store } = storeWith(makeView({ position: 0 }));
    const at = (position: number) => {
      store.dispatch(replayActions.positionChanged({ position }));
      return selectReplayChanges(store.getState());
    };
    expect(at(0)).toEqual([{ id: 'b', name: 'Letter.pdf', changes: ['added'] }]);
    expect(at(1)).toEqual([{ id: 'a', name: 'Statement 2024.pdf', changes: ['renamed'] }]);
    expect(at(2)).toEqual([{ id: 's', name: 'Tax', changes: ['archived'] }]);
    expect(at(3)).toEqual([{ id: 'b', name: 'Letter.pdf', changes: ['moved_out'] }]);
    expect(selectReplayIsLegacy(store.getState())).toBe(false);
    expect(at(4)).toEqual([]);
    expect(selectReplayIsLegacy(store.getState())).toBe(true);
    expect(at(-1)).toEqual([]);
    expect(selectReplayState(store.getState())?.items.b).toBeUndefined();
  });

  it('memoises the state of a position', () => {
    const { store } = storeWith();
    const first = selectReplayState(store.getState());
    expect(selectReplayState(store.getState())).toBe(first);
    store.dispatch(replayActions.positionChanged({ position: 1 }));
    expect(selectReplayState(store.getState())).not.toBe(first);
  });

  it('lists the timeline in words, oldest first', () => {
    const { store } = storeWith();
    const rows = selectReplayTimeline(store.getState());
    expect(rows.map((row) => row.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(rows[1]).toMatchObject({
      summary: expect.stringContaining('Ada Lovelace renamed'),
      userName: 'Ada Lovelace',
      at: '2024-03-05T10:01:00.000Z',
    });
    expect(rows[4]?.summary).toBe('Folder tidied up (imported entry)');
  });

  it('says when the folder did not exist yet', () => {
    const view = makeView({ folder_id: 'new', position: -1 });
    const { store } = storeWith(view);
    expect(selectReplayFolderMissing(store.getState())).toBe(true);
  });

  it('renames the crumbs above the folder along the timeline', () => {
    const rename = makeReplayEvent({
      id: 'r1',
      seq: 20,
      entity_id: 'p',
      action: 'rename',
      attributes: { name: 'Families', prev: { name: 'Clients old' }, next: { name: 'Families' } },
    });
    const view = makeView({
      folder_id: 'f1',
      breadcrumbs: [
        { id: '', name: 'Root' },
        { id: 'p', name: 'Families' },
      ],
      entries: [...ENTRY_EVENTS, rename].map((event) => ({ event, enters: [] })),
      position: 5,
    });
    expect(crumbsAt(view, 5).map((c) => c.name)).toEqual(['Root', 'Families']);
    expect(crumbsAt(view, 4).map((c) => c.name)).toEqual(['Root', 'Clients old']);
    const { store } = storeWith(view);
    store.dispatch(replayActions.positionChanged({ position: 2 }));
    expect(selectReplayCrumbs(store.getState()).map((c) => c.name)).toEqual([
      'Root',
      'Clients old',
    ]);
  });
});

describe('where a step goes', () => {
  it('moves inside the window, and stops at its ends without more', () => {
    const view = makeView({ position: 2 });
    expect(planStep(view, 2, 'previous')).toEqual({ kind: 'move', position: 1 });
    expect(planStep(view, 2, 'next')).toEqual({ kind: 'move', position: 3 });
    expect(planStep(view, 0, 'previous')).toEqual({ kind: 'move', position: -1 });
    expect(planStep(view, -1, 'previous')).toEqual({ kind: 'none' });
    expect(planStep(view, 4, 'next')).toEqual({ kind: 'none' });
  });

  it('reads the window before the first entry, or at the last one and then one on', () => {
    const view = makeView({ has_earlier: true, has_later: true });
    expect(planStep(view, 0, 'previous')).toEqual({
      kind: 'fetch',
      moment: { as_of: null, event: null, before_event: 'e1' },
      followUp: null,
    });
    expect(planStep(view, 4, 'next')).toEqual({
      kind: 'fetch',
      moment: { as_of: null, event: 'e5', before_event: null },
      followUp: 'next',
    });
  });
});

describe('replay store', () => {
  it('reads the view the page opens, once per visit, and steps with Previous and Next', async () => {
    const { calls } = stubRoutes({ [VIEW_ROUTE]: { body: makeView({ position: 2 }) } });
    const { store, types } = storeWith(makeView());
    const moment = { as_of: null, event: 'e3', before_event: null };
    store.dispatch(replayActions.viewOpened({ folderId: 'f1', moment, visit: 2 }));
    await waitFor(() => expect(store.getState().replay.status).toBe('ready'));
    expect(callsTo(calls, VIEW_ROUTE)[0]?.url).toBe('/api/rest/replay/folders/f1?event=e3');
    expect(store.getState().replay.position).toBe(2);
    // The same moment again (the address caught up with the store): nothing is read.
    store.dispatch(replayActions.viewOpened({ folderId: 'f1', moment, visit: 2 }));
    expect(callsTo(calls, VIEW_ROUTE)).toHaveLength(1);

    store.dispatch(replayActions.stepRequested({ direction: 'previous' }));
    expect(store.getState().replay.position).toBe(1);
    expect(store.getState().replay.moment).toEqual({
      as_of: null,
      event: 'e2',
      before_event: null,
    });
    store.dispatch(replayActions.stepRequested({ direction: 'next' }));
    store.dispatch(replayActions.stepRequested({ direction: 'next' }));
    expect(store.getState().replay.position).toBe(3);
    expect(callsTo(calls, VIEW_ROUTE)).toHaveLength(1);
    expect(types()).toContain('replay/positionChanged');
  });

  it('reads the earlier window when stepping back past the first entry', async () => {
    const earlier = makeView({ position: 1, has_earlier: false });
    const { calls } = stubRoutes({ [VIEW_ROUTE]: { body: earlier } });
    const { store } = storeWith(makeView({ position: 0, has_earlier: true }));
    store.dispatch(replayActions.stepRequested({ direction: 'previous' }));
    expect(store.getState().replay.status).toBe('loading');
    await waitFor(() => expect(store.getState().replay.status).toBe('ready'));
    expect(callsTo(calls, VIEW_ROUTE)[0]?.url).toBe('/api/rest/replay/folders/f1?before_event=e1');
    expect(store.getState().replay.position).toBe(1);
    expect(store.getState().replay.moment).toEqual({
      as_of: null,
      event: null,
      before_event: 'e1',
    });
  });

  it('reads the later window at the last entry and steps one on', async () => {
    const later = makeView({ position: 2, has_later: false });
    const { calls } = stubRoutes({ [VIEW_ROUTE]: { body: later } });
    const { store } = storeWith(makeView({ position: 4, has_later: true }));
    expect(selectReplayCanStep(store.getState())).toEqual({ previous: true, next: true });
    store.dispatch(replayActions.stepRequested({ direction: 'next' }));
    await waitFor(() => expect(store.getState().replay.status).toBe('ready'));
    expect(callsTo(calls, VIEW_ROUTE)[0]?.url).toBe('/api/rest/replay/folders/f1?event=e5');
    expect(store.getState().replay.position).toBe(3);
    expect(store.getState().replay.moment.event).toBe('e4');
  });

  it('stops stepping where a further window holds nothing new', async () => {
    // Next past the end: the window at the last entry has nothing after it.
    stubRoutes({ [VIEW_ROUTE]: { body: makeView({ position: 4, has_later: true }) } });
    const { store } = storeWith(makeView({ position: 4, has_later: true }));
    store.dispatch(replayActions.stepRequested({ direction: 'next' }));
    await waitFor(() => expect(store.getState().replay.status).toBe('ready'));
    expect(store.getState().replay.position).toBe(4);
    expect(selectReplayCanStep(store.getState()).next).toBe(false);

    // Previous past the start: the window before the first entry starts with that same entry.
    stubRoutes({ [VIEW_ROUTE]: { body: makeView({ position: -1, has_earlier: true }) } });
    store.dispatch(replayActions.positionChanged({ position: 0 }));
    const withEarlier = makeView({ position: 0, has_earlier: true });
    store.dispatch(
      replayActions.viewLoaded({
        folderId: 'f1',
        moment: store.getState().replay.moment,
        visit: 1,
        view: withEarlier,
      }),
    );
    store.dispatch(replayActions.stepRequested({ direction: 'previous' }));
    await waitFor(() => expect(store.getState().replay.status).toBe('ready'));
    expect(store.getState().replay.position).toBe(-1);
    expect(selectReplayCanStep(store.getState()).previous).toBe(false);
  });

  it('keeps the failure of a read, and ignores answers to an older request', () => {
    let state = replayReducer(
      initialReplayState,
      replayActions.viewRequested({ folderId: 'f1', moment: NOW_MOMENT, visit: 1, followUp: null }),
    );
    state = replayReducer(
      state,
      replayActions.viewLoaded({
        folderId: 'f1',
        moment: { as_of: null, event: 'old', before_event: null },
        visit: 1,
        view: makeView(),
      }),
    );
    expect(state.view).toBeNull();
    state = replayReducer(
      state,
      replayActions.viewFailed({ folderId: 'f1', moment: NOW_MOMENT, visit: 1, error: 'Gone.' }),
    );
    expect(state).toMatchObject({ status: 'failed', error: 'Gone.' });
  });
});
