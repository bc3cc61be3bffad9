import { describe, expect, it } from '@jest/globals';
import { DEFAULT_UPLOAD_RESTRICTIONS } from '@common/uploads';
import { sessionActions } from '@src/features/session/sessionSlice';
import {
  initialUploadsState,
  uploadsActions,
  uploadsReducer,
  type UploadsState,
} from '@src/features/uploads/uploadsSlice';
import { makeFile } from '../../fixtures';

function withFiles(): UploadsState {
  return uploadsReducer(
    initialUploadsState,
    uploadsActions.filesAdded({
      folderId: 'f1',
      files: [
        { id: 'u1', name: 'a.pdf', size: 100 },
        { id: 'u2', name: 'b.pdf', size: 200 },
      ],
      invalid: [
        { id: 'i1', name: 'Ā.pdf', size: 5, reason: 'File name contains invalid characters' },
      ],
    }),
  );
}

const progress = (id: string, bytesUploaded: number, at = 1_000, bytesTotal = 100) =>
  uploadsActions.progressReported({ id, bytesUploaded, bytesTotal, at });

function reduce(state: UploadsState, ...actions: Parameters<typeof uploadsReducer>[1][]) {
  return actions.reduce(uploadsReducer, state);
}

describe('uploadsSlice', () => {
  it('names its actions as upload events', () => {
    expect(uploadsActions.filesAdded.type).toBe('uploads/filesAdded');
    expect(uploadsActions.progressReported.type).toBe('uploads/progressReported');
    expect(uploadsActions.activityReported.type).toBe('uploads/activityReported');
    expect(uploadsActions.retryRequested.type).toBe('uploads/retryRequested');
    expect(uploadsActions.cancelRequested.type).toBe('uploads/cancelRequested');
    expect(uploadsActions.connectionLost.type).toBe('uploads/connectionLost');
  });

  it('queues accepted files, lists refused ones, counts the total and opens the panel', () => {
    const state = withFiles();
    expect(state.files.map((file) => [file.id, file.status, file.folderId])).toEqual([
      ['u1', 'queued', 'f1'],
      ['u2', 'queued', 'f1'],
    ]);
    expect(state.invalid[0]!.reason).toBe('File name contains invalid characters');
    expect(state.totalCount).toBe(3);
    expect(state.panel).toBe('open');
  });

  it('tracks progress, completion and failure', () => {
    let state = reduce(withFiles(), progress('u1', 50));
    expect(state.files[0]).toMatchObject({ status: 'uploading', bytesUploaded: 50 });
    state = reduce(
      state,
      uploadsActions.fileRecorded({ id: 'u1', file: makeFile({ id: 'srv1' }) }),
    );
    expect(state.files[0]).toMatchObject({
      status: 'complete',
      bytesUploaded: 100,
      fileId: 'srv1',
    });
    state = reduce(
      state,
      uploadsActions.fileFailed({
        id: 'u2',
        message: 'Failed to upload b.pdf.',
        detail: 'Network error',
      }),
    );
    expect(state.files[1]).toMatchObject({
      status: 'failed',
      error: 'Failed to upload b.pdf.',
      detail: 'Network error',
    });
  });

  it('measures a smoothed speed from progress, starting from the first progress of an attempt', () => {
    let state = reduce(withFiles(), progress('u2', 40, 1_000, 200));
    // The first progress (e.g. the parts already stored of a resumed upload) is only a baseline.
    expect(state.files[1]!.speed).toBeNull();
    state = reduce(state, progress('u2', 60, 2_000, 200));
    expect(state.files[1]!.speed).toBe(20);
    state = reduce(state, progress('u2', 160, 3_000, 200));
    // 20 + 0.3 × (100 − 20)
    expect(state.files[1]!.speed).toBeCloseTo(44);
    state = reduce(state, uploadsActions.fileWaiting({ id: 'u2' }));
    expect(state.files[1]).toMatchObject({ status: 'waiting', speed: null, progressAt: null });
  });

  it('ignores progress for finished or unknown files', () => {
    const done = reduce(withFiles(), uploadsActions.fileRecorded({ id: 'u1', file: makeFile() }));
    expect(reduce(done, progress('u1', 10)).files[0]!.status).toBe('complete');
    expect(reduce(done, progress('zz', 1))).toEqual(done);
    const failed = reduce(
      withFiles(),
      uploadsActions.fileFailed({ id: 'u1', message: 'Failed to upload a.pdf.', detail: null }),
    );
    expect(reduce(failed, progress('u1', 10)).files[0]!.status).toBe('failed');
  });

  it('goes offline and online: waiting files are queued again', () => {
    let state = reduce(withFiles(), progress('u1', 10), uploadsActions.connectionLost());
    expect(state.network).toBe('offline');
    state = reduce(state, uploadsActions.fileWaiting({ id: 'u1' }));
    expect(state.files[0]!.status).toBe('waiting');
    state = reduce(state, uploadsActions.connectionRestored());
    expect(state.network).toBe('online');
    expect(state.files[0]).toMatchObject({ status: 'queued', bytesUploaded: 10 });
  });

  it('retries one failed file, or every listed failed file', () => {
    const failed = reduce(
      withFiles(),
      uploadsActions.fileFailed({ id: 'u1', message: 'Failed to upload a.pdf.', detail: 'x' }),
      uploadsActions.fileFailed({ id: 'u2', message: 'Failed to upload b.pdf.', detail: 'y' }),
    );
    const one = reduce(failed, uploadsActions.retryRequested({ id: 'u1' }));
    expect(one.files.map((f) => [f.status, f.error])).toEqual([
      ['queued', null],
      ['failed', 'Failed to upload b.pdf.'],
    ]);
    const all = reduce(failed, uploadsActions.retryAllRequested({ ids: ['u1', 'u2'] }));
    expect(all.files.map((f) => f.status)).toEqual(['queued', 'queued']);
    // Retrying a file that did not fail changes nothing.
    expect(reduce(withFiles(), uploadsActions.retryRequested({ id: 'u1' }))).toEqual(withFiles());
  });

  it('cancels one file (running or failed), never a finished one', () => {
    const state = reduce(
      withFiles(),
      uploadsActions.fileRecorded({ id: 'u1', file: makeFile() }),
      uploadsActions.cancelRequested({ id: 'u1' }),
      uploadsActions.cancelRequested({ id: 'u2' }),
    );
    expect(state.files.map((file) => file.status)).toEqual(['complete', 'cancelled']);
    expect(state.cancelled).toBe(false);
  });

  it('cancels every running or failed file and sets the cancel flag; new files clear it', () => {
    const done = reduce(withFiles(), uploadsActions.fileRecorded({ id: 'u1', file: makeFile() }));
    const state = reduce(done, uploadsActions.cancelAllRequested());
    expect(state.files.map((file) => file.status)).toEqual(['complete', 'cancelled']);
    expect(state.cancelled).toBe(true);
    const more = reduce(
      state,
      uploadsActions.filesAdded({
        folderId: '',
        files: [{ id: 'u3', name: 'c', size: 1 }],
        invalid: [],
      }),
    );
    expect(more.cancelled).toBe(false);
    expect(more.totalCount).toBe(4);
  });

  it('a reset (panel closed) clears the invalid list, total count and cancel flag', () => {
    const state = reduce(
      withFiles(),
      uploadsActions.restrictionsLoaded(DEFAULT_UPLOAD_RESTRICTIONS),
      uploadsActions.connectionLost(),
      uploadsActions.cancelAllRequested(),
      uploadsActions.panelClosed(),
    );
    expect(state.invalid).toEqual([]);
    expect(state.totalCount).toBe(0);
    expect(state.cancelled).toBe(false);
    expect(state.files).toEqual([]);
    expect(state.panel).toBe('hidden');
    // Not upload state: the connection and the restrictions stay.
    expect(state.network).toBe('offline');
    expect(state.restrictions).toEqual(DEFAULT_UPLOAD_RESTRICTIONS);
  });

  it('dismisses the refused files: the invalid list empties and leaves the total count', () => {
    const state = reduce(withFiles(), uploadsActions.refusalsDismissed());
    expect(state.invalid).toEqual([]);
    expect(state.totalCount).toBe(2);
    expect(state.panel).toBe('open');
    // With only refusals to show, the panel closes.
    const onlyRefused = reduce(
      initialUploadsState,
      uploadsActions.filesAdded({
        folderId: '',
        files: [],
        invalid: [{ id: 'i1', name: 'x.pdf', size: 1, reason: 'r' }],
      }),
      uploadsActions.refusalsDismissed(),
    );
    expect(onlyRefused.panel).toBe('hidden');
    expect(onlyRefused.totalCount).toBe(0);
  });

  it('minimises and reopens the panel', () => {
    let state = reduce(withFiles(), uploadsActions.panelMinimized());
    expect(state.panel).toBe('minimized');
    state = reduce(state, uploadsActions.panelRestored());
    expect(state.panel).toBe('open');
  });

  it('keeps a minimised panel minimised for a clean batch, opens it for refused files', () => {
    const minimized = reduce(withFiles(), uploadsActions.panelMinimized());
    const clean = reduce(
      minimized,
      uploadsActions.filesAdded({
        folderId: '',
        files: [{ id: 'u3', name: 'c', size: 1 }],
        invalid: [],
      }),
    );
    expect(clean.panel).toBe('minimized');
    const refused = reduce(
      minimized,
      uploadsActions.filesAdded({
        folderId: '',
        files: [],
        invalid: [{ id: 'i2', name: 'x', size: 1, reason: 'r' }],
      }),
    );
    expect(refused.panel).toBe('open');
  });

  it('restarts a file added again under the same id (bytes lost in a reload)', () => {
    const failed = reduce(
      withFiles(),
      uploadsActions.fileFailed({ id: 'u1', message: 'Failed to upload a.pdf.', detail: 'gone' }),
      uploadsActions.filesAdded({
        folderId: 'f1',
        files: [{ id: 'u1', name: 'a.pdf', size: 100 }],
        invalid: [],
      }),
    );
    expect(failed.files).toHaveLength(2);
    expect(failed.files[0]).toMatchObject({ id: 'u1', status: 'queued', error: null });
  });

  it('shows the files found again after a reload', () => {
    const state = reduce(
      initialUploadsState,
      uploadsActions.filesRestored([
        {
          id: 'r1',
          name: 'big.bin',
          size: 1000,
          folderId: 'f1',
          bytesUploaded: 400,
          state: 'uploading',
          uploadId: 'p1',
          message: null,
        },
        {
          id: 'r2',
          name: 'done.pdf',
          size: 10,
          folderId: '',
          bytesUploaded: 10,
          state: 'uploaded',
          uploadId: 'p2',
          message: null,
        },
        {
          id: 'r3',
          name: 'lost.pdf',
          size: 10,
          folderId: '',
          bytesUploaded: 0,
          state: 'failed',
          uploadId: null,
          message: 'The upload was interrupted. Retry to continue.',
        },
      ]),
    );
    expect(state.files.map((f) => [f.id, f.status, f.bytesUploaded, f.detail])).toEqual([
      ['r1', 'queued', 400, null],
      ['r2', 'uploading', 10, null],
      ['r3', 'failed', 0, 'The upload was interrupted. Retry to continue.'],
    ]);
    expect(state.panel).toBe('open');
    expect(state.totalCount).toBe(3);
  });

  it('loads the restrictions', () => {
    let state = reduce(initialUploadsState, uploadsActions.restrictionsRequested());
    expect(state.restrictionsStatus).toBe('loading');
    state = reduce(state, uploadsActions.restrictionsLoaded(DEFAULT_UPLOAD_RESTRICTIONS));
    expect(state).toMatchObject({
      restrictionsStatus: 'succeeded',
      restrictions: DEFAULT_UPLOAD_RESTRICTIONS,
    });
    expect(
      reduce(initialUploadsState, uploadsActions.restrictionsFailed()).restrictionsStatus,
    ).toBe('failed');
  });

  it('records the last activity time', () => {
    const state = reduce(initialUploadsState, uploadsActions.activityReported({ at: 1234 }));
    expect(state.lastActivityAt).toBe(1234);
  });

  it('resets on sign-out and on expiry', () => {
    expect(reduce(withFiles(), sessionActions.signedOut())).toEqual(initialUploadsState);
    expect(reduce(withFiles(), sessionActions.expired())).toEqual(initialUploadsState);
  });
});
