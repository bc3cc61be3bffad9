// The "Move to…" folder picker as a list (flag folderTreeView off): one folder's subfolders at a
// time with breadcrumbs; the folder being moved cannot be opened; "Move here" moves into the open
// level.
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FEATURE_FLAG_DEFAULTS } from '@common/constants';
import { initialFlagsState } from '@src/features/flags/flagsSlice';
import { FolderPickerDialog } from '@src/features/organise/components/FolderPickerDialog';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import type { AppStore } from '@src/store/store';
import {
  makeFolder,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';

describe('FolderPickerDialog (list)', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  it('browses into a folder and moves the items there', async () => {
    stubRoutes({
      'GET /api/rest/folders': (call) =>
        call.url.includes('parent_id=clients')
          ? { body: makePage([makeFolder({ id: 'smith', name: 'Smith', parent_id: 'clients' })]) }
          : {
              body: makePage([
                makeFolder({ id: 'clients', name: 'Clients' }),
                makeFolder({ id: 'moving', name: 'Moving' }),
              ]),
            },
      'POST /api/rest/bulk/move': { body: { count: 1, items: [] } },
    });
    const recording = makeRecordingStore({
      ...signedInState(),
      flags: {
        ...initialFlagsState,
        values: { ...FEATURE_FLAG_DEFAULTS, folderTreeView: false },
      },
    });
    store = recording.store;
    renderWithProviders(<FolderPickerDialog />, { store });
    store.dispatch(
      organiseEvents.moveDialogOpened({
        items: [
          { id: 'moving', type: 'folder' },
          { id: 'file1', type: 'file' },
        ],
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 items to…' });
    expect(await within(dialog).findByRole('button', { name: /Moving/ })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('button', { name: /Clients/ }));
    expect(await within(dialog).findByRole('button', { name: /Smith/ })).toBeEnabled();
    expect(dialog).toHaveTextContent('Destination: Clients');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move here' }));
    expect(recording.actions).toContainEqual(
      organiseEvents.moveRequested({
        items: [
          { id: 'moving', type: 'folder' },
          { id: 'file1', type: 'file' },
        ],
        folderId: 'clients',
        folderName: 'Clients',
      }),
    );
    await waitFor(() => expect(store!.getState().organise.dialog.kind).toBeNull());
  });
});
