import { put } from 'typed-redux-saga';
import type { Saga } from '@src/sagas/saga';
import { notificationsActions } from './notificationsSlice';

/** Shows `text` as a success message (the notifications area). */
export function* notifySuccess(text: string): Saga {
  yield* put(notificationsActions.infoMessageRequested({ text, kind: 'success' }));
}
