// The undo flow (src/sagas/undoable.ts): Undo pressed runs the reverse saga; the toast's
// SUCCESS_TOAST_MS timer or a navigation away ends the offer without reversing anything.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Action } from '@reduxjs/toolkit';
import { runSaga, stdChannel, type SagaIterator, type Task } from 'redux-saga';
import { call } from 'redux-saga/effects';
import { SUCCESS_TOAST_MS } from '@common/constants';
import { notificationsActions } from '@src/features/notifications/notificationsSlice';
import { undoEvents, undoable, type UndoOutcome } from '@src/sagas/undoable';
import { flushPromises } from '../../fixtures';

/** Runs `undoable` with a recording dispatch; `send` feeds actions to its `take`s. */
function start() {
  const channel = stdChannel<Action>();
  const dispatched: Action[] = [];
  const reversed = jest.fn<() => void>();
  function* reverse(): SagaIterator {
    yield call(reversed);
  }
  const task: Task = runSaga(
    {
      channel,
      dispatch: (action: Action) => {
        dispatched.push(action);
      },
      getState: () => ({}),
    },
    undoable,
    { title: 'Moved', body: '“Q1” moved to Archive 2024.' },
    reverse,
  );
  const toast = dispatched.find(notificationsActions.successToastRequested.match);
  return {
    task,
    dispatched,
    reversed,
    toast: toast!,
    send: (action: Action) => channel.put(action),
    undo: () =>
      channel.put({
        type: toast!.payload.undo!.type,
        payload: toast!.payload.undo!.payload,
      } as Action),
  };
}

describe('undoable', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('shows the success toast with an Undo that names this run', () => {
    const { toast, task } = start();
    expect(toast.payload).toMatchObject({
      title: 'Moved',
      body: '“Q1” moved to Archive 2024.',
      undo: { type: undoEvents.undoRequested.type, payload: { token: expect.any(String) } },
    });
    task.cancel();
  });

  it('Undo pressed within the time: runs the reverse saga', async () => {
    const { task, undo, reversed } = start();
    await jest.advanceTimersByTimeAsync(SUCCESS_TOAST_MS - 1);
    undo();
    await flushPromises();
    expect(reversed).toHaveBeenCalledTimes(1);
    expect(await task.toPromise()).toBe('undone' satisfies UndoOutcome);
  });

  it('an Undo of another run does not reverse this one', async () => {
    const { task, send, reversed } = start();
    send(undoEvents.undoRequested({ token: 'someone-else' }));
    await jest.advanceTimersByTimeAsync(SUCCESS_TOAST_MS);
    expect(reversed).not.toHaveBeenCalled();
    expect(await task.toPromise()).toBe('expired');
  });

  it('timer elapsed: no reverse, and a late Undo changes nothing', async () => {
    const { task, undo, reversed } = start();
    await jest.advanceTimersByTimeAsync(SUCCESS_TOAST_MS);
    expect(await task.toPromise()).toBe('expired');
    undo();
    await flushPromises();
    expect(reversed).not.toHaveBeenCalled();
  });

  it('navigation away: no reverse, the toast is closed', async () => {
    const { task, send, undo, reversed, dispatched, toast } = start();
    await jest.advanceTimersByTimeAsync(1_000);
    send(undoEvents.locationChanged({ pathname: '/archive' }));
    expect(await task.toPromise()).toBe('navigated');
    expect(dispatched).toContainEqual(
      notificationsActions.successToastClosed({ id: toast.payload.id, reason: 'closed' }),
    );
    undo();
    await flushPromises();
    expect(reversed).not.toHaveBeenCalled();
  });
});
