/** Side effects of the index fields and applied indexes feature (issue 9). */
import type { SagaIterator } from 'redux-saga';

/** The index fields and applied indexes feature saga. */
export function* indexFieldsSaga(): SagaIterator {}
