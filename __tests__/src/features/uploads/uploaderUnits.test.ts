// The uploader's small units: the part-signature cache, the stall watchdog and the mapping of a
// file restored after a reload (src/features/uploads/signedParts.ts, stallWatchdog.ts,
// restoredUpload.ts), and the wait for Golden Retriever's restore (restoreSettled.ts).
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { MESSAGES } from '@common/messages';
import { restoredStateOf } from '@src/features/uploads/restoredUpload';
import {
  GOLDEN_RETRIEVER_DB,
  indexedDbState,
  localStorageState,
  RESTORE_WAIT_MAX_MS,
  restoreSettled,
  restoreStateKey,
  willRestore,
  type SavedState,
} from '@src/features/uploads/restoreSettled';
import { SignedPartCache } from '@src/features/uploads/signedParts';
import { createStallWatchdog } from '@src/features/uploads/stallWatchdog';

describe('SignedPartCache', () => {
  const part = (n: number) => ({ part_number: n, url: `https://store/part/${n}`, headers: {} });

  it('gives each kept part once, as a PUT', () => {
    const cache = new SignedPartCache(60_000, 10_000);
    cache.keep('u1', [part(2), part(3)], 1_000);
    expect(cache.take('u1', 2, 2_000)).toEqual({
      url: 'https://store/part/2',
      method: 'PUT',
      headers: {},
    });
    expect(cache.take('u1', 2, 2_000)).toBeNull();
    expect(cache.take('u2', 3, 2_000)).toBeNull();
    expect(cache.size).toBe(1);
  });

  it('refuses a part within the margin of its expiry', () => {
    const cache = new SignedPartCache(60_000, 10_000);
    cache.keep('u1', [part(2), part(3)], 0);
    expect(cache.take('u1', 2, 49_999)).not.toBeNull();
    expect(cache.take('u1', 3, 50_000)).toBeNull();
  });

  it('forgets only the parts of one upload', () => {
    const cache = new SignedPartCache(60_000, 10_000);
    cache.keep('u1', [part(1), part(2)], 0);
    cache.keep('u10', [part(1)], 0);
    cache.forgetUpload('u1');
    expect(cache.size).toBe(1);
    expect(cache.take('u10', 1, 0)).not.toBeNull();
  });
});

describe('createStallWatchdog', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('reports a file without progress for the timeout, once', () => {
    const stalls: string[] = [];
    const watchdog = createStallWatchdog(1_000, (id) => stalls.push(id));
    watchdog.arm('a');
    jest.advanceTimersByTime(900);
    watchdog.arm('a');
    jest.advanceTimersByTime(900);
    expect(stalls).toEqual([]);
    jest.advanceTimersByTime(100);
    expect(stalls).toEqual(['a']);
    jest.advanceTimersByTime(5_000);
    expect(stalls).toEqual(['a']);
  });

  it('does not report a cleared file, nor any file while suspended', () => {
    const stalls: string[] = [];
    const watchdog = createStallWatchdog(1_000, (id) => stalls.push(id));
    watchdog.arm('a');
    watchdog.arm('b');
    watchdog.clear('a');
    watchdog.suspend();
    watchdog.arm('c');
    jest.advanceTimersByTime(2_000);
    expect(stalls).toEqual([]);
    watchdog.resume();
    watchdog.arm('c');
    jest.advanceTimersByTime(1_000);
    expect(stalls).toEqual(['c']);
  });
});

describe('restoredStateOf', () => {
  const facts = {
    uploadComplete: false,
    bytesLost: false,
    uploadId: null as string | null,
    failure: null as string | null,
  };

  it('records a completed upload', () => {
    expect(restoredStateOf({ ...facts, uploadComplete: true, uploadId: 'p1' })).toEqual({
      state: 'uploaded',
      message: null,
      resume: false,
    });
  });

  it('asks the server again for a file whose bytes were dropped after its upload began', () => {
    expect(restoredStateOf({ ...facts, bytesLost: true, uploadId: 'p1' })).toEqual({
      state: 'uploaded',
      message: MESSAGES.uploadInterrupted,
      resume: false,
    });
  });

  it('shows an interrupted or earlier-failed file as failed', () => {
    expect(restoredStateOf({ ...facts, bytesLost: true }).state).toBe('failed');
    expect(restoredStateOf({ ...facts, failure: 'Network error' })).toEqual({
      state: 'failed',
      message: 'Network error',
      resume: false,
    });
  });

  it('resumes a file that still has its bytes', () => {
    expect(restoredStateOf({ ...facts, uploadId: 'p1' })).toEqual({
      state: 'uploading',
      message: null,
      resume: true,
    });
  });
});

describe('restoreSettled', () => {
  function fakeUppy(withPlugin = true) {
    let onRestored: (() => void) | null = null;
    return {
      uppy: {
        getID: () => 'dossier-uploads',
        getPlugin: (id: string) => (withPlugin && id === 'GoldenRetriever' ? {} : undefined),
        once: (_event: 'restored', callback: () => void) => {
          onRestored = callback;
        },
      },
      restored: () => onRestored?.(),
    };
  }
  const state = (metadata: unknown, expires?: number): SavedState => ({ metadata, expires });
  /** Whether a promise has settled after the pending callbacks ran. */
  async function hasSettled(promise: Promise<void>): Promise<boolean> {
    let settled = false;
    void promise.then(() => (settled = true));
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    return settled;
  }

  it('tells a state Golden Retriever restores from one it skips', () => {
    expect(willRestore(state({ files: {} }), 1_000)).toBe(true);
    expect(willRestore(state({ files: {} }, 2_000), 1_000)).toBe(true);
    expect(willRestore(state({ files: {} }, 500), 1_000)).toBe(false);
    expect(willRestore(state(null), 1_000)).toBe(false);
    expect(willRestore(null, 1_000)).toBe(false);
  });

  it("reads localStorage's saved state (browsers without IndexedDB)", () => {
    const storage = (value: string | null) => ({
      getItem: (key: string) => (key === restoreStateKey('dossier-uploads') ? value : null),
    });
    expect(
      localStorageState(storage('{"metadata":{"files":{}},"expires":9}'), 'dossier-uploads'),
    ).toEqual({ metadata: { files: {} }, expires: 9 });
    expect(localStorageState(storage('{not json'), 'dossier-uploads')).toBeNull();
    expect(localStorageState(storage(null), 'dossier-uploads')).toBeNull();
    expect(localStorageState(null, 'dossier-uploads')).toBeNull();
  });

  it('has nothing to wait for without the plugin', () => {
    expect(restoreSettled(fakeUppy(false).uppy, () => state({}))).toBeNull();
  });

  it('settles at once when nothing is saved, or what is saved has expired', async () => {
    expect(await hasSettled(restoreSettled(fakeUppy().uppy, () => null)!)).toBe(true);
    expect(
      await hasSettled(restoreSettled(fakeUppy().uppy, async () => state({ files: {} }, 1))!),
    ).toBe(true);
  });

  it('waits for the restored event whenever a state is saved, even one of finished files', async () => {
    // Golden Retriever 6 keeps its state in IndexedDB and replaces Uppy's files after restoring
    // it even when every saved file had finished: a file added meanwhile vanished mid-upload.
    const first = fakeUppy();
    const waiting = restoreSettled(first.uppy, async () =>
      state({ files: { a: { progress: { complete: true } } } }),
    )!;
    expect(await hasSettled(waiting)).toBe(false);
    first.restored();
    expect(await hasSettled(waiting)).toBe(true);
  });

  it('hears a restored event that comes before the saved state is read', async () => {
    const early = fakeUppy();
    let read: (saved: SavedState) => void = () => undefined;
    const waiting = restoreSettled(
      early.uppy,
      () => new Promise<SavedState>((resolve) => (read = resolve)),
    )!;
    early.restored();
    expect(await hasSettled(waiting)).toBe(true);
    read(state({ files: {} }));
  });

  it('gives up after the limit when the restore never ends', async () => {
    jest.useFakeTimers();
    try {
      const silent = restoreSettled(fakeUppy().uppy, () => state({ files: {} }))!;
      jest.advanceTimersByTime(RESTORE_WAIT_MAX_MS - 1);
      expect(await hasSettled(silent)).toBe(false);
      jest.advanceTimersByTime(1);
      expect(await hasSettled(silent)).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('indexedDbState', () => {
  /** A request whose outcome the fake fires on the next turn. */
  type FakeRequest = {
    result?: unknown;
    transaction?: { abort: () => void } | null;
    onsuccess?: () => void;
    onerror?: () => void;
    onupgradeneeded?: () => void;
  };
  /** An IndexedDB holding `records` in Golden Retriever's metadata store, or no database. */
  function fakeIdb(records: Record<string, unknown> | null) {
    const opened: string[] = [];
    let closed = 0;
    let aborted = 0;
    const factory = {
      open(name: string) {
        opened.push(name);
        const request: FakeRequest = {};
        setTimeout(() => {
          if (records === null) {
            request.transaction = { abort: () => (aborted += 1) };
            request.onupgradeneeded?.();
            request.onerror?.();
            return;
          }
          request.result = {
            objectStoreNames: { contains: (store: string) => store === 'metadata' },
            close: () => (closed += 1),
            transaction: () => ({
              objectStore: () => ({
                get(key: string) {
                  const get: FakeRequest = {};
                  setTimeout(() => {
                    get.result = records[key];
                    get.onsuccess?.();
                  });
                  return get;
                },
              }),
            }),
          };
          request.onsuccess?.();
        });
        return request;
      },
    };
    return {
      idb: factory as unknown as IDBFactory,
      opened,
      closed: () => closed,
      aborted: () => aborted,
    };
  }

  it("reads the Uppy id's record of Golden Retriever's metadata store, and closes", async () => {
    const fake = fakeIdb({
      'dossier-uploads': {
        id: 'dossier-uploads',
        expires: 42,
        metadata: JSON.stringify({ files: {} }),
      },
    });
    await expect(indexedDbState('dossier-uploads', fake.idb)).resolves.toEqual({
      metadata: { files: {} },
      expires: 42,
    });
    expect(fake.opened).toEqual([GOLDEN_RETRIEVER_DB]);
    expect(fake.closed()).toBe(1);
    await expect(indexedDbState('other-uploads', fake.idb)).resolves.toBeNull();
  });

  it('finds nothing, and creates nothing, where the database does not exist yet', async () => {
    const fake = fakeIdb(null);
    await expect(indexedDbState('dossier-uploads', fake.idb)).resolves.toBeNull();
    expect(fake.aborted()).toBe(1);
  });
});
