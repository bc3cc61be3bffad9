import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { REQUEST_ACCESS_HEADER, REQUEST_MESSAGES } from '@common/documentRequests';
import { RequestLinkPage } from '@src/features/documentRequests/public/RequestLinkPage';
import { setRequestUploader } from '@src/features/documentRequests/public/requestUploader';
import { makeStore, type AppStore } from '@src/store/store';
import { callsTo, renderWithProviders, stubRoutes, type StubRoutes } from '../../../testUtils';
import { FakeRequestUploader, makePublicItem, makePublicRequest } from './publicRequestFixtures';

const PAGE = 'GET /api/rest/public/requests/tok123';
const UNLOCK = 'POST /api/rest/public/requests/tok123/unlock';
const RECORD = 'POST /api/rest/public/requests/tok123/files/record';

/** The headers of every fetch call of the stub, in order, with their method and path. */
function headersOf(fetchStub: { mock: { calls: unknown[][] } }) {
  return fetchStub.mock.calls.map(([url, init]) => ({
    url: String(url),
    method: (init as RequestInit | undefined)?.method ?? 'GET',
    headers: ((init as RequestInit | undefined)?.headers ?? {}) as Record<string, string>,
  }));
}

describe('request link page', () => {
  let store: AppStore;
  let uploader: FakeRequestUploader;

  beforeEach(() => {
    sessionStorage.clear();
    uploader = new FakeRequestUploader();
    setRequestUploader(uploader);
  });

  afterEach(() => {
    store.sagaTask.cancel();
    setRequestUploader(null);
    sessionStorage.clear();
  });

  function renderPage(routes: StubRoutes) {
    const stub = stubRoutes(routes);
    store = makeStore();
    renderWithProviders(
      <Routes>
        <Route path="/r/:token" element={<RequestLinkPage />} />
      </Routes>,
      { store, route: '/r/tok123' },
    );
    return stub;
  }

  it('shows the firm, who asks, the title, message, due date and the checklist', async () => {
    renderPage({ [PAGE]: { body: makePublicRequest() } });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Documents for your 2025 tax return' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Northwind Advisers')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('Please send these by the end of the month.')).toBeInTheDocument();
    expect(screen.getByText('Apr 15, 2030')).toBeInTheDocument();

    const list = screen.getByRole('list', { name: 'Requested documents' });
    expect(within(list).getAllByRole('region')).toHaveLength(3);
    const passport = screen.getByRole('region', { name: 'Passport' });
    expect(within(passport).getByText('Missing')).toBeInTheDocument();
    expect(within(passport).getByText('A scan of the photo page.')).toBeInTheDocument();
    expect(
      within(passport).getByRole('button', { name: 'Upload file for Passport' }),
    ).toHaveTextContent('Upload file');

    const statement = screen.getByRole('region', { name: 'Bank statement' });
    const files = within(statement).getByRole('list', { name: 'Files sent for Bank statement' });
    expect(within(files).getByText('statement.pdf')).toBeInTheDocument();
    expect(within(files).getByText('2.0 KB')).toBeInTheDocument();

    // An accepted item takes no more files.
    const payslip = screen.getByRole('region', { name: 'Payslip' });
    expect(within(payslip).getByText('Accepted')).toBeInTheDocument();
    expect(within(payslip).queryByRole('button', { name: /Upload file/ })).not.toBeInTheDocument();
  });

  it("shows a rejected item's reason in an alert", async () => {
    renderPage({ [PAGE]: { body: makePublicRequest() } });
    const statement = await screen.findByRole('region', { name: 'Bank statement' });
    expect(within(statement).getByText('Rejected', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(within(statement).getByRole('alert')).toHaveTextContent(
      'Rejected: The statement is cut off at the bottom.',
    );
    // The other items have no alert.
    expect(
      within(screen.getByRole('region', { name: 'Passport' })).queryByRole('alert'),
    ).not.toBeInTheDocument();
  });

  it('asks for the password, posts the unlock and loads the items with the access header', async () => {
    let unlocked = false;
    const { calls, fetchStub } = renderPage({
      [PAGE]: () =>
        unlocked
          ? { body: makePublicRequest({ has_password: true }) }
          : { body: makePublicRequest({ has_password: true, locked: true, items: [] }) },
      [UNLOCK]: (call) => {
        if ((call.body as { password: string }).password !== 'open sesame') {
          return {
            status: 403,
            body: { message: REQUEST_MESSAGES.wrongPassword, code: 'forbidden' },
          };
        }
        unlocked = true;
        return { body: { access: 'grant-1', expires_at: '2999-01-01T00:00:00Z' } };
      },
    });
    const user = userEvent.setup();
    const password = await screen.findByLabelText('Password');
    expect(screen.queryByRole('list', { name: 'Requested documents' })).not.toBeInTheDocument();

    await user.type(password, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REQUEST_MESSAGES.wrongPassword);

    await user.clear(password);
    await user.type(password, 'open sesame');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('region', { name: 'Passport' })).toBeInTheDocument();

    expect(callsTo(calls, UNLOCK).map((call) => call.body)).toEqual([
      { password: 'wrong' },
      { password: 'open sesame' },
    ]);
    const pageCalls = headersOf(fetchStub).filter((call) => call.url.endsWith('/requests/tok123'));
    expect(pageCalls).toHaveLength(2);
    expect(pageCalls[0]?.headers[REQUEST_ACCESS_HEADER]).toBeUndefined();
    expect(pageCalls[1]?.headers[REQUEST_ACCESS_HEADER]).toBe('grant-1');
    // The grant lives in sessionStorage, never in the store.
    expect(JSON.stringify(store.getState())).not.toContain('grant-1');
    expect(JSON.stringify(store.getState())).not.toContain('open sesame');
    expect(sessionStorage.getItem('dossier.requestAccess.tok123')).toContain('grant-1');
  });

  it("shows the server's message when too many passwords were wrong (429)", async () => {
    renderPage({
      [PAGE]: { body: makePublicRequest({ has_password: true, locked: true, items: [] }) },
      [UNLOCK]: { status: 429, body: { message: REQUEST_MESSAGES.locked, code: 'too_many' } },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Password'), 'guess');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REQUEST_MESSAGES.locked);
  });

  it('shows the expired message of a 410 answer', async () => {
    renderPage({
      [PAGE]: { status: 410, body: { message: REQUEST_MESSAGES.expired, code: 'gone' } },
    });
    expect(await screen.findByText(REQUEST_MESSAGES.expired)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Requested documents' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('shows the not-found message of a 404 answer without a body', async () => {
    renderPage({ [PAGE]: { status: 404 } });
    expect(await screen.findByText(REQUEST_MESSAGES.notFound)).toBeInTheDocument();
  });

  it('shows the completed message of a completed request, without upload buttons', async () => {
    renderPage({
      [PAGE]: {
        body: makePublicRequest({
          status: 'completed',
          items: [makePublicItem({ state: 'accepted' })],
        }),
      },
    });
    expect(await screen.findByText(REQUEST_MESSAGES.completed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Upload file/ })).not.toBeInTheDocument();
  });

  it('uploads through the uploader, records the file and shows it on its item', async () => {
    const refreshed = makePublicRequest({
      items: [
        makePublicItem({
          state: 'received',
          uploads: [
            { id: 'u-9', name: 'passport.pdf', size: 5, uploaded_at: '2030-03-02T10:00:00Z' },
          ],
        }),
      ],
    });
    const { calls } = renderPage({
      [PAGE]: { body: makePublicRequest() },
      [RECORD]: { body: refreshed },
    });
    const user = userEvent.setup();
    const passport = await screen.findByRole('region', { name: 'Passport' });
    await waitFor(() => expect(uploader.listenerCount).toBe(1));

    await user.upload(
      within(passport).getByLabelText('Choose files for Passport'),
      new File(['hello'], 'passport.pdf', { type: 'application/pdf' }),
    );
    await waitFor(() => expect(uploader.starts).toBe(1));
    expect(uploader.added.map((request) => [request.file.name, request.itemId])).toEqual([
      ['passport.pdf', 'item-1'],
    ]);
    expect(uploader.configured[0]?.token).toBe('tok123');

    uploader.emit({ type: 'progress', id: 'up-1', bytesUploaded: 2, bytesTotal: 5 });
    expect(await within(passport).findByText('Uploading… 40%')).toBeInTheDocument();

    uploader.emit({ type: 'uploaded', id: 'up-1', uploadId: 'pending-1', sha256: 'abc' });
    const files = await within(screen.getByRole('region', { name: 'Passport' })).findByRole(
      'list',
      { name: 'Files sent for Passport' },
    );
    expect(within(files).getByText('passport.pdf')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Passport' })).getByText('Received'),
    ).toBeInTheDocument();
    expect(callsTo(calls, RECORD).map((call) => call.body)).toEqual([
      { id: 'pending-1', sha256: 'abc' },
    ]);
    await waitFor(() => expect(uploader.released).toEqual(['up-1']));
    expect(screen.queryByRole('list', { name: 'Uploads for Passport' })).not.toBeInTheDocument();
  });

  it("shows an upload's failure and sends it again on Retry", async () => {
    renderPage({ [PAGE]: { body: makePublicRequest() } });
    const user = userEvent.setup();
    const passport = await screen.findByRole('region', { name: 'Passport' });
    await waitFor(() => expect(uploader.listenerCount).toBe(1));
    await user.upload(
      within(passport).getByLabelText('Choose files for Passport'),
      new File(['hello'], 'scan.pdf'),
    );
    await waitFor(() => expect(uploader.starts).toBe(1));
    uploader.emit({
      type: 'failed',
      id: 'up-1',
      message: 'Upload stalled for 60 seconds, aborting.',
    });
    const alert = await within(passport).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to upload scan.pdf.');
    expect(alert).toHaveTextContent('Upload stalled for 60 seconds, aborting.');
    await user.click(within(passport).getByRole('button', { name: 'Retry' }));
    expect(uploader.retried).toEqual(['up-1']);
    expect(within(passport).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("refuses a file over the size limit with the app's message before any request", async () => {
    const { calls } = renderPage({ [PAGE]: { body: makePublicRequest() } });
    const user = userEvent.setup();
    const passport = await screen.findByRole('region', { name: 'Passport' });
    const big = new File(['x'], 'big.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 150 * 1024 * 1024 });
    const before = calls.length;

    await user.upload(within(passport).getByLabelText('Choose files for Passport'), big);
    expect(await within(passport).findByRole('alert')).toHaveTextContent(
      'big.pdf exceeds maximum allowed size of 100.0 MB.',
    );
    expect(uploader.added).toEqual([]);
    expect(uploader.starts).toBe(0);
    expect(calls.slice(before)).toEqual([]);
  });

  it('refuses a type the page does not allow with the app message', async () => {
    renderPage({
      [PAGE]: {
        body: makePublicRequest({
          restrictions: { ...makePublicRequest().restrictions, allowed_file_types: ['.pdf'] },
        }),
      },
    });
    const user = userEvent.setup({ applyAccept: false });
    const passport = await screen.findByRole('region', { name: 'Passport' });
    await user.upload(
      within(passport).getByLabelText('Choose files for Passport'),
      new File(['x'], 'notes.exe'),
    );
    expect(await within(passport).findByRole('alert')).toHaveTextContent(
      'notes.exe is not an allowed file type. Allowed: .pdf',
    );
    expect(uploader.added).toEqual([]);
  });
});
