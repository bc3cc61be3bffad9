/**
 * Side effects of the mail outbox feature: reading the outbox's pages and the selected
 * message. Every worker is wrapped with `safely`; expected failures end in
 * `outbox/outboxFailed`, `outbox/outboxMoreFailed` or `outbox/messageFailed`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeLatest, takeLeading } from 'typed-redux-saga';
import { ApiError } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import * as outboxApi from './outboxApi';
import { selectOutbox } from './outboxSelectors';
import { COULD_NOT_GET_MESSAGE, COULD_NOT_GET_OUTBOX, outboxActions } from './outboxSlice';
import type { Saga } from '@src/sagas/saga';

/** `message` followed by the server's reason when the server answered one. */
export function withReason(message: string, error: unknown): string {
  return error instanceof ApiError && error.status !== 0 && error.message
    ? `${message} ${error.message}`
    : message;
}

/** Reads the first page of the outbox. */
export function* loadOutbox(): Saga {
  try {
    const page = yield* call(outboxApi.fetchOutbox, 1);
    yield* put(outboxActions.outboxLoaded(page));
  } catch (error) {
    yield* put(outboxActions.outboxFailed(withReason(COULD_NOT_GET_OUTBOX, error)));
  }
}

/** Reads the next page of the outbox (the reducer already decided there is one). */
export function* loadMoreOutbox(): Saga {
  const state = yield* select(selectOutbox);
  if (state.more !== 'loading') return;
  try {
    const page = yield* call(outboxApi.fetchOutbox, state.page + 1);
    yield* put(outboxActions.outboxLoaded(page));
  } catch (error) {
    yield* put(outboxActions.outboxMoreFailed(withReason(COULD_NOT_GET_OUTBOX, error)));
  }
}

/** Reads the selected message with its text. */
export function* loadMessage(action: PayloadAction<string | null>): Saga {
  const id = action.payload;
  if (id === null) return;
  try {
    const message = yield* call(outboxApi.fetchOutboxMessage, id);
    yield* put(outboxActions.messageLoaded(message));
  } catch (error) {
    yield* put(
      outboxActions.messageFailed({ id, error: withReason(COULD_NOT_GET_MESSAGE, error) }),
    );
  }
}

/** The mail outbox feature saga. */
export function* outboxSaga(): Saga {
  yield* all([
    takeLatest(outboxActions.outboxRequested.type, safely(loadOutbox)),
    takeLeading(outboxActions.outboxMoreRequested.type, safely(loadMoreOutbox)),
    takeLatest(outboxActions.messageSelected.type, safely(loadMessage)),
  ]);
}
