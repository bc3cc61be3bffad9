/** Side effects of the mail outbox feature (issue 7). */
import type { SagaIterator } from 'redux-saga';

/** The mail outbox feature saga. */
export function* outboxSaga(): SagaIterator {}
