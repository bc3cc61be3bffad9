// src/features/uploads/batchId.ts: the id of one pick of files.
import { describe, expect, it } from '@jest/globals';
import { newBatchId } from '@src/features/uploads/batchId';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newBatchId', () => {
  it("uses the UUID source when there is one (Web Crypto's in a secure context)", () => {
    expect(newBatchId(() => 'from-web-crypto')).toBe('from-web-crypto');
  });

  it('falls back to a random id of the UUID form, fresh at each call', () => {
    const ids = Array.from({ length: 50 }, () => newBatchId(null));
    for (const id of ids) {
      expect(id).toMatch(UUID_V4);
      // The routes take a batch id of 1 to 64 characters.
      expect(id.length).toBe(36);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('falls back where the browser has no randomUUID (jsdom, a page over plain http)', () => {
    expect(globalThis.crypto?.randomUUID).toBeUndefined();
    expect(newBatchId()).toMatch(UUID_V4);
  });
});
