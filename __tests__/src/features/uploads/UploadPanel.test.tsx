import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { duplicateMessage, fileTooLargeMessage } from '@common/files';
import { MAX_FILE_SIZE_BYTES } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { tooManyFilesMessage } from '@common/uploads';
import { UploadPanel } from '@src/features/uploads/components/UploadPanel';
import { UPLOAD_PANEL_SPACE_PROPERTY } from '@src/features/uploads/components/useReservedSpace';
import {
  initialUploadsState,
  uploadsActions,
  uploadsReducer,
  type UploadsState,
} from '@src/features/uploads/uploadsSlice';
import { setUploader } from '@src/features/uploads/uppyClient';
import { makeStore, type AppStore } from '@src/store/store';
import { makeFile, renderWithProviders, signedInState } from '../../testUtils';
import { FakeUploader } from './fakeUploader';

function uploads(...steps: Parameters<typeof uploadsReducer>[1][]): UploadsState {
  return steps.reduce(uploadsReducer, initialUploadsState);
}

const added = uploadsActions.filesAdded({
  folderId: '',
  files: [
    { id: 'u1', name: 'done.pdf', size: 1000 },
    { id: 'u2', name: 'running.pdf', size: 1000 },
    { id: 'u3', name: 'broken.pdf', size: 1000 },
    { id: 'u4', name: 'waiting.pdf', size: 1000 },
  ],
  invalid: [
    {
      id: 'i1',
      name: 'huge.mov',
      size: 200_000_000,
      reason: 'huge.mov exceeds maximum allowed size of 100.0 MB.',
    },
  ],
});
const running = uploads(
  added,
  uploadsActions.fileRecorded({ id: 'u1', file: makeFile({ name: 'done.pdf' }) }),
  uploadsActions.progressReported({ id: 'u2', bytesUploaded: 250, bytesTotal: 1000, at: 1_000 }),
  uploadsActions.progressReported({ id: 'u2', bytesUploaded: 450, bytesTotal: 1000, at: 2_000 }),
  uploadsActions.fileFailed({
    id: 'u3',
    message: 'Failed to upload broken.pdf.',
    detail: 'S3 returned 500',
  }),
);

describe('UploadPanel', () => {
  let store: AppStore;
  afterEach(() => {
    store.sagaTask.cancel();
    setUploader(null);
  });

  function renderPanel(state: UploadsState) {
    setUploader(new FakeUploader());
    store = makeStore({ ...signedInState(), uploads: state });
    return renderWithProviders(<UploadPanel />, { store });
  }

  it('says the name a file was saved under when a file of its name was there', () => {
    renderPanel(
      uploads(
        uploadsActions.filesAdded({
          folderId: '',
          files: [{ id: 's1', name: 'smile.png', size: 10 }],
          invalid: [],
        }),
        uploadsActions.fileRecorded({ id: 's1', file: makeFile({ name: 'smile (1).png' }) }),
      ),
    );
    const row = screen.getByTestId('upload-row');
    expect(row).toHaveTextContent('Complete · saved as smile (1).png');
  });

  it('is hidden until files are added', () => {
    renderPanel(initialUploadsState);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('lists the refused files first with their reason, then each file with its status', () => {
    renderPanel(running);
    const panel = screen.getByRole('region', { name: 'Uploading files' });
    const rows = within(panel).getAllByTestId('upload-row');
    expect(rows.map((row) => row.getAttribute('data-status'))).toEqual([
      'invalid',
      'complete',
      'uploading',
      'failed',
      'queued',
    ]);
    expect(
      within(rows[0]!).getByText('huge.mov exceeds maximum allowed size of 100.0 MB.'),
    ).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Complete')).toBeInTheDocument();
    expect(within(rows[2]!).getByText(/Uploading… 45%/)).toBeInTheDocument();
    // 200 bytes in 1 s: 0.2 KB/s, 550 bytes left: 3 s.
    expect(within(rows[2]!).getByTestId('upload-speed')).toHaveTextContent('0.2 KB/s · 3 s left');
    // In all: the running file's 550 bytes and the queued file's 1000 bytes at 200 bytes/s.
    expect(within(panel).getByTestId('upload-total-speed')).toHaveTextContent(
      '0.2 KB/s · 8 s left',
    );
    expect(within(rows[2]!).getByRole('progressbar')).toBeInTheDocument();
    expect(within(rows[3]!).getByText(/Failed to upload broken\.pdf\./)).toBeInTheDocument();
    expect(within(rows[3]!).getByText(/S3 returned 500/)).toBeInTheDocument();
    expect(within(rows[4]!).getByText('Queued')).toBeInTheDocument();
    expect(
      within(panel).getByText('1 of 4 files uploaded · 1 failed · 1 not added'),
    ).toBeInTheDocument();
  });

  it('shows the refusals first in their own section, summarised in the header', async () => {
    const user = userEvent.setup();
    const refusals = [
      {
        id: 'i1',
        name: 'huge.mov',
        size: 200_000_000,
        reason: fileTooLargeMessage('huge.mov', 200_000_000, MAX_FILE_SIZE_BYTES),
      },
      { id: 'i2', name: 'résumé€.pdf', size: 10, reason: MESSAGES.invalidFileName },
      { id: 'i3', name: 'a.pdf', size: 10, reason: duplicateMessage('a.pdf') },
      { id: 'i4', name: 'b.pdf', size: 10, reason: tooManyFilesMessage(100) },
    ];
    renderPanel(
      uploads(
        uploadsActions.filesAdded({
          folderId: '',
          files: [{ id: 'u1', name: 'a.pdf', size: 10 }],
          invalid: [],
        }),
        uploadsActions.fileRecorded({ id: 'u1', file: makeFile({ name: 'a.pdf' }) }),
        uploadsActions.filesAdded({ folderId: '', files: [], invalid: refusals }),
      ),
    );
    const panel = screen.getByRole('region', { name: 'Uploads' });
    // The header says how many were not added.
    expect(within(panel).getByRole('banner')).toHaveTextContent('4 files not added');
    // The refusals section comes before the accepted files, each refusal with its message.
    const section = within(panel).getByRole('region', { name: 'These files were not added' });
    const files = within(panel).getByRole('list', { name: 'Files' });
    expect(section.compareDocumentPosition(files) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const refused = within(section).getAllByRole('listitem');
    expect(refused.map((row) => row.getAttribute('data-name'))).toEqual(
      refusals.map((r) => r.name),
    );
    refusals.forEach((r, i) => expect(refused[i]).toHaveTextContent(r.reason));
    expect(within(panel).getByText('1 of 1 file uploaded · 4 not added')).toBeInTheDocument();
    // Dismissing them clears the invalid list; the finished file stays.
    await user.click(within(section).getByRole('button', { name: 'Dismiss the files not added' }));
    expect(store.getState().uploads.invalid).toEqual([]);
    expect(within(panel).queryByText(/not added/)).not.toBeInTheDocument();
    expect(within(panel).getByText('1 of 1 file uploaded')).toBeInTheDocument();
  });

  it('keeps the room the panel takes free at the bottom of the page, open and minimised', async () => {
    const user = userEvent.setup();
    const root = document.documentElement;
    const rect = jest
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockImplementation(function (this: HTMLElement) {
        const height = this.classList.contains('upload-pill') ? 40 : 400;
        const top = window.innerHeight - 24 - height;
        return {
          top,
          height,
          bottom: top + height,
          left: 0,
          right: 0,
          width: 0,
          x: 0,
          y: top,
        } as DOMRect;
      });
    try {
      renderPanel(running);
      // Open: 400 px of panel, 24 px below it, 8 px of gap.
      expect(root.style.getPropertyValue(UPLOAD_PANEL_SPACE_PROPERTY)).toBe('432px');
      await user.click(screen.getByRole('button', { name: 'Minimize uploads' }));
      expect(screen.getByTestId('upload-panel')).toHaveAttribute('data-panel', 'minimized');
      expect(root.style.getPropertyValue(UPLOAD_PANEL_SPACE_PROPERTY)).toBe('72px');
      await user.click(screen.getByRole('button', { name: 'Show uploads' }));
      expect(root.style.getPropertyValue(UPLOAD_PANEL_SPACE_PROPERTY)).toBe('432px');
      await user.click(screen.getByRole('button', { name: 'Cancel all uploads' }));
      await user.click(screen.getByRole('button', { name: 'Close uploads' }));
      // Hidden: no room kept.
      expect(root.style.getPropertyValue(UPLOAD_PANEL_SPACE_PROPERTY)).toBe('');
    } finally {
      rect.mockRestore();
    }
  });

  it('can be minimised and reopened', async () => {
    const user = userEvent.setup();
    renderPanel(running);
    await user.click(screen.getByRole('button', { name: 'Minimize uploads' }));
    expect(store.getState().uploads.panel).toBe('minimized');
    expect(screen.queryAllByTestId('upload-row')).toHaveLength(0);
    expect(screen.getByText('1 of 4 files uploaded · 1 failed · 1 not added')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show uploads' }));
    expect(screen.getAllByTestId('upload-row')).toHaveLength(5);
  });

  it('retries and cancels one file, and retries all failed files', async () => {
    const user = userEvent.setup();
    const failedToo = uploads(
      added,
      uploadsActions.fileFailed({ id: 'u3', message: 'Failed to upload broken.pdf.', detail: 'x' }),
      uploadsActions.fileFailed({
        id: 'u4',
        message: 'Failed to upload waiting.pdf.',
        detail: 'y',
      }),
    );
    renderPanel(failedToo);
    await user.click(screen.getByRole('button', { name: 'Retry broken.pdf' }));
    expect(store.getState().uploads.files[2]!.status).toBe('queued');
    await user.click(screen.getByRole('button', { name: 'Cancel running.pdf' }));
    expect(store.getState().uploads.files[1]!.status).toBe('cancelled');
    expect(screen.queryByRole('button', { name: 'Retry running.pdf' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry all uploads' }));
    expect(store.getState().uploads.files[3]!.status).toBe('queued');
    expect(screen.queryByRole('button', { name: 'Retry all uploads' })).not.toBeInTheDocument();
  });

  it('says "No Internet connection." while offline and shows waiting files', () => {
    renderPanel(
      uploads(added, uploadsActions.connectionLost(), uploadsActions.fileWaiting({ id: 'u2' })),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('No Internet connection.');
    expect(screen.getByText('Waiting for the connection… 0%')).toBeInTheDocument();
  });

  it('cancels running uploads', async () => {
    const user = userEvent.setup();
    renderPanel(running);
    expect(screen.queryByRole('button', { name: 'Close uploads' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel all uploads' }));
    // Failed files are cancelled too (their pending uploads are discarded); finished ones stay.
    expect(store.getState().uploads.files.map((file) => file.status)).toEqual([
      'complete',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(store.getState().uploads.cancelled).toBe(true);
  });

  it('closes (and resets) once nothing runs', async () => {
    const user = userEvent.setup();
    renderPanel(uploads(added, uploadsActions.cancelAllRequested()));
    expect(screen.getByRole('heading', { name: 'Uploads' })).toBeInTheDocument();
    expect(screen.getByText('Uploads cancelled.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close uploads' }));
    expect(store.getState().uploads).toEqual(initialUploadsState);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('asks the browser to confirm leaving while uploads run, and not after', () => {
    const { unmount } = renderPanel(running);
    const whileRunning = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(whileRunning);
    expect(whileRunning.defaultPrevented).toBe(true);
    unmount();
    store.sagaTask.cancel();

    renderPanel(uploads(added, uploadsActions.cancelAllRequested()));
    const afterwards = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(afterwards);
    expect(afterwards.defaultPrevented).toBe(false);
  });
});
