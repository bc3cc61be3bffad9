// Viewer sagas and slice against a real store: opening a file reads it and its folder path; a
// file shown through its PDF rendition asks where the derivation is and asks again with a
// growing pause while it is pending, stops once it is done, failed or unsupported, and stops
// when the viewer closes or names another file. A guest's file comes from the shared list.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import type { FileRenditionDto, RenditionState } from '@common/imaging';
import { initialSharingState } from '@src/features/sharing/sharingSlice';
import {
  pollDelayMs,
  VIEWER_ENVIRONMENT,
  type ViewerEnvironment,
} from '@src/features/viewer/viewerSagas';
import { selectViewerPhase } from '@src/features/viewer/viewerSelectors';
import { initialViewerState, viewerActions, viewerReducer } from '@src/features/viewer/viewerSlice';
import { makeStore, type AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeUser,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { allowConsoleError } from '../../consoleErrors';

let store: AppStore | undefined;

afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

/** A rendition answer in a state. */
function rendition(state: RenditionState, extra: Partial<FileRenditionDto> = {}): FileRenditionDto {
  return {
    state,
    reason: null,
    attempts: 0,
    pdf: state === 'done',
    text: state === 'done',
    thumbnail: state === 'done',
    page_count: state === 'done' ? 3 : null,
    recognized: false,
    job_id: null,
    ...extra,
  };
}

/**
 * A store whose sagas wait through `waits` (each pause is recorded, and released when the test
 * says so) against the stubbed routes.
 */
function start(routes: StubRoutes, preloaded = signedInState()) {
  const stub = stubRoutes(routes);
  const pauses: number[] = [];
  const releases: Array<() => void> = [];
  const env: ViewerEnvironment = {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        pauses.push(ms);
        releases.push(resolve);
      }),
  };
  store = makeStore(preloaded, { sagaContext: { [VIEWER_ENVIRONMENT]: env } });
  /** Ends the pending pause. */
  const release = () => releases.shift()?.();
  return { ...stub, store, pauses, release };
}

const memo = makeFile({
  id: 'f1',
  name: 'Memo.docx',
  extension: 'docx',
  content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  folder_id: 'fo2',
});
const path = [
  { id: 'fo1', name: 'Clients', type: 'breadcrumb' },
  { id: 'fo2', name: 'Smith', type: 'breadcrumb' },
];

describe('the viewer slice', () => {
  it('follows the address: open resets, page changes, close empties', () => {
    let state = viewerReducer(undefined, viewerActions.opened({ fileId: 'a', page: 4 }));
    expect(state).toMatchObject({ fileId: 'a', page: 4, fileStatus: 'loading' });
    state = viewerReducer(state, viewerActions.pageChanged({ page: null }));
    expect(state.page).toBe(1);
    state = viewerReducer(
      state,
      viewerActions.renditionLoaded({
        fileId: 'a',
        rendition: rendition('queued'),
        pending: true,
      }),
    );
    expect(state.renditionStatus).toBe('polling');
    state = viewerReducer(state, viewerActions.opened({ fileId: 'b', page: null }));
    expect(state).toMatchObject({ fileId: 'b', page: 1, rendition: null, renditionStatus: 'idle' });
    expect(viewerReducer(state, viewerActions.closed())).toEqual(initialViewerState);
  });

  it('ignores answers about a file the viewer no longer shows', () => {
    const state = viewerReducer(undefined, viewerActions.opened({ fileId: 'b', page: null }));
    const late = viewerReducer(
      state,
      viewerActions.fileLoadFailed({ fileId: 'a', message: 'Not found.' }),
    );
    expect(late).toBe(state);
  });
});

describe('polling the rendition', () => {
  it('grows the pause 2 s, 4 s, 8 s, then 10 s', () => {
    expect([0, 1, 2, 3, 4, 9].map(pollDelayMs)).toEqual([2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('asks again while pending, with backoff, and shows the PDF once done', async () => {
    const answers = [
      rendition('waiting'),
      rendition('queued'),
      rendition('running'),
      rendition('done'),
    ];
    const { calls, store, pauses, release } = start({
      'GET /api/rest/files/f1': { body: memo },
      'GET /api/rest/folders/fo2/breadcrumbs': { body: path },
      'GET /api/rest/files/f1/rendition': () => ({ body: answers.shift() }),
    });
    store.dispatch(viewerActions.opened({ fileId: 'f1', page: 2 }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toMatchObject({
        kind: 'preparing',
        state: 'waiting',
      }),
    );
    expect(store.getState().viewer.path).toEqual([
      { id: 'fo1', name: 'Clients' },
      { id: 'fo2', name: 'Smith' },
    ]);
    expect(pauses).toEqual([2000]);
    release();
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toMatchObject({ state: 'queued' }),
    );
    release();
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toMatchObject({ state: 'running' }),
    );
    expect(pauses).toEqual([2000, 4000, 8000]);
    release();
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({
        kind: 'show',
        content: 'pdf',
        url: '/api/rest/files/f1/preview',
      }),
    );
    expect(store.getState().viewer.renditionStatus).toBe('settled');
    expect(callsTo(calls, 'GET /api/rest/files/f1/rendition')).toHaveLength(4);
    // Nothing more is asked once done.
    expect(pauses).toHaveLength(3);
  });

  it('shows why the derivation failed, naming the missing tool', async () => {
    const reason =
      'LibreOffice not found (needed for …): apt-get install -y libreoffice-writer-nogui';
    const { store } = start({
      'GET /api/rest/files/f1': { body: memo },
      'GET /api/rest/folders/fo2/breadcrumbs': { body: path },
      'GET /api/rest/files/f1/rendition': { body: rendition('failed', { reason, attempts: 1 }) },
    });
    store.dispatch(viewerActions.opened({ fileId: 'f1', page: null }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({ kind: 'failed', reason }),
    );
  });

  it('stops asking when the viewer closes', async () => {
    const { calls, store, pauses, release } = start({
      'GET /api/rest/files/f1': { body: memo },
      'GET /api/rest/folders/fo2/breadcrumbs': { body: path },
      'GET /api/rest/files/f1/rendition': { body: rendition('queued') },
    });
    store.dispatch(viewerActions.opened({ fileId: 'f1', page: null }));
    await waitFor(() => expect(pauses).toHaveLength(1));
    store.dispatch(viewerActions.closed());
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'GET /api/rest/files/f1/rendition')).toHaveLength(1);
    expect(store.getState().viewer).toEqual(initialViewerState);
  });

  it('asks nothing of imaging for a file the browser shows itself, nor for an unknown type', async () => {
    const { calls, store } = start({
      'GET /api/rest/files/p1': { body: makeFile({ id: 'p1' }) },
      'GET /api/rest/files/z1': {
        body: makeFile({
          id: 'z1',
          name: 'a.zip',
          extension: 'zip',
          content_type: 'application/zip',
        }),
      },
    });
    store.dispatch(viewerActions.opened({ fileId: 'p1', page: null }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({
        kind: 'show',
        content: 'pdf',
        url: '/api/rest/files/p1/preview',
      }),
    );
    store.dispatch(viewerActions.opened({ fileId: 'z1', page: null }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({ kind: 'unsupported' }),
    );
    expect(calls.filter((call) => call.url.endsWith('/rendition'))).toHaveLength(0);
  });

  it('says why the file could not be opened', async () => {
    allowConsoleError(/Not found/);
    const { store } = start({});
    store.dispatch(viewerActions.opened({ fileId: 'gone', page: null }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({ kind: 'error', message: 'Not found.' }),
    );
  });
});

describe('a guest', () => {
  const guest = makeUser({
    databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'guest' }],
  });
  const sharedItem = {
    share_id: 's1',
    entity_type: 'file' as const,
    updated_at: '2024-01-01T00:00:00.000Z',
    shared_by_name: 'Ada',
    shared_at: '2024-01-01T00:00:00.000Z',
    allow_download: false,
    folder_id: 'sf1',
    size: 10,
  };

  it("shows a shared Word document through the share's rendition, asking the share where it is", async () => {
    const preloaded = {
      ...signedInState(guest),
      sharing: {
        ...initialSharingState,
        shared: {
          ...initialSharingState.shared,
          folderId: 'sf1',
          allowDownload: false,
          crumbs: [{ id: 'sf1', name: 'Client A' }],
          items: [
            {
              ...sharedItem,
              id: 'g2',
              name: 'Memo.docx',
              extension: 'docx',
              content_type: memo.content_type,
            },
          ],
        },
      },
    };
    const answers = [rendition('queued'), rendition('done')];
    const { calls, store, release } = start(
      { 'GET /api/rest/shared/files/g2/rendition': () => ({ body: answers.shift() }) },
      preloaded,
    );
    store.dispatch(viewerActions.opened({ fileId: 'g2', page: null }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toMatchObject({ kind: 'preparing' }),
    );
    release();
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({
        kind: 'show',
        content: 'pdf',
        url: '/api/rest/shared/files/g2/preview',
      }),
    );
    expect(callsTo(calls, 'GET /api/rest/shared/files/g2/rendition')).toHaveLength(2);
    expect(callsTo(calls, 'GET /api/rest/files/g2/rendition')).toHaveLength(0);
    // Viewing only: the link allows no download.
    expect(store.getState().viewer.file).toMatchObject({ source: 'share', downloadAllowed: false });
  });

  it("shows a shared file from the share's list and its share addresses, without imaging", async () => {
    const preloaded = {
      ...signedInState(guest),
      sharing: {
        ...initialSharingState,
        shared: {
          ...initialSharingState.shared,
          folderId: 'sf1',
          allowDownload: false,
          crumbs: [{ id: 'sf1', name: 'Client A' }],
          items: [
            {
              share_id: 's1',
              entity_type: 'file' as const,
              id: 'g1',
              name: 'Letter.pdf',
              extension: 'pdf',
              size: 10,
              content_type: 'application/pdf',
              updated_at: '2024-01-01T00:00:00.000Z',
              shared_by_name: 'Ada',
              shared_at: '2024-01-01T00:00:00.000Z',
              allow_download: true,
              folder_id: 'sf1',
            },
          ],
        },
      },
    };
    const { calls, store } = start({}, preloaded);
    store.dispatch(viewerActions.opened({ fileId: 'g1', page: null }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({
        kind: 'show',
        content: 'pdf',
        url: '/api/rest/shared/files/g1/preview',
      }),
    );
    expect(store.getState().viewer.file).toMatchObject({ source: 'share', downloadAllowed: false });
    expect(store.getState().viewer.path).toEqual([{ id: 'sf1', name: 'Client A' }]);
    expect(calls).toHaveLength(0);
  });
});

describe('an internal user on the Shared page', () => {
  const sharedWithMe = {
    share_id: 's1',
    entity_type: 'file' as const,
    id: 'w1',
    name: 'Plan.pptx',
    extension: 'pptx',
    size: 10,
    content_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    updated_at: '2024-01-01T00:00:00.000Z',
    shared_by_name: 'Ada',
    shared_at: '2024-01-01T00:00:00.000Z',
    allow_download: false,
    folder_id: 'sf1',
  };
  const preloaded = {
    ...signedInState(),
    sharing: {
      ...initialSharingState,
      shared: {
        ...initialSharingState.shared,
        folderId: '',
        allowDownload: true,
        items: [sharedWithMe],
        list: { status: 'succeeded' as const, error: null },
      },
    },
  };

  it("opens a presentation shared with them through the share's rendition, not the firm's", async () => {
    const { calls, store } = start(
      { 'GET /api/rest/shared/files/w1/rendition': { body: rendition('done') } },
      preloaded,
    );
    store.dispatch(viewerActions.opened({ fileId: 'w1', page: null, via: 'share' }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({
        kind: 'show',
        content: 'pdf',
        url: '/api/rest/shared/files/w1/preview',
      }),
    );
    expect(store.getState().viewer.file).toMatchObject({ source: 'share', downloadAllowed: false });
    expect(callsTo(calls, 'GET /api/rest/files/w1')).toHaveLength(0);
  });

  it('opens a file of "Shared by me" (not in the list shared with them) through the firm', async () => {
    const { calls, store } = start(
      {
        'GET /api/rest/files/f1': { body: memo },
        'GET /api/rest/folders/fo2/breadcrumbs': { body: path },
        'GET /api/rest/files/f1/rendition': { body: rendition('done') },
      },
      preloaded,
    );
    store.dispatch(viewerActions.opened({ fileId: 'f1', page: null, via: 'share' }));
    await waitFor(() =>
      expect(selectViewerPhase(store.getState())).toEqual({
        kind: 'show',
        content: 'pdf',
        url: '/api/rest/files/f1/preview',
      }),
    );
    expect(store.getState().viewer.file).toMatchObject({ source: 'firm' });
    expect(callsTo(calls, 'GET /api/rest/files/f1')).toHaveLength(1);
  });
});
