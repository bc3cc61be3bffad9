// The uploader's small units: the part-signature cache, the stall watchdog and the mapping of a
// file restored after a reload (src/features/uploads/signedParts.ts, stallWatchdog.ts,
// restoredUpload.ts).
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { MESSAGES } from '../../../../common/messages';
import { restoredStateOf } from '../../../../src/features/uploads/restoredUpload';
import {
  RESTORE_WAIT_MAX_MS,
  restoreSettled,
  restoreStateKey,
  willRestore,
} from '../../../../src/features/uploads/restoreSettled';
import { SignedPartCache } from '../../../../src/features/uploads/signedParts';
import { createStallWatchdog } from '../../../../src/features/uploads/stallWatchdog';

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
  const saved = (metadata: unknown, expires?: number) => JSON.stringify({ metadata, expires });
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
  const storageWith = (value: string | null) => ({
    getItem: (key: string) => (key === restoreStateKey('dossier-uploads') ? value : null),
  });

  it('tells a state Golden Retriever restores from one it skips', () => {
    expect(willRestore(saved({ files: {} }), 1_000)).toBe(true);
    expect(willRestore(saved({ files: {} }, 2_000), 1_000)).toBe(true);
    expect(willRestore(saved({ files: {} }, 500), 1_000)).toBe(false);
    expect(willRestore(saved(null), 1_000)).toBe(false);
    expect(willRestore('{not json', 1_000)).toBe(false);
    expect(willRestore(null, 1_000)).toBe(false);
  });

  it('has nothing to wait for without the plugin, without storage or without a saved state', () => {
    expect(restoreSettled(fakeUppy(false).uppy, storageWith(saved({})))).toBeNull();
    expect(restoreSettled(fakeUppy().uppy, null)).toBeNull();
    expect(restoreSettled(fakeUppy().uppy, storageWith(null))).toBeNull();
  });

  it('waits for the restored event when a state is saved, or gives up after the limit', async () => {
    const first = fakeUppy();
    const waiting = restoreSettled(first.uppy, storageWith(saved({ files: {} })));
    let settled = false;
    void waiting!.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    first.restored();
    await waiting;
    expect(settled).toBe(true);

    jest.useFakeTimers();
    try {
      const silent = restoreSettled(fakeUppy().uppy, storageWith(saved({ files: {} })));
      let ended = false;
      void silent!.then(() => (ended = true));
      jest.advanceTimersByTime(RESTORE_WAIT_MAX_MS - 1);
      await Promise.resolve();
      expect(ended).toBe(false);
      jest.advanceTimersByTime(1);
      await silent;
      expect(ended).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
