/** Side effects of the CRM contacts feature (issue 9). */
import type { SagaIterator } from 'redux-saga';

/** The CRM contacts feature saga. */
export function* contactsSaga(): SagaIterator {}
