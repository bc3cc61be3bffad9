import { describe, expect, it } from '@jest/globals';
import { sessionActions } from '../../../../src/features/session/sessionSlice';
import {
  initialUploadsState,
  uploadsActions,
  uploadsReducer,
  type UploadsState,
} from '../../../../src/features/uploads/uploadsSlice';
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

describe('uploadsSlice', () => {
  it('names its actions as upload events', () => {
    expect(uploadsActions.filesAdded.type).toBe('uploads/filesAdded');
    expect(uploadsActions.progressReported.type).toBe('uploads/progressReported');
    expect(uploadsActions.activityReported.type).toBe('uploads/activityReported');
  });

  it('queues accepted files, lists refused ones and opens the panel', () => {
    const state = withFiles();
    expect(state.files.map((file) => [file.id, file.status, file.folderId])).toEqual([
      ['u1', 'queued', 'f1'],
      ['u2', 'queued', 'f1'],
    ]);
    expect(state.invalid[0]!.reason).toBe('File name contains invalid characters');
    expect(state.panel).toBe('open');
  });

  it('tracks progress, completion and failure', () => {
    let state = uploadsReducer(
      withFiles(),
      uploadsActions.progressReported({ id: 'u1', bytesUploaded: 50, bytesTotal: 100 }),
    );
    expect(state.files[0]).toMatchObject({ status: 'uploading', bytesUploaded: 50 });
    state = uploadsReducer(
      state,
      uploadsActions.fileRecorded({ id: 'u1', file: makeFile({ id: 'srv1' }) }),
    );
    expect(state.files[0]).toMatchObject({
      status: 'complete',
      bytesUploaded: 100,
      fileId: 'srv1',
    });
    state = uploadsReducer(
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

  it('ignores progress for finished or unknown files', () => {
    const done = uploadsReducer(
      withFiles(),
      uploadsActions.fileRecorded({ id: 'u1', file: makeFile() }),
    );
    const after = uploadsReducer(
      done,
      uploadsActions.progressReported({ id: 'u1', bytesUploaded: 10, bytesTotal: 100 }),
    );
    expect(after.files[0]!.status).toBe('complete');
    expect(
      uploadsReducer(
        done,
        uploadsActions.progressReported({ id: 'zz', bytesUploaded: 1, bytesTotal: 1 }),
      ),
    ).toEqual(done);
  });

  it('cancels the running files only', () => {
    const done = uploadsReducer(
      withFiles(),
      uploadsActions.fileRecorded({ id: 'u1', file: makeFile() }),
    );
    const state = uploadsReducer(done, uploadsActions.cancelAllRequested());
    expect(state.files.map((file) => file.status)).toEqual(['complete', 'cancelled']);
  });

  it('minimises, reopens and closes (reset) the panel', () => {
    let state = uploadsReducer(withFiles(), uploadsActions.panelMinimized());
    expect(state.panel).toBe('minimized');
    state = uploadsReducer(state, uploadsActions.panelRestored());
    expect(state.panel).toBe('open');
    state = uploadsReducer(state, uploadsActions.panelClosed());
    expect(state).toEqual(initialUploadsState);
  });

  it('keeps a minimised panel minimised for a clean batch, opens it for refused files', () => {
    const minimized = uploadsReducer(withFiles(), uploadsActions.panelMinimized());
    const clean = uploadsReducer(
      minimized,
      uploadsActions.filesAdded({
        folderId: '',
        files: [{ id: 'u3', name: 'c', size: 1 }],
        invalid: [],
      }),
    );
    expect(clean.panel).toBe('minimized');
    const refused = uploadsReducer(
      minimized,
      uploadsActions.filesAdded({
        folderId: '',
        files: [],
        invalid: [{ id: 'i2', name: 'x', size: 1, reason: 'r' }],
      }),
    );
    expect(refused.panel).toBe('open');
  });

  it('records the last activity time', () => {
    const state = uploadsReducer(
      initialUploadsState,
      uploadsActions.activityReported({ at: 1234 }),
    );
    expect(state.lastActivityAt).toBe(1234);
  });

  it('resets on sign-out', () => {
    expect(uploadsReducer(withFiles(), sessionActions.signedOut())).toEqual(initialUploadsState);
  });
});
