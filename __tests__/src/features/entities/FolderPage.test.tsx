import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '@src/app/App';
import { entitiesActions } from '@src/features/entities/entitiesSlice';
import { setUploader } from '@src/features/uploads/uppyClient';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { FakeUploader, fakeFile } from '../uploads/fakeUploader';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const smith = makeFolder({ id: 'f2', name: 'Smith', parent_id: 'f1' });
const routes: StubRoutes = {
  'GET /api/rest/folders/f2': { body: smith },
  'GET /api/rest/folders/f2/breadcrumbs': {
    body: [
      { id: 'f1', name: 'Clients', type: 'breadcrumb' },
      { id: 'f2', name: 'Smith', type: 'breadcrumb' },
    ],
  },
  'GET /api/rest/entities': {
    body: makePage([
      makeFolder({ id: 'f3', name: '2024', parent_id: 'f2' }),
      makeFile({ id: 'p1', name: 'Statement.pdf', folder_id: 'f2', size: 1536 }),
    ]),
  },
};

/**
 * Finds the open dialog by its title. (antd gives every generated id the value "test-id" under
 * NODE_ENV=test, so aria-labelledby names are not reliable in jsdom.)
 */
async function findDialog(title: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(title, { selector: '.ant-modal-title' })).toBeInTheDocument();
  return dialog;
}

// These tests render the whole App (shell, side panel, dialogs) under jsdom: antd's forms and
// modals take minutes when four test runs share two cores, so they get twice the default limit.
jest.setTimeout(180_000);

describe('folder page', () => {
  let store: AppStore | undefined;
  let uploader: FakeUploader;
  beforeEach(() => {
    uploader = new FakeUploader();
    setUploader(uploader);
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    setUploader(null);
  });

  function renderFolder(route = '/home/folders/f2', extraRoutes: StubRoutes = {}) {
    const stub = stubRoutes({ ...routes, ...extraRoutes });
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<App />, { store, route });
    return { ...stub, ...recording };
  }

  it('opens a deep link: breadcrumbs with the home button, heading and rows', async () => {
    renderFolder();
    expect(await screen.findByRole('heading', { level: 1, name: 'Smith' })).toBeInTheDocument();
    const path = screen.getByRole('navigation', { name: 'Folder path' });
    expect(within(path).getByRole('link', { name: 'Home folder' })).toHaveAttribute(
      'href',
      '/home',
    );
    expect(within(path).getByRole('link', { name: 'Clients' })).toHaveAttribute(
      'href',
      '/home/folders/f1',
    );
    expect(within(path).getByText('Smith')).toHaveAttribute('aria-current', 'page');
    const rows = await screen.findAllByTestId('entity-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('2024'),
      expect.stringContaining('Statement.pdf'),
    ]);
  });

  it('opens a sub-folder from its row link', async () => {
    const { calls } = renderFolder('/home/folders/f2', {
      'GET /api/rest/folders/f3': { body: makeFolder({ id: 'f3', name: '2024', parent_id: 'f2' }) },
      'GET /api/rest/folders/f3/breadcrumbs': { body: [] },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: '2024' }));
    await waitFor(() => expect(callsTo(calls, 'GET /api/rest/folders/f3')).toHaveLength(1));
    expect(store!.getState().entities.folder.id).toBe('f3');
    expect(await screen.findByRole('heading', { level: 1, name: '2024' })).toBeInTheDocument();
  });

  it('creates a folder: the dialog dispatches the event and shows the final name', async () => {
    const { calls, actions } = renderFolder('/home/folders/f2', {
      'POST /api/rest/folders': {
        status: 201,
        body: makeFolder({ id: 'f9', name: 'Reports (1)', parent_id: 'f2' }),
      },
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('entity-row');
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await findDialog('New folder');
    await user.click(within(dialog).getByLabelText('Folder name'));
    await user.paste('Reports');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() =>
      expect(actions.filter(entitiesActions.folderCreateRequested.match)).toEqual([
        entitiesActions.folderCreateRequested({ name: 'Reports', parentId: 'f2' }),
      ]),
    );
    expect(await screen.findByText('Folder “Reports (1)” created.')).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/folders')[0]!.body).toEqual({
      name: 'Reports',
      parent_id: 'f2',
    });
    expect(await screen.findByRole('link', { name: 'Reports (1)' })).toBeInTheDocument();
  });

  it('validates the folder name before dispatching', async () => {
    const { actions } = renderFolder();
    const user = userEvent.setup();
    await screen.findAllByTestId('entity-row');
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await findDialog('New folder');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A folder name is required.')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Folder name'));
    await user.paste('a/b');
    expect(
      await within(dialog).findByText('Names cannot contain / or \\ or control characters.'),
    ).toBeInTheDocument();
    expect(actions.some(entitiesActions.folderCreateRequested.match)).toBe(false);
  });

  it("shows the server's message in the dialog when creation fails", async () => {
    allowConsoleError(/^POST \/api\/rest\/folders\S* answered 403/);
    renderFolder('/home/folders/f2', {
      'POST /api/rest/folders': {
        status: 403,
        body: { message: 'You cannot add folders here.', code: 'forbidden' },
      },
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('entity-row');
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await findDialog('New folder');
    await user.click(within(dialog).getByLabelText('Folder name'));
    await user.paste('Reports');
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('You cannot add folders here.')).toBeInTheDocument();
  });

  it('uploads chosen files into the open folder and lists them in the panel', async () => {
    renderFolder();
    const user = userEvent.setup();
    await screen.findAllByTestId('entity-row');
    await user.upload(screen.getByLabelText('Upload files'), [
      fakeFile('Report.pdf', 2048),
      fakeFile('Ā.pdf'),
    ]);
    expect(uploader.added.map((request) => [request.file.name, request.folderId])).toEqual([
      ['Report.pdf', 'f2'],
    ]);
    const panel = await screen.findByRole('region', { name: 'Uploading files' });
    expect(within(panel).getByText('Report.pdf')).toBeInTheDocument();
    expect(within(panel).getByText('File name contains invalid characters')).toBeInTheDocument();
  });

  it('accepts dropped files, refusing directories', async () => {
    renderFolder();
    await screen.findAllByTestId('entity-row');
    const zone = screen.getByTestId('folder-drop-zone');
    const file = fakeFile('Dropped.pdf');
    const folder = fakeFile('Scans', 0, '');
    const dataTransfer = {
      types: ['Files'],
      files: [file, folder],
      items: [
        { kind: 'file', getAsFile: () => file, webkitGetAsEntry: () => ({ isDirectory: false }) },
        { kind: 'file', getAsFile: () => folder, webkitGetAsEntry: () => ({ isDirectory: true }) },
      ],
      dropEffect: 'none',
    };
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone).toHaveClass('dragging');
    expect(screen.getByText('Drop files to upload to Smith')).toBeInTheDocument();
    const over = fireEvent.dragOver(zone, { dataTransfer });
    expect(over).toBe(false);
    fireEvent.drop(zone, { dataTransfer });
    expect(zone).not.toHaveClass('dragging');
    // The upload saga loads the server's upload restrictions before it checks the files.
    await waitFor(() =>
      expect(uploader.added.map((request) => request.file.name)).toEqual(['Dropped.pdf']),
    );
    expect(
      await screen.findByText('Scans is a folder. Only files can be uploaded.'),
    ).toBeInTheDocument();
  });

  it('explains a folder that cannot be opened', async () => {
    allowConsoleError(
      /^GET \/api\/rest\/folders\/zz\S* answered 404/,
      /^GET \/api\/rest\/folders\/zz\/breadcrumbs\S* answered 404/,
    );
    const missing = {
      status: 404,
      body: { message: 'This folder does not exist.', code: 'not_found' },
    };
    renderFolder('/home/folders/zz', {
      'GET /api/rest/folders/zz': missing,
      'GET /api/rest/folders/zz/breadcrumbs': missing,
    });
    expect(await screen.findByText('This folder could not be opened.')).toBeInTheDocument();
    expect(screen.getByText('This folder does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to Home folder' })).toBeInTheDocument();
  });
});
