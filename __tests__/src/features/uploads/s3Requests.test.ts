// src/features/uploads/s3Requests.ts: the @uppy/aws-s3 side both uploaders share.
import { describe, expect, it, jest } from '@jest/globals';
import type { UppyFile } from '@uppy/core';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import {
  s3PluginOptions,
  s3StepOf,
  signedAnswer,
  type PresignableRequest,
} from '@src/features/uploads/s3Requests';

describe('s3StepOf', () => {
  it("tells a file's first request by its key, the Uppy file id", () => {
    expect(s3StepOf({ method: 'PUT', key: 'uppy-a' })).toEqual({ kind: 'put', fileId: 'uppy-a' });
    expect(s3StepOf({ method: 'POST', key: 'uppy-b' })).toEqual({
      kind: 'create-multipart',
      fileId: 'uppy-b',
    });
  });

  it("tells a multipart upload's later steps", () => {
    const upload = { uploadId: 'mp1', key: 'db/mp1' };
    expect(s3StepOf({ method: 'PUT', partNumber: 3, ...upload })).toEqual({
      kind: 'part',
      partNumber: 3,
      ...upload,
    });
    expect(s3StepOf({ method: 'GET', ...upload })).toEqual({ kind: 'list-parts', ...upload });
    expect(s3StepOf({ method: 'POST', ...upload })).toEqual({ kind: 'complete', ...upload });
    expect(s3StepOf({ method: 'DELETE', ...upload })).toEqual({ kind: 'abort', ...upload });
  });

  it('refuses any other request without an upload', () => {
    expect(() => s3StepOf({ method: 'DELETE', key: 'uppy-a' })).toThrow(
      'Unexpected DELETE request without an upload.',
    );
    const listing = { method: 'GET', key: 'uppy-a' } as unknown as PresignableRequest;
    expect(() => s3StepOf(listing)).toThrow('Unexpected GET request without an upload.');
  });
});

describe('signedAnswer', () => {
  const headers = { 'Content-Type': 'application/pdf' };

  it('makes the URL absolute against the base and keeps the signed headers', () => {
    expect(
      signedAnswer({ url: '/storage/put?sig=a', headers }, undefined, 'https://app/x/y'),
    ).toEqual({ url: 'https://app/storage/put?sig=a', headers });
    expect(
      signedAnswer({ url: 'https://s3.example/b/k?sig=a', headers }, undefined, 'https://app/'),
    ).toEqual({ url: 'https://s3.example/b/k?sig=a', headers });
  });

  it("adds the server's object key only when given (a multipart creation)", () => {
    const answer = signedAnswer({ url: '/create', headers: {} }, 'db/mp1', 'https://app/');
    expect(answer).toEqual({ url: 'https://app/create', key: 'db/mp1', headers: {} });
    expect('key' in signedAnswer({ url: '/put', headers: {} }, undefined, 'https://app/')).toBe(
      false,
    );
  });

  it("resolves against the page's address by default", () => {
    expect(signedAnswer({ url: '/put', headers: {} }).url).toBe(
      new URL('/put', window.location.href).toString(),
    );
  });
});

describe('s3PluginOptions', () => {
  type File = UppyFile<Record<string, never>, Record<string, never>>;
  const file = (id: string, size: number | null) => ({ id, size }) as File;

  it('proposes the Uppy file id as the object key and passes signRequest on', () => {
    const signRequest = jest.fn(async () => ({ url: 'https://x' }));
    const options = s3PluginOptions(() => DEFAULT_UPLOAD_RESTRICTIONS, signRequest);
    expect(options.generateObjectKey(file('uppy-a', 1))).toBe('uppy-a');
    expect(options.signRequest).toBe(signRequest);
  });

  it('goes multipart strictly above the threshold in force, in parts of its part size', () => {
    let restrictions: UploadRestrictions = {
      ...DEFAULT_UPLOAD_RESTRICTIONS,
      multipart_threshold: 1000,
      part_size: 100,
    };
    const options = s3PluginOptions(
      () => restrictions,
      async () => ({ url: 'https://x' }),
    );
    expect(options.shouldUseMultipart(file('a', 1000))).toBe(false);
    expect(options.shouldUseMultipart(file('a', 1001))).toBe(true);
    expect(options.shouldUseMultipart(file('a', null))).toBe(false);
    expect(options.getChunkSize()).toBe(100);
    // Read at each call: a later configure applies.
    restrictions = { ...restrictions, multipart_threshold: 5000, part_size: 200 };
    expect(options.shouldUseMultipart(file('a', 1001))).toBe(false);
    expect(options.getChunkSize()).toBe(200);
  });
});
