import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { entitiesActions } from '@src/features/entities/entitiesSlice';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

describe('entities sagas', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  function start(routes: StubRoutes) {
    const stub = stubRoutes(routes);
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    return { ...stub, ...recording };
  }

  it('opens the root: only the first page, no folder details', async () => {
    const { store, calls } = start({
      'GET /api/rest/entities': { body: makePage([makeFolder(), makeFile()]) },
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: '' }));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    expect(calls.map((call) => call.url)).toEqual([
      '/api/rest/entities?folder_id=&page=1&page_size=100',
    ]);
    expect(store.getState().entities.items).toHaveLength(2);
  });

  it('opens a folder: details, breadcrumbs and first page', async () => {
    const crumbs = [
      { id: 'top', name: 'Clients', type: 'breadcrumb' },
      { id: 'f1', name: 'Smith', type: 'breadcrumb' },
    ];
    const { store, calls, types } = start({
      'GET /api/rest/folders/f1': {
        body: makeFolder({ id: 'f1', name: 'Smith', parent_id: 'top' }),
      },
      'GET /api/rest/folders/f1/breadcrumbs': { body: crumbs },
      'GET /api/rest/entities': { body: makePage([makeFile({ folder_id: 'f1' })]) },
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: 'f1' }));
    await waitFor(() => expect(store.getState().entities.details.status).toBe('succeeded'));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    expect(store.getState().entities.folder).toEqual({ id: 'f1', name: 'Smith' });
    expect(store.getState().entities.breadcrumbs).toEqual(crumbs);
    expect(callsTo(calls, 'GET /api/rest/entities')[0]!.url).toContain('folder_id=f1');
    expect(types()).toEqual(
      expect.arrayContaining([
        'entities/folderOpened',
        'entities/folderLoaded',
        'entities/pageLoaded',
      ]),
    );
  });

  it("reports a folder that cannot be opened with the server's message", async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    const missing = { status: 404, body: { message: 'Not found.', code: 'not_found' } };
    const { store } = start({
      'GET /api/rest/folders/gone': missing,
      'GET /api/rest/folders/gone/breadcrumbs': missing,
      'GET /api/rest/entities': missing,
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: 'gone' }));
    await waitFor(() => expect(store.getState().entities.details.status).toBe('failed'));
    expect(store.getState().entities.details.error).toBe('Not found.');
  });

  it('loads the next page at the end of the list, once', async () => {
    const first = [makeFolder({ id: 'a', name: 'A' }), makeFolder({ id: 'b', name: 'B' })];
    const second = [makeFile({ id: 'c', name: 'c.pdf' })];
    const { store, calls } = start({
      'GET /api/rest/entities': (call) => ({
        body: call.url.includes('page=2') ? makePage(second, 2, 3, 2) : makePage(first, 1, 3, 2),
      }),
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: '' }));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    store.dispatch(entitiesActions.nextPageRequested());
    store.dispatch(entitiesActions.nextPageRequested());
    await waitFor(() => expect(store.getState().entities.more.status).toBe('succeeded'));
    expect(store.getState().entities.items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(callsTo(calls, 'GET /api/rest/entities').map((call) => call.url)).toEqual([
      '/api/rest/entities?folder_id=&page=1&page_size=100',
      '/api/rest/entities?folder_id=&page=2&page_size=2',
    ]);
    store.dispatch(entitiesActions.nextPageRequested());
    expect(callsTo(calls, 'GET /api/rest/entities')).toHaveLength(2);
  });

  it('reads the next page after the keyset cursor the server sent', async () => {
    const first = [makeFolder({ id: 'a', name: 'A' }), makeFolder({ id: 'b', name: 'B' })];
    const second = [makeFile({ id: 'c', name: 'c.pdf' })];
    const { store, calls } = start({
      'GET /api/rest/entities': (call) => ({
        body: call.url.includes('cursor=')
          ? { ...makePage(second, 2, 3, 2), next_cursor: null }
          : { ...makePage(first, 1, 3, 2), next_cursor: 'after-b' },
      }),
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: '' }));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    store.dispatch(entitiesActions.nextPageRequested());
    await waitFor(() => expect(store.getState().entities.more.status).toBe('succeeded'));
    expect(callsTo(calls, 'GET /api/rest/entities')[1]!.url).toBe(
      '/api/rest/entities?folder_id=&page=2&page_size=2&cursor=after-b',
    );
    expect(store.getState().entities.items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
  });

  it('creates a folder in the open folder and shows the final name', async () => {
    const { store, calls, types } = start({
      'GET /api/rest/entities': { body: makePage([makeFolder({ id: 'r', name: 'Reports' })]) },
      'POST /api/rest/folders': {
        status: 201,
        body: makeFolder({ id: 'r1', name: 'Reports (1)', parent_id: '' }),
      },
    });
    store.dispatch(entitiesActions.folderOpened({ folderId: '' }));
    await waitFor(() => expect(store.getState().entities.list.status).toBe('succeeded'));
    store.dispatch(entitiesActions.createFolderDialogOpened());
    store.dispatch(entitiesActions.folderCreateRequested({ name: '  Reports ', parentId: '' }));
    await waitFor(() => expect(store.getState().entities.createFolder.status).toBe('succeeded'));
    expect(callsTo(calls, 'POST /api/rest/folders')[0]!.body).toEqual({
      name: 'Reports',
      parent_id: '',
    });
    expect(store.getState().entities.createFolder.createdName).toBe('Reports (1)');
    expect(store.getState().entities.items.map((item) => item.name)).toEqual([
      'Reports',
      'Reports (1)',
    ]);
    expect(types()).toContain('entities/folderCreated');
  });

  it("keeps the dialog open with the server's message when creation fails", async () => {
    allowConsoleError(/^POST \/api\/rest\/folders\S* answered 400/);
    const { store } = start({
      'POST /api/rest/folders': {
        status: 400,
        body: { message: 'The name is too long.', code: 'x' },
      },
    });
    store.dispatch(entitiesActions.createFolderDialogOpened());
    store.dispatch(entitiesActions.folderCreateRequested({ name: 'x', parentId: '' }));
    await waitFor(() => expect(store.getState().entities.createFolder.status).toBe('failed'));
    expect(store.getState().entities.createFolder).toMatchObject({
      dialog: 'open',
      error: 'The name is too long.',
    });
  });
});
