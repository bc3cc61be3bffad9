// The examiner's export in the client: the dialog of a folder's side panel (administrators only),
// the request it sends, the browser download of the answered link, the progress it follows until
// the export is done (with the manifest's sha256), failures, and the admin section's contact and
// date-range scopes.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type { CursorPage } from '@common/api';
import type { ExaminerExportDto } from '@common/examinerExport';
import { App } from '@src/app/App';
import { detailsActions } from '@src/features/details/detailsSlice';
import { ExaminerExportPage } from '@src/features/examinerExport/components/ExaminerExportPage';
import { rangeScope } from '@src/features/examinerExport/components/ExaminerExportForm';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFolder,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';
import { makeContact } from '../contacts/contactsFixtures';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): the app reads more than each
// test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

let store: AppStore | undefined;
let click: jest.SpiedFunction<() => void>;
beforeEach(() => {
  click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  click.mockRestore();
});

const empty: CursorPage<never> = {
  items: [],
  page: 1,
  page_size: 100,
  total: 0,
  next_cursor: null,
};
const clients = makeFolder({ id: 'f1', name: 'Clients' });
const SHA = 'a'.repeat(64);

/** An export as the server answers it. */
function exportDto(overrides: Partial<ExaminerExportDto> = {}): ExaminerExportDto {
  return {
    id: 'e1',
    status: 'ready',
    phase: null,
    url: null,
    expires_at: '2026-01-01T00:05:00.000Z',
    file_name: 'Examiner export - Clients - 2026-01-01.zip',
    scope: { kind: 'folder', folder_id: 'f1', path: 'Clients' },
    versions: 'newest',
    files_total: 2,
    bytes_total: 2048,
    events_total: 10,
    files_done: 0,
    bytes_done: 0,
    events_done: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    started_at: null,
    finished_at: null,
    manifest_sha256: null,
    error: null,
    ...overrides,
  };
}

function openPanel(extra: StubRoutes, user = makeUser()) {
  const stub = stubRoutes({
    'GET /api/rest/entities/favorites': { body: empty },
    'GET /api/rest/folders/f1': { body: clients },
    'GET /api/rest/folders/f1/breadcrumbs': {
      body: [{ id: 'f1', name: 'Clients', type: 'breadcrumb' }],
    },
    ...extra,
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<App />, { store, route: '/favorites' });
  act(() => {
    store!.dispatch(detailsActions.panelOpened({ id: 'f1', type: 'folder' }));
  });
  return stub;
}

/** The export dialog (antd names it by an id that is fixed in tests, so find it by its title). */
async function findDialog(): Promise<HTMLElement> {
  const title = await screen.findByText('Export for an examiner', { selector: '.ant-modal-title' });
  return title.closest('[role="dialog"]') as HTMLElement;
}

function button(container: HTMLElement, name: string | RegExp): HTMLElement {
  return within(container).getByRole('button', { name });
}

describe('the examiner export dialog of a folder', () => {
  it('is offered to administrators only', async () => {
    openPanel({}, makeUser({ currentDatabaseId: 'db2' }));
    const item = await screen.findByTestId('details-item');
    expect(within(item).getByRole('button', { name: 'History' })).toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: 'Export for examiner' })).toBeNull();
  });

  it('exports the folder: the request, the download, the progress, the manifest’s sha256', async () => {
    let polls = 0;
    const { calls } = openPanel({
      'POST /api/rest/examiner_exports': {
        status: 201,
        body: exportDto({ url: '/api/rest/examiner_exports/zip/tok1' }),
      },
      'GET /api/rest/examiner_exports/e1': () => {
        polls += 1;
        return {
          body:
            polls === 1
              ? exportDto({ status: 'running', phase: 'files', files_done: 1, bytes_done: 1024 })
              : exportDto({
                  status: 'done',
                  files_done: 2,
                  bytes_done: 2048,
                  events_done: 10,
                  manifest_sha256: SHA,
                }),
        };
      },
    });
    const user = userEvent.setup();
    const item = await screen.findByTestId('details-item');
    await user.click(button(item, 'Export for examiner'));
    const dialog = await findDialog();
    expect(
      within(dialog).getByRole('radio', { name: 'This folder, “Clients”, and everything in it' }),
    ).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: /Export$/ }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).getAttribute('href')).toBe(
      '/api/rest/examiner_exports/zip/tok1',
    );
    expect(callsTo(calls, 'POST /api/rest/examiner_exports')[0]!.body).toEqual({
      scope: { kind: 'folder', folder_id: 'f1' },
      versions: 'newest',
    });
    const status = within(dialog).getByRole('status');
    await within(status).findByText('Writing files: 1 of 2 files (1.0 KB of 2.0 KB)', undefined, {
      timeout: 4000,
    });
    expect(within(status).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    // No second export while this one runs.
    expect(within(dialog).getByRole('button', { name: /Export$/ })).toBeDisabled();
    await within(status).findByText(
      'Export complete: 2 files (2.0 KB) and 10 history events.',
      undefined,
      { timeout: 4000 },
    );
    expect(within(dialog).getByText(SHA)).toBeInTheDocument();
    expect(dialog).toHaveTextContent('npm run history:verify -- --export');
    // Polling stopped once done.
    const settled = polls;
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(polls).toBe(settled);
  }, 15_000);

  it('shows the server’s reason when the export cannot start', async () => {
    allowConsoleError(/Could not start|400/);
    openPanel({
      'POST /api/rest/examiner_exports': {
        status: 400,
        body: { message: 'Choose a folder, or export the whole firm.', code: 'root_folder' },
      },
    });
    const user = userEvent.setup();
    await user.click(button(await screen.findByTestId('details-item'), 'Export for examiner'));
    const dialog = await findDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'The whole firm' }));
    await user.click(within(dialog).getByRole('button', { name: /Export$/ }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not start the export. Choose a folder, or export the whole firm.',
    );
    expect(click).not.toHaveBeenCalled();
  });
});

describe('Admin → Examiner export', () => {
  function showPage(routes: StubRoutes) {
    const stub = stubRoutes(routes);
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<ExaminerExportPage />, { store });
    return stub;
  }

  it('exports a contact’s folders with every version, the contact chosen by a search', async () => {
    const { calls } = showPage({
      'POST /api/rest/private/contacts/search': { body: { items: [makeContact()] } },
      'POST /api/rest/examiner_exports': {
        status: 201,
        body: exportDto({ url: '/api/rest/examiner_exports/zip/tok2' }),
      },
      'GET /api/rest/examiner_exports/e1': { body: exportDto({ status: 'running' }) },
    });
    const user = userEvent.setup();
    const page = screen.getByRole('region', { name: 'Examiner export' });
    expect(within(page).queryByRole('radio', { name: /This folder/ })).toBeNull();
    const exportButton = within(page).getByRole('button', { name: /Export$/ });
    expect(exportButton).toBeDisabled();
    await user.type(within(page).getByRole('combobox', { name: 'Contact' }), 'Gra');
    await user.click(await screen.findByText('Grace Hopper', { exact: false }));
    await user.click(within(page).getByRole('radio', { name: 'Every version of each file' }));
    await user.click(exportButton);
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/examiner_exports')[0]?.body).toEqual({
        scope: { kind: 'contact', contact_id: makeContact().id },
        versions: 'all',
      }),
    );
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
  });

  it('turns the chosen days into a range of whole local days, the last one included', () => {
    const scope = rangeScope(dayjs('2026-01-01'), dayjs('2026-03-31'));
    expect(scope).toEqual({
      kind: 'date_range',
      start: dayjs('2026-01-01').startOf('day').toISOString(),
      end: dayjs('2026-04-01').startOf('day').toISOString(),
    });
  });

  it('offers the date range with two day fields and refuses an inverted one', async () => {
    showPage({});
    const user = userEvent.setup();
    const page = screen.getByRole('region', { name: 'Examiner export' });
    await user.click(
      within(page).getByRole('radio', {
        name: 'Files created or changed, and history, in a date range',
      }),
    );
    const from = within(page).getByLabelText('From');
    const to = within(page).getByLabelText('To (included)');
    await user.click(from);
    await user.type(from, '2026-03-10{Enter}');
    await user.click(to);
    await user.type(to, '2026-03-01{Enter}');
    expect(await within(page).findByRole('alert')).toHaveTextContent(
      'The last day must not be before the first.',
    );
    expect(within(page).getByRole('button', { name: /Export$/ })).toBeDisabled();
  });
});
