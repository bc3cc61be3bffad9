/**
 * When Golden Retriever (Uppy's plugin that keeps uploads across a reload) has put back what the
 * earlier page left. Its restore is asynchronous (the files' bytes come from IndexedDB) and ends by
 * replacing Uppy's whole `files` and `currentUploads` state: a file added before then vanishes from
 * Uppy and stays queued for ever. The uploader hands out no file until this resolves.
 */

/** The part of an Uppy instance the wait needs. */
export interface RestoringUppy {
  getID(): string;
  getPlugin(id: string): unknown;
  once(event: 'restored', callback: () => void): unknown;
}

/** Longest wait for a restore, in ms: a restore that fails emits nothing. */
export const RESTORE_WAIT_MAX_MS = 5_000;

/** Golden Retriever's localStorage key for an Uppy id (its MetaDataStore's `uppyState:` prefix). */
export function restoreStateKey(uppyId: string): string {
  return `uppyState:${uppyId}`;
}

/**
 * Whether a saved state will be restored: Golden Retriever restores (and then emits `restored`)
 * exactly when its key holds parseable metadata that has not expired.
 * @param saved the key's value, or null
 * @param now the clock, epoch ms
 */
export function willRestore(saved: string | null, now: number): boolean {
  if (!saved) return false;
  try {
    const data = JSON.parse(saved) as { metadata?: unknown; expires?: number } | null;
    if (!data?.metadata) return false;
    return !(typeof data.expires === 'number' && data.expires < now);
  } catch {
    return false;
  }
}

/**
 * Golden Retriever's restore, while one will run: resolves on its `restored` event (or after
 * RESTORE_WAIT_MAX_MS). Null when the instance has no Golden Retriever or nothing is saved.
 * Call it right after the plugin is installed, in the same task, before the restore can finish.
 * @param storage where Golden Retriever keeps its state (localStorage), or null where there is none
 */
export function restoreSettled(
  uppy: RestoringUppy,
  storage: Pick<Storage, 'getItem'> | null,
  now: () => number = Date.now,
): Promise<void> | null {
  if (!storage || !uppy.getPlugin('GoldenRetriever')) return null;
  if (!willRestore(storage.getItem(restoreStateKey(uppy.getID())), now())) return null;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, RESTORE_WAIT_MAX_MS);
    uppy.once('restored', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
