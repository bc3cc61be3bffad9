/** Waiting for the store to reach a state, for code outside sagas (antd Tree's loadData). */
import type { AppStore } from './store';

/**
 * Resolves once `settled(state)` holds: at once when it already does, else at the first store
 * update after which it does.
 *
 * @param store the app's store
 * @param settled the condition on the root state
 * @returns a promise resolved (never rejected) when the condition holds
 */
export function storeSettles(
  store: AppStore,
  settled: (state: ReturnType<AppStore['getState']>) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    if (settled(store.getState())) {
      resolve();
      return;
    }
    const unsubscribe = store.subscribe(() => {
      if (!settled(store.getState())) return;
      unsubscribe();
      resolve();
    });
  });
}
