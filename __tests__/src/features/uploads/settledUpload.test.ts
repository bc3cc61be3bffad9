// src/features/uploads/settledUpload.ts: create-upload answers that need no bytes sent.
import { describe, expect, it } from '@jest/globals';
import { SettledUpload, isSettled } from '@src/features/uploads/settledUpload';

describe('isSettled', () => {
  it('tells a settled answer (with a state) from one with a URL to send to', () => {
    expect(isSettled({ id: 'p1', state: 'stored' })).toBe(true);
    expect(isSettled({ id: 'p1', state: 'recorded' })).toBe(true);
    expect(isSettled({ id: 'p1', url: '/put', method: 'PUT', headers: {} })).toBe(false);
    expect(
      isSettled({ id: 'mp1', key: 'db/mp1', url: '/create', method: 'POST', headers: {} }),
    ).toBe(false);
  });
});

describe('SettledUpload', () => {
  it('is an Error that carries the upload id to record', () => {
    const error = new SettledUpload('p7');
    expect(error).toBeInstanceOf(Error);
    expect(error.uploadId).toBe('p7');
    expect(error.message).toBe('The file is already stored.');
  });
});
