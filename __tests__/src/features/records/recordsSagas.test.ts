// Records management's slice and sagas: loading the schedules with the index fields, changes that
// replace the listed schedule or hold, the server's refusal kept verbatim, the disposition
// approval (files leave the queue, the queue is read again), and a session end emptying it all.
import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { RECORDS_MESSAGES, recordsMessage } from '@common/retention';
import {
  COULD_NOT_DISPOSE,
  COULD_NOT_LOAD_SCHEDULES,
  initialRecordsState,
  recordsActions,
  recordsReducer,
} from '@src/features/records/recordsSlice';
import { sessionActions } from '@src/features/session/sessionSlice';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { allowConsoleError } from '../../consoleErrors';
import { makeDue, makeHold, makeSchedule } from './recordsFixtures';

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
});

const field = (id: string, type: string, extra: object = {}) => ({
  id,
  name: `Field ${id}`,
  type,
  description: '',
  position: 0,
  values: [],
  archived_at: null,
  deleted_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('records sagas', () => {
  it('loads the schedules, then the live index fields only', async () => {
    const { store } = start({
      'GET /api/rest/private/retention_schedules': { body: [makeSchedule()] },
      'GET /api/rest/index_fields': {
        body: [
          field('a', 'date'),
          field('b', 'list', { archived_at: '2026-01-02T00:00:00.000Z' }),
          field('c', 'text_field'),
        ],
      },
    });
    store.dispatch(recordsActions.schedulesRequested());
    await waitFor(() => expect(store.getState().records.fields.status).toBe('succeeded'));
    expect(store.getState().records.schedules.items.map((s) => s.id)).toEqual(['s1']);
    expect(store.getState().records.fields.items.map((f) => f.id)).toEqual(['a', 'c']);
  });

  it('says why the schedules could not be loaded', async () => {
    allowConsoleError(/answered 500/);
    const { store } = start({
      'GET /api/rest/private/retention_schedules': {
        status: 500,
        body: { message: 'Database unavailable.', code: 'x' },
      },
    });
    store.dispatch(recordsActions.schedulesRequested());
    await waitFor(() => expect(store.getState().records.schedules.status).toBe('failed'));
    expect(store.getState().records.schedules.error).toBe(
      `${COULD_NOT_LOAD_SCHEDULES} Database unavailable.`,
    );
  });

  it('creates a schedule and lists it; locks it with the lock route', async () => {
    const created = makeSchedule({ id: 's2', name: 'Wills' });
    const { calls, store } = start({
      'POST /api/rest/private/retention_schedules': { status: 201, body: created },
      'POST /api/rest/private/retention_schedules/s2/lock': {
        body: { ...created, locked_at: '2026-03-01T00:00:00.000Z' },
      },
    });
    const body = {
      name: 'Wills',
      period_count: 6,
      period_unit: 'years' as const,
      basis: 'created' as const,
    };
    store.dispatch(recordsActions.scheduleCreateRequested(body));
    await waitFor(() => expect(store.getState().records.change.status).toBe('succeeded'));
    expect(callsTo(calls, 'POST /api/rest/private/retention_schedules')[0]!.body).toEqual(body);
    expect(store.getState().records.schedules.items).toEqual([created]);

    store.dispatch(recordsActions.scheduleLockRequested({ id: 's2' }));
    await waitFor(() =>
      expect(store.getState().records.schedules.items[0]!.locked_at).toBe(
        '2026-03-01T00:00:00.000Z',
      ),
    );
    expect(store.getState().records.change).toEqual({
      kind: 'scheduleLock',
      status: 'succeeded',
      error: null,
    });
  });

  it('keeps the server’s refusal of a shortened locked schedule verbatim', async () => {
    const refusal = recordsMessage(RECORDS_MESSAGES.lockedShorten, { name: 'Wills' });
    allowConsoleError(/answered 409/);
    const { calls, store } = start({
      'PATCH /api/rest/private/retention_schedules/s1': {
        status: 409,
        body: { message: refusal, code: 'schedule_locked' },
      },
    });
    store.dispatch(
      recordsActions.scheduleUpdateRequested({
        id: 's1',
        changes: { period_count: 2, period_unit: 'years' },
      }),
    );
    await waitFor(() => expect(store.getState().records.change.status).toBe('failed'));
    expect(store.getState().records.change.error).toBe(refusal);
    expect(calls[0]!.body).toEqual({ period_count: 2, period_unit: 'years' });
  });

  it('deletes a schedule and takes it off the list', async () => {
    const { store } = start({
      'GET /api/rest/private/retention_schedules': { body: [makeSchedule()] },
      'GET /api/rest/index_fields': { body: [] },
      'DELETE /api/rest/private/retention_schedules/s1': { status: 204 },
    });
    store.dispatch(recordsActions.schedulesRequested());
    await waitFor(() => expect(store.getState().records.schedules.items).toHaveLength(1));
    store.dispatch(recordsActions.scheduleDeleteRequested({ id: 's1' }));
    await waitFor(() => expect(store.getState().records.schedules.items).toHaveLength(0));
  });

  it('places a hold (first in the list) and releases it', async () => {
    const placed = makeHold({ id: 'h2', name: 'New matter' });
    const { calls, store } = start({
      'GET /api/rest/private/legal_holds': { body: [makeHold()] },
      'POST /api/rest/private/legal_holds': { status: 201, body: placed },
      'POST /api/rest/private/legal_holds/h2/release': {
        body: { ...placed, status: 'released', released_at: '2026-04-01T00:00:00.000Z' },
      },
    });
    store.dispatch(recordsActions.holdsRequested());
    await waitFor(() => expect(store.getState().records.holds.items).toHaveLength(1));
    store.dispatch(
      recordsActions.holdPlaceRequested({
        name: 'New matter',
        targets: [{ type: 'folder', id: 'f9' }],
      }),
    );
    await waitFor(() => expect(store.getState().records.holds.items).toHaveLength(2));
    expect(store.getState().records.holds.items[0]!.id).toBe('h2');
    expect(callsTo(calls, 'POST /api/rest/private/legal_holds')[0]!.body).toEqual({
      name: 'New matter',
      targets: [{ type: 'folder', id: 'f9' }],
    });
    store.dispatch(recordsActions.holdReleaseRequested({ id: 'h2' }));
    await waitFor(() => expect(store.getState().records.holds.items[0]!.status).toBe('released'));
  });

  it('approves disposition: the deleted files leave the queue, which is read again', async () => {
    let reads = 0;
    const { calls, store } = start({
      'GET /api/rest/private/disposition': () => {
        reads += 1;
        return {
          body: {
            items: reads === 1 ? [makeDue(), makeDue({ id: 'd2', name: 'b.pdf' })] : [makeDue()],
            total: reads === 1 ? 2 : 1,
            today: '2026-05-01',
          },
        };
      },
      'POST /api/rest/private/disposition/approve': {
        body: { count: 1, items: [{ id: 'd2', name: 'b.pdf', sha256: null }] },
      },
    });
    store.dispatch(recordsActions.dispositionRequested());
    await waitFor(() => expect(store.getState().records.disposition.total).toBe(2));
    store.dispatch(recordsActions.approvalRequested({ fileIds: ['d2'] }));
    await waitFor(() => expect(reads).toBe(2));
    await waitFor(() => expect(store.getState().records.disposition.status).toBe('succeeded'));
    expect(callsTo(calls, 'POST /api/rest/private/disposition/approve')[0]!.body).toEqual({
      file_ids: ['d2'],
    });
    expect(store.getState().records.approval.result?.count).toBe(1);
    expect(store.getState().records.disposition.items.map((i) => i.id)).toEqual(['d1']);
  });

  it('shows why nothing was deleted', async () => {
    allowConsoleError(/answered 409/);
    const refusal = recordsMessage(RECORDS_MESSAGES.underHold, {
      name: 'b.pdf',
      hold: 'Smith litigation',
      action: 'deleted',
    });
    const { store } = start({
      'GET /api/rest/private/disposition': { body: { items: [], total: 0, today: '2026-05-01' } },
      'POST /api/rest/private/disposition/approve': {
        status: 409,
        body: { message: refusal, code: 'under_hold' },
      },
    });
    store.dispatch(recordsActions.approvalRequested({ fileIds: ['d2'] }));
    await waitFor(() => expect(store.getState().records.approval.status).toBe('failed'));
    expect(store.getState().records.approval.error).toBe(`${COULD_NOT_DISPOSE} ${refusal}`);
  });

  it('reads what protects an item', async () => {
    const { store } = start({
      'GET /api/rest/private/records/protection': {
        body: {
          type: 'file',
          id: 'x1',
          name: 'a.pdf',
          schedules: [],
          retained_until: null,
          retention_pending: false,
          holds: [{ id: 'h1', name: 'Smith litigation', matter: '' }],
          refusal: 'held',
        },
      },
    });
    store.dispatch(recordsActions.protectionRequested({ type: 'file', id: 'x1' }));
    await waitFor(() =>
      expect(store.getState().records.protection.x1?.data?.holds[0]?.name).toBe('Smith litigation'),
    );
  });
});

describe('records slice', () => {
  it('ignores contact matches of an older search text', () => {
    let state = recordsReducer(initialRecordsState, recordsActions.contactQueryChanged('Gra'));
    state = recordsReducer(state, recordsActions.contactQueryChanged('Grace'));
    state = recordsReducer(
      state,
      recordsActions.contactsLoaded({ query: 'Gra', items: [{ id: 'c1', name: 'G', detail: '' }] }),
    );
    expect(state.contacts.items).toEqual([]);
    expect(state.contacts.status).toBe('loading');
  });

  it('is emptied when the session ends', () => {
    let state = recordsReducer(
      initialRecordsState,
      recordsActions.schedulesLoaded([makeSchedule()]),
    );
    state = recordsReducer(state, sessionActions.signedOut());
    expect(state).toEqual(initialRecordsState);
  });

  it('keeps a dialog’s change while it is in flight', () => {
    let state = recordsReducer(
      initialRecordsState,
      recordsActions.scheduleLockRequested({ id: 's1' }),
    );
    state = recordsReducer(state, recordsActions.changeDismissed());
    expect(state.change.status).toBe('loading');
  });
});
