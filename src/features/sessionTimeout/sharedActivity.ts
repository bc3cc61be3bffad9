/**
 * The session record shared by every tab of this browser (SPEC section 3 "Shared last-activity
 * record: lastTimeStamp"). localStorage keeps the record, `{ "lastTimeStamp": <epoch ms> }`
 * under {@link ACTIVITY_STORAGE_KEY}, so a tab that opens or wakes can read it; a BroadcastChannel
 * ({@link SESSION_CHANNEL_NAME}) tells the other tabs at once about activity, sign-in and
 * sign-out. Where BroadcastChannel is missing, the same messages travel through the record's
 * `storage` events. No handle of this module ever enters the Redux store.
 */

/** localStorage key of the shared last-activity record. */
export const ACTIVITY_STORAGE_KEY = 'dossier.activity';
/** Name of the BroadcastChannel the tabs talk on. */
const SESSION_CHANNEL_NAME = 'dossier.session';

/** A message between tabs. */
export type SharedSessionMessage =
  { type: 'activity'; at: number } | { type: 'signedIn' } | { type: 'signedOut' };

/** One tab's handle on the shared record. */
export interface SharedActivity {
  /** The stored lastTimeStamp (epoch ms), or null when there is none. */
  readLastActivity: () => number | null;
  /** Stores `at` as lastTimeStamp (never moving it back) and tells the other tabs. */
  publishActivity: (at: number) => void;
  /** Tells the other tabs that this tab signed in or out. */
  publish: (message: { type: 'signedIn' } | { type: 'signedOut' }) => void;
  /** Listens to the other tabs' messages. @returns the function that stops listening */
  subscribe: (listener: (message: SharedSessionMessage) => void) => () => void;
  /** Closes the channel and removes every listener. */
  close: () => void;
}

/** What {@link openSharedActivity} uses; tests pass fakes. */
export interface SharedActivityOptions {
  /** Default: window.localStorage (null when unavailable). */
  storage?: Storage | null;
  /** Default: the global BroadcastChannel (undefined when unavailable). */
  BroadcastChannelImpl?: typeof BroadcastChannel;
  /** Where `storage` events arrive (default: window). */
  eventTarget?: EventTarget | null;
}

interface StoredRecord {
  lastTimeStamp: number;
  /** Fallback transport only: the last message and a nonce so equal messages still fire. */
  message?: SharedSessionMessage;
  nonce?: string;
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isMessage(value: unknown): value is SharedSessionMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'activity') return typeof (value as { at?: unknown }).at === 'number';
  return type === 'signedIn' || type === 'signedOut';
}

function parseRecord(text: string | null): StoredRecord | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<StoredRecord> | null;
    if (!value || typeof value.lastTimeStamp !== 'number') return null;
    return value as StoredRecord;
  } catch {
    return null;
  }
}

/**
 * Opens this tab's handle on the shared record.
 * @param options storage, BroadcastChannel and event target to use (defaults: the browser's)
 */
export function openSharedActivity(options: SharedActivityOptions = {}): SharedActivity {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const Channel =
    'BroadcastChannelImpl' in options
      ? options.BroadcastChannelImpl
      : typeof BroadcastChannel === 'undefined'
        ? undefined
        : BroadcastChannel;
  const eventTarget =
    options.eventTarget === undefined
      ? typeof window === 'undefined'
        ? null
        : window
      : options.eventTarget;
  const channel = Channel ? new Channel(SESSION_CHANNEL_NAME) : null;
  const unsubscribers = new Set<() => void>();

  const read = (): StoredRecord | null => {
    try {
      return parseRecord(storage?.getItem(ACTIVITY_STORAGE_KEY) ?? null);
    } catch {
      return null;
    }
  };
  const write = (record: StoredRecord) => {
    try {
      storage?.setItem(ACTIVITY_STORAGE_KEY, JSON.stringify(record));
    } catch {
      // Storage disabled or full: the other tabs still hear the channel.
    }
  };
  const send = (message: SharedSessionMessage, lastTimeStamp: number) => {
    if (channel) {
      channel.postMessage(message);
      write({ lastTimeStamp });
    } else {
      write({ lastTimeStamp, message, nonce: Math.random().toString(36).slice(2) });
    }
  };

  return {
    readLastActivity: () => read()?.lastTimeStamp ?? null,
    publishActivity(at) {
      send({ type: 'activity', at }, Math.max(read()?.lastTimeStamp ?? 0, at));
    },
    publish(message) {
      send(message, read()?.lastTimeStamp ?? 0);
    },
    subscribe(listener) {
      let remove: () => void;
      if (channel) {
        const onMessage = (event: MessageEvent<unknown>) => {
          if (isMessage(event.data)) listener(event.data);
        };
        channel.addEventListener('message', onMessage);
        remove = () => channel.removeEventListener('message', onMessage);
      } else if (eventTarget) {
        const onStorage = (event: Event) => {
          const { key, newValue } = event as StorageEvent;
          if (key !== ACTIVITY_STORAGE_KEY) return;
          const message = parseRecord(newValue)?.message;
          if (isMessage(message)) listener(message);
        };
        eventTarget.addEventListener('storage', onStorage);
        remove = () => eventTarget.removeEventListener('storage', onStorage);
      } else {
        remove = () => undefined;
      }
      unsubscribers.add(remove);
      return () => {
        remove();
        unsubscribers.delete(remove);
      };
    },
    close() {
      for (const remove of [...unsubscribers]) remove();
      unsubscribers.clear();
      channel?.close();
    },
  };
}
