import { describe, expect, it } from '@jest/globals';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
  type EntitiesState,
} from '@src/features/entities/entitiesSlice';
import { sessionActions } from '@src/features/session/sessionSlice';
import { uploadsActions } from '@src/features/uploads/uploadsSlice';
import { makeFile, makeFolder, makePage, makeUser } from '../../fixtures';

const a = makeFolder({ id: 'fa', name: 'Alpha' });
const c = makeFolder({ id: 'fc', name: 'charlie' });
const pdf = makeFile({ id: 'p1', name: 'b.pdf' });
const xls = makeFile({ id: 'x1', name: 'd.xlsx', extension: 'xlsx' });

function openRootWith(items = [a, c, pdf, xls], total = items.length): EntitiesState {
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: '' }),
  );
  return entitiesReducer(
    opened,
    entitiesActions.pageLoaded({ folderId: '', page: makePage(items, 1, total) }),
  );
}

describe('entitiesSlice', () => {
  it('starts at the root folder with empty id and name Root (SPEC section 2)', () => {
    expect(initialEntitiesState.folder).toEqual({ id: '', name: 'Root' });
  });

  it('opens a folder: resets the list and marks it loading', () => {
    const state = entitiesReducer(openRootWith(), entitiesActions.folderOpened({ folderId: 'f9' }));
    expect(state.folder.id).toBe('f9');
    expect(state.items).toEqual([]);
    expect(state.list.status).toBe('loading');
    expect(state.details.status).toBe('loading');
  });

  it('stores the loaded folder and breadcrumbs of the open folder only', () => {
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: 'f1' }),
    );
    const crumbs = [{ id: 'f1', name: 'Clients', type: 'breadcrumb' as const }];
    const loaded = entitiesReducer(
      opened,
      entitiesActions.folderLoaded({ folder: makeFolder(), breadcrumbs: crumbs }),
    );
    expect(loaded.folder).toEqual({ id: 'f1', name: 'Clients' });
    expect(loaded.breadcrumbs).toEqual(crumbs);
    const stale = entitiesReducer(
      opened,
      entitiesActions.folderLoaded({ folder: makeFolder({ id: 'other' }), breadcrumbs: [] }),
    );
    expect(stale.details.status).toBe('loading');
  });

  it('appends pages in order, ignoring stale and duplicate ones', () => {
    let state = openRootWith([a, c], 4);
    expect(state).toMatchObject({ page: 1, total: 4, list: { status: 'succeeded' } });
    state = entitiesReducer(state, entitiesActions.nextPageRequested());
    expect(state.more.status).toBe('loading');
    state = entitiesReducer(
      state,
      entitiesActions.pageLoaded({ folderId: '', page: makePage([c, pdf, xls], 2, 4, 2) }),
    );
    expect(state.items.map((item) => item.id)).toEqual(['fa', 'fc', 'p1', 'x1']);
    expect(state.more.status).toBe('succeeded');
    const again = entitiesReducer(
      state,
      entitiesActions.pageLoaded({ folderId: '', page: makePage([a], 2, 4) }),
    );
    expect(again.items).toHaveLength(4);
    const otherFolder = entitiesReducer(
      state,
      entitiesActions.pageLoaded({ folderId: 'zz', page: makePage([a], 3, 4) }),
    );
    expect(otherFolder).toBe(state);
  });

  it('asks for a next page only when more items remain', () => {
    const all = openRootWith();
    expect(entitiesReducer(all, entitiesActions.nextPageRequested()).more.status).toBe('idle');
  });

  it('records a failed page', () => {
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '' }),
    );
    const failed = entitiesReducer(
      opened,
      entitiesActions.pageLoadFailed({ folderId: '', page: 1, message: 'Down.' }),
    );
    expect(failed.list).toEqual({ status: 'failed', error: 'Down.' });
  });

  it('runs the create-folder dialog and inserts the created folder in order', () => {
    let state = entitiesReducer(openRootWith(), entitiesActions.createFolderDialogOpened());
    expect(state.createFolder.dialog).toBe('open');
    state = entitiesReducer(
      state,
      entitiesActions.folderCreateRequested({ name: 'Bravo', parentId: '' }),
    );
    expect(state.createFolder.status).toBe('loading');
    state = entitiesReducer(
      state,
      entitiesActions.folderCreated({ folder: makeFolder({ id: 'fb', name: 'Bravo (1)' }) }),
    );
    expect(state.createFolder).toEqual({
      dialog: 'closed',
      status: 'succeeded',
      error: null,
      createdName: 'Bravo (1)',
      createdId: 'fb',
    });
    expect(state.items.map((item) => item.name)).toEqual([
      'Alpha',
      'Bravo (1)',
      'charlie',
      'b.pdf',
      'd.xlsx',
    ]);
    expect(state.total).toBe(5);
  });

  it('keeps the dialog open with the error when creation fails', () => {
    let state = entitiesReducer(openRootWith(), entitiesActions.createFolderDialogOpened());
    state = entitiesReducer(state, entitiesActions.folderCreateFailed({ message: 'Nope.' }));
    expect(state.createFolder).toMatchObject({ dialog: 'open', status: 'failed', error: 'Nope.' });
  });

  it('inserts a recorded upload into the open folder only', () => {
    const file = makeFile({ id: 'n1', name: 'c.docx', extension: 'docx', folder_id: '' });
    const state = entitiesReducer(
      openRootWith(),
      uploadsActions.fileRecorded({ id: 'uppy-1', file }),
    );
    expect(state.items.map((item) => item.name)).toEqual([
      'Alpha',
      'charlie',
      'b.pdf',
      'c.docx',
      'd.xlsx',
    ]);
    const elsewhere = entitiesReducer(
      openRootWith(),
      uploadsActions.fileRecorded({ id: 'uppy-2', file: { ...file, folder_id: 'f7' } }),
    );
    expect(elsewhere.items).toHaveLength(4);
  });

  it('keeps a file recorded while the first page loads, in order, whether the page has it or not', () => {
    const file = makeFile({ id: 'n1', name: 'c.docx', extension: 'docx', folder_id: 'f9' });
    const opened = entitiesReducer(
      openRootWith(),
      entitiesActions.folderOpened({ folderId: 'f9' }),
    );
    const early = entitiesReducer(opened, uploadsActions.fileRecorded({ id: 'uppy-1', file }));
    // The page was read before the record: it lacks the file.
    const without = entitiesReducer(
      early,
      entitiesActions.pageLoaded({ folderId: 'f9', page: makePage([a, c, pdf, xls], 1, 4) }),
    );
    expect(without.items.map((item) => item.name)).toEqual([
      'Alpha',
      'charlie',
      'b.pdf',
      'c.docx',
      'd.xlsx',
    ]);
    expect(without.total).toBe(5);
    expect(without.list.status).toBe('succeeded');
    // The page was read after the record: the file is listed once.
    const withIt = entitiesReducer(
      early,
      entitiesActions.pageLoaded({ folderId: 'f9', page: makePage([a, c, pdf, file, xls], 1, 5) }),
    );
    expect(withIt.items.map((item) => item.id)).toEqual(['fa', 'fc', 'p1', 'n1', 'x1']);
    expect(withIt.total).toBe(5);
  });

  it('does not insert past the loaded range while pages remain, but counts the item', () => {
    const partial = openRootWith([a, c], 4);
    const file = makeFile({ id: 'z1', name: 'zz.pdf' });
    const state = entitiesReducer(partial, uploadsActions.fileRecorded({ id: 'u', file }));
    expect(state.items.map((item) => item.id)).toEqual(['fa', 'fc']);
    expect(state.total).toBe(5);
  });

  it('resets on sign-out, expiry and database switch', () => {
    for (const action of [
      sessionActions.signedOut(),
      sessionActions.expired(),
      sessionActions.databaseSwitched(makeUser()),
    ]) {
      expect(entitiesReducer(openRootWith(), action)).toEqual(initialEntitiesState);
    }
  });
});
