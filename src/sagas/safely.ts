/**
 * Wraps a saga worker so that an unexpected error is caught and logged instead of killing the
 * watcher that runs it (DESIGN.md section 5). Workers still report their expected failures with
 * their own `feature/somethingFailed` events; `safely` dispatches nothing.
 */
import type { Saga } from './saga';

/** A saga worker: a generator function run by a watcher for each matching action. */
export type Worker<Args extends unknown[]> = (...args: Args) => Saga;

/**
 * Returns a worker that runs `worker` and logs any error it throws.
 * @param worker the generator function to protect
 * @returns a generator function with the same arguments that never throws
 */
export function safely<Args extends unknown[]>(worker: Worker<Args>): Worker<Args> {
  const name = worker.name || 'anonymous';
  return function* safeWorker(...args: Args): Saga {
    try {
      yield* worker(...args);
    } catch (error) {
      console.error(`Saga worker "${name}" failed:`, error);
    }
  };
}
