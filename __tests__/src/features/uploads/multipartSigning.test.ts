// src/features/uploads/multipartSigning.ts: signing a multipart upload's steps, parts ahead.
import { describe, expect, it, jest } from '@jest/globals';
import type { PresignedPartDto, PresignedRequestDto } from '@common/uploads';
import {
  MultipartSigner,
  PARTS_PER_SIGNATURE,
  SIGNED_PART_MARGIN_MS,
  partsToSign,
  type MultipartSigningApi,
} from '@src/features/uploads/multipartSigning';

const MiB = 1024 * 1024;
const signed = (url: string, method: PresignedRequestDto['method']): PresignedRequestDto => ({
  url,
  method,
  headers: { 'x-amz-test': url },
});

function fakeApi() {
  return {
    signUploadParts: jest.fn(async (_u: string, _k: string, first: number, count: number) =>
      Array.from({ length: count }, (_, i): PresignedPartDto => ({
        part_number: first + i,
        ...signed(`/part/${first + i}`, 'PUT'),
      })),
    ),
    signListParts: jest.fn(async () => signed('/list', 'GET')),
    signCompleteMultipart: jest.fn(async () => signed('/complete', 'POST')),
    abortMultipartUpload: jest.fn(async () => signed('/abort', 'DELETE')),
  } satisfies MultipartSigningApi;
}

describe('partsToSign', () => {
  it('signs ten parts at a time, fewer near the last part, at least one', () => {
    expect(PARTS_PER_SIGNATURE).toBe(10);
    // 25 parts of 10 MiB.
    expect(partsToSign(1, 250 * MiB, 10 * MiB)).toBe(10);
    expect(partsToSign(21, 250 * MiB, 10 * MiB)).toBe(5);
    expect(partsToSign(25, 250 * MiB, 10 * MiB)).toBe(1);
    // A last part shorter than the others still counts.
    expect(partsToSign(25, 245 * MiB, 10 * MiB)).toBe(1);
    expect(partsToSign(26, 250 * MiB, 10 * MiB)).toBe(1);
  });

  it('signs one part of a file of unknown size', () => {
    expect(partsToSign(1, 0, 10 * MiB)).toBe(1);
    expect(partsToSign(7, 0, 10 * MiB)).toBe(1);
  });
});

describe('MultipartSigner', () => {
  const file = { size: 250 * MiB, partSize: 10 * MiB };
  const part = (partNumber: number) =>
    ({ kind: 'part', uploadId: 'mp1', key: 'db/mp1', partNumber }) as const;

  it('signs a part with the next ones and answers those from the cache, once each', async () => {
    const api = fakeApi();
    const signer = new MultipartSigner(() => 0);
    await expect(signer.sign(part(1), api, file)).resolves.toMatchObject({ url: '/part/1' });
    expect(api.signUploadParts).toHaveBeenCalledWith('mp1', 'db/mp1', 1, 10);
    for (let n = 2; n <= 10; n += 1) {
      await expect(signer.sign(part(n), api, file)).resolves.toMatchObject({ url: `/part/${n}` });
    }
    expect(api.signUploadParts).toHaveBeenCalledTimes(1);
    // A part again (a retried part: its URL was used) is signed anew, the one asked for too.
    await signer.sign(part(1), api, file);
    expect(api.signUploadParts).toHaveBeenLastCalledWith('mp1', 'db/mp1', 1, 10);
    await signer.sign(part(1), api, file);
    expect(api.signUploadParts).toHaveBeenCalledTimes(3);
    await signer.sign(part(21), api, file);
    expect(api.signUploadParts).toHaveBeenLastCalledWith('mp1', 'db/mp1', 21, 5);
  });

  it('signs a kept part anew when it is too close to its expiry', async () => {
    const api = fakeApi();
    let now = 0;
    const signer = new MultipartSigner(() => now, 15 * 60_000, SIGNED_PART_MARGIN_MS);
    await signer.sign(part(1), api, file);
    now = 10 * 60_000 - 1;
    await signer.sign(part(2), api, file);
    expect(api.signUploadParts).toHaveBeenCalledTimes(1);
    now = 10 * 60_000;
    await signer.sign(part(3), api, file);
    expect(api.signUploadParts).toHaveBeenCalledTimes(2);
    expect(api.signUploadParts).toHaveBeenLastCalledWith('mp1', 'db/mp1', 3, 10);
  });

  it('forgets the parts of one upload only', async () => {
    const api = fakeApi();
    const signer = new MultipartSigner(() => 0);
    await signer.sign(part(1), api, file);
    await signer.sign({ ...part(1), uploadId: 'mp2' }, api, file);
    signer.forgetUpload('mp1');
    await signer.sign(part(2), api, file);
    await signer.sign({ ...part(2), uploadId: 'mp2' }, api, file);
    expect(api.signUploadParts.mock.calls.map(([uploadId, , first]) => [uploadId, first])).toEqual([
      ['mp1', 1],
      ['mp2', 1],
      ['mp1', 2],
    ]);
  });

  it('fails when the answer lacks the part asked for, keeping the others', async () => {
    const api = fakeApi();
    api.signUploadParts.mockResolvedValueOnce([
      { part_number: 4, ...signed('/part/4', 'PUT') },
      { part_number: 5, ...signed('/part/5', 'PUT') },
    ]);
    const signer = new MultipartSigner(() => 0);
    await expect(signer.sign(part(3), api, file)).rejects.toThrow('Part 3 could not be signed.');
    await expect(signer.sign(part(5), api, file)).resolves.toMatchObject({ url: '/part/5' });
    expect(api.signUploadParts).toHaveBeenCalledTimes(1);
  });

  it('signs the listing, the completion and the abort by their own call', async () => {
    const api = fakeApi();
    const signer = new MultipartSigner();
    const step = { uploadId: 'mp1', key: 'db/mp1' };
    await expect(signer.sign({ kind: 'list-parts', ...step }, api, file)).resolves.toEqual(
      signed('/list', 'GET'),
    );
    await expect(signer.sign({ kind: 'complete', ...step }, api, file)).resolves.toEqual(
      signed('/complete', 'POST'),
    );
    await expect(signer.sign({ kind: 'abort', ...step }, api, file)).resolves.toEqual(
      signed('/abort', 'DELETE'),
    );
    expect(api.signListParts).toHaveBeenCalledWith('mp1', 'db/mp1');
    expect(api.signCompleteMultipart).toHaveBeenCalledWith('mp1', 'db/mp1');
    expect(api.abortMultipartUpload).toHaveBeenCalledWith('mp1', 'db/mp1');
    expect(api.signUploadParts).not.toHaveBeenCalled();
  });

  it("passes the API's error on", async () => {
    const api = fakeApi();
    api.signListParts.mockRejectedValueOnce(new Error('Not found.'));
    await expect(
      new MultipartSigner().sign({ kind: 'list-parts', uploadId: 'mp1', key: 'k' }, api, file),
    ).rejects.toThrow('Not found.');
  });
});
