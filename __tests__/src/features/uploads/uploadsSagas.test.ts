import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { entitiesActions } from '../../../../src/features/entities/entitiesSlice';
import type { PickedFile } from '../../../../src/features/uploads/pickedFiles';
import { uploadsActions } from '../../../../src/features/uploads/uploadsSlice';
import { setUploader, stageFiles } from '../../../../src/features/uploads/uppyClient';
import type { AppStore } from '../../../../src/store/store';
import {
  callsTo,
  makeFile,
  makePage,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { FakeUploader, fakeFile } from './fakeUploader';

const pick = (file: File, isDirectory = false): PickedFile => ({ file, isDirectory });

describe('uploads sagas', () => {
  let uploader: FakeUploader;
  let store: AppStore | undefined;
  let consoleError: jest.SpiedFunction<typeof console.error>;

  beforeEach(() => {
    uploader = new FakeUploader();
    setUploader(uploader);
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    setUploader(null);
    consoleError.mockRestore();
  });

  function start(routes: StubRoutes = {}) {
    const stub = stubRoutes(routes);
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    return { ...stub, ...recording };
  }

  function pickFiles(files: PickedFile[], folderId = '') {
    const batchId = stageFiles(files);
    store!.dispatch(uploadsActions.filesPicked({ batchId, folderId }));
  }

  it('checks a batch: valid files go to the uploader, refused ones get the exact messages', () => {
    const { store, actions } = start();
    pickFiles(
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
      ['huge.mov', 'huge.mov exceeds maximum allowed size of 100.0 MB'],
      ['statement.PDF', "Cannot add the duplicate file 'statement.PDF', it already exists."],
      ['Clients', 'Clients is a folder. Only files can be uploaded.'],
    ]);
    expect(store.getState().uploads.panel).toBe('open');
  });

  it('puts only serializable data in the actions and the store', () => {
    const { store, actions } = start();
    pickFiles([pick(fakeFile('a.pdf'))]);
    const hasFile = (value: unknown): boolean =>
      value instanceof Blob ||
      (typeof value === 'object' && value !== null && Object.values(value).some(hasFile));
    expect(actions.some(hasFile)).toBe(false);
    expect(hasFile(store.getState())).toBe(false);
  });

  it('treats a file still uploading into the folder as a duplicate', () => {
    const { store } = start();
    pickFiles([pick(fakeFile('a.pdf'))], 'f1');
    pickFiles([pick(fakeFile('A.pdf'))], 'f1');
    expect(uploader.added).toHaveLength(1);
    expect(store.getState().uploads.invalid[0]!.reason).toBe(
      "Cannot add the duplicate file 'A.pdf', it already exists.",
    );
  });

  it('lists a file the uploader refuses with its reason', () => {
    const { store } = start();
    uploader.refuse.set('x.pdf', 'Uppy said no.');
    pickFiles([pick(fakeFile('x.pdf'))]);
    expect(uploader.starts).toBe(0);
    expect(store.getState().uploads.invalid[0]).toMatchObject({
      name: 'x.pdf',
      reason: 'Uppy said no.',
    });
  });

  it('reports progress and activity, records the stored file and shows it in the open folder', async () => {
    const recorded = makeFile({ id: 'srv-9', name: 'a.pdf', folder_id: '' });
    const { store, calls, types } = start({
      'GET /api/rest/entities': { body: makePage([]) },
      'POST /api/rest/files/record': { status: 201, body: recorded },
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: '' }));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    pickFiles([pick(fakeFile('a.pdf', 100))]);

    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 40, bytesTotal: 100 });
    await waitFor(() => expect(store.getState().uploads.files[0]!.bytesUploaded).toBe(40));
    expect(store.getState().uploads.files[0]!.status).toBe('uploading');
    expect(types()).toContain('uploads/activityReported');
    expect(store.getState().uploads.lastActivityAt).toEqual(expect.any(Number));

    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'pending-7' });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('complete'));
    expect(callsTo(calls, 'POST /api/rest/files/record')[0]!.body).toEqual({ id: 'pending-7' });
    expect(store.getState().entities.items.map((item) => item.id)).toEqual(['srv-9']);
  });

  it('throttles activity reports', async () => {
    const { store, types } = start();
    pickFiles([pick(fakeFile('a.pdf', 100))]);
    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 10, bytesTotal: 100 });
    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 20, bytesTotal: 100 });
    await waitFor(() => expect(store.getState().uploads.files[0]!.bytesUploaded).toBe(20));
    expect(types().filter((type) => type === 'uploads/activityReported')).toHaveLength(1);
  });

  it("marks a failed upload 'Failed to upload {file}.' with the reason", async () => {
    const { store } = start();
    pickFiles([pick(fakeFile('b.pdf'))]);
    uploader.emit({ type: 'failed', id: 'up-1', message: 'S3 returned 403' });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('failed'));
    expect(store.getState().uploads.files[0]).toMatchObject({
      error: 'Failed to upload b.pdf.',
      detail: 'S3 returned 403',
    });
  });

  it('marks the file failed when recording fails', async () => {
    const { store } = start({
      'POST /api/rest/files/record': {
        status: 409,
        body: { message: 'The upload did not complete. Please try again.', code: 'x' },
      },
    });
    pickFiles([pick(fakeFile('c.pdf'))]);
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1' });
    await waitFor(() => expect(store.getState().uploads.files[0]!.status).toBe('failed'));
    expect(store.getState().uploads.files[0]).toMatchObject({
      error: 'Failed to upload c.pdf.',
      detail: 'The upload did not complete. Please try again.',
    });
  });

  it('cancels the uploader on request, on panel close and on sign-out', () => {
    const { store } = start();
    pickFiles([pick(fakeFile('d.pdf'))]);
    store.dispatch(uploadsActions.cancelAllRequested());
    expect(uploader.cancels).toBe(1);
    expect(store.getState().uploads.files[0]!.status).toBe('cancelled');
    store.dispatch(uploadsActions.panelClosed());
    expect(uploader.cancels).toBe(2);
    store.dispatch({ type: 'session/signedOut' });
    expect(uploader.cancels).toBe(3);
  });

  it('unsubscribes from the uploader when the sagas stop', () => {
    const { store } = start();
    expect(uploader.listenerCount).toBe(1);
    store.sagaTask.cancel();
    expect(uploader.listenerCount).toBe(0);
  });
});
