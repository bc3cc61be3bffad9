import { describe, expect, it, jest } from '@jest/globals';
import { runSaga, type SagaIterator } from 'redux-saga';
import { call, put } from 'redux-saga/effects';
import { safely } from '../../../src/sagas/safely';

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
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const dispatched: unknown[] = [];
    function* failing(): SagaIterator {
      yield call(() => Promise.reject(new Error('boom')));
      yield put({ type: 'test/never' });
    }
    const task = runSaga({ dispatch: (action) => dispatched.push(action) }, safely(failing));
    await expect(task.toPromise()).resolves.toBeUndefined();
    expect(dispatched).toEqual([]);
    expect(error).toHaveBeenCalledWith('Saga worker "failing" failed:', expect.any(Error));
    error.mockRestore();
  });
});
