/** Sagas of the activity history: load the first page when opened, then the next at the end. */
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import type { HistoryEventDto, Page } from '../../../common/types';
import { errorMessage } from '../../api/client';
import { safely } from '../../sagas/safely';
import { fetchHistory } from './historyApi';
import { selectHistoryState } from './historySelectors';
import { historyActions, type HistoryState } from './historySlice';

/** Loads one page of the history and reports it. */
export function* loadHistoryPage(page: number): SagaIterator {
  try {
    const result = (yield call(fetchHistory, page, {})) as Page<HistoryEventDto>;
    yield put(historyActions.pageLoaded(result));
  } catch (error) {
    yield put(historyActions.pageLoadFailed({ page, message: errorMessage(error) }));
  }
}

/** Loads the first page. */
export function* openHistory(): SagaIterator {
  yield call(loadHistoryPage, 1);
}

/** Loads the next page when the reducer accepted the request. */
export function* loadNextHistoryPage(): SagaIterator {
  const state = (yield select(selectHistoryState)) as HistoryState;
  if (state.more.status !== 'loading') return;
  yield call(loadHistoryPage, state.page + 1);
}

/** Root saga of the history feature. */
export function* historySaga(): SagaIterator {
  yield all([
    takeLatest(historyActions.opened.type, safely(openHistory)),
    takeLeading(historyActions.nextPageRequested.type, safely(loadNextHistoryPage)),
  ]);
}
