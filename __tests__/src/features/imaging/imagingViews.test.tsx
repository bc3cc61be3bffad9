/**
 * The details panel's "Preview and text" section (every state, the install command of a missing
 * tool, Retry for administrators only) and the admin area's "Document imaging" section (tools,
 * missing languages, counts, failures with Retry, refresh).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileRenditionDto, ImagingStatusDto } from '@common/imaging';
import { ImagingStatusPage } from '@src/features/imaging/components/ImagingStatusPage';
import {
  PREVIEW_STATE_TEXT,
  PreviewTextSection,
  splitInstallCommand,
} from '@src/features/imaging/components/PreviewTextSection';
import { makeStore, type AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';

const MISSING =
  'LibreOffice not found (needed for PDF renditions of office documents, HTML, SVG and other ' +
  'images): apt-get install -y libreoffice-writer-nogui';

function rendition(overrides: Partial<FileRenditionDto>): FileRenditionDto {
  return {
    state: 'done',
    job_id: 'j1',
    reason: null,
    attempts: 1,
    pdf: true,
    text: true,
    thumbnail: true,
    page_count: 3,
    recognized: false,
    ...overrides,
  };
}

const file = makeFile({ id: 'd1', name: 'Minutes.docx', extension: 'docx' });
const RENDITION = 'GET /api/rest/files/d1/rendition';
const RETRY = 'POST /api/rest/private/imaging/jobs/j1/retry';

/** A member of the firm (not an administrator). */
const member = makeUser({
  databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'member' }],
});

describe('Preview and text section', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  const show = (answer: FileRenditionDto, user = makeUser()) => {
    const stub = stubRoutes({ [RENDITION]: { body: answer } });
    store = makeStore(signedInState(user));
    renderWithProviders(<PreviewTextSection entity={file} />, { store });
    return stub;
  };

  it('says the preview is ready and how the text was got, with its pages', async () => {
    show(rendition({ recognized: true, page_count: 3 }));
    expect(await screen.findByText(PREVIEW_STATE_TEXT.done)).toBeInTheDocument();
    expect(screen.getByText('Text recognised (OCR), 3 pages')).toBeInTheDocument();
  });

  it('says text was extracted from a one-page document', async () => {
    show(rendition({ page_count: 1 }));
    expect(await screen.findByText('Text extracted, 1 page')).toBeInTheDocument();
  });

  it('says a preview is being prepared while the job waits or runs', async () => {
    show(rendition({ state: 'running', pdf: false, text: false, page_count: null }));
    expect(await screen.findByText(PREVIEW_STATE_TEXT.preparing)).toBeInTheDocument();
    expect(screen.queryByText(/^Text /)).toBeNull();
  });

  it("says a video's derivation is its thumbnail (or that none could be made)", async () => {
    show(rendition({ pdf: false, text: false, thumbnail: true, page_count: null }));
    expect(await screen.findByText(PREVIEW_STATE_TEXT.thumbnailOnly)).toBeInTheDocument();
    expect(screen.queryByText(PREVIEW_STATE_TEXT.done)).toBeNull();
  });

  it('says no thumbnail could be made of a video without a picture', async () => {
    show(rendition({ pdf: false, text: false, thumbnail: false, page_count: null }));
    expect(await screen.findByText(PREVIEW_STATE_TEXT.nothingMade)).toBeInTheDocument();
  });

  it('says no preview is made for a type imaging does not handle', async () => {
    show(rendition({ state: 'unsupported', job_id: null, pdf: false, text: false }));
    expect(await screen.findByText(PREVIEW_STATE_TEXT.unsupported)).toBeInTheDocument();
  });

  it('shows why it failed with the install command, and Retry for an administrator', async () => {
    const { calls } = show(
      rendition({ state: 'failed', reason: MISSING, pdf: false, text: false, page_count: null }),
    );
    expect(await screen.findByText(PREVIEW_STATE_TEXT.failed)).toBeInTheDocument();
    expect(screen.getByText('apt-get install -y libreoffice-writer-nogui').tagName).toBe('CODE');
    stubRoutes({
      [RETRY]: { body: rendition({ state: 'queued', pdf: false, text: false, attempts: 0 }) },
    });
    await userEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText(PREVIEW_STATE_TEXT.preparing)).toBeInTheDocument();
    expect(callsTo(calls, RENDITION).length).toBeGreaterThanOrEqual(1);
  });

  it('offers no Retry to a member', async () => {
    show(
      rendition({ state: 'failed', reason: 'pdftoppm could not render the first page' }),
      member,
    );
    expect(await screen.findByText(PREVIEW_STATE_TEXT.failed)).toBeInTheDocument();
    expect(screen.getByText('pdftoppm could not render the first page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
  });

  it('splits a missing tool message from its install command', () => {
    expect(splitInstallCommand(MISSING)).toEqual({
      message:
        'LibreOffice not found (needed for PDF renditions of office documents, HTML, SVG and ' +
        'other images)',
      command: 'apt-get install -y libreoffice-writer-nogui',
    });
    expect(splitInstallCommand('Password-protected')).toEqual({
      message: 'Password-protected',
      command: null,
    });
  });
});

describe('Document imaging admin section', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  const status: ImagingStatusDto = {
    tools: [
      {
        command: 'pdftotext',
        label: 'Poppler (pdftotext)',
        purpose: 'the text layer of PDFs',
        path: '/usr/bin/pdftotext',
        install: null,
      },
      {
        command: 'ocrmypdf',
        label: 'OCRmyPDF',
        purpose: 'text recognition',
        path: null,
        install: 'apt-get install -y ocrmypdf',
      },
      {
        command: 'ffmpeg',
        label: 'FFmpeg',
        purpose: 'thumbnails of videos (a frame)',
        path: null,
        install: 'apt-get install -y ffmpeg',
      },
    ],
    missing_languages: ['deu'],
    install_languages: 'apt-get install -y tesseract-ocr-deu',
    concurrency: 1,
    jobs: { queued: 2, running: 1, done: 40, failed: 1 },
    failed: [
      {
        job_id: 'j1',
        file_id: 'd1',
        file_name: 'Minutes.docx',
        attempts: 5,
        reason: MISSING,
        failed_at: '2024-03-05T14:07:00.000Z',
      },
    ],
  };

  it('lists tools, languages, counts and failures, and retries one', async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/private/imaging/status': { body: status },
      [RETRY]: { body: rendition({ state: 'queued', attempts: 0 }) },
    });
    store = makeStore(signedInState());
    renderWithProviders(<ImagingStatusPage />, { store });
    const tools = await screen.findAllByTestId('imaging-tool');
    expect(tools.map((tool) => tool.dataset.found)).toEqual(['true', 'false', 'false']);
    expect(within(tools[1]!).getByText('apt-get install -y ocrmypdf')).toBeInTheDocument();
    expect(tools[2]).toHaveTextContent('FFmpeg');
    expect(within(tools[2]!).getByText('apt-get install -y ffmpeg')).toBeInTheDocument();
    expect(screen.getByText('OCR languages without data: deu')).toBeInTheDocument();
    expect(screen.getByText('apt-get install -y tesseract-ocr-deu')).toBeInTheDocument();
    expect(screen.getByTestId('imaging-count-queued')).toHaveTextContent('Waiting: 2');
    expect(screen.getByTestId('imaging-count-failed')).toHaveTextContent('Failed: 1');
    const failed = screen.getByTestId('imaging-failed-job');
    expect(failed).toHaveTextContent('Minutes.docx');

    await userEvent.click(within(failed).getByRole('button', { name: 'Retry Minutes.docx' }));
    await waitFor(() => expect(screen.queryByTestId('imaging-failed-job')).toBeNull());
    expect(callsTo(calls, RETRY)).toHaveLength(1);
    expect(screen.getByTestId('imaging-count-failed')).toHaveTextContent('Failed: 0');
    expect(screen.getByTestId('imaging-count-queued')).toHaveTextContent('Waiting: 3');

    await userEvent.click(screen.getByRole('button', { name: /Refresh/ }));
    await waitFor(() =>
      expect(callsTo(calls, 'GET /api/rest/private/imaging/status')).toHaveLength(2),
    );
  });
});
