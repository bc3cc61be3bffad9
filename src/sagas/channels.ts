/**
 * Event channels for external event sources (DESIGN.md section 5): each channel unsubscribes
 * from its source when it is closed, which the sagas do in a `finally` block so that cancelling
 * the saga ends the subscription.
 */
import { buffers, eventChannel, type EventChannel } from 'redux-saga';

/**
 * Makes a buffered event channel from a subscribe function.
 * @param subscribe registers a listener and returns the function that removes it; values must not
 *   be undefined or null
 * @returns a channel that keeps every value until a saga takes it
 */
export function subscriptionChannel<T extends NonNullable<unknown>>(
  subscribe: (emit: (value: T) => void) => () => void,
): EventChannel<T> {
  return eventChannel<T>((emit) => subscribe(emit), buffers.expanding<T>(64));
}
