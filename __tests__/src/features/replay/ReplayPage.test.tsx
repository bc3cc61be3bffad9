// The Replay page inside the app, the api stubbed: the banner naming the moment, the list as it
// was, stepping with the arrow keys and the buttons (the address follows, so a reload shows the
// same step), the highlights of each entry, archived items on request, "did not exist yet",
// "Back to now", the case file dialog and its printable page, and the entry points (History
// entries, the folder toolbar).
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyReplayState } from '@common/replay';
import { REPLAY_CHANGE_LABELS, REPLAY_MESSAGES } from '@common/replayViews';
import { FolderToolbar } from '@src/features/entities/components/FolderToolbar';
import { HistoryRowView } from '@src/features/history/components/HistoryRowView';
import { initialHistoryState } from '@src/features/history/historySlice';
import { formatMoment } from '@src/features/replay/replayTexts';
import type { AppStore } from '@src/store/store';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';
import {
  AddressProbe,
  callsTo,
  makeEvent,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';
import { renderAppAt } from '../../renderAppAt';
import { ENTRY_EVENTS, makeCaseFile, makeReplayEvent, makeView } from './replayFixtures';

const VIEW_ROUTE = 'GET /api/rest/replay/folders/f1';
const CASE_FILE_ROUTE = 'GET /api/rest/replay/folders/f1/case_file';

// The shell reads more than each test stubs (routes answer 404 "Not found.").
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

/** The list's rows by their text. */
function rows(): HTMLElement[] {
  return screen.queryAllByTestId('replay-row');
}

function row(name: string): HTMLElement {
  const found = rows().find((r) => within(r).queryByText(name, { exact: true }));
  if (!found) throw new Error(`No row ${name}`);
  return found;
}

/** The current timeline entry's button. */
function currentEntry(): HTMLElement {
  const timeline = screen.getByRole('region', { name: 'Timeline' });
  const current = within(timeline)
    .getAllByRole('button')
    .find((button) => button.getAttribute('aria-current') === 'step');
  if (!current) throw new Error('No current entry');
  return current;
}

describe('Replay page', () => {
  it('shows the folder as it was, steps with the arrow keys and highlights each change', async () => {
    const { calls } = renderAppAt('/replay/f1?event=e5', {
      [VIEW_ROUTE]: { body: makeView() },
    });
    const user = userEvent.setup();
    const banner = await screen.findByText(
      `Viewing Clients as of ${formatMoment(ENTRY_EVENTS[4]!.created_at)}`,
    );
    expect(banner).toBeInTheDocument();
    expect(callsTo(calls, VIEW_ROUTE)[0]?.url).toBe('/api/rest/replay/folders/f1?event=e5');
    expect(screen.getByRole('heading', { level: 1, name: 'Clients' })).toBeInTheDocument();
    // Now: Letter.pdf moved out, Tax archived (hidden), the last entry a legacy one.
    expect(rows().map((r) => r.textContent)).toEqual([
      expect.stringContaining('Statement 2024.pdf'),
    ]);
    expect(currentEntry()).toHaveTextContent('Folder tidied up (imported entry)');
    expect(screen.getAllByText(REPLAY_MESSAGES.legacy).length).toBeGreaterThan(0);

    await user.keyboard('{ArrowLeft}');
    expect(currentEntry()).toHaveTextContent('Ada Lovelace moved file');
    const changed = screen.getByRole('list', { name: 'What it changed' });
    expect(changed).toHaveTextContent(`Letter.pdf: ${REPLAY_CHANGE_LABELS.moved_out}`);
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1?event=e4');

    await user.keyboard('{ArrowUp}');
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1?event=e3');
    expect(rows().map((r) => within(r).getAllByText(/\.pdf$/)[0]?.textContent)).toEqual([
      'Letter.pdf',
      'Statement 2024.pdf',
    ]);
    await user.click(screen.getByRole('switch'));
    expect(screen.getByTestId('location')).toHaveTextContent('event=e3&archived=1');
    const tax = row('Tax');
    expect(within(tax).getByText(REPLAY_CHANGE_LABELS.archived)).toBeInTheDocument();
    expect(within(tax).getByText('In archive')).toBeInTheDocument();
    expect(tax).toHaveAttribute('data-changed', 'true');

    await user.click(screen.getByRole('button', { name: /Previous/ }));
    expect(within(row('Statement 2024.pdf')).getByText(REPLAY_CHANGE_LABELS.renamed)).toBeVisible();
    expect(row('Tax')).not.toHaveAttribute('data-changed');

    await user.keyboard('{ArrowLeft}');
    expect(within(row('Letter.pdf')).getByText(REPLAY_CHANGE_LABELS.added)).toBeVisible();
    expect(screen.getByText('Statement.pdf')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(screen.getByTestId('location')).toHaveTextContent('event=e3');
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('event=e4');
    // The steps were all inside the window: one read.
    expect(callsTo(calls, VIEW_ROUTE)).toHaveLength(1);

    // The details of the selected file as it was.
    await user.click(screen.getByRole('button', { name: 'Statement 2024.pdf' }));
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByRole('heading', { name: 'Statement 2024.pdf' })).toBeVisible();
    expect(details).toHaveTextContent('Version 1 · 2.0 KB');

    await user.click(screen.getByRole('button', { name: 'Back to now' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/home\/folders\/f1$/);
  });

  it('leaves the arrow keys to text fields', async () => {
    renderAppAt('/replay/f1?event=e3', { [VIEW_ROUTE]: { body: makeView({ position: 2 }) } });
    const user = userEvent.setup();
    await screen.findByText(/Viewing Clients as of/);
    await user.click(screen.getByLabelText('Moment'));
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1?event=e3');
  });

  it('reads the moment of an as_of address and names that time', async () => {
    const asOf = '2024-03-05T10:01:30.000Z';
    const { calls } = renderAppAt(`/replay/f1?as_of=${encodeURIComponent(asOf)}`, {
      [VIEW_ROUTE]: { body: makeView({ position: 1 }) },
    });
    expect(await screen.findByText(`Viewing Clients as of ${formatMoment(asOf)}`)).toBeVisible();
    expect(callsTo(calls, VIEW_ROUTE)[0]?.url).toBe(
      `/api/rest/replay/folders/f1?as_of=${encodeURIComponent(asOf)}`,
    );
  });

  it('says when the folder did not exist yet, and the timeline still steps', async () => {
    const created = makeReplayEvent({ id: 'c1', seq: 5, created_at: '2024-03-01T09:00:00.000Z' });
    const view = makeView({
      base: emptyReplayState(),
      entries: [{ event: created, enters: [] }],
      position: -1,
      moment: { event_id: null, at: null },
    });
    renderAppAt('/replay/f1?before_event=c1', { [VIEW_ROUTE]: { body: view } });
    const user = userEvent.setup();
    expect(await screen.findByText(REPLAY_MESSAGES.notYet)).toBeVisible();
    await user.keyboard('{ArrowRight}');
    expect(screen.queryByText(REPLAY_MESSAGES.notYet)).toBeNull();
    expect(screen.getByText('This folder was empty at this moment.')).toBeVisible();
    expect(within(currentEntry()).getByText(/added folder/)).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1?event=c1');
  });

  it('tags items destroyed since, and shows the viewer’s favourite', async () => {
    const view = makeView({ position: 1, destroyed_since: { a: '2024-04-01T00:00:00.000Z' } });
    view.base.items.a!.favorites = ['u1'];
    renderAppAt('/replay/f1?event=e2', { [VIEW_ROUTE]: { body: view } });
    await screen.findByText(/Viewing Clients as of/);
    const statement = row('Statement 2024.pdf');
    expect(within(statement).getByText('Deleted since')).toBeVisible();
    expect(within(statement).getByRole('img', { name: 'Favorite' })).toBeVisible();
  });

  it('opens a sub-folder within the replayed subtree, kept in the address', async () => {
    renderAppAt('/replay/f1?event=e2', { [VIEW_ROUTE]: { body: makeView({ position: 1 }) } });
    const user = userEvent.setup();
    await screen.findByText(/Viewing Clients as of/);
    await user.click(screen.getByRole('link', { name: 'Tax' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1?event=e2&folder=s');
    expect(screen.getByRole('heading', { level: 1, name: 'Tax' })).toBeVisible();
    const crumbs = screen.getByRole('navigation', { name: 'Folder path as it was' });
    expect(within(crumbs).getByRole('link', { name: 'Clients' })).toBeVisible();
    // Stepping keeps the level.
    await user.keyboard('{ArrowRight}');
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1?event=e3&folder=s');
  });

  it('makes the case file: the CSV download, and the printable page that prints', async () => {
    const { calls } = renderAppAt('/replay/f1?event=e5', {
      [VIEW_ROUTE]: { body: makeView() },
      [CASE_FILE_ROUTE]: (call) =>
        call.url.includes('format=csv')
          ? {
              text: 'event_id,at\r\n',
              headers: { 'Content-Disposition': 'attachment; filename="case-file_Clients.csv"' },
            }
          : { body: makeCaseFile() },
    });
    const user = userEvent.setup();
    await screen.findByText(/Viewing Clients as of/);
    await user.click(screen.getByRole('button', { name: 'Case file' }));
    // (Under jsdom antd gives every generated id the same value, so the dialog's name, which
    // points at its title by id, is looked for in its text instead.)
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Case file')).toBeVisible();
    const createObjectURL = jest.fn(() => 'blob:case-file');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const saved: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(`${this.download} ${this.getAttribute('href')}`);
    });
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
      await waitFor(() => expect(saved).toEqual(['case-file_Clients.csv blob:case-file']));
    } finally {
      click.mockRestore();
    }
    const csvCalls = callsTo(calls, CASE_FILE_ROUTE).filter((c) => c.url.includes('format=csv'));
    expect(csvCalls).toHaveLength(1);
    expect(csvCalls[0]!.url).toMatch(
      /^\/api\/rest\/replay\/folders\/f1\/case_file\?from=2024-03-05T09%3A59%3A59\.999Z&to=.+&format=csv$/,
    );
    // Saved: the dialog closes.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Case file' }));
    dialog = await screen.findByRole('dialog');
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    await user.click(within(dialog).getByRole('button', { name: 'Printable page' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Case file: Clients' }),
    ).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1/case-file?from=');
    const jsonCalls = callsTo(calls, CASE_FILE_ROUTE).filter((c) => c.url.includes('format=json'));
    expect(jsonCalls).toHaveLength(1);
    const events = screen.getByRole('table', { name: 'Events' });
    expect(events).toHaveTextContent('Statement 2024.pdf: Renamed');
    expect(screen.getByRole('table', { name: /At the end/ })).toHaveTextContent('Client ID: 42');
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
  });
});

describe('case file refusals', () => {
  it('shows the server’s refusal of the CSV in the dialog, which stays open', async () => {
    renderAppAt('/replay/f1?event=e5', {
      [VIEW_ROUTE]: { body: makeView() },
      [CASE_FILE_ROUTE]: {
        status: 400,
        body: { message: REPLAY_MESSAGES.tooManyEvents, code: 'too_many_events' },
      },
    });
    const user = userEvent.setup();
    await screen.findByText(/Viewing Clients as of/);
    await user.click(screen.getByRole('button', { name: 'Case file' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      REPLAY_MESSAGES.tooManyEvents,
    );
    expect(screen.getByRole('dialog')).toBeVisible();
  });
});

describe('entry points', () => {
  it('links a History entry about a folder or a file to its folder’s past', () => {
    const folderEvent = makeEvent({ id: 'h1', entity_type: 'folder', entity_id: 'f9' });
    const fileEvent = makeEvent({
      id: 'h2',
      entity_type: 'file',
      entity_id: 'file1',
      attributes: { name: 'a.pdf', parent: { id: '', name: 'Root' } },
    });
    const login = makeEvent({ id: 'h3', entity_type: 'user', action: 'login', attributes: {} });
    const recording = makeRecordingStore({
      ...signedInState(),
      history: { ...initialHistoryState, events: [folderEvent, fileEvent, login] },
    });
    store = recording.store;
    const row = (id: string) => ({
      id,
      summary: `Entry ${id}`,
      detail: '',
      icon: 'add' as const,
      date: '2024-03-05T14:07:00.000Z',
      dateText: '',
    });
    renderWithProviders(
      <>
        <HistoryRowView row={row('h1')} />
        <HistoryRowView row={row('h2')} />
        <HistoryRowView row={row('h3')} />
      </>,
      { store },
    );
    const links = screen.getAllByRole('link', { name: /View as of…/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/replay/f9?event=h1',
      '/replay/root?event=h2',
    ]);
  });

  it('opens the Replay page from the folder toolbar', async () => {
    stubRoutes({});
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(
      <>
        <FolderToolbar folderId="f1" />
        <AddressProbe />
      </>,
      { store, route: '/home/folders/f1' },
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'View as of…' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/replay/f1'));
  });
});
