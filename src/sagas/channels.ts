/**
 * Event channels for external event sources (DESIGN.md section 5): each channel unsubscribes
 * from its source when it is closed, which the sagas do in a `finally` block so that cancelling
 * the saga ends the subscription.
 */
import { END, buffers, eventChannel, type EventChannel } from 'redux-saga';

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

/**
 * A countdown (the session-timeout warning, SPEC section 9): every `stepMs` it emits the time left,
 * a multiple of `stepMs` read from the clock (so a throttled or sleeping tab still counts real
 * time), and closes itself after emitting 0.
 * @param durationMs time to count down, in ms (e.g. SESSION_COUNTDOWN_MS, 120000)
 * @param stepMs tick interval in ms (e.g. SESSION_COUNTDOWN_STEP_MS, 1000)
 * @param now the clock, epoch ms (Date.now; Jest's fake timers replace it)
 * @returns a channel of remaining milliseconds: durationMs − stepMs, …, stepMs, 0
 */
export function countdownChannel(
  durationMs: number,
  stepMs: number,
  now: () => number = Date.now,
): EventChannel<number> {
  return eventChannel<number>((emit) => {
    const endAt = now() + durationMs;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.round((endAt - now()) / stepMs) * stepMs);
      emit(left);
      if (left === 0) {
        clearInterval(timer);
        emit(END);
      }
    }, stepMs);
    return () => clearInterval(timer);
  }, buffers.expanding<number>(8));
}

/**
 * User input on a target (the window), throttled: emits the time of the first event of each
 * `intervalMs` window and drops the rest, so a moving mouse costs one value per interval.
 * Listeners are passive and capturing (scrolls of inner elements count too) and are removed when
 * the channel is closed.
 * @param target where to listen (window in the browser, an EventTarget in tests)
 * @param eventNames the events that count, e.g. ['mousemove', 'keydown']
 * @param intervalMs the throttle interval in ms (ACTIVITY_THROTTLE_MS)
 * @param now the clock, epoch ms
 * @returns a channel of event times (epoch ms)
 */
export function throttledEventChannel(
  target: EventTarget,
  eventNames: readonly string[],
  intervalMs: number,
  now: () => number = Date.now,
): EventChannel<number> {
  return eventChannel<number>((emit) => {
    let lastAt = -Infinity;
    const listener = () => {
      const at = now();
      if (at - lastAt < intervalMs) return;
      lastAt = at;
      emit(at);
    };
    const options: AddEventListenerOptions = { capture: true, passive: true };
    for (const name of eventNames) target.addEventListener(name, listener, options);
    return () => {
      for (const name of eventNames) target.removeEventListener(name, listener, options);
    };
  }, buffers.sliding<number>(1));
}
