// Simulated browser tabs for the session-timeout tests: each tab is a store with its own input
// target; the tabs share jsdom's localStorage and a fake BroadcastChannel that, like the real one,
// delivers a message asynchronously to every other open channel of the same name.
import type { Action, Middleware } from '@reduxjs/toolkit';
import type { CurrentUserDto } from '@common/session';
import {
  SESSION_ENVIRONMENT,
  type SessionEnvironment,
} from '@src/features/sessionTimeout/sessionTimeoutSagas';
import { openSharedActivity } from '@src/features/sessionTimeout/sharedActivity';
import { sessionActions } from '@src/features/session/sessionSlice';
import type { RootState } from '@src/store/rootReducer';
import { makeStore, type AppStore } from '@src/store/store';

type Listener = (event: MessageEvent<unknown>) => void;

/** A BroadcastChannel stand-in shared by every store of a test. */
export class FakeBroadcastChannel {
  static readonly open = new Set<FakeBroadcastChannel>();
  readonly listeners = new Set<Listener>();
  closed = false;

  constructor(readonly name: string) {
    FakeBroadcastChannel.open.add(this);
  }

  postMessage(data: unknown): void {
    const copy = JSON.parse(JSON.stringify(data)) as unknown;
    for (const other of FakeBroadcastChannel.open) {
      if (other === this || other.name !== this.name) continue;
      // Asynchronous, like the real channel (a resolved promise: Jest's fake timers leave it alone).
      void Promise.resolve().then(() => {
        if (other.closed) return;
        for (const listener of other.listeners) listener({ data: copy } as MessageEvent<unknown>);
      });
    }
  }

  addEventListener(type: string, listener: Listener): void {
    if (type === 'message') this.listeners.add(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    if (type === 'message') this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    FakeBroadcastChannel.open.delete(this);
  }
}

/** One simulated tab. */
export interface Tab {
  store: AppStore;
  /** Every action dispatched in this tab. */
  actions: Action[];
  types(): string[];
  /** Where this tab hears user input. */
  input: EventTarget;
  /** Fires a user input event in this tab. */
  act(type?: string): void;
  state(): RootState;
}

/** Opens a tab: a store whose session timeout uses a fake channel and its own input target. */
export function openTab(preloadedState?: Partial<RootState>): Tab {
  const actions: Action[] = [];
  const recorder: Middleware = () => (next) => (action) => {
    actions.push(action as Action);
    return next(action);
  };
  const input = new EventTarget();
  const environment: SessionEnvironment = {
    inputTarget: input,
    openSharedActivity: () =>
      openSharedActivity({
        storage: window.localStorage,
        BroadcastChannelImpl: FakeBroadcastChannel as unknown as typeof BroadcastChannel,
        eventTarget: null,
      }),
  };
  const store = makeStore(preloadedState, {
    middleware: [recorder],
    sagaContext: { [SESSION_ENVIRONMENT]: environment },
  });
  return {
    store,
    actions,
    types: () => actions.map((action) => action.type),
    input,
    act: (type = 'mousemove') => {
      input.dispatchEvent(new Event(type));
    },
    state: () => store.getState(),
  };
}

/** Signs a tab in (as after the sign-in form). */
export function signInTab(tab: Tab, user: CurrentUserDto): void {
  tab.store.dispatch(sessionActions.signedIn(user));
}

/** Loads the current user in a tab (as at start-up). */
export function loadUserInTab(tab: Tab, user: CurrentUserDto): void {
  tab.store.dispatch(sessionActions.currentUserLoaded(user));
}
