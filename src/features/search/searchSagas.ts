/** Side effects of the search feature (issue 9). */
import type { SagaIterator } from 'redux-saga';

/** The search feature saga. */
export function* searchSaga(): SagaIterator {}
