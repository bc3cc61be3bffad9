// The viewer overlay (Testing Library): opened by the address, it shows "Preparing preview…"
// while the rendition is made and the PDF once done, the reason of a failed derivation, "No
// preview for this file type" with a Download button, previous and next files of the page's
// list, and Escape or Close takes the viewer's parameters off the address.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VIEWER_MESSAGES, type FileRenditionDto } from '@common/imaging';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import { ViewerSlot } from '@src/features/viewer/components/ViewerSlot';
import { VIEWER_ENVIRONMENT } from '@src/features/viewer/viewerSagas';
import { makeStore, type AppStore } from '@src/store/store';
import {
  AddressProbe,
  makeFile,
  makePage,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';

// pdf.js does not run in jsdom: the PDF view says which address it would read.
jest.mock('../../../../src/features/viewer/components/PdfView', () => ({
  PdfView: ({ url, page }: { url: string; page: number }) => (
    <div data-testid="pdf-view">{`${url} page ${page}`}</div>
  ),
}));

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const memo = makeFile({ id: 'f1', name: 'Memo.docx', extension: 'docx', content_type: DOCX });
const plan = makeFile({ id: 'p1', name: 'Plan.pdf' });
const bundle = makeFile({
  id: 'z1',
  name: 'Bundle.zip',
  extension: 'zip',
  content_type: 'application/zip',
});

function rendition(extra: Partial<FileRenditionDto>): FileRenditionDto {
  return {
    state: 'queued',
    reason: null,
    attempts: 0,
    pdf: false,
    text: false,
    thumbnail: false,
    page_count: null,
    recognized: false,
    job_id: null,
    ...extra,
  };
}

/** Renders the viewer slot at `route` over a folder listing `memo`, `plan` and `bundle`. */
function renderAt(route: string, routes: StubRoutes) {
  stubRoutes(routes);
  const releases: Array<() => void> = [];
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: '' }),
  );
  const entities = entitiesReducer(
    opened,
    entitiesActions.pageLoaded({ folderId: '', page: makePage([memo, bundle, plan]) }),
  );
  store = makeStore(
    { ...signedInState(), entities },
    {
      sagaContext: {
        [VIEWER_ENVIRONMENT]: {
          wait: () => new Promise<void>((resolve) => releases.push(resolve)),
        },
      },
    },
  );
  const view = renderWithProviders(
    <>
      <ViewerSlot />
      <AddressProbe />
    </>,
    { store, route },
  );
  return {
    ...view,
    next: () =>
      act(async () => {
        releases.shift()?.();
        await Promise.resolve();
      }),
  };
}

describe('the viewer', () => {
  it('shows "Preparing preview…" while the rendition is made, then the PDF without a reload', async () => {
    const answers = [
      rendition({ state: 'queued' }),
      rendition({ state: 'running', attempts: 1 }),
      rendition({ state: 'done', pdf: true, page_count: 2 }),
    ];
    const { next } = renderAt('/home?view=file:f1&page=2', {
      'GET /api/rest/files/f1': { body: memo },
      'GET /api/rest/files/f1/rendition': () => ({ body: answers.shift() }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Memo.docx' });
    expect(await screen.findByText(VIEWER_MESSAGES.preparing)).toBeInTheDocument();
    expect(screen.getByText(VIEWER_MESSAGES.queued)).toBeInTheDocument();
    await next();
    expect(await screen.findByText(/Converting \(attempt 2\)/)).toBeInTheDocument();
    await next();
    expect(await screen.findByTestId('pdf-view')).toHaveTextContent(
      '/api/rest/files/f1/preview page 2',
    );
    expect(screen.queryByText(VIEWER_MESSAGES.preparing)).not.toBeInTheDocument();
    expect(dialog).toContainElement(screen.getByRole('link', { name: 'Print Memo.docx' }));
    expect(screen.getByRole('link', { name: 'Print Memo.docx' })).toHaveAttribute(
      'href',
      '/api/rest/files/f1/print',
    );
  });

  it('says why the preview could not be made, with the install command of a missing tool', async () => {
    const reason =
      'LibreOffice not found (needed for …): apt-get install -y libreoffice-writer-nogui';
    renderAt('/home?view=file:f1', {
      'GET /api/rest/files/f1': { body: memo },
      'GET /api/rest/files/f1/rendition': {
        body: rendition({ state: 'failed', reason, attempts: 3 }),
      },
    });
    expect(await screen.findByText(VIEWER_MESSAGES.failed)).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/api/rest/files/f1/download',
    );
    expect(screen.queryByTestId('pdf-view')).not.toBeInTheDocument();
  });

  it('offers the download of a file nothing can show', async () => {
    renderAt('/home?view=file:z1', { 'GET /api/rest/files/z1': { body: bundle } });
    expect(await screen.findByText(VIEWER_MESSAGES.unsupported)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/api/rest/files/z1/download',
    );
    expect(screen.queryByRole('link', { name: 'Print Bundle.zip' })).not.toBeInTheDocument();
  });

  it("goes to the previous and next viewable file of the page's list, and closes with Escape", async () => {
    const user = userEvent.setup();
    renderAt('/home?sort=name&view=file:f1', {
      'GET /api/rest/files/f1': { body: memo },
      'GET /api/rest/files/f1/rendition': { body: rendition({ state: 'done', pdf: true }) },
      'GET /api/rest/files/p1': { body: plan },
    });
    await screen.findByTestId('pdf-view');
    expect(screen.getByRole('button', { name: 'Previous file' })).toBeDisabled();
    // The zip between them has no preview: the next file is the PDF.
    await user.click(screen.getByRole('button', { name: 'Next file' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/home?sort=name&view=file%3Ap1');
    expect(await screen.findByRole('dialog', { name: 'Plan.pdf' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('pdf-view')).toHaveTextContent('/api/rest/files/p1/preview page 1'),
    );
    expect(screen.getByRole('button', { name: 'Next file' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/home\?sort=name$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(store!.getState().viewer.fileId).toBeNull();
  });
});
