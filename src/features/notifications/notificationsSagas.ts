/**
 * Sagas of the notifications feature: a success toast closes itself after SUCCESS_TOAST_MS and an
 * info message after INFO_MESSAGE_MS (SPEC section 9) unless closed first; Undo dispatches the
 * toast's action, then closes it.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, delay, put, race, select, take, takeEvery } from 'typed-redux-saga';
import type { Action } from '@reduxjs/toolkit';
import { INFO_MESSAGE_MS, SUCCESS_TOAST_MS } from '@common/constants';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import { selectSuccessToast } from './notificationsSelectors';
import { notificationsActions, type InfoMessage, type SuccessToast } from './notificationsSlice';
import type { Saga } from '@src/sagas/saga';

/** Closes a toast after SUCCESS_TOAST_MS unless it was closed (or undone) before. */
export function* expireToast(action: PayloadAction<SuccessToast>): Saga {
  const { id } = action.payload;
  const { closed } = yield* race({
    expired: delay(SUCCESS_TOAST_MS),
    closed: take(
      (other: Action) =>
        notificationsActions.successToastClosed.match(other) && other.payload.id === id,
    ),
  });
  if (!closed) yield* put(notificationsActions.successToastClosed({ id, reason: 'expired' }));
}

/** Dispatches the Undo action of a toast, then closes the toast. */
export function* undoToast(action: PayloadAction<{ id: string }>): Saga {
  const toast = yield* select((state: RootState) => selectSuccessToast(state, action.payload.id));
  if (!toast) return;
  // A copy: the state's object is frozen and redux-saga marks the actions it puts.
  if (toast.undo) yield* put({ ...toast.undo });
  yield* put(notificationsActions.successToastClosed({ id: toast.id, reason: 'undone' }));
}

/** Closes an info message after INFO_MESSAGE_MS unless it was closed before. */
export function* expireInfoMessage(action: PayloadAction<InfoMessage>): Saga {
  const { id } = action.payload;
  const { closed } = yield* race({
    expired: delay(INFO_MESSAGE_MS),
    closed: take(
      (other: Action) =>
        notificationsActions.infoMessageClosed.match(other) && other.payload.id === id,
    ),
  });
  if (!closed) yield* put(notificationsActions.infoMessageClosed({ id, reason: 'expired' }));
}

/** Root saga of the notifications feature. */
export function* notificationsSaga(): Saga {
  yield* all([
    takeEvery(notificationsActions.successToastRequested.type, safely(expireToast)),
    takeEvery(notificationsActions.undoClicked.type, safely(undoToast)),
    takeEvery(notificationsActions.infoMessageRequested.type, safely(expireInfoMessage)),
  ]);
}
