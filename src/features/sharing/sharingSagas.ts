/** Side effects of the sharing feature (issue 7). */
import type { SagaIterator } from 'redux-saga';

/** The sharing feature saga. */
export function* sharingSaga(): SagaIterator {}
