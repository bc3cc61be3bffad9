// The Uppy adapter against a scriptable fake of Uppy (the real Uppy cannot load in Jest; the real
// flow runs in Chromium in e2e/uploads.spec.ts).
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type Uppy from '@uppy/core';
import type {
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  CreateUploadRequest,
  CreateUploadResponse,
  PresignedPartDto,
  PresignedRequestDto,
  SettledUploadResponse,
} from '@common/uploads';
import { DEFAULT_UPLOAD_RESTRICTIONS } from '@common/uploads';
import { ApiError } from '@src/api/client';
import { clearFailedUploads, failedUpload } from '@src/features/uploads/failedUploads';
import type { UploaderEvent } from '@src/features/uploads/uploader';
import {
  createUppyUploader,
  isConnectionError,
  stageFiles,
  takeStagedFiles,
  uploadErrorMessage,
  type UploadBody,
  type UploadMeta,
} from '@src/features/uploads/uppyClient';
import { UPLOAD_ID_STORAGE_KEY } from '@src/features/uploads/uploadIdStore';
import { fakeFile } from './fakeUploader';

type Listener = (...args: unknown[]) => void;
interface FakeFile {
  id: string;
  name: string;
  size: number;
  type: string;
  data?: File;
  isGhost?: boolean;
  isPaused?: boolean;
  error?: string | null;
  s3Multipart?: { uploadId: string; key: string };
  progress: {
    uploadComplete?: boolean;
    uploadStarted: number | null;
    bytesUploaded: number | false;
    bytesTotal: number | null;
  };
  meta: UploadMeta & { name: string };
}
type SignRequest = (
  request: Record<string, unknown> & { method: string; key: string },
) => Promise<{ url: string; key?: string; headers?: Record<string, string> }>;
interface PluginOptions {
  shouldUseMultipart: (file: { size: number }) => boolean;
  getChunkSize: (file: { size: number }) => number;
  generateObjectKey: (file: FakeFile) => string;
  signRequest: SignRequest;
}

/** The part of Uppy the uploader uses, scriptable. */
class FakeUppy {
  files = new Map<string, FakeFile>();
  listeners = new Map<string, Listener[]>();
  plugin: PluginOptions | null = null;
  uploads = 0;
  retries: string[] = [];
  pauses: string[] = [];
  removed: string[] = [];
  cancelled = 0;
  state: Record<string, unknown> = {};

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
    const known = this.files.get(id);
    if (known && !known.isGhost) {
      throw new Error(`Cannot add the duplicate file '${descriptor.name}', it already exists.`);
    }
    this.files.set(id, {
      ...known,
      id,
      name: descriptor.name,
      size: descriptor.data.size,
      type: descriptor.type,
      data: descriptor.data,
      isGhost: false,
      progress: known?.progress ?? {
        uploadStarted: null,
        bytesUploaded: false,
        bytesTotal: descriptor.data.size,
      },
      meta: { ...known?.meta, ...descriptor.meta, name: descriptor.name },
    });
    return id;
  }
  getFile(id: string) {
    return this.files.get(id);
  }
  getFiles() {
    return [...this.files.values()];
  }
  setFileMeta(id: string, meta: UploadMeta) {
    const file = this.files.get(id);
    if (file) file.meta = { ...meta, name: file.name };
  }
  setFileState(id: string, patch: Partial<FakeFile>) {
    const file = this.files.get(id);
    if (file) Object.assign(file, patch);
  }
  setState(patch: Record<string, unknown>) {
    Object.assign(this.state, patch);
  }
  removeFile(id: string) {
    this.removed.push(id);
    this.files.delete(id);
  }
  pauseResume(id: string) {
    this.pauses.push(id);
    const file = this.files.get(id);
    if (file) file.isPaused = !file.isPaused;
    return file?.isPaused;
  }
  retryUpload(id: string) {
    this.retries.push(id);
    return Promise.resolve(undefined);
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

const presigned = (url: string): PresignedRequestDto => ({ url, method: 'PUT', headers: {} });

describe('createUppyUploader', () => {
  let fake: FakeUppy;
  let events: UploaderEvent[];
  let online: boolean;
  let api: {
    createUpload: jest.Mock<
      (body: CreateUploadRequest) => Promise<CreateUploadResponse | SettledUploadResponse>
    >;
    createMultipartUpload: jest.Mock<
      (
        body: CreateMultipartUploadRequest,
      ) => Promise<CreateMultipartUploadResponse | SettledUploadResponse>
    >;
    signUploadParts: jest.Mock<
      (u: string, k: string, first: number, count: number) => Promise<PresignedPartDto[]>
    >;
    signListParts: jest.Mock<(u: string, k: string) => Promise<PresignedRequestDto>>;
    signCompleteMultipart: jest.Mock<(u: string, k: string) => Promise<PresignedRequestDto>>;
    abortMultipartUpload: jest.Mock<(u: string, k: string) => Promise<PresignedRequestDto>>;
    discardUpload: jest.Mock<(id: string) => Promise<void>>;
  };
  let digest: jest.Mock<(blob: Blob) => Promise<string | null>>;
  /** The uploader's localStorage stand-in; a "reload" makes a new uploader over the same one. */
  let storage: Map<string, string>;
  const storageApi = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
  };
  const keptIds = () =>
    JSON.parse(storage.get(UPLOAD_ID_STORAGE_KEY) ?? '{}') as Record<string, string>;

  beforeEach(() => {
    storage = new Map();
  });

  function make(stallTimeoutMs = 30_000) {
    fake = new FakeUppy();
    online = true;
    let pending = 0;
    api = {
      createUpload: jest.fn(async () => {
        pending += 1;
        return {
          id: `pending-${pending}`,
          url: '/storage/put?sig=abc',
          method: 'PUT' as const,
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="Statement.pdf"',
          },
        };
      }),
      createMultipartUpload: jest.fn(async () => ({
        id: 'mp-1',
        key: 'db1/mp-1',
        url: '/storage/db1/mp-1?uploads=&sig=c',
        method: 'POST' as const,
        headers: { 'Content-Type': 'application/octet-stream' },
      })),
      signUploadParts: jest.fn(async (_u: string, _k: string, first: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({
          part_number: first + i,
          ...presigned(`/part?n=${first + i}`),
        })),
      ),
      signListParts: jest.fn(async () => presigned('/list')),
      signCompleteMultipart: jest.fn(async () => presigned('/complete')),
      abortMultipartUpload: jest.fn(async () => presigned('/abort')),
      discardUpload: jest.fn(async () => undefined),
    };
    digest = jest.fn(async () => 'f'.repeat(64));
    const uploader = createUppyUploader({
      api,
      stallTimeoutMs,
      progressIntervalMs: 0,
      digest,
      isOnline: () => online,
      createUppy: () => fake as unknown as Uppy<UploadMeta, UploadBody>,
      uploadIdStorage: storageApi,
    });
    events = [];
    uploader.subscribe((event) => events.push(event));
    return uploader;
  }

  const sign = (request: Record<string, unknown> & { method: string; key: string }) =>
    fake.plugin!.signRequest(request);

  beforeEach(() => {
    jest.useRealTimers();
    clearFailedUploads();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('installs @uppy/aws-s3 keyed by the Uppy file id, multipart above the threshold', () => {
    const uploader = make();
    expect(fake.plugin?.generateObjectKey({ id: 'uppy-x' } as FakeFile)).toBe('uppy-x');
    const threshold = DEFAULT_UPLOAD_RESTRICTIONS.multipart_threshold;
    expect(fake.plugin?.shouldUseMultipart({ size: threshold })).toBe(false);
    expect(fake.plugin?.shouldUseMultipart({ size: threshold + 1 })).toBe(true);
    expect(fake.plugin?.getChunkSize({ size: 60_000_000 })).toBe(10 * 1024 * 1024);
    uploader.configure({
      ...DEFAULT_UPLOAD_RESTRICTIONS,
      multipart_threshold: 1000,
      part_size: 8 * 1024 * 1024,
    });
    expect(fake.plugin?.shouldUseMultipart({ size: 1001 })).toBe(true);
    expect(fake.plugin?.shouldUseMultipart({ size: 0 })).toBe(false);
    expect(fake.plugin?.getChunkSize({ size: 60_000_000 })).toBe(8 * 1024 * 1024);
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

  it('signs a single PUT with create-upload and keeps the pending id in the file meta', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('Statement.pdf', 1536), folderId: 'f1' }]);
    const batchId = fake.getFile('uppy-Statement.pdf')?.meta.batchId;
    expect(batchId).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await sign({ method: 'PUT', key: 'uppy-Statement.pdf' });
    expect(api.createUpload).toHaveBeenCalledWith({
      folder_id: 'f1',
      name: 'Statement.pdf',
      extension: 'pdf',
      content_type: 'application/pdf',
      size: 1536,
      batch_id: batchId,
      client_key: 'uppy-Statement.pdf',
    });
    expect(answer).toEqual({
      url: 'http://localhost/storage/put?sig=abc',
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': 'attachment; filename="Statement.pdf"',
      },
    });
    expect(fake.getFile('uppy-Statement.pdf')?.meta.uploadId).toBe('pending-1');
    // Sent again (a retry), the file of a batch asks the server again, which answers its earlier
    // upload: nothing is discarded.
    await sign({ method: 'PUT', key: 'uppy-Statement.pdf' });
    expect(api.discardUpload).not.toHaveBeenCalled();
    expect(api.createUpload).toHaveBeenLastCalledWith(
      expect.objectContaining({ batch_id: batchId, client_key: 'uppy-Statement.pdf' }),
    );
  });

  it('gives each pick its own batch, and a ghost given its bytes again keeps its batch', () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('a.pdf'), folderId: '' }]);
    uploader.add([{ file: fakeFile('b.pdf'), folderId: '' }]);
    const batchOf = (id: string) => fake.getFile(id)?.meta.batchId;
    expect(batchOf('uppy-a.pdf')).toBeTruthy();
    expect(batchOf('uppy-b.pdf')).toBeTruthy();
    expect(batchOf('uppy-a.pdf')).not.toBe(batchOf('uppy-b.pdf'));
    fake.setFileState('uppy-a.pdf', { isGhost: true, data: undefined });
    uploader.add([{ file: fakeFile('a.pdf'), folderId: '' }]);
    expect(fake.getFile('uppy-a.pdf')?.isGhost).toBe(false);
    expect(batchOf('uppy-a.pdf')).not.toBe(batchOf('uppy-b.pdf'));
    const before = batchOf('uppy-a.pdf');
    fake.setFileState('uppy-a.pdf', { isGhost: true, data: undefined });
    uploader.add([{ file: fakeFile('a.pdf'), folderId: '' }]);
    expect(batchOf('uppy-a.pdf')).toBe(before);
  });

  it('records a file of the batch the server answers as stored or recorded, sending nothing', async () => {
    const uploader = make();
    api.createUpload.mockImplementation(async () => ({ id: 'recorded-1', state: 'recorded' }));
    api.createMultipartUpload.mockImplementation(async () => ({ id: 'stored-2', state: 'stored' }));
    uploader.add([
      { file: fakeFile('done.pdf', 10), folderId: '' },
      { file: fakeFile('big.bin', 20), folderId: '' },
    ]);
    await expect(sign({ method: 'PUT', key: 'uppy-done.pdf' })).rejects.toThrow();
    await expect(sign({ method: 'POST', key: 'uppy-big.bin' })).rejects.toThrow();
    fake.emit('upload-error', fake.getFile('uppy-done.pdf'), new Error('stopped'));
    fake.emit('upload-error', fake.getFile('uppy-big.bin'), new Error('stopped'));
    expect(events).toEqual([
      { type: 'uploaded', id: 'uppy-done.pdf', uploadId: 'recorded-1', sha256: null },
      { type: 'uploaded', id: 'uppy-big.bin', uploadId: 'stored-2', sha256: null },
    ]);
    expect(fake.getFile('uppy-done.pdf')?.meta.uploadId).toBe('recorded-1');
    expect(keptIds()).toMatchObject({ 'uppy-done.pdf': 'recorded-1', 'uppy-big.bin': 'stored-2' });
    expect(failedUpload('uppy-done.pdf')).toBeUndefined();
  });

  it('asks create-upload again when the server no longer has a multipart upload pending', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('Resumed.bin', 30), folderId: '' }]);
    fake.setFileMeta('uppy-Resumed.bin', {
      ...fake.getFile('uppy-Resumed.bin')!.meta,
      uploadId: 'mp-old',
    });
    // Recorded meanwhile: the listing of its parts is refused, the create answers it recorded.
    api.signListParts.mockRejectedValueOnce(new ApiError(404, 'no_such_upload', 'gone'));
    api.createMultipartUpload.mockResolvedValueOnce({ id: 'mp-old', state: 'recorded' });
    await expect(sign({ method: 'GET', key: 'db1/mp-old', uploadId: 'mp-old' })).rejects.toThrow();
    fake.emit('upload-error', fake.getFile('uppy-Resumed.bin'), new Error('stopped'));
    expect(events).toEqual([
      { type: 'uploaded', id: 'uppy-Resumed.bin', uploadId: 'mp-old', sha256: null },
    ]);
    // Discarded meanwhile: the file starts over with the pending upload the server answers.
    fake.setFileState('uppy-Resumed.bin', {
      s3Multipart: { uploadId: 'mp-old', key: 'db1/mp-old' },
    });
    api.signCompleteMultipart.mockRejectedValueOnce(new ApiError(404, 'no_such_upload', 'gone'));
    await expect(sign({ method: 'POST', key: 'db1/mp-old', uploadId: 'mp-old' })).rejects.toThrow(
      'gone',
    );
    expect(fake.getFile('uppy-Resumed.bin')?.meta.uploadId).toBe('mp-1');
    expect(fake.getFile('uppy-Resumed.bin')?.s3Multipart).toBeUndefined();
    fake.emit('upload-error', fake.getFile('uppy-Resumed.bin'), new ApiError(404, 'x', 'gone'));
    expect(events.at(-1)).toMatchObject({ type: 'failed', id: 'uppy-Resumed.bin' });
  });

  it('signs every multipart step through the API, with the server’s key', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('big.bin', 30_000_000), folderId: '' }]);
    const created = await sign({ method: 'POST', key: 'uppy-big.bin' });
    expect(api.createMultipartUpload).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'big.bin', size: 30_000_000 }),
    );
    expect(created).toEqual({
      url: 'http://localhost/storage/db1/mp-1?uploads=&sig=c',
      key: 'db1/mp-1',
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(fake.getFile('uppy-big.bin')?.meta.uploadId).toBe('mp-1');
    const step = { key: 'db1/mp-1', uploadId: 'mp-1' };
    expect(await sign({ method: 'PUT', partNumber: 3, ...step })).toEqual({
      url: 'http://localhost/part?n=3',
      headers: {},
    });
    // 30 MB in 10 MiB parts: part 3 is the last one, signed alone.
    expect(api.signUploadParts).toHaveBeenCalledWith('mp-1', 'db1/mp-1', 3, 1);
    await sign({ method: 'GET', ...step });
    expect(api.signListParts).toHaveBeenCalledWith('mp-1', 'db1/mp-1');
    await sign({ method: 'POST', ...step });
    expect(api.signCompleteMultipart).toHaveBeenCalledWith('mp-1', 'db1/mp-1');
    await sign({ method: 'DELETE', ...step });
    expect(api.abortMultipartUpload).toHaveBeenCalledWith('mp-1', 'db1/mp-1');
    await expect(sign({ method: 'DELETE', key: 'uppy-big.bin' })).rejects.toThrow();
    await expect(sign({ method: 'PUT', key: 'gone' })).rejects.toThrow(
      'The file is no longer queued.',
    );
  });

  it('signs the parts ten at a time and uses each signature once, while fresh', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('huge.bin', 100 * 1024 * 1024), folderId: '' }]);
    await sign({ method: 'POST', key: 'uppy-huge.bin' });
    const step = { key: 'db1/mp-1', uploadId: 'mp-1' };
    expect((await sign({ method: 'PUT', partNumber: 1, ...step })).url).toBe(
      'http://localhost/part?n=1',
    );
    expect(api.signUploadParts).toHaveBeenCalledWith('mp-1', 'db1/mp-1', 1, 10);
    for (let n = 2; n <= 10; n += 1) {
      expect((await sign({ method: 'PUT', partNumber: n, ...step })).url).toBe(
        `http://localhost/part?n=${n}`,
      );
    }
    expect(api.signUploadParts).toHaveBeenCalledTimes(1);
    // Used once: part 5 sent again is signed again (with the parts after it).
    await sign({ method: 'PUT', partNumber: 5, ...step });
    expect(api.signUploadParts).toHaveBeenLastCalledWith('mp-1', 'db1/mp-1', 5, 6);
    // A signature close to its expiry is not used.
    jest.useFakeTimers({ now: Date.now() });
    jest.setSystemTime(Date.now() + 11 * 60_000);
    await sign({ method: 'PUT', partNumber: 6, ...step });
    expect(api.signUploadParts).toHaveBeenLastCalledWith('mp-1', 'db1/mp-1', 6, 5);
    // Cancelling forgets the parts signed ahead.
    uploader.cancel('uppy-huge.bin');
    expect(api.discardUpload).toHaveBeenCalledWith('mp-1');
  });

  it('reports progress, and success with the pending id and the checksum of a small file', async () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('a.pdf', 100), folderId: '' }]);
    await sign({ method: 'PUT', key: 'uppy-a.pdf' });
    const file = fake.getFile('uppy-a.pdf');
    fake.emit('upload-progress', file, { bytesUploaded: 50, bytesTotal: 100 });
    fake.emit('upload-success', file, { status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual([
      { type: 'progress', id: 'uppy-a.pdf', bytesUploaded: 50, bytesTotal: 100 },
      { type: 'uploaded', id: 'uppy-a.pdf', uploadId: 'pending-1', sha256: 'f'.repeat(64) },
    ]);
    expect(digest).toHaveBeenCalledTimes(1);
    // Kept until recorded, then released.
    expect(fake.getFile('uppy-a.pdf')).toBeDefined();
    uploader.release('uppy-a.pdf');
    expect(fake.getFile('uppy-a.pdf')).toBeUndefined();
  });

  it('does not hash a multipart file', async () => {
    make();
    fake.addFile({
      name: 'big.bin',
      type: 'application/octet-stream',
      data: fakeFile('big.bin', 30_000_000),
      meta: { folderId: '', extension: 'bin', uploadId: 'mp-1' },
    });
    fake.emit('upload-success', fake.getFile('uppy-big.bin'), { status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual([
      { type: 'uploaded', id: 'uppy-big.bin', uploadId: 'mp-1', sha256: null },
    ]);
    expect(digest).not.toHaveBeenCalled();
  });

  it('fails a file on an error, collecting error, response and file, and clearing Uppy’s error', async () => {
    const uploader = make();
    const data = fakeFile('a.pdf', 100);
    uploader.add([{ file: data, folderId: '' }]);
    await sign({ method: 'PUT', key: 'uppy-a.pdf' });
    const error = Object.assign(new Error('S3 returned 403'), {
      status: 403,
      body: '{"message":"The upload link is invalid or has expired.","code":"expired"}',
    });
    fake.setFileState('uppy-a.pdf', { error: 'S3 returned 403' });
    fake.emit('upload-error', fake.getFile('uppy-a.pdf'), error);
    expect(events).toEqual([
      { type: 'failed', id: 'uppy-a.pdf', message: 'The upload link is invalid or has expired.' },
    ]);
    expect(fake.getFile('uppy-a.pdf')?.error).toBeNull();
    expect(failedUpload('uppy-a.pdf')).toEqual({
      error,
      response: { status: 403, body: error.body },
      file: data,
    });
    expect(uploader.fileOf('uppy-a.pdf')).toBe(data);
    // Retried on request: a new Uppy upload of that file (a multipart one resumes from its parts).
    uploader.retry('uppy-a.pdf');
    expect(fake.retries).toEqual(['uppy-a.pdf']);
    expect(failedUpload('uppy-a.pdf')).toBeUndefined();
    expect(fake.getFile('uppy-a.pdf')?.meta.failure).toBeUndefined();
  });

  it('stops a stalled upload after 30 s without progress with the spec message, keeping its parts', async () => {
    const uploader = make(30_000);
    uploader.add([{ file: fakeFile('slow.pdf', 100), folderId: '' }]);
    jest.useFakeTimers();
    await sign({ method: 'PUT', key: 'uppy-slow.pdf' });
    jest.advanceTimersByTime(29_999);
    expect(events).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(events).toEqual([
      { type: 'failed', id: 'uppy-slow.pdf', message: 'Upload stalled for 30 seconds, aborting.' },
    ]);
    // Paused (the request in flight is aborted), not removed: no multipart abort, retry resumes.
    expect(fake.pauses).toEqual(['uppy-slow.pdf']);
    expect(fake.removed).toEqual([]);
    expect(failedUpload('uppy-slow.pdf')?.error).toEqual(
      new Error('Upload stalled for 30 seconds, aborting.'),
    );
    // An error the aborted request may still raise does not report the file again.
    fake.emit('upload-error', fake.getFile('uppy-slow.pdf'), new Error('aborted'));
    expect(events).toHaveLength(1);
    uploader.retry('uppy-slow.pdf');
    expect(fake.pauses).toEqual(['uppy-slow.pdf', 'uppy-slow.pdf']);
    expect(fake.getFile('uppy-slow.pdf')?.isPaused).toBe(false);
    expect(fake.retries).toEqual([]);
  });

  it('restarts the stall timer on progress', async () => {
    const uploader = make(30_000);
    uploader.add([{ file: fakeFile('ok.pdf', 100), folderId: '' }]);
    jest.useFakeTimers();
    await sign({ method: 'PUT', key: 'uppy-ok.pdf' });
    jest.advanceTimersByTime(20_000);
    fake.emit('upload-progress', fake.getFile('uppy-ok.pdf'), {
      bytesUploaded: 10,
      bytesTotal: 100,
    });
    jest.advanceTimersByTime(20_000);
    expect(events.filter((event) => event.type === 'failed')).toEqual([]);
    jest.advanceTimersByTime(10_000);
    expect(events.filter((event) => event.type === 'failed')).toHaveLength(1);
  });

  it('waits instead of failing while offline, suspends the stall watch, and resumes online', async () => {
    const uploader = make(30_000);
    uploader.add([{ file: fakeFile('net.pdf', 100), folderId: '' }]);
    jest.useFakeTimers();
    await sign({ method: 'PUT', key: 'uppy-net.pdf' });
    online = false;
    fake.emit('is-offline');
    const networkError = Object.assign(new Error('Network error during S3 request'), {
      name: 'S3NetworkError',
    });
    fake.emit('upload-error', fake.getFile('uppy-net.pdf'), networkError);
    jest.advanceTimersByTime(120_000);
    expect(events).toEqual([{ type: 'offline' }, { type: 'waiting', id: 'uppy-net.pdf' }]);
    expect(failedUpload('uppy-net.pdf')).toBeUndefined();
    online = true;
    fake.emit('back-online');
    expect(events.at(-1)).toEqual({ type: 'online' });
    expect(fake.retries).toEqual(['uppy-net.pdf']);
    // Watched again once it runs.
    jest.advanceTimersByTime(30_000);
    expect(events.at(-1)).toEqual({
      type: 'failed',
      id: 'uppy-net.pdf',
      message: 'Upload stalled for 30 seconds, aborting.',
    });
  });

  it('sends a file again whose record was refused (its bytes were discarded)', () => {
    const uploader = make();
    uploader.add([{ file: fakeFile('r.pdf', 100), folderId: '' }]);
    fake.setFileState('uppy-r.pdf', {
      progress: { uploadComplete: true, uploadStarted: 1, bytesUploaded: 100, bytesTotal: 100 },
      s3Multipart: { uploadId: 'x', key: 'y' },
    });
    uploader.retry('uppy-r.pdf');
    expect(fake.getFile('uppy-r.pdf')).toMatchObject({
      progress: { uploadComplete: false, uploadStarted: null, bytesUploaded: false },
      s3Multipart: undefined,
    });
    expect(fake.retries).toEqual(['uppy-r.pdf']);
  });

  it('cancels one file: removes it from Uppy and discards its pending upload', async () => {
    const uploader = make();
    uploader.add([
      { file: fakeFile('a.pdf', 100), folderId: '' },
      { file: fakeFile('b.pdf', 100), folderId: '' },
    ]);
    await sign({ method: 'PUT', key: 'uppy-a.pdf' });
    uploader.cancel('uppy-a.pdf');
    expect(fake.removed).toEqual(['uppy-a.pdf']);
    expect(api.discardUpload).toHaveBeenCalledWith('pending-1');
    expect(fake.getFile('uppy-b.pdf')).toBeDefined();
  });

  it('cancels all: Uppy cancels and every pending upload is discarded; a missing one is fine', async () => {
    const uploader = make();
    uploader.add([
      { file: fakeFile('a.pdf', 100), folderId: '' },
      { file: fakeFile('b.pdf', 100), folderId: '' },
    ]);
    await sign({ method: 'PUT', key: 'uppy-a.pdf' });
    await sign({ method: 'PUT', key: 'uppy-b.pdf' });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    api.discardUpload.mockRejectedValueOnce(new ApiError(404, 'no_such_upload', 'gone'));
    uploader.cancelAll();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.cancelled).toBe(1);
    expect(api.discardUpload.mock.calls.map((call) => call[0])).toEqual(['pending-1', 'pending-2']);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('reports the files found again after a reload and resumes them on request', () => {
    const uploader = make();
    const resumable: FakeFile = {
      id: 'uppy-big.bin',
      name: 'big.bin',
      size: 1000,
      type: 'application/octet-stream',
      data: fakeFile('big.bin', 1000),
      s3Multipart: { uploadId: 'mp-1', key: 'db1/mp-1' },
      progress: { uploadStarted: 1, bytesUploaded: 400, bytesTotal: 1000 },
      meta: { folderId: 'f1', extension: 'bin', uploadId: 'mp-1', name: 'big.bin' },
    };
    const stored: FakeFile = {
      ...resumable,
      id: 'uppy-done.pdf',
      name: 'done.pdf',
      size: 10,
      progress: { uploadComplete: true, uploadStarted: 1, bytesUploaded: 10, bytesTotal: 10 },
      meta: { folderId: '', extension: 'pdf', uploadId: 'p2', name: 'done.pdf' },
    };
    const ghost: FakeFile = {
      ...resumable,
      id: 'uppy-ghost.pdf',
      name: 'ghost.pdf',
      data: undefined,
      isGhost: true,
      meta: { folderId: '', extension: 'pdf', name: 'ghost.pdf' },
    };
    for (const file of [resumable, stored, ghost]) fake.files.set(file.id, file);
    fake.emit('restored', {});
    expect(events).toEqual([
      {
        type: 'restored',
        files: [
          {
            id: 'uppy-big.bin',
            name: 'big.bin',
            size: 1000,
            folderId: 'f1',
            bytesUploaded: 400,
            uploadId: 'mp-1',
            state: 'uploading',
            message: null,
          },
          {
            id: 'uppy-done.pdf',
            name: 'done.pdf',
            size: 10,
            folderId: '',
            bytesUploaded: 10,
            uploadId: 'p2',
            state: 'uploaded',
            message: null,
          },
          {
            id: 'uppy-ghost.pdf',
            name: 'ghost.pdf',
            size: 1000,
            folderId: '',
            bytesUploaded: 400,
            uploadId: null,
            state: 'failed',
            message: 'The upload was interrupted. Retry to continue.',
          },
        ],
      },
    ]);
    expect(fake.state).toEqual({ currentUploads: {}, recoveredState: null });
    expect(fake.retries).toEqual([]);
    uploader.resumeRestored();
    expect(fake.retries).toEqual(['uppy-big.bin']);
    // The ghost gets its bytes back when the user adds the same file: it resumes on start.
    expect(uploader.add([{ file: fakeFile('ghost.pdf', 1000), folderId: '' }])).toEqual([
      { ok: true, id: 'uppy-ghost.pdf' },
    ]);
    uploader.start();
    expect(fake.retries).toEqual(['uppy-big.bin', 'uppy-ghost.pdf']);
  });

  it('reports a restored file whose bytes were lost but which had a pending upload as stored, to be recorded again', () => {
    make();
    // A reload within Golden Retriever's 500 ms save delay after the upload finished: the saved
    // state is from before completion, the bytes are already dropped.
    fake.files.set('uppy-late.pdf', {
      id: 'uppy-late.pdf',
      name: 'late.pdf',
      size: 10,
      type: 'application/pdf',
      data: undefined,
      isGhost: true,
      progress: { uploadStarted: 1, bytesUploaded: 6, bytesTotal: 10 },
      meta: { folderId: 'f1', extension: 'pdf', uploadId: 'p9', name: 'late.pdf' },
    });
    fake.emit('restored', {});
    expect(events).toEqual([
      {
        type: 'restored',
        files: [
          {
            id: 'uppy-late.pdf',
            name: 'late.pdf',
            size: 10,
            folderId: 'f1',
            bytesUploaded: 6,
            uploadId: 'p9',
            state: 'uploaded',
            message: 'The upload was interrupted. Retry to continue.',
          },
        ],
      },
    ]);
  });

  it('keeps each upload id at once, so a file recorded just before a reload is recorded again', async () => {
    const uploader = make();
    storage.set(UPLOAD_ID_STORAGE_KEY, JSON.stringify({ 'uppy-old.pdf': 'p-old' }));
    uploader.add([{ file: fakeFile('a.pdf', 100), folderId: 'f1' }]);
    await sign({ method: 'PUT', key: 'uppy-a.pdf' });
    expect(keptIds()).toEqual({ 'uppy-old.pdf': 'p-old', 'uppy-a.pdf': 'pending-1' });
    fake.emit('upload-success', fake.getFile('uppy-a.pdf'), { status: 200 });
    uploader.release('uppy-a.pdf');
    // Still kept for a reload until Golden Retriever has saved the removal.
    expect(keptIds()['uppy-a.pdf']).toBe('pending-1');

    // The reload: Golden Retriever's saved state is from when the file was added (no upload id),
    // and the bytes were dropped when the upload completed.
    make();
    fake.files.set('uppy-a.pdf', {
      id: 'uppy-a.pdf',
      name: 'a.pdf',
      size: 100,
      type: 'application/pdf',
      data: undefined,
      isGhost: true,
      progress: { uploadStarted: null, bytesUploaded: 0, bytesTotal: 100 },
      meta: { folderId: 'f1', extension: 'pdf', name: 'a.pdf' },
    });
    fake.emit('restored', {});
    expect(events).toEqual([
      {
        type: 'restored',
        files: [
          {
            id: 'uppy-a.pdf',
            name: 'a.pdf',
            size: 100,
            folderId: 'f1',
            bytesUploaded: 0,
            uploadId: 'pending-1',
            state: 'uploaded',
            message: 'The upload was interrupted. Retry to continue.',
          },
        ],
      },
    ]);
    expect(fake.getFile('uppy-a.pdf')?.meta.uploadId).toBe('pending-1');
    // Ids of files that were not restored are dropped.
    expect(keptIds()).toEqual({ 'uppy-a.pdf': 'pending-1' });
  });

  it("forgets a recorded file's upload id a few seconds after, and a cancelled one at once", async () => {
    jest.useFakeTimers();
    const uploader = make();
    uploader.add([
      { file: fakeFile('a.pdf', 100), folderId: '' },
      { file: fakeFile('b.pdf', 100), folderId: '' },
    ]);
    await sign({ method: 'PUT', key: 'uppy-a.pdf' });
    await sign({ method: 'PUT', key: 'uppy-b.pdf' });
    expect(Object.keys(keptIds()).sort()).toEqual(['uppy-a.pdf', 'uppy-b.pdf']);
    uploader.cancel('uppy-b.pdf');
    expect(Object.keys(keptIds())).toEqual(['uppy-a.pdf']);
    uploader.release('uppy-a.pdf');
    jest.advanceTimersByTime(4_999);
    expect(Object.keys(keptIds())).toEqual(['uppy-a.pdf']);
    jest.advanceTimersByTime(1);
    expect(keptIds()).toEqual({});
  });

  it('recognises connection errors', () => {
    expect(isConnectionError(new ApiError(0, 'network_error', 'x'))).toBe(true);
    expect(isConnectionError(new ApiError(500, 'x', 'x'))).toBe(false);
    expect(isConnectionError(Object.assign(new Error('x'), { name: 'S3NetworkError' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { isNetworkError: true }))).toBe(true);
    expect(isConnectionError(new Error('S3 returned 500'))).toBe(false);
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
