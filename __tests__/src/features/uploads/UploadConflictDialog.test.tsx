// The upload flow's conflict dialog, driven through the real sagas with a fake uploader: a picked
// file whose name a file of the folder has is asked about ("Upload as new version", "Keep both",
// "Skip"), by buttons for one file and a choice per file for several; the keyboard answers it
// (the primary button has the focus, Esc skips); the choice reaches the uploader (`versionOf`) and
// the panel ("new version of …"); a failed question keeps both, as SPEC section 5 says; signing
// out while it is open uploads nothing.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UploadConflictsResponse } from '@common/versions';
import { UploadConflictDialog } from '@src/features/uploads/components/UploadConflictDialog';
import { UploadPanel } from '@src/features/uploads/components/UploadPanel';
import type { PickedFile } from '@src/features/uploads/pickedFiles';
import { initialUploadsState, uploadsActions } from '@src/features/uploads/uploadsSlice';
import { setUploader, stageFiles } from '@src/features/uploads/uppyClient';
import type { AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
import {
  callsTo,
  makeFile,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { DEFAULT_UPLOAD_RESTRICTIONS } from '@common/uploads';
import { FakeUploader, fakeFile } from './fakeUploader';

const CONFLICTS = 'POST /api/rest/files/conflicts';

/** The server's answer naming the folder's files whose names clash. */
function clashes(...pairs: [string, string][]): { body: UploadConflictsResponse } {
  return {
    body: {
      items: pairs.map(([name, fileId]) => ({ name, file_id: fileId, file_name: name })),
    },
  };
}

describe('the upload conflict dialog', () => {
  let uploader: FakeUploader;
  let store: AppStore | undefined;

  beforeEach(() => {
    uploader = new FakeUploader();
    setUploader(uploader);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    store = undefined;
    setUploader(null);
  });

  function show(routes: StubRoutes) {
    const stub = stubRoutes(routes);
    const recording = makeRecordingStore({
      ...signedInState(),
      uploads: {
        ...initialUploadsState,
        restrictions: DEFAULT_UPLOAD_RESTRICTIONS,
        restrictionsStatus: 'succeeded',
      },
    });
    store = recording.store;
    renderWithProviders(
      <>
        <UploadPanel />
        <UploadConflictDialog />
      </>,
      { store },
    );
    return { ...stub, ...recording };
  }

  function pick(names: string[], folderId = 'f1') {
    const files: PickedFile[] = names.map((name) => ({ file: fakeFile(name), isDirectory: false }));
    store!.dispatch(uploadsActions.filesPicked({ batchId: stageFiles(files), folderId }));
  }

  it('asks about one file, keyboard first, and uploads it as a new version', async () => {
    const { calls } = show({
      [CONFLICTS]: clashes(['Statement.pdf', 'file-7']),
      'POST /api/rest/files/record': {
        status: 201,
        body: makeFile({ id: 'file-7', name: 'Statement.pdf', folder_id: 'f1' }),
      },
    });
    const user = userEvent.setup();
    pick(['Statement.pdf', 'Fresh.pdf']);
    const dialog = await screen.findByRole('dialog', { name: 'Files already exist' });
    expect(dialog).toHaveTextContent('"Statement.pdf" already exists in this folder.');
    expect(callsTo(calls, CONFLICTS)[0]!.body).toEqual({
      folder_id: 'f1',
      names: ['Statement.pdf', 'Fresh.pdf'],
    });
    // Nothing goes to the uploader before the answer.
    expect(uploader.added).toHaveLength(0);
    const primary = within(dialog).getByRole('button', { name: 'Upload as new version' });
    await waitFor(() => expect(primary).toHaveFocus());
    expect(within(dialog).getByRole('button', { name: 'Keep both' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Skip' })).toBeInTheDocument();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(uploader.added).toHaveLength(2));
    expect(uploader.added.map((r) => [r.file.name, r.folderId, r.versionOf])).toEqual([
      ['Statement.pdf', 'f1', 'file-7'],
      ['Fresh.pdf', 'f1', undefined],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(store!.getState().uploads.files.map((f) => f.versionOf)).toEqual(['file-7', null]);

    // Recorded: the panel says what it became.
    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'p1', sha256: null });
    expect(await screen.findByText('Complete · new version of Statement.pdf')).toBeInTheDocument();
  });

  it('keeps both when asked to (today\'s "(1)"), and skips with Esc', async () => {
    show({ [CONFLICTS]: clashes(['a.pdf', 'file-a']) });
    const user = userEvent.setup();
    pick(['a.pdf']);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep both' }),
    );
    await waitFor(() => expect(uploader.added).toHaveLength(1));
    expect(uploader.added[0]!.versionOf).toBeUndefined();

    pick(['a.pdf', 'b.pdf'], 'f2');
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(uploader.added).toHaveLength(2));
    // The clashing file was skipped; the other one of the batch went on.
    expect(uploader.added[1]!.file.name).toBe('b.pdf');
  });

  it('asks about several files with a choice each', async () => {
    show({
      [CONFLICTS]: clashes(['one.pdf', 'file-1'], ['two.pdf', 'file-2'], ['three.pdf', 'file-3']),
    });
    const user = userEvent.setup();
    pick(['one.pdf', 'two.pdf', 'three.pdf', 'four.pdf']);
    const dialog = await screen.findByRole('dialog', { name: 'Files already exist' });
    expect(dialog).toHaveTextContent('3 of the files already exist in this folder.');
    const groups = within(dialog).getAllByRole('radiogroup');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual([
      'What to do with one.pdf',
      'What to do with two.pdf',
      'What to do with three.pdf',
    ]);
    // New version is chosen for each at first.
    for (const group of groups) {
      expect(within(group).getByRole('radio', { name: 'New version' })).toBeChecked();
    }
    await user.click(within(groups[1]!).getByRole('radio', { name: 'Keep both' }));
    await user.click(within(groups[2]!).getByRole('radio', { name: 'Skip' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(uploader.added).toHaveLength(3));
    expect(uploader.added.map((r) => [r.file.name, r.versionOf])).toEqual([
      ['one.pdf', 'file-1'],
      ['two.pdf', undefined],
      ['four.pdf', undefined],
    ]);
  });

  it('asks nothing when no name clashes, and keeps both when the question fails', async () => {
    allowConsoleError(/conflicts answered 500/);
    let fail = false;
    show({
      [CONFLICTS]: () =>
        fail
          ? { status: 500, body: { message: 'Something went wrong.', code: 'internal' } }
          : { body: { items: [] } },
    });
    pick(['new.pdf']);
    await waitFor(() => expect(uploader.added).toHaveLength(1));
    fail = true;
    pick(['other.pdf']);
    await waitFor(() => expect(uploader.added).toHaveLength(2));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(uploader.added.every((r) => r.versionOf === undefined)).toBe(true);
  });

  it('uploads nothing of a batch whose dialog was open at sign-out', async () => {
    show({ [CONFLICTS]: clashes(['a.pdf', 'file-a']) });
    pick(['a.pdf', 'b.pdf']);
    await screen.findByRole('dialog');
    store!.dispatch({ type: 'session/signedOut' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(uploader.added).toHaveLength(0);
    expect(store!.getState().uploads.conflicts).toEqual([]);
  });
});
