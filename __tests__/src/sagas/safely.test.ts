import { describe, expect, it } from '@jest/globals';
import { runSaga, type SagaIterator } from 'redux-saga';
import { call, put } from 'redux-saga/effects';
import { safely } from '@src/sagas/safely';
import { allowConsoleError, consoleErrors } from '../consoleErrors';

describe('safely', () => {
  it('runs the worker with its arguments', async () => {
    const dispatched: unknown[] = [];
    function* worker(value: number): SagaIterator {
      yield put({ type: 'test/done', payload: value * 2 });
    }
    await runSaga(
      { dispatch: (action) => dispatched.push(action) },
      safely(worker),
      21,
    ).toPromise();
    expect(dispatched).toEqual([{ type: 'test/done', payload: 42 }]);
  });

  it('catches and logs an error without dispatching anything else', async () => {
    allowConsoleError(/^Saga worker "failing" failed: Error: boom/);
    const dispatched: unknown[] = [];
    function* failing(): SagaIterator {
      yield call(() => Promise.reject(new Error('boom')));
      yield put({ type: 'test/never' });
    }
    const task = runSaga({ dispatch: (action) => dispatched.push(action) }, safely(failing));
    await expect(task.toPromise()).resolves.toBeUndefined();
    expect(dispatched).toEqual([]);
    expect(consoleErrors()).toEqual([
      expect.stringMatching(/^Saga worker "failing" failed: Error: boom/),
    ]);
  });
});
