import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type Uppy from '@uppy/core';
import type { CreateUploadRequest, CreateUploadResponse } from '../../../../common/types';
import type { UploaderEvent } from '../../../../src/features/uploads/uploader';
import {
  createUppyUploader,
  stageFiles,
  takeStagedFiles,
  uploadErrorMessage,
  type UploadBody,
  type UploadMeta,
} from '../../../../src/features/uploads/uppyClient';
import { fakeFile } from './fakeUploader';

type Listener = (...args: unknown[]) => void;
interface FakeFile {
  id: string;
  name: string;
  size: number;
  type: string;
  meta: UploadMeta & { name: string };
}
interface PluginOptions {
  shouldUseMultipart: boolean;
  generateObjectKey: (file: FakeFile) => string;
  signRequest: (request: { method: string; key: string; uploadId?: string }) => Promise<{
    url: string;
    headers?: Record<string, string>;
  }>;
}

/** The part of Uppy the uploader uses, scriptable. */
class FakeUppy {
  files = new Map<string, FakeFile>();
  listeners = new Map<string, Listener[]>();
  plugin: PluginOptions | null = null;
  uploads = 0;
  cancelled = 0;

  use(_plugin: unknown, options: PluginOptions) {
    this.plugin = options;
    return this;
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  addFile(descriptor: { name: string; type: string; data: File; meta: UploadMeta }) {
    if (descriptor.name === 'refused.pdf') throw new Error('This file is not allowed.');
    const id = `uppy-${descriptor.name}`;
    this.files.set(id, {
      id,
      name: descriptor.name,
      size: descriptor.data.size,
      type: descriptor.type,
      meta: { ...descriptor.meta, name: descriptor.name },
    });
    return id;
  }
  getFile(id: string) {
    return this.files.get(id);
  }
  setFileMeta(id: string, meta: UploadMeta) {
    const file = this.files.get(id);
    if (file) file.meta = { ...file.meta, ...meta };
  }
  removeFile(id: string) {
    this.files.delete(id);
  }
  upload() {
    this.uploads += 1;
    return Promise.resolve(undefined);
  }
  cancelAll() {
    this.cancelled += 1;
    this.files.clear();
  }
}

describe('createUppyUploader', () => {
  let fake: FakeUppy;
  let createUpload: jest.Mock<(body: CreateUploadRequest) => Promise<CreateUploadResponse>>;
  let events: UploaderEvent[];

  function make(stallTimeoutMs = 30_000) {
    fake = new FakeUppy();
    createUpload = jest.fn(async () => ({
      id: 'pending-1',
      url: '/storage/put?sig=abc',
      method: 'PUT' as const,
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': 'attachment; filename="Statement.pdf"',
      },
    }));
    const uploader = createUppyUploader({
      createUpload,
      stallTimeoutMs,
      progressIntervalMs: 0,
      createUppy: () => fake as unknown as Uppy<UploadMeta, UploadBody>,
    });
    events = [];
    uploader.subscribe((event) => events.push(event));
    return uploader;
  }

  beforeEach(() => {
    jest.useRealTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('installs @uppy/aws-s3 in simple-PUT mode keyed by the Uppy file id', () => {
    make();
    expect(fake.plugin?.shouldUseMultipart).toBe(false);
    expect(fake.plugin?.generateObjectKey({ id: 'uppy-x' } as FakeFile)).toBe('uppy-x');
  });

  it('adds files with folder and extension meta, and reports refusals', () => {
    const uploader = make();
    const results = uploader.add([
      { file: fakeFile('Statement.PDF', 1536), folderId: 'f1' },
      { file: fakeFile('refused.pdf'), folderId: 'f1' },
    ]);
    expect(results).toEqual([
      { ok: true, id: 'uppy-Statement.PDF' },
      { ok: false, reason: 'This file is not allowed.' },
    ]);
    expect(fake.getFile('uppy-Statement.PDF')?.meta).toMatchObject({
      folderId: 'f1',
      extension: 'pdf',
    });
    uploader.start();
    expect(fake.uploads).toBe(1);
  });

  it('signs the PUT with create-upload and keeps the pending id in the file meta', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('Statement.pdf', 1536), folderId: 'f1' }]);
    const presigned = await fake.plugin!.signRequest({ method: 'PUT', key: 'uppy-Statement.pdf' });
    expect(createUpload).toHaveBeenCalledWith({
      folder_id: 'f1',
      name: 'Statement.pdf',
      extension: 'pdf',
      content_type: 'application/pdf',
      size: 1536,
    });
    expect(presigned).toEqual({
      url: 'http://localhost/storage/put?sig=abc',
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': 'attachment; filename="Statement.pdf"',
      },
    });
    expect(fake.getFile('uppy-Statement.pdf')?.meta.uploadId).toBe('pending-1');
  });

  it('refuses to sign multipart requests', async () => {
    make();
    await expect(
      fake.plugin!.signRequest({ method: 'PUT', key: 'k', uploadId: 'u' }),
    ).rejects.toThrow('Multipart uploads are not enabled.');
    await expect(fake.plugin!.signRequest({ method: 'POST', key: 'k' })).rejects.toThrow();
  });

  it('reports progress, success with the pending id, and errors', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('a.pdf', 100), folderId: '' }]);
    await fake.plugin!.signRequest({ method: 'PUT', key: 'uppy-a.pdf' });
    const file = fake.getFile('uppy-a.pdf');
    fake.emit('upload-progress', file, { bytesUploaded: 50, bytesTotal: 100 });
    fake.emit('upload-success', file, { status: 200 });
    fake.emit('upload-error', file, new Error('S3 returned 500'));
    expect(events).toEqual([
      { type: 'progress', id: 'uppy-a.pdf', bytesUploaded: 50, bytesTotal: 100 },
      { type: 'uploaded', id: 'uppy-a.pdf', uploadId: 'pending-1' },
      { type: 'failed', id: 'uppy-a.pdf', message: 'S3 returned 500' },
    ]);
  });

  it('aborts a stalled upload with the spec message', async () => {
    const uploader = make(30_000);
    uploader.add([{ file: fakeFile('slow.pdf', 100), folderId: '' }]);
    jest.useFakeTimers();
    await fake.plugin!.signRequest({ method: 'PUT', key: 'uppy-slow.pdf' });
    jest.advanceTimersByTime(29_999);
    expect(events).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(events).toEqual([
      { type: 'failed', id: 'uppy-slow.pdf', message: 'Upload stalled for 30 seconds, aborting.' },
    ]);
    expect(fake.getFile('uppy-slow.pdf')).toBeUndefined();
  });

  it('restarts the stall timer on progress', async () => {
    const uploader = make(30_000);
    uploader.add([{ file: fakeFile('ok.pdf', 100), folderId: '' }]);
    jest.useFakeTimers();
    await fake.plugin!.signRequest({ method: 'PUT', key: 'uppy-ok.pdf' });
    jest.advanceTimersByTime(20_000);
    fake.emit('upload-progress', fake.getFile('uppy-ok.pdf'), {
      bytesUploaded: 10,
      bytesTotal: 100,
    });
    jest.advanceTimersByTime(20_000);
    expect(events.filter((event) => event.type === 'failed')).toEqual([]);
  });

  it('forgets finished files and cancels all', () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('a.pdf'), folderId: '' }]);
    fake.emit('complete', { successful: [{ id: 'uppy-a.pdf' }], failed: [] });
    expect(fake.files.size).toBe(0);
    uploader.add([{ file: fakeFile('b.pdf'), folderId: '' }]);
    uploader.cancelAll();
    expect(fake.cancelled).toBe(1);
  });
});

describe('uploadErrorMessage', () => {
  it("prefers the store's JSON message, then the error text", () => {
    const storeError = Object.assign(new Error('S3 returned 403'), {
      body: '{"message":"The upload link is invalid or has expired.","code":"invalid_signature"}',
    });
    expect(uploadErrorMessage(storeError)).toBe('The upload link is invalid or has expired.');
    const xmlError = Object.assign(new Error('S3 returned 403'), { body: '<Error/>' });
    expect(uploadErrorMessage(xmlError)).toBe('S3 returned 403');
  });
});

describe('staging', () => {
  it('keeps picked files until the saga takes them, once', () => {
    const file = fakeFile('a.pdf');
    const batchId = stageFiles([{ file, isDirectory: false }]);
    expect(takeStagedFiles(batchId)).toEqual([{ file, isDirectory: false }]);
    expect(takeStagedFiles(batchId)).toEqual([]);
  });
});
