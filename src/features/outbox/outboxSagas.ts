/**
 * Side effects of the mail outbox feature (issue 7): reading the outbox's pages and the selected
 * message. Every worker is wrapped with `safely`; expected failures end in
 * `outbox/outboxFailed`, `outbox/outboxMoreFailed` or `outbox/messageFailed`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Page } from '../../../common/types';
import { ApiError } from '../../api/client';
import { safely } from '../../sagas/safely';
import * as outboxApi from './outboxApi';
import type { OutboxMessageDto, OutboxSummaryDto } from '../../../common/outbox';
import { selectOutbox } from './outboxSelectors';
import {
  COULD_NOT_GET_MESSAGE,
  COULD_NOT_GET_OUTBOX,
  outboxActions,
  type OutboxState,
} from './outboxSlice';

/** `message` followed by the server's reason when the server answered one. */
export function withReason(message: string, error: unknown): string {
  return error instanceof ApiError && error.status !== 0 && error.message
    ? `${message} ${error.message}`
    : message;
}

/** Reads the first page of the outbox. */
export function* loadOutbox(): SagaIterator {
  try {
    const page = (yield call(outboxApi.fetchOutbox, 1)) as Page<OutboxSummaryDto>;
    yield put(outboxActions.outboxLoaded(page));
  } catch (error) {
    yield put(outboxActions.outboxFailed(withReason(COULD_NOT_GET_OUTBOX, error)));
  }
}

/** Reads the next page of the outbox (the reducer already decided there is one). */
export function* loadMoreOutbox(): SagaIterator {
  const state = (yield select(selectOutbox)) as OutboxState;
  if (state.more !== 'loading') return;
  try {
    const page = (yield call(outboxApi.fetchOutbox, state.page + 1)) as Page<OutboxSummaryDto>;
    yield put(outboxActions.outboxLoaded(page));
  } catch (error) {
    yield put(outboxActions.outboxMoreFailed(withReason(COULD_NOT_GET_OUTBOX, error)));
  }
}

/** Reads the selected message with its text. */
export function* loadMessage(action: PayloadAction<string | null>): SagaIterator {
  const id = action.payload;
  if (id === null) return;
  try {
    const message = (yield call(outboxApi.fetchOutboxMessage, id)) as OutboxMessageDto;
    yield put(outboxActions.messageLoaded(message));
  } catch (error) {
    yield put(outboxActions.messageFailed({ id, error: withReason(COULD_NOT_GET_MESSAGE, error) }));
  }
}

/** The mail outbox feature saga. */
export function* outboxSaga(): SagaIterator {
  yield all([
    takeLatest(outboxActions.outboxRequested.type, safely(loadOutbox)),
    takeLeading(outboxActions.outboxMoreRequested.type, safely(loadMoreOutbox)),
    takeLatest(outboxActions.messageSelected.type, safely(loadMessage)),
  ]);
}
