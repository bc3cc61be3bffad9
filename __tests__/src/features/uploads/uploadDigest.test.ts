// src/features/uploads/uploadDigest.ts: the sha256 reported with an uploaded file.
import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { DEFAULT_UPLOAD_RESTRICTIONS } from '@common/uploads';
import { uploadedSha256, webCryptoDigest } from '@src/features/uploads/uploadDigest';

const SHA256_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const restrictions = { ...DEFAULT_UPLOAD_RESTRICTIONS, multipart_threshold: 10 };

describe('webCryptoDigest', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('is null without Web Crypto (jsdom, like an insecure context)', async () => {
    expect(globalThis.crypto?.subtle).toBeUndefined();
    await expect(webCryptoDigest(new Blob(['abc']))).resolves.toBeNull();
  });

  it('is the lowercase hex sha256 of the bytes', async () => {
    jest.spyOn(globalThis, 'crypto', 'get').mockReturnValue(webcrypto as unknown as Crypto);
    // jsdom's Blob has no arrayBuffer(): a blob that answers it.
    const bytes = new TextEncoder().encode('abc');
    const blob = { arrayBuffer: async () => bytes.buffer } as unknown as Blob;
    await expect(webCryptoDigest(blob)).resolves.toBe(SHA256_ABC);
  });
});

describe('uploadedSha256', () => {
  it('hashes a blob sent by one PUT (up to the threshold)', async () => {
    const digest = jest.fn(async () => 'h'.repeat(64));
    const blob = new Blob(['0123456789']);
    await expect(uploadedSha256(blob, restrictions, digest)).resolves.toBe('h'.repeat(64));
    expect(digest).toHaveBeenCalledWith(blob);
  });

  it('is null for a multipart file, for no bytes, and when the digest fails', async () => {
    const digest = jest.fn(async () => 'h'.repeat(64));
    await expect(uploadedSha256(new Blob(['0123456789a']), restrictions, digest)).resolves.toBe(
      null,
    );
    await expect(uploadedSha256(undefined, restrictions, digest)).resolves.toBeNull();
    expect(digest).not.toHaveBeenCalled();
    const failing = jest.fn(async (): Promise<string | null> => {
      throw new Error('no crypto');
    });
    await expect(uploadedSha256(new Blob(['abc']), restrictions, failing)).resolves.toBeNull();
  });
});
