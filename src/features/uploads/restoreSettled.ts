/**
 * When Golden Retriever (Uppy's plugin that keeps uploads across a reload) has put back what the
 * earlier page left. Its restore is asynchronous (the saved state and the files' bytes come from
 * IndexedDB) and, whenever a state was saved, ends by replacing Uppy's whole `files` and
 * `currentUploads` state, even when every saved file had finished: a file added before then
 * vanishes from Uppy mid-upload, is never recorded and stays queued for ever. The uploader hands
 * out no file until this resolves.
 */

/** The part of an Uppy instance the wait needs. */
export interface RestoringUppy {
  getID(): string;
  getPlugin(id: string): unknown;
  once(event: 'restored', callback: () => void): unknown;
}

/** A state Golden Retriever saved: its metadata and when it expires (epoch ms). */
export interface SavedState {
  metadata: unknown;
  expires?: number;
}

/** Reads the state saved for an Uppy id, or null when there is none (or it cannot be read). */
export type SavedStateReader = (uppyId: string) => Promise<SavedState | null> | SavedState | null;

/** Longest wait for a restore, in ms: a restore that fails emits nothing. */
export const RESTORE_WAIT_MAX_MS = 5_000;

/** Golden Retriever's IndexedDB database and the store of its saved states (keyed by Uppy id). */
export const GOLDEN_RETRIEVER_DB = 'uppy-blobs';
const METADATA_STORE = 'metadata';

/** Golden Retriever's localStorage key for an Uppy id (its MetaDataStore's `uppyState:` prefix). */
export function restoreStateKey(uppyId: string): string {
  return `uppyState:${uppyId}`;
}

/**
 * Whether a saved state will be restored: Golden Retriever restores (and then emits `restored`)
 * exactly when it finds metadata that has not expired.
 * @param saved the saved state, or null
 * @param now the clock, epoch ms
 */
export function willRestore(saved: SavedState | null, now: number): boolean {
  if (!saved?.metadata) return false;
  return !(typeof saved.expires === 'number' && saved.expires < now);
}

/**
 * The state saved in localStorage (where Golden Retriever keeps it when the browser has no
 * IndexedDB): the JSON `{ metadata, expires }` under {@link restoreStateKey}; null when absent or
 * not JSON.
 */
export function localStorageState(
  storage: Pick<Storage, 'getItem'> | null,
  uppyId: string,
): SavedState | null {
  const text = storage?.getItem(restoreStateKey(uppyId));
  if (!text) return null;
  try {
    const data = JSON.parse(text) as { metadata?: unknown; expires?: number } | null;
    return data ? { metadata: data.metadata, expires: data.expires } : null;
  } catch {
    return null;
  }
}

/**
 * The state saved in IndexedDB (Golden Retriever 6's IndexedDBMetaDataStore): the record
 * `{ id, expires, metadata: JSON text }` of the Uppy id in the `metadata` store of
 * {@link GOLDEN_RETRIEVER_DB}. Never creates the database: where it does not exist yet nothing is
 * saved. Null when absent or unreadable.
 */
export function indexedDbState(uppyId: string, idb: IDBFactory): Promise<SavedState | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = idb.open(GOLDEN_RETRIEVER_DB);
    } catch {
      resolve(null);
      return;
    }
    // Only a database that does not exist yet is upgraded here: leave it to Golden Retriever.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => resolve(null);
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      const done = (state: SavedState | null) => {
        db.close();
        resolve(state);
      };
      try {
        if (!db.objectStoreNames.contains(METADATA_STORE)) return done(null);
        const get = db.transaction(METADATA_STORE).objectStore(METADATA_STORE).get(uppyId);
        get.onerror = () => done(null);
        get.onsuccess = () => {
          const record = get.result as { expires?: number; metadata?: string } | undefined;
          if (!record || typeof record.metadata !== 'string') return done(null);
          try {
            done({ metadata: JSON.parse(record.metadata) as unknown, expires: record.expires });
          } catch {
            done(null);
          }
        };
      } catch {
        done(null);
      }
    };
  });
}

/**
 * Golden Retriever's restore: resolves on its `restored` event when a state is saved that it will
 * restore, at once when none is, and after RESTORE_WAIT_MAX_MS at the latest. Null when the
 * instance has no Golden Retriever. Call it right after the plugin is installed, in the same task,
 * so that the event cannot pass unheard while the saved state is read.
 * @param readSaved reads the saved state (IndexedDB's, or localStorage's where there is none)
 */
export function restoreSettled(
  uppy: RestoringUppy,
  readSaved: SavedStateReader,
  now: () => number = Date.now,
): Promise<void> | null {
  if (!uppy.getPlugin('GoldenRetriever')) return null;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, RESTORE_WAIT_MAX_MS);
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    uppy.once('restored', settle);
    Promise.resolve()
      .then(() => readSaved(uppy.getID()))
      .then(
        (saved) => {
          if (!willRestore(saved, now())) settle();
        },
        () => settle(),
      );
  });
}
