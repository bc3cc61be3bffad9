import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { FEATURE_FLAG_DEFAULTS } from '@common/constants';
import { SharedPage } from '@src/features/sharing/components/SharedPage';
import type { SharingEnvironment } from '@src/features/sharing/sharingSagas';
import { makeStore, type AppStore } from '@src/store/store';
import {
  LocationProbe,
  callsTo,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { makeGuest, makeShared } from './sharingFixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const SLOW_MS = 300_000;

const folderItem = makeShared({
  share_id: 's1',
  entity_type: 'folder',
  id: 'fold1',
  name: 'Clients',
  extension: undefined,
  size: undefined,
  content_type: undefined,
});
const insideFile = makeShared({ id: 'file1', name: 'Statement.pdf', folder_id: 'fold1' });
const insideOther = makeShared({
  id: 'file2',
  name: 'Notes.gif',
  extension: 'gif',
  content_type: 'image/gif',
  folder_id: 'fold1',
});

/** An archive in the shared folder: nothing shows it, so it has no preview. */
const minutesZip = makeShared({
  id: 'file3',
  name: 'Minutes.zip',
  extension: 'zip',
  content_type: 'application/zip',
  folder_id: 'fold1',
});

/**
 * A Word document in the shared folder: no browser shows it, but the viewer shows its PDF
 * rendition (the share's preview serves it once document imaging made it).
 */
const memoDocx = makeShared({
  id: 'file5',
  name: 'Memo.docx',
  extension: 'docx',
  content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  folder_id: 'fold1',
});

describe('Shared page', () => {
  let store: AppStore;
  let openFile: jest.Mock<SharingEnvironment['openFile']>;

  beforeEach(() => {
    openFile = jest.fn<SharingEnvironment['openFile']>();
  });
  afterEach(() => {
    store.sagaTask.cancel();
  });

  function renderAt(route: string, routes: StubRoutes, state = signedInState(makeGuest())) {
    const stub = stubRoutes(routes);
    store = makeStore(state, { sagaContext: { sharingEnvironment: { openFile } } });
    renderWithProviders(
      <>
        <Routes>
          <Route path="/shared" element={<SharedPage />} />
          <Route path="/shared/folders/:folderId" element={<SharedPage />} />
          <Route path="/sharing/shared" element={<SharedPage />} />
          <Route path="/sharing/shared/folders/:folderId" element={<SharedPage />} />
        </Routes>
        <LocationProbe />
      </>,
      { store, route },
    );
    return stub;
  }

  const guestRoutes: StubRoutes = {
    'GET /api/rest/shared/entities': (call) =>
      call.url.includes('folder_id=fold1')
        ? { body: { items: [insideFile, insideOther], allow_download: true } }
        : { body: { items: [folderItem], allow_download: true } },
    'GET /api/rest/shared/folders/fold1/breadcrumbs': {
      body: { items: [{ id: 'fold1', name: 'Clients' }] },
    },
  };

  it(
    'lists what was shared with a guest and opens a shared folder with its breadcrumbs',
    async () => {
      const user = userEvent.setup();
      const { calls } = renderAt('/sharing/shared', guestRoutes);
      const table = await screen.findByRole('table', { name: 'Shared with me' });
      expect(within(table).getByRole('columnheader', { name: 'Shared by' })).toBeInTheDocument();
      const folderLink = within(table).getByRole('link', { name: 'Clients' });
      expect(folderLink).toHaveAttribute('href', '/sharing/shared/folders/fold1');
      expect(screen.queryByRole('tab')).not.toBeInTheDocument();

      await user.click(folderLink);
      expect(screen.getByTestId('location')).toHaveTextContent('/sharing/shared/folders/fold1');
      const rows = await screen.findAllByTestId('shared-row');
      expect(rows.map((row) => row.getAttribute('data-entity-id'))).toEqual(['file1', 'file2']);
      // A guest's preview opens the viewer over the page (the share's preview address inside).
      expect(within(rows[0]!).getByRole('link', { name: 'Preview Statement.pdf' })).toHaveAttribute(
        'href',
        '/sharing/shared/folders/fold1?view=file%3Afile1',
      );
      expect(
        within(rows[0]!).getByRole('link', { name: 'Download Statement.pdf' }),
      ).toHaveAttribute('href', '/api/rest/shared/files/file1/download');
      const crumbs = document.querySelector('.shared-breadcrumbs')!;
      await waitFor(() => expect(crumbs).toHaveTextContent('Shared/Clients'));
      expect(within(crumbs as HTMLElement).getByRole('link', { name: 'Shared' })).toHaveAttribute(
        'href',
        '/sharing/shared',
      );
      expect(callsTo(calls, 'GET /api/rest/shared/entities').map((call) => call.url)).toEqual([
        '/api/rest/shared/entities',
        '/api/rest/shared/entities?folder_id=fold1',
      ]);
    },
    SLOW_MS,
  );

  it(
    'checks the access, then opens the download',
    async () => {
      const user = userEvent.setup();
      const { calls } = renderAt('/sharing/shared/folders/fold1', guestRoutes);
      const rows = await screen.findAllByTestId('shared-row');
      await user.click(within(rows[1]!).getByRole('link', { name: 'Download Notes.gif' }));
      await waitFor(() =>
        expect(openFile).toHaveBeenCalledWith('/api/rest/shared/files/file2/download', 'download'),
      );
      // The first read, then one check for the click.
      expect(callsTo(calls, 'GET /api/rest/shared/entities')).toHaveLength(2);
    },
    SLOW_MS,
  );

  it(
    'says the access has ended when the next click finds it revoked',
    async () => {
      allowConsoleError(/^GET \/api\/rest\/shared\/entities\S* answered 404/);
      const user = userEvent.setup();
      let ended = false;
      renderAt('/sharing/shared/folders/fold1', {
        ...guestRoutes,
        'GET /api/rest/shared/entities': () =>
          ended
            ? {
                status: 404,
                body: { message: 'Your access to this item has ended.', code: 'access_ended' },
              }
            : { body: { items: [insideFile], allow_download: true } },
      });
      const rows = await screen.findAllByTestId('shared-row');
      ended = true;
      await user.click(within(rows[0]!).getByRole('link', { name: 'Download Statement.pdf' }));
      expect(await screen.findByText('Your access to this item has ended.')).toBeInTheDocument();
      expect(screen.queryByTestId('shared-row')).not.toBeInTheDocument();
      expect(openFile).not.toHaveBeenCalled();
    },
    SLOW_MS,
  );

  it(
    'says the access has ended when a shared folder can no longer be read',
    async () => {
      allowConsoleError(/^GET \/api\/rest\/shared\/entities\S* answered 404/);
      renderAt('/sharing/shared/folders/fold1', {
        'GET /api/rest/shared/entities': {
          status: 404,
          body: { message: 'Your access to this item has ended.', code: 'access_ended' },
        },
      });
      expect(await screen.findByText('Your access to this item has ended.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Shared' })).toHaveAttribute(
        'href',
        '/sharing/shared',
      );
    },
    SLOW_MS,
  );

  it(
    'downloads a file without preview by its name and disables its Preview',
    async () => {
      const zip = minutesZip;
      const user = userEvent.setup();
      renderAt('/sharing/shared/folders/fold1', {
        'GET /api/rest/shared/entities': { body: { items: [zip], allow_download: true } },
      });
      const row = (await screen.findAllByTestId('shared-row'))[0]!;
      const name = within(row).getByRole('link', { name: 'Minutes.zip' });
      expect(name).toHaveAttribute('href', '/api/rest/shared/files/file3/download');
      expect(name).toHaveAttribute('download', 'Minutes.zip');
      expect(within(row).getByRole('button', { name: 'Preview Minutes.zip' })).toBeDisabled();
      expect(within(row).queryByRole('link', { name: 'Preview Minutes.zip' })).toBeNull();
      await user.click(name);
      await waitFor(() =>
        expect(openFile).toHaveBeenCalledWith('/api/rest/shared/files/file3/download', 'download'),
      );
    },
    SLOW_MS,
  );

  it(
    'shows a file without preview as plain text when the share does not allow downloads',
    async () => {
      const zip = { ...minutesZip, allow_download: false };
      renderAt('/sharing/shared/folders/fold1', {
        'GET /api/rest/shared/entities': { body: { items: [zip], allow_download: false } },
      });
      const row = (await screen.findAllByTestId('shared-row'))[0]!;
      expect(within(row).queryByRole('link')).toBeNull();
      expect(within(row).getByText('Minutes.zip')).toHaveAttribute(
        'title',
        'No preview for this file type, and downloading is not allowed for this share.',
      );
      expect(within(row).getByRole('button', { name: 'Preview Minutes.zip' })).toBeDisabled();
    },
    SLOW_MS,
  );

  it(
    "opens a guest's Word document in the viewer, through a share without download too",
    async () => {
      const docx = { ...memoDocx, allow_download: false };
      const user = userEvent.setup();
      renderAt('/sharing/shared/folders/fold1', {
        'GET /api/rest/shared/entities': { body: { items: [docx], allow_download: false } },
      });
      const row = (await screen.findAllByTestId('shared-row'))[0]!;
      const name = within(row).getByRole('link', { name: 'Memo.docx' });
      expect(name).toHaveAttribute('href', '/sharing/shared/folders/fold1?view=file%3Afile5');
      expect(within(row).getByRole('link', { name: 'Preview Memo.docx' })).toHaveAttribute(
        'href',
        '/sharing/shared/folders/fold1?view=file%3Afile5',
      );
      expect(within(row).queryByRole('link', { name: 'Download Memo.docx' })).toBeNull();
      await user.click(name);
      await waitFor(() =>
        expect(screen.getByTestId('location')).toHaveTextContent('/sharing/shared/folders/fold1'),
      );
      expect(openFile).not.toHaveBeenCalled();
    },
    SLOW_MS,
  );

  it(
    'offers no download when the share does not allow it',
    async () => {
      renderAt('/sharing/shared/folders/fold1', {
        'GET /api/rest/shared/entities': {
          body: {
            items: [{ ...insideFile, allow_download: false }],
            allow_download: false,
          },
        },
      });
      const rows = await screen.findAllByTestId('shared-row');
      expect(within(rows[0]!).getByRole('link', { name: 'Preview Statement.pdf' })).toBeVisible();
      expect(
        within(rows[0]!).queryByRole('link', { name: 'Download Statement.pdf' }),
      ).not.toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'shows the empty state, and nothing shared with the sharing flag off',
    async () => {
      const { calls } = renderAt('/sharing/shared', {
        'GET /api/rest/shared/entities': { body: { items: [], allow_download: true } },
      });
      expect(await screen.findByText('Nothing has been shared with you yet.')).toBeInTheDocument();
      store.sagaTask.cancel();
      document.body.innerHTML = '';
      calls.length = 0;
      renderAt(
        '/sharing/shared',
        {
          'GET /api/rest/shared/entities': { body: { items: [folderItem], allow_download: true } },
        },
        {
          ...signedInState(makeGuest()),
          flags: {
            values: { ...FEATURE_FLAG_DEFAULTS, sharing: false },
            status: 'succeeded',
            error: null,
          },
        },
      );
      expect(screen.getByText('Nothing has been shared with you yet.')).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByRole('link', { name: 'Clients' })).not.toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'shows an internal user the tabs Shared with me and Shared by me, and removes a share',
    async () => {
      const user = userEvent.setup();
      const byMe = makeShared({
        share_id: 's9',
        id: 'file9',
        name: 'Contract.docx',
        extension: 'docx',
        recipient_email: 'client@example.com',
        link_id: 'link9',
        link_live: true,
        share_state: 'accepted',
        row_id: 's9',
      });
      const { calls } = renderAt(
        '/shared',
        {
          'GET /api/rest/entities/shared': {
            body: { shared_with_me: [folderItem], shared_by_me: [byMe] },
          },
          'DELETE /api/rest/shared/entities/s9': { status: 204 },
          'GET /api/rest/shared_entities': {
            body: { items: [insideFile], allow_download: true },
          },
          'GET /api/rest/shared/folders/fold1/breadcrumbs': {
            body: { items: [{ id: 'fold1', name: 'Clients' }] },
          },
        },
        signedInState(),
      );
      const withMe = await screen.findByRole('table', { name: 'Shared with me' });
      expect(within(withMe).getByRole('link', { name: 'Clients' })).toHaveAttribute(
        'href',
        '/shared/folders/fold1',
      );
      await user.click(screen.getByRole('tab', { name: 'Shared by me' }));
      expect(screen.getByTestId('location')).toHaveTextContent('/shared');
      const row = await screen.findByTestId('shared-by-me-row');
      expect(row).toHaveTextContent('client@example.com');
      await user.click(
        within(row).getByRole('button', {
          name: 'Remove access of client@example.com to Contract.docx',
        }),
      );
      // The row stays, as "Access removed", without Remove access.
      await waitFor(() => expect(row).toHaveTextContent('Access removed'));
      expect(within(row).queryByRole('button', { name: /Remove access/ })).not.toBeInTheDocument();
      expect(callsTo(calls, 'DELETE /api/rest/shared/entities/s9')).toHaveLength(1);

      await user.click(screen.getByRole('tab', { name: 'Shared with me' }));
      await user.click(screen.getByRole('link', { name: 'Clients' }));
      expect(await screen.findByTestId('shared-row')).toHaveTextContent('Statement.pdf');
      expect(callsTo(calls, 'GET /api/rest/shared_entities')[0]!.url).toBe(
        '/api/rest/shared_entities?folder_id=fold1',
      );
    },
    SLOW_MS,
  );
  it(
    'lists pending, expired and revoked shares by me with their state, and copies a link again',
    async () => {
      const user = userEvent.setup();
      const base = { share_id: '', recipient_email: 'new@example.com', link_live: true };
      const pending = makeShared({ ...base, link_id: 'l1', share_state: 'pending', row_id: 'i1' });
      const anyone = makeShared({
        ...base,
        id: 'file2',
        name: 'Plan.txt',
        recipient_email: '',
        link_id: 'l2',
        share_state: 'pending',
        row_id: 'l2',
      });
      const expired = makeShared({
        ...base,
        id: 'file3',
        name: 'Old.txt',
        link_id: 'l3',
        link_live: false,
        share_state: 'expired',
        row_id: 'i3',
      });
      const revoked = makeShared({
        ...base,
        id: 'file4',
        name: 'Gone.txt',
        link_id: 'l4',
        link_live: false,
        share_state: 'revoked',
        row_id: 'i4',
      });
      const { calls } = renderAt(
        '/shared?tab=by-me',
        {
          'GET /api/rest/entities/shared': {
            body: { shared_with_me: [], shared_by_me: [pending, anyone, expired, revoked] },
          },
          'POST /api/rest/shared/links/l1/reissue': {
            body: { link: {}, url: 'http://dossier.test/sharing/invitation/NEWTOKEN' },
          },
        },
        signedInState(),
      );
      const table = await screen.findByRole('table', { name: 'Shared by me' });
      const rows = await within(table).findAllByTestId('shared-by-me-row');
      expect(rows.map((r) => r.textContent)).toEqual([
        expect.stringContaining('new@example.comInvitation pending'),
        expect.stringContaining('Anyone with the linkInvitation pending'),
        expect.stringContaining('Expired'),
        expect.stringContaining('Revoked'),
      ]);
      // Nobody accepted: nothing to remove. A link that ended is not copied again.
      expect(within(table).queryByRole('button', { name: /Remove access/ })).toBeNull();
      expect(within(rows[2]!).queryByRole('button', { name: /Copy link/ })).toBeNull();
      expect(within(rows[3]!).queryByRole('button', { name: /Copy link/ })).toBeNull();

      await user.click(within(rows[0]!).getByRole('button', { name: /Copy link/ }));
      expect(await screen.findByText(/the link copied before stops working/)).toBeVisible();
      expect(callsTo(calls, 'POST /api/rest/shared/links/l1/reissue')).toHaveLength(0);
      await user.click(screen.getByRole('button', { name: 'Make new link' }));
      await waitFor(() =>
        expect(callsTo(calls, 'POST /api/rest/shared/links/l1/reissue')).toHaveLength(1),
      );
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('New link to Statement.pdf');
      expect(within(dialog).getByLabelText('Share link')).toHaveValue(
        'http://dossier.test/sharing/invitation/NEWTOKEN',
      );
      expect(callsTo(calls, 'POST /api/rest/shared/links/l1/reissue')).toHaveLength(1);
      await user.click(within(dialog).getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
    SLOW_MS,
  );
});
