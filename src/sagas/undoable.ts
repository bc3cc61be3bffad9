/**
 * The undo flow of a finished action (DESIGN.md section 5): show the success toast
 * with an Undo button, then `race` the Undo against the toast's SUCCESS_TOAST_MS timer and against
 * the user leaving the page. Only a pressed Undo runs the reverse saga; after the timer or a
 * navigation the action stays done and Undo is gone.
 */
import { createAction, nanoid, type Action } from '@reduxjs/toolkit';
import { call, delay, put, race, take } from 'typed-redux-saga';
import { SUCCESS_TOAST_MS } from '@common/constants';
import { notificationsActions } from '../features/notifications/notificationsSlice';
import type { Saga } from './saga';

/** Events of the undo flow. */
export const undoEvents = {
  /** Dispatched by a toast's Undo button (as its undo action); `token` names one undoable run. */
  undoRequested: createAction<{ token: string }>('undo/undoRequested'),
  /** The router's location changed (LocationReporter); an open undo is then given up. */
  locationChanged: createAction<{ pathname: string }>('navigation/locationChanged'),
};

/** A predicate over actions, as `take` accepts it. */
export type ActionPredicate = (action: Action) => boolean;

/** Default "navigated away": any location change. */
const isLocationChange: ActionPredicate = (action) => undoEvents.locationChanged.match(action);

/** How an undoable run ended. */
export type UndoOutcome = 'undone' | 'expired' | 'navigated';

/** What the success toast says. */
export interface UndoableToast {
  title: string;
  body: string;
}

/**
 * Shows the success toast with Undo and waits for the first of: Undo pressed (runs `reverse`),
 * SUCCESS_TOAST_MS elapsed, or `leftPage` matched (the toast is then closed, since the undo is no
 * longer offered).
 * @param toast the toast's title and body
 * @param reverse the saga that reverses exactly the action just done; its errors propagate
 * @param leftPage which actions mean "navigated away" (default: any location change)
 * @returns how the run ended
 */
export function* undoable(
  toast: UndoableToast,
  reverse: () => Saga,
  leftPage: ActionPredicate = isLocationChange,
): Saga<UndoOutcome> {
  const token = nanoid();
  const shown = notificationsActions.successToastRequested({
    title: toast.title,
    body: toast.body,
    undoActionType: undoEvents.undoRequested.type,
    undoPayload: { token },
  });
  yield* put(shown);
  const winner = yield* race({
    undo: take(
      (action: Action) => undoEvents.undoRequested.match(action) && action.payload.token === token,
    ),
    expired: delay(SUCCESS_TOAST_MS),
    away: take(leftPage),
  });
  if (winner.undo) {
    yield* call(reverse);
    return 'undone' satisfies UndoOutcome;
  }
  if (winner.away) {
    yield* put(notificationsActions.successToastClosed({ id: shown.payload.id, reason: 'closed' }));
    return 'navigated' satisfies UndoOutcome;
  }
  return 'expired' satisfies UndoOutcome;
}
