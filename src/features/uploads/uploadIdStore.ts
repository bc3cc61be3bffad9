/**
 * The pending upload id of each queued file (its server-side upload, SPEC "Uploads"), kept in
 * localStorage as soon as it is known, by Uppy file id.
 *
 * Golden Retriever saves the queue's state at most every 500 ms (a throttle), while it drops a
 * file's bytes as soon as the upload completes. A small file is created, sent and recorded inside
 * one such window, so a reload right after it finds the state saved when the file was added: no
 * upload id, no bytes, and the file looked interrupted although it was stored and recorded. With
 * the id kept here at once, the restored file is recorded again instead (the server answers a file
 * already recorded with the file).
 */

/** The part of the Web Storage API the store uses (localStorage in the app). */
export type UploadIdStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Pending upload ids by Uppy file id. */
export interface UploadIdStore {
  /** The upload id kept for a file, or null. */
  get(fileId: string): string | null;
  /** Keeps a file's upload id (replacing an earlier one). */
  set(fileId: string, uploadId: string): void;
  /** Forgets a file's upload id. */
  remove(fileId: string): void;
  /**
   * Forgets a file's upload id after `delayMs` milliseconds: a recorded file's id is still needed
   * by a reload until Golden Retriever has saved the file's removal.
   */
  removeLater(fileId: string, delayMs: number): void;
  /** Forgets every id but those of these files (after a reload, the files restored). */
  keepOnly(fileIds: readonly string[]): void;
}

/** localStorage key of the store. */
export const UPLOAD_ID_STORAGE_KEY = 'dossier-uploads:upload-ids';

/** The browser's localStorage, or null where there is none (or it refuses access). */
export function defaultUploadIdStorage(): UploadIdStorage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

/**
 * Makes the store over `storage`; without storage it keeps nothing (every `get` answers null).
 * Storage errors (quota, privacy modes) are ignored: the ids only improve what a reload shows.
 */
export function createUploadIdStore(storage: UploadIdStorage | null): UploadIdStore {
  const read = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(storage?.getItem(UPLOAD_ID_STORAGE_KEY) ?? '{}');
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const write = (ids: Record<string, string>) => {
    try {
      storage?.setItem(UPLOAD_ID_STORAGE_KEY, JSON.stringify(ids));
    } catch {
      // Not kept: a reload then shows the file as the saved queue state says.
    }
  };
  const remove = (fileId: string) => {
    const ids = read();
    if (!(fileId in ids)) return;
    delete ids[fileId];
    write(ids);
  };
  return {
    get: (fileId) => {
      const id = read()[fileId];
      return typeof id === 'string' ? id : null;
    },
    set: (fileId, uploadId) => write({ ...read(), [fileId]: uploadId }),
    remove,
    removeLater: (fileId, delayMs) => {
      setTimeout(() => remove(fileId), delayMs);
    },
    keepOnly: (fileIds) => {
      const ids = read();
      write(Object.fromEntries(fileIds.filter((id) => id in ids).map((id) => [id, ids[id]!])));
    },
  };
}
