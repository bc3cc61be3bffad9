// The organise sagas against a stubbed API and the real store: each action's call, the
// organise/itemsChanged it announces (and the folder list's update), the toast, Undo that reverses
// exactly that action, and failures shown as error messages.
import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { BULK_MAX_ITEMS } from '@common/constants';
import { MESSAGES, formatMessage } from '@common/messages';
import type { EntityDto } from '@common/entities';
import type { BulkResultDto } from '@common/organise';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import { notificationsActions } from '@src/features/notifications/notificationsSlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { organiseActions } from '@src/features/organise/organiseSlice';
import { undoEvents } from '@src/sagas/undoable';
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
import { allowConsoleError } from '../../consoleErrors';

const items: EntityDto[] = [
  makeFolder({ id: 'a', name: 'Alpha', parent_id: 'top' }),
  makeFolder({ id: 'b', name: 'Beta', parent_id: 'top', color: 'dark_red' }),
  makeFile({ id: 'c', name: 'Call.pdf', folder_id: 'top' }),
];

function bulk(results: BulkResultDto['items']): { body: BulkResultDto } {
  return { body: { count: results.length, items: results } };
}

describe('organise sagas', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  /** A store with folder "top" open and its three rows loaded. */
  function start(routes: StubRoutes) {
    const stub = stubRoutes(routes);
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: 'top' }),
    );
    const entities = entitiesReducer(
      opened,
      entitiesActions.pageLoaded({ folderId: 'top', page: makePage(items) }),
    );
    const recording = makeRecordingStore({ ...signedInState(), entities });
    store = recording.store;
    return { ...stub, ...recording, store: recording.store };
  }

  const rowIds = (s: AppStore) => s.getState().entities.items.map((item) => item.id);
  const lastToast = (s: AppStore) => s.getState().notifications.toasts.at(-1)!;
  const messages = (s: AppStore) => s.getState().notifications.messages.map((m) => m.text);
  const pressUndo = (s: AppStore) =>
    s.dispatch(notificationsActions.undoClicked({ id: lastToast(s).id }));

  it('renames and shows the name the server chose', async () => {
    const { store, calls } = start({
      'PATCH /api/rest/files/c': { body: { ...items[2]!, name: 'Agenda (1).pdf' } },
    });
    store.dispatch(organiseActions.renameStarted({ id: 'c' }));
    store.dispatch(
      organiseEvents.renameRequested({ item: { id: 'c', type: 'file' }, name: ' Agenda ' }),
    );
    await waitFor(() => expect(store.getState().organise.rename.itemId).toBeNull());
    expect(callsTo(calls, 'PATCH /api/rest/files/c')[0]!.body).toEqual({ name: 'Agenda' });
    // The list keeps folders first, files by name.
    expect(store.getState().entities.items.map((item) => item.name)).toEqual([
      'Alpha',
      'Beta',
      'Agenda (1).pdf',
    ]);
  });

  it('renames with a toast naming the new name, and Undo renames it back', async () => {
    const { store, calls } = start({
      'PATCH /api/rest/folders/a': (call) => ({
        body: { ...items[0]!, name: (call.body as { name: string }).name },
      }),
    });
    store.dispatch(organiseActions.renameStarted({ id: 'a' }));
    store.dispatch(
      organiseEvents.renameRequested({
        item: { id: 'a', type: 'folder' },
        name: 'Aleph',
        previousName: 'Alpha',
      }),
    );
    await waitFor(() =>
      expect(lastToast(store)).toMatchObject({
        title: 'Renamed',
        body: '“Alpha” renamed to “Aleph”.',
      }),
    );
    expect(lastToast(store).undo).not.toBeNull();
    pressUndo(store);
    await waitFor(() => expect(messages(store)).toContain('Rename undone.'));
    expect(callsTo(calls, 'PATCH /api/rest/folders/a').map((call) => call.body)).toEqual([
      { name: 'Aleph' },
      { name: 'Alpha' },
    ]);
    expect(store.getState().entities.items.map((item) => item.name)).toContain('Alpha');
  });

  it('a refused rename keeps the editor open and shows the server’s message', async () => {
    allowConsoleError(/^PATCH \/api\/rest\/folders\/a\S* answered 400/);
    const { store } = start({
      'PATCH /api/rest/folders/a': {
        status: 400,
        body: { message: 'Folder name contains invalid characters', code: 'invalid_name' },
      },
    });
    store.dispatch(organiseActions.renameStarted({ id: 'a' }));
    store.dispatch(
      organiseEvents.renameRequested({ item: { id: 'a', type: 'folder' }, name: 'x' }),
    );
    await waitFor(() => expect(store.getState().organise.rename.status).toBe('failed'));
    expect(store.getState().organise.rename.itemId).toBe('a');
    expect(messages(store)).toEqual(['Folder name contains invalid characters']);
  });

  it('favorites an item and updates its row', async () => {
    const { store, calls } = start({
      'PATCH /api/rest/folders/a/favorite': { body: { ...items[0]!, favorite: true } },
    });
    store.dispatch(
      organiseEvents.favoriteRequested({ item: { id: 'a', type: 'folder' }, enabled: true }),
    );
    await waitFor(() => expect(store.getState().entities.items[0]!.favorite).toBe(true));
    expect(callsTo(calls, 'PATCH /api/rest/folders/a/favorite')[0]!.body).toEqual({
      enabled: true,
    });
  });

  it('moves items away, and Undo moves each back to its previous parent', async () => {
    const { store, calls, types } = start({
      'POST /api/rest/bulk/move': (call) => {
        const body = call.body as { folder_id: string; items: { id: string }[] };
        return bulk(
          body.items.map((item) => ({
            id: item.id,
            type: item.id === 'c' ? 'file' : 'folder',
            name: item.id === 'c' ? 'Call.pdf' : 'Alpha',
            prev_parent_id: body.folder_id === 'dest' ? 'top' : 'dest',
          })),
        );
      },
    });
    store.dispatch(
      organiseEvents.moveRequested({
        items: [
          { id: 'a', type: 'folder' },
          { id: 'c', type: 'file' },
        ],
        folderId: 'dest',
        folderName: 'Archive 2024',
      }),
    );
    await waitFor(() => expect(rowIds(store)).toEqual(['b']));
    expect(store.getState().entities.total).toBe(1);
    expect(lastToast(store)).toMatchObject({
      title: 'Moved',
      body: '2 items moved to Archive 2024.',
    });
    pressUndo(store);
    await waitFor(() => expect(rowIds(store)).toEqual(['a', 'b', 'c']));
    const moves = callsTo(calls, 'POST /api/rest/bulk/move').map((call) => call.body);
    expect(moves).toEqual([
      {
        folder_id: 'dest',
        items: [
          { id: 'a', type: 'folder' },
          { id: 'c', type: 'file' },
        ],
      },
      {
        folder_id: 'top',
        items: [
          { id: 'a', type: 'folder' },
          { id: 'c', type: 'file' },
        ],
      },
    ]);
    expect(types()).toContain(undoEvents.undoRequested.type);
    expect(messages(store)).toContain('Move undone.');
  });

  it('a move into a subfolder refused by the server changes nothing and says why', async () => {
    allowConsoleError(/^POST \/api\/rest\/bulk\/move\S* answered 400/);
    const { store } = start({
      'POST /api/rest/bulk/move': {
        status: 400,
        body: { message: MESSAGES.moveIntoItself, code: 'move_into_itself' },
      },
    });
    store.dispatch(
      organiseEvents.moveRequested({
        items: [{ id: 'a', type: 'folder' }],
        folderId: 'a-child',
        folderName: 'Child',
      }),
    );
    await waitFor(() => expect(messages(store)).toEqual([MESSAGES.moveIntoItself]));
    expect(rowIds(store)).toEqual(['a', 'b', 'c']);
    expect(store.getState().notifications.toasts).toHaveLength(0);
    expect(store.getState().organise.request).toEqual({ action: 'move', status: 'failed' });
  });

  it('archives, and Undo restores exactly those items', async () => {
    const { store, calls } = start({
      'POST /api/rest/bulk/archive': bulk([
        { id: 'a', type: 'folder', name: 'Alpha' },
        { id: 'c', type: 'file', name: 'Call.pdf' },
      ]),
      'POST /api/rest/bulk/restore': bulk([
        { id: 'a', type: 'folder', name: 'Alpha' },
        { id: 'c', type: 'file', name: 'Call (1).pdf' },
      ]),
    });
    store.dispatch(organiseActions.rowClicked({ id: 'a', modifier: 'none', orderedIds: [] }));
    store.dispatch(
      organiseEvents.archiveRequested({
        items: [
          { id: 'a', type: 'folder' },
          { id: 'c', type: 'file' },
        ],
      }),
    );
    await waitFor(() => expect(rowIds(store)).toEqual(['b']));
    expect(store.getState().organise.selection.ids).toEqual({});
    expect(lastToast(store)).toMatchObject({ title: 'Archived', body: '2 items archived.' });
    pressUndo(store);
    await waitFor(() => expect(rowIds(store)).toEqual(['a', 'b', 'c']));
    expect(callsTo(calls, 'POST /api/rest/bulk/restore')[0]!.body).toEqual({
      items: [
        { id: 'a', type: 'folder' },
        { id: 'c', type: 'file' },
      ],
    });
    // The restored row carries the name the server gave it back.
    expect(store.getState().entities.items[2]!.name).toBe('Call (1).pdf');
  });

  it('restores, says which items went to Root, and Undo archives them again', async () => {
    const { store, calls } = start({
      'POST /api/rest/bulk/restore': bulk([
        { id: 'x', type: 'folder', name: 'Old', restored_to_root: true },
      ]),
      'POST /api/rest/bulk/archive': bulk([{ id: 'x', type: 'folder', name: 'Old' }]),
    });
    store.dispatch(organiseEvents.restoreRequested({ items: [{ id: 'x', type: 'folder' }] }));
    await waitFor(() => expect(lastToast(store)?.title).toBe('Restored'));
    expect(messages(store)).toContain(formatMessage(MESSAGES.restoredToRoot, { name: 'Old' }));
    pressUndo(store);
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/bulk/archive')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/bulk/archive')[0]!.body).toEqual({
      items: [{ id: 'x', type: 'folder' }],
    });
  });

  it('colours folders only, and Undo gives each folder its previous colour', async () => {
    const { store, calls } = start({
      'POST /api/rest/bulk/color': (call) => {
        const body = call.body as { color: string; items: { id: string }[] };
        return bulk(
          body.items.map((item) => ({
            id: item.id,
            type: 'folder',
            name: item.id,
            prev_color:
              body.color === 'dark_blue' ? (item.id === 'b' ? 'dark_red' : 'default') : 'dark_blue',
          })),
        );
      },
    });
    store.dispatch(
      organiseEvents.colorRequested({
        items: [
          { id: 'a', type: 'folder' },
          { id: 'b', type: 'folder' },
          { id: 'c', type: 'file' },
        ],
        color: 'dark_blue',
      }),
    );
    await waitFor(() =>
      expect(store.getState().entities.items[0]).toMatchObject({ color: 'dark_blue' }),
    );
    expect(store.getState().entities.items[1]).toMatchObject({ color: 'dark_blue' });
    expect(lastToast(store).body).toBe('2 items coloured Dark Blue.');
    pressUndo(store);
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/bulk/color')).toHaveLength(3));
    const bodies = callsTo(calls, 'POST /api/rest/bulk/color').map((call) => call.body);
    expect(bodies[0]).toEqual({
      color: 'dark_blue',
      items: [
        { id: 'a', type: 'folder' },
        { id: 'b', type: 'folder' },
      ],
    });
    expect(bodies.slice(1)).toEqual(
      expect.arrayContaining([
        { color: 'default', items: [{ id: 'a', type: 'folder' }] },
        { color: 'dark_red', items: [{ id: 'b', type: 'folder' }] },
      ]),
    );
    await waitFor(() =>
      expect(store.getState().entities.items[1]).toMatchObject({ color: 'dark_red' }),
    );
    expect(store.getState().entities.items[0]).toMatchObject({ color: null });
  });

  it('no undo after the user opened another folder', async () => {
    const { store, calls } = start({
      'POST /api/rest/bulk/archive': bulk([{ id: 'a', type: 'folder', name: 'Alpha' }]),
      'GET /api/rest/entities': { body: makePage([]) },
      'GET /api/rest/folders/other': { body: makeFolder({ id: 'other' }) },
      'GET /api/rest/folders/other/breadcrumbs': { body: [] },
    });
    store.dispatch(organiseEvents.archiveRequested({ items: [{ id: 'a', type: 'folder' }] }));
    await waitFor(() => expect(lastToast(store)?.title).toBe('Archived'));
    const toast = lastToast(store);
    store.dispatch(entitiesActions.folderOpened({ folderId: 'other' }));
    await waitFor(() => expect(store.getState().notifications.toasts).toHaveLength(0));
    store.dispatch(undoEvents.undoRequested(toast.undo!.payload as { token: string }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'POST /api/rest/bulk/restore')).toHaveLength(0);
  });

  it('deletes archived items permanently (no undo)', async () => {
    const { store, calls } = start({
      'POST /api/rest/bulk/destroy': bulk([{ id: 'z', type: 'file', name: 'Old.pdf' }]),
    });
    store.dispatch(organiseEvents.destroyRequested({ items: [{ id: 'z', type: 'file' }] }));
    await waitFor(() => expect(lastToast(store)?.title).toBe('Deleted permanently'));
    expect(lastToast(store)).toMatchObject({ body: '“Old.pdf” deleted permanently.', undo: null });
    expect(callsTo(calls, 'POST /api/rest/bulk/destroy')).toHaveLength(1);
  });

  it('copies a folder into the open folder and lists the copy', async () => {
    const copy = makeFolder({ id: 'a2', name: 'Alpha (1)', parent_id: 'top' });
    const { store, calls } = start({
      'POST /api/rest/folders/a/copy': { status: 201, body: copy },
    });
    store.dispatch(organiseEvents.copyRequested({ folderId: 'a', parentId: 'top' }));
    await waitFor(() => expect(rowIds(store)).toEqual(['a', 'a2', 'b', 'c']));
    expect(callsTo(calls, 'POST /api/rest/folders/a/copy')[0]!.body).toEqual({ parent_id: 'top' });
    expect(lastToast(store)).toMatchObject({
      title: 'Copied',
      body: 'Folder copied as “Alpha (1)”.',
    });
  });

  it('refuses more than BULK_MAX_ITEMS items without calling the server', async () => {
    const { store, calls } = start({});
    const many = Array.from({ length: BULK_MAX_ITEMS + 1 }, (_, i) => ({
      id: `f${i}`,
      type: 'file' as const,
    }));
    store.dispatch(organiseEvents.archiveRequested({ items: many }));
    await waitFor(() =>
      expect(messages(store)).toEqual([
        formatMessage(MESSAGES.tooManyItems, { n: BULK_MAX_ITEMS }),
      ]),
    );
    expect(calls).toHaveLength(0);
  });

  it('loads a picker level page by page', async () => {
    const folders = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        makeFolder({ id: `p${from + i}`, name: `P${from + i}` }),
      );
    const { store, calls } = start({
      'GET /api/rest/folders': (call) =>
        call.url.includes('page=2')
          ? { body: makePage(folders(500, 20), 2, 520, 500) }
          : { body: makePage(folders(0, 500), 1, 520, 500) },
    });
    store.dispatch(organiseEvents.moveDialogOpened({ items: [{ id: 'a', type: 'folder' }] }));
    store.dispatch(organiseActions.pickerLevelRequested({ parentId: '' }));
    await waitFor(() => expect(store.getState().organise.picker['']?.status).toBe('succeeded'));
    expect(store.getState().organise.picker['']!.folders).toHaveLength(520);
    expect(callsTo(calls, 'GET /api/rest/folders').map((call) => call.url)).toEqual([
      '/api/rest/folders?parent_id=&page=1&page_size=500',
      '/api/rest/folders?parent_id=&page=2&page_size=500',
    ]);
  });
});
