import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import { ApiError } from '@src/api/client';
import { entitiesActions } from '@src/features/entities/entitiesSlice';
import { sessionActions } from '@src/features/session/sessionSlice';
import {
  collectFailedUpload,
  failedUpload,
  failedUploads,
} from '@src/features/uploads/failedUploads';
import type { PickedFile } from '@src/features/uploads/pickedFiles';
import { RECORD_RETRY_DELAY_MS } from '@src/features/uploads/uploadsSagas';
import { initialUploadsState, uploadsActions } from '@src/features/uploads/uploadsSlice';
import { setUploader, stageFiles } from '@src/features/uploads/uppyClient';
import type { RootState } from '@src/store/rootReducer';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  flushPromises,
  makeFile,
  makePage,
  makeRecordingStore,
  makeUser,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { FakeUploader, fakeFile } from './fakeUploader';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

const pick = (file: File, isDirectory = false): PickedFile => ({ file, isDirectory });
const CONFLICTS = 'POST /api/rest/files/conflicts';

function withRestrictions(
  restrictions: UploadRestrictions = DEFAULT_UPLOAD_RESTRICTIONS,
  base: Partial<RootState> = signedInState(),
): Partial<RootState> {
  return {
    ...base,
    uploads: { ...initialUploadsState, restrictions, restrictionsStatus: 'succeeded' },
  };
}

describe('uploads sagas', () => {
  let uploader: FakeUploader;
  let store: AppStore | undefined;

  beforeEach(() => {
    uploader = new FakeUploader();
    setUploader(uploader);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    setUploader(null);
    jest.useRealTimers();
  });

  let recording: ReturnType<typeof makeRecordingStore> | undefined;

  /** The app's store on stubbed routes; no name clashes with the folder's files by default. */
  function start(routes: StubRoutes = {}, state: Partial<RootState> = withRestrictions()) {
    const stub = stubRoutes({ [CONFLICTS]: { body: { items: [] } }, ...routes });
    recording = makeRecordingStore(state);
    store = recording.store;
    return { ...stub, ...recording };
  }

  const addedBatches = () => recording!.actions.filter(uploadsActions.filesAdded.match).length;

  /** Picks files and waits until the saga has checked them (it asks the server about names). */
  async function pickFiles(files: PickedFile[], folderId = '') {
    const before = addedBatches();
    const batchId = stageFiles(files);
    store!.dispatch(uploadsActions.filesPicked({ batchId, folderId }));
    await waitFor(() => expect(addedBatches()).toBeGreaterThan(before));
  }

  it('checks a batch: valid files go to the uploader, refused ones get the exact messages', async () => {
    const { store, actions } = start();
    await pickFiles(
      [
        pick(fakeFile('Statement.pdf', 1000)),
        pick(fakeFile('Ā-invoice.pdf')),
        pick(fakeFile('huge.mov', 104_857_601)),
        pick(fakeFile('statement.PDF', 10)),
        pick(fakeFile('Clients', 0, ''), true),
      ],
      'f1',
    );
    expect(uploader.added.map((request) => [request.file.name, request.folderId])).toEqual([
      ['Statement.pdf', 'f1'],
    ]);
    expect(uploader.starts).toBe(1);
    const added = actions.find(uploadsActions.filesAdded.match)!;
    expect(added.payload.files).toEqual([{ id: 'up-1', name: 'Statement.pdf', size: 1000 }]);
    expect(added.payload.invalid.map((file) => [file.name, file.reason])).toEqual([
      ['Ā-invoice.pdf', 'File name contains invalid characters'],
      [
        'huge.mov',
        'huge.mov (104,857,601 bytes) exceeds maximum allowed size of 104,857,600 bytes.',
      ],
      ['statement.PDF', "Cannot add the duplicate file 'statement.PDF', it already exists."],
      ['Clients', 'Clients is a folder. Only files can be uploaded.'],
    ]);
    expect(store.getState().uploads.panel).toBe('open');
  });

  it('hands picked files to the uploader only once the restore of a reload has ended', async () => {
    // Golden Retriever's restore replaces Uppy's files when it ends: a file added before that
    // vanished and stayed queued for ever.
    let endRestore = () => undefined as void;
    uploader.restore = new Promise<void>((resolve) => (endRestore = resolve));
    const { store } = start();
    // Dispatched, not through pickFiles: that waits for the batch, which the restore holds back.
    const batchId = stageFiles([pick(fakeFile('Statement.pdf', 1000))]);
    store.dispatch(uploadsActions.filesPicked({ batchId, folderId: 'f1' }));
    await flushPromises();
    expect(uploader.added).toEqual([]);
    expect(uploader.starts).toBe(0);
    endRestore();
    await waitFor(() =>
      expect(uploader.added.map((request) => request.file.name)).toEqual(['Statement.pdf']),
    );
    expect(uploader.starts).toBe(1);
    expect(store.getState().uploads.files.map((file) => file.name)).toEqual(['Statement.pdf']);
  });

  it('loads the restrictions from the server first and applies them (count, size, type)', async () => {
    const restrictions: UploadRestrictions = {
      ...DEFAULT_UPLOAD_RESTRICTIONS,
      max_number_of_files: 2,
      min_file_size: 10,
      allowed_file_types: ['.pdf'],
    };
    const { store, calls } = start(
      { 'GET /api/rest/files/restrictions': { body: restrictions } },
      signedInState(),
    );
    await pickFiles([
      pick(fakeFile('a.pdf', 100)),
      pick(fakeFile('tiny.pdf', 5)),
      pick(fakeFile('notes.exe', 100)),
      pick(fakeFile('b.pdf', 100)),
      pick(fakeFile('c.pdf', 100)),
    ]);
    await waitFor(() => expect(store.getState().uploads.invalid).toHaveLength(3));
    expect(callsTo(calls, 'GET /api/rest/files/restrictions')).toHaveLength(1);
    expect(uploader.configured).toEqual([restrictions]);
    expect(store.getState().uploads.restrictions).toEqual(restrictions);
    expect(uploader.added.map((r) => r.file.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(store.getState().uploads.invalid.map((i) => i.reason)).toEqual([
      'tiny.pdf is smaller than the minimum allowed size of 0.1 KB',
      'notes.exe is not an allowed file type. Allowed: .pdf',
      'You can only upload 2 file(s).',
    ]);
    // The count holds across batches while the files are in the upload.
    await pickFiles([pick(fakeFile('d.pdf', 100))]);
    await waitFor(() => expect(store.getState().uploads.invalid).toHaveLength(4));
    expect(store.getState().uploads.invalid[3]!.reason).toBe('You can only upload 2 file(s).');
    expect(callsTo(calls, 'GET /api/rest/files/restrictions')).toHaveLength(1);
  });

  it('falls back to the documented defaults when the restrictions cannot be loaded', async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    const { store } = start({}, signedInState());
    await pickFiles([pick(fakeFile('a.pdf', 100))]);
    await waitFor(() => expect(uploader.added).toHaveLength(1));
    expect(store.getState().uploads.restrictionsStatus).toBe('failed');
  });

  it('puts only serializable data in the actions and the store', async () => {
    const { store, actions } = start();
    await pickFiles([pick(fakeFile('a.pdf'))]);
    uploader.emit({ type: 'failed', id: 'up-1', message: 'x' });
    const hasFile = (value: unknown): boolean =>
      value instanceof Blob ||
      value instanceof Error ||
      (typeof value === 'object' && value !== null && Object.values(value).some(hasFile));
    expect(actions.some(hasFile)).toBe(false);
    expect(hasFile(store.getState())).toBe(false);
  });

  it('treats a file still uploading into the folder as a duplicate', async () => {
    const { store } = start();
    await pickFiles([pick(fakeFile('a.pdf'))], 'f1');
    await pickFiles([pick(fakeFile('A.pdf'))], 'f1');
    expect(uploader.added).toHaveLength(1);
    expect(store.getState().uploads.invalid[0]!.reason).toBe(
      "Cannot add the duplicate file 'A.pdf', it already exists.",
    );
  });

  it('lists a file the uploader refuses with its reason', async () => {
    const { store } = start();
    uploader.refuse.set('x.pdf', 'Uppy said no.');
    await pickFiles([pick(fakeFile('x.pdf'))]);
    expect(uploader.starts).toBe(0);
    expect(store.getState().uploads.invalid[0]).toMatchObject({
      name: 'x.pdf',
      reason: 'Uppy said no.',
    });
  });

  it('reports progress and activity, records the stored file with its checksum, shows it and releases it', async () => {
    const recorded = makeFile({ id: 'srv-9', name: 'a.pdf', folder_id: '' });
    const { store, calls, types } = start({
      'GET /api/rest/entities': { body: makePage([]) },
      'POST /api/rest/files/record': { status: 201, body: recorded },
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: '' }));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    await pickFiles([pick(fakeFile('a.pdf', 100))]);

    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 40, bytesTotal: 100 });
    await waitFor(() => expect(store.getState().uploads.files[0]!.bytesUploaded).toBe(40));
    expect(store.getState().uploads.files[0]!.status).toBe('uploading');
    expect(types()).toContain('uploads/activityReported');
    expect(store.getState().uploads.lastActivityAt).toEqual(expect.any(Number));

    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'pending-7', sha256: 'ab'.repeat(32) });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('complete'));
    expect(callsTo(calls, 'POST /api/rest/files/record')[0]!.body).toEqual({
      id: 'pending-7',
      sha256: 'ab'.repeat(32),
    });
    expect(uploader.released).toEqual(['up-1']);
    expect(store.getState().entities.items.map((item) => item.id)).toEqual(['srv-9']);
  });

  it('records without a checksum when the uploader has none', async () => {
    const { calls, store } = start({
      'POST /api/rest/files/record': { status: 201, body: makeFile() },
    });
    await pickFiles([pick(fakeFile('a.pdf', 100))]);
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1', sha256: null });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('complete'));
    expect(callsTo(calls, 'POST /api/rest/files/record')[0]!.body).toEqual({ id: 'p1' });
  });

  it('throttles activity reports', async () => {
    const { store, types } = start();
    await pickFiles([pick(fakeFile('a.pdf', 100))]);
    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 10, bytesTotal: 100 });
    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 20, bytesTotal: 100 });
    await waitFor(() => expect(store.getState().uploads.files[0]!.bytesUploaded).toBe(20));
    expect(types().filter((type) => type === 'uploads/activityReported')).toHaveLength(1);
  });

  it("marks a failed upload 'Failed to upload {file}.' with the reason (e.g. a stall)", async () => {
    const { store } = start();
    await pickFiles([pick(fakeFile('b.pdf'))]);
    uploader.emit({
      type: 'failed',
      id: 'up-1',
      message: 'Upload stalled for 30 seconds, aborting.',
    });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('failed'));
    expect(store.getState().uploads.files[0]).toMatchObject({
      error: 'Failed to upload b.pdf.',
      detail: 'Upload stalled for 30 seconds, aborting.',
    });
  });

  it('fails the file when recording is refused, collecting error, response and file', async () => {
    allowConsoleError(/^POST \/api\/rest\/files\/record\S* answered 422/);
    const { store } = start({
      'POST /api/rest/files/record': {
        status: 422,
        body: { message: 'Failed to upload c.pdf.', code: 'size_mismatch' },
      },
    });
    const file = fakeFile('c.pdf');
    await pickFiles([pick(file)]);
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1', sha256: null });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('failed'));
    expect(store.getState().uploads.files[0]).toMatchObject({
      error: 'Failed to upload c.pdf.',
      detail: 'Failed to upload c.pdf.',
    });
    const failure = failedUpload('up-1')!;
    expect(failure.error).toBeInstanceOf(ApiError);
    expect(failure.response).toEqual({ status: 422, code: 'size_mismatch' });
    expect(failure.file).toBe(file);
    expect(uploader.released).toEqual([]);
  });

  it('tries a record that reached no server again, then fails it', async () => {
    allowConsoleError(/^POST \/api\/rest\/files\/record\S* failed/);
    let answers = 0;
    const { store } = start({
      'POST /api/rest/files/record': () => {
        answers += 1;
        throw new TypeError('Failed to fetch');
      },
    });
    await pickFiles([pick(fakeFile('d.pdf'))]);
    jest.useFakeTimers();
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1', sha256: null });
    for (let i = 0; i < 3; i += 1) {
      await flushPromises(20);
      jest.advanceTimersByTime(RECORD_RETRY_DELAY_MS);
    }
    await flushPromises(20);
    expect(answers).toBe(3);
    expect(store.getState().uploads.files[0]!.status).toBe('failed');
  });

  it('waits for the connection to record a file stored while going offline', async () => {
    allowConsoleError(/^POST \/api\/rest\/files\/record\S* failed/);
    let online = false;
    const { store, calls } = start({
      'POST /api/rest/files/record': () => {
        if (!online) throw new TypeError('Failed to fetch');
        return { status: 201, body: makeFile({ id: 'srv-1' }) };
      },
    });
    await pickFiles([pick(fakeFile('e.pdf'))]);
    uploader.emit({ type: 'offline' });
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1', sha256: null });
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/files/record')).toHaveLength(1));
    await flushPromises(20);
    expect(store.getState().uploads.files[0]!.status).toBe('queued');
    online = true;
    uploader.emit({ type: 'online' });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('complete'));
  });

  it('shows "offline", keeps waiting files and resumes them online', async () => {
    const { store } = start();
    await pickFiles([pick(fakeFile('f.pdf', 100))]);
    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 30, bytesTotal: 100 });
    uploader.emit({ type: 'offline' });
    uploader.emit({ type: 'waiting', id: 'up-1' });
    await waitFor(() => expect(store.getState().uploads.network).toBe('offline'));
    expect(store.getState().uploads.files[0]).toMatchObject({
      status: 'waiting',
      bytesUploaded: 30,
    });
    uploader.emit({ type: 'online' });
    await waitFor(() => expect(store.getState().uploads.network).toBe('online'));
    expect(store.getState().uploads.files[0]!.status).toBe('queued');
  });

  it('retries one file and all failed files, forgetting their collected failures', async () => {
    const { store } = start();
    await pickFiles([pick(fakeFile('a.pdf')), pick(fakeFile('b.pdf')), pick(fakeFile('c.pdf'))]);
    for (const id of ['up-1', 'up-2', 'up-3']) {
      uploader.emit({ type: 'failed', id, message: 'x' });
      collectFailedUpload(id, { error: new Error('x'), response: null, file: null });
    }
    store.dispatch(uploadsActions.retryRequested({ id: 'up-2' }));
    expect(uploader.retried).toEqual(['up-2']);
    expect(failedUpload('up-2')).toBeUndefined();
    expect(store.getState().uploads.files[1]!.status).toBe('queued');
    store.dispatch(uploadsActions.retryAllRequested({ ids: ['up-1', 'up-3'] }));
    expect(uploader.retried).toEqual(['up-2', 'up-1', 'up-3']);
    expect(store.getState().uploads.files.map((f) => f.status)).toEqual([
      'queued',
      'queued',
      'queued',
    ]);
    expect(failedUploads().size).toBe(0);
  });

  it('cancels one file', async () => {
    const { store } = start();
    await pickFiles([pick(fakeFile('a.pdf')), pick(fakeFile('b.pdf'))]);
    store.dispatch(uploadsActions.cancelRequested({ id: 'up-2' }));
    expect(uploader.cancelled).toEqual(['up-2']);
    expect(uploader.cancels).toBe(0);
    expect(store.getState().uploads.files.map((f) => f.status)).toEqual(['queued', 'cancelled']);
  });

  it('cancels everything on request, on the reset (panel closed) and on sign-out', async () => {
    const { store } = start();
    await pickFiles([pick(fakeFile('d.pdf'))]);
    collectFailedUpload('up-1', { error: new Error('x'), response: null, file: null });
    store.dispatch(uploadsActions.cancelAllRequested());
    expect(uploader.cancels).toBe(1);
    expect(store.getState().uploads.files[0]!.status).toBe('cancelled');
    expect(store.getState().uploads.cancelled).toBe(true);
    expect(failedUploads().size).toBe(0);
    store.dispatch(uploadsActions.panelClosed());
    expect(uploader.cancels).toBe(2);
    expect(store.getState().uploads).toMatchObject({
      invalid: [],
      totalCount: 0,
      cancelled: false,
    });
    store.dispatch({ type: 'session/signedOut' });
    expect(uploader.cancels).toBe(3);
    store.dispatch({ type: 'session/expired' });
    expect(uploader.cancels).toBe(4);
  });

  it('restores files after a reload: records stored ones, resumes the rest once signed in', async () => {
    const { store, calls } = start(
      {
        'POST /api/rest/files/record': { status: 201, body: makeFile({ id: 'srv-2' }) },
        'GET /api/rest/files/restrictions': { body: DEFAULT_UPLOAD_RESTRICTIONS },
      },
      {},
    );
    uploader.emit({
      type: 'restored',
      files: [
        {
          id: 'r1',
          name: 'big.bin',
          size: 1000,
          folderId: 'f1',
          bytesUploaded: 500,
          state: 'uploading',
          uploadId: 'p1',
          message: null,
        },
        {
          id: 'r2',
          name: 'done.pdf',
          size: 10,
          folderId: 'f1',
          bytesUploaded: 10,
          state: 'uploaded',
          uploadId: 'p2',
          message: null,
        },
      ],
    });
    await waitFor(() => expect(store.getState().uploads.files).toHaveLength(2));
    await waitFor(() => expect(store.getState().uploads.files[1]!.status).toBe('complete'));
    expect(callsTo(calls, 'POST /api/rest/files/record')[0]!.body).toEqual({ id: 'p2' });
    // Nobody is signed in yet: nothing resumes.
    await flushPromises(20);
    expect(uploader.resumes).toBe(0);
    store.dispatch(sessionActions.signedIn(makeUser()));
    await waitFor(() => expect(uploader.resumes).toBe(1));
    expect(uploader.configured).toEqual([DEFAULT_UPLOAD_RESTRICTIONS]);
    expect(store.getState().uploads.files[0]).toMatchObject({
      status: 'queued',
      bytesUploaded: 500,
    });
  });

  it('asks again for the record of a restored file whose bytes were lost, failing it as interrupted when refused', async () => {
    allowConsoleError(/^POST \/api\/rest\/files\/record\S* answered 409/);
    const { store } = start({
      'POST /api/rest/files/record': {
        status: 409,
        body: {
          message: 'The upload did not complete. Please try again.',
          code: 'upload_incomplete',
        },
      },
    });
    const lost = {
      name: 'lost.pdf',
      size: 10,
      folderId: 'f1',
      bytesUploaded: 4,
      state: 'uploaded' as const,
      message: 'The upload was interrupted. Retry to continue.',
    };
    uploader.emit({ type: 'restored', files: [{ ...lost, id: 'r3', uploadId: 'p3' }] });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('failed'));
    expect(store.getState().uploads.files[0]).toMatchObject({
      error: 'Failed to upload lost.pdf.',
      detail: 'The upload was interrupted. Retry to continue.',
    });
    expect(uploader.released).toEqual([]);
  });

  it('completes a restored file whose bytes were lost when the server had recorded it', async () => {
    const { store, calls } = start({
      'POST /api/rest/files/record': { status: 201, body: makeFile({ id: 'srv-4' }) },
    });
    uploader.emit({
      type: 'restored',
      files: [
        {
          id: 'r4',
          name: 'done.pdf',
          size: 10,
          folderId: 'f1',
          bytesUploaded: 4,
          state: 'uploaded',
          uploadId: 'p4',
          message: 'The upload was interrupted. Retry to continue.',
        },
      ],
    });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('complete'));
    expect(callsTo(calls, 'POST /api/rest/files/record')[0]!.body).toEqual({ id: 'p4' });
    expect(uploader.released).toEqual(['r4']);
  });

  it('ignores a record for a file cancelled meanwhile', async () => {
    const { calls } = start({ 'POST /api/rest/files/record': { status: 201, body: makeFile() } });
    await pickFiles([pick(fakeFile('g.pdf'))]);
    store!.dispatch(uploadsActions.cancelRequested({ id: 'up-1' }));
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1', sha256: null });
    await flushPromises(20);
    expect(callsTo(calls, 'POST /api/rest/files/record')).toEqual([]);
    expect(store!.getState().uploads.files[0]!.status).toBe('cancelled');
  });

  it('unsubscribes from the uploader when the sagas stop', () => {
    const { store } = start();
    expect(uploader.listenerCount).toBe(1);
    store.sagaTask.cancel();
    expect(uploader.listenerCount).toBe(0);
  });
});
