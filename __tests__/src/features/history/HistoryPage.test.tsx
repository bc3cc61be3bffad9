import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { datePresetRange } from '@common/history';
import type { HistoryEventDto, HistoryPageDto, HistoryStatsDto } from '@common/history';
import { App } from '@src/app/App';
import { EntityHistoryDrawer } from '@src/features/history/components/EntityHistoryDrawer';
import { historyActions } from '@src/features/history/historySlice';
import type { AppStore } from '@src/store/store';
import {
  AddressProbe,
  callsTo,
  makeEvent,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';

function historyPage(
  items: HistoryEventDto[],
  page = 1,
  nextCursor: string | null = null,
): HistoryPageDto {
  return {
    items,
    page,
    page_size: 50,
    total: items.length,
    total_exact: true,
    next_cursor: nextCursor,
  };
}

const STATS: HistoryStatsDto = {
  start: '2024-05-01T00:00:00.000Z',
  end: '2024-05-04T00:00:00.000Z',
  time_zone: 'UTC',
  total: 4,
  days: [
    { date: '2024-05-01', count: 1 },
    { date: '2024-05-02', count: 0 },
    { date: '2024-05-03', count: 3 },
  ],
  types: [
    { label: 'Added', count: 3 },
    { label: 'Log in', count: 1 },
    { label: 'Renamed', count: 0 },
    { label: 'Other', count: 0 },
  ],
  labels: [],
};

const routes = (extra: StubRoutes = {}): StubRoutes => ({
  'POST /api/rest/history': {
    body: historyPage([
      makeEvent({
        id: 'e2',
        entity_type: 'file',
        action: 'create',
        attributes: { name: 'Statement.pdf', parent: { id: 'f1', name: 'Clients' } },
        created_at: '2024-03-06T10:00:00.000Z',
      }),
      makeEvent({ id: 'e1', entity_type: 'user', action: 'login', attributes: {} }),
    ]),
  },
  'GET /api/rest/history/stats': { body: STATS },
  'GET /api/rest/history/users': {
    body: [
      { id: 'u1', name: 'Ada Lovelace' },
      { id: 'u2', name: 'Grace Hopper' },
    ],
  },
  ...extra,
});

describe('HistoryPage', () => {
  let store: AppStore;
  afterEach(() => {
    store.sagaTask.cancel();
  });

  function renderHistory(route = '/history') {
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(
      <>
        <App />
        <AddressProbe />
      </>,
      { store, route },
    );
    return recording;
  }

  it('lists events newest first with icon, summary, detail and date', async () => {
    stubRoutes(routes());
    renderHistory();
    const list = await screen.findByRole('list', { name: 'Activity history' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Ada Lovelace added file "Statement.pdf"');
    expect(rows[0]).toHaveTextContent('in "Clients"');
    expect(rows[0]!.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'add');
    expect(within(rows[0]!).getByText(/^Mar 6, 2024/)).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Ada Lovelace logged in');
    expect(rows[1]!.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'login');
    expect(screen.getByText('2 events')).toBeInTheDocument();
  });

  it('says so when there is no activity, and when nothing matches the filters', async () => {
    stubRoutes(routes({ 'POST /api/rest/history': { body: historyPage([]) } }));
    renderHistory();
    expect(
      await screen.findByText('No activity yet. Uploads, new folders and sign-ins appear here.'),
    ).toBeInTheDocument();
    store.sagaTask.cancel();
    document.body.innerHTML = '';
    renderHistory('/history?type=renamed');
    expect(await screen.findByText('No activity matches these filters.')).toBeInTheDocument();
  });

  it('reads the filters from the URL and sends them with resolved dates', async () => {
    const { calls } = stubRoutes(routes());
    const before = new Date();
    renderHistory(
      '/history?date=today&type=log-in&type=added&user=u2&entity=file&item=f1&item_name=Clients',
    );
    await screen.findByRole('list', { name: 'Activity history' });
    const body = callsTo(calls, 'POST /api/rest/history')[0]!.body as Record<string, unknown>;
    expect(body).toEqual({
      ...datePresetRange('Today', before),
      labels: ['Added', 'Log in'],
      user_id: 'u2',
      entity_type: 'file',
      item_id: 'f1',
    });
    const statsUrl = callsTo(calls, 'GET /api/rest/history/stats')[0]!.url;
    expect(statsUrl).toContain(
      `start=${encodeURIComponent(datePresetRange('Today', before).start)}`,
    );
    // The chart's days and total follow the type filter, as the list does.
    expect(new URL(statsUrl, 'http://x').searchParams.get('labels')).toBe('Added,Log in');
    // The controls show the same filters.
    const filters = screen.getByRole('search', { name: 'History filters' });
    expect(within(filters).getByText('Today')).toBeInTheDocument();
    expect(within(filters).getByText('Added')).toBeInTheDocument();
    expect(within(filters).getByText('Log in')).toBeInTheDocument();
    expect(await within(filters).findByText('Grace Hopper')).toBeInTheDocument();
    expect(within(filters).getByText('Files')).toBeInTheDocument();
    expect(within(filters).getByText('Item: Clients')).toBeInTheDocument();
  });

  it('writes a changed filter to the URL and reloads with it', async () => {
    const { calls } = stubRoutes(routes());
    const user = userEvent.setup();
    renderHistory('/history?date=this-week');
    await screen.findByRole('list', { name: 'Activity history' });
    await user.click(screen.getByRole('combobox', { name: 'Activity types' }));
    await user.click(await screen.findByTitle('Renamed'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/history?date=this-week&type=renamed',
      ),
    );
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/history')).toHaveLength(2));
    expect(callsTo(calls, 'POST /api/rest/history')[1]!.body).toMatchObject({
      labels: ['Renamed'],
    });
    // Clear filters goes back to everything.
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/history$/));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/history')).toHaveLength(3));
    expect(callsTo(calls, 'POST /api/rest/history')[2]!.body).toEqual({});
  });

  it('charts events per day and per type; a type toggles its filter', async () => {
    stubRoutes(routes());
    const user = userEvent.setup();
    renderHistory();
    const chart = await screen.findByTestId('history-stats');
    expect(chart).toHaveTextContent('Last 30 days: 4 events');
    const bars = chart.querySelectorAll('rect[data-date]');
    expect(
      [...bars].map((b) => [b.getAttribute('data-date'), b.getAttribute('data-count')]),
    ).toEqual([
      ['2024-05-01', '1'],
      ['2024-05-02', '0'],
      ['2024-05-03', '3'],
    ]);
    const types = within(chart).getByRole('list', { name: 'Events per activity type' });
    // Types without events are left out.
    expect(within(types).queryByText('Renamed')).not.toBeInTheDocument();
    const login = within(types).getByRole('button', { name: /Log in/ });
    expect(login).toHaveAttribute('aria-pressed', 'false');
    await user.click(login);
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/history?type=log-in'),
    );
    expect(await within(types).findByRole('button', { name: /Log in/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('counts only the filtered types in the caption, and says which', async () => {
    const { calls } = stubRoutes(
      routes({
        'GET /api/rest/history/stats': (call) =>
          call.url.includes('labels=')
            ? { body: { ...STATS, total: 1, labels: ['Log in'] } }
            : { body: STATS },
      }),
    );
    renderHistory('/history?type=log-in');
    const chart = await screen.findByTestId('history-stats');
    await waitFor(() => expect(chart).toHaveTextContent('Last 30 days: 1 event (Log in)'));
    expect(callsTo(calls, 'GET /api/rest/history/stats')[0]!.url).toContain('labels=Log+in');
  });

  it('loads the next page with the cursor at the end of the list', async () => {
    const { calls } = stubRoutes(
      routes({
        'POST /api/rest/history': (call) => ({
          body: (call.body as { cursor?: string }).cursor
            ? historyPage([makeEvent({ id: 'older', attributes: { name: 'Older' } })], 2)
            : historyPage([makeEvent({ id: 'newer', attributes: { name: 'Newer' } })], 1, 'newer'),
        }),
      }),
    );
    renderHistory();
    await screen.findByText('Ada Lovelace added folder "Newer"');
    expect(await screen.findByText('Ada Lovelace added folder "Older"')).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/history')[1]!.body).toEqual({ cursor: 'newer' });
  });

  it('exports the filtered history as a CSV file', async () => {
    stubRoutes(routes());
    const user = userEvent.setup();
    renderHistory('/history?type=added');
    await screen.findByRole('list', { name: 'Activity history' });
    // Export goes through fetch directly (a file, not JSON): answer it with a CSV body.
    const jsonFetch = globalThis.fetch;
    const exportCalls: { url: string; body: unknown }[] = [];
    Object.defineProperty(globalThis, 'fetch', {
      configurable: true,
      writable: true,
      value: jest.fn(async (url: string, init?: RequestInit) => {
        if (!url.startsWith('/api/rest/history/export')) return jsonFetch(url, init);
        exportCalls.push({ url, body: JSON.parse(init?.body as string) });
        return {
          ok: true,
          status: 200,
          headers: new Map([
            ['Content-Disposition', 'attachment; filename="history_beginning_to_2024-05-15.csv"'],
          ]) as unknown as Headers,
          blob: async () => new Blob(['id,created_at\r\n'], { type: 'text/csv' }),
        };
      }),
    });
    const createObjectURL = jest.fn(() => 'blob:history');
    const revokeObjectURL = jest.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(`${this.download} ${this.getAttribute('href')}`);
    });
    try {
      await user.click(screen.getByRole('button', { name: 'Export' }));
      expect(
        await screen.findByText('Exported history_beginning_to_2024-05-15.csv'),
      ).toBeInTheDocument();
      expect(exportCalls).toHaveLength(1);
      expect(exportCalls[0]!.body).toMatchObject({ labels: ['Added'] });
      expect(typeof (exportCalls[0]!.body as { time_zone: string }).time_zone).toBe('string');
      expect(clicked).toEqual(['history_beginning_to_2024-05-15.csv blob:history']);
    } finally {
      click.mockRestore();
    }
  });

  it('shows the server message when the export fails', async () => {
    stubRoutes(
      routes({
        'POST /api/rest/history/export': {
          status: 400,
          body: { message: 'Unknown time zone "X".', code: 'invalid_time_zone' },
        },
      }),
    );
    const user = userEvent.setup();
    renderHistory();
    await screen.findByRole('list', { name: 'Activity history' });
    // The stub has no json(); the client falls back to text for errors.
    const stubbed = globalThis.fetch;
    Object.defineProperty(globalThis, 'fetch', {
      configurable: true,
      writable: true,
      value: jest.fn(async (url: string, init?: RequestInit) => {
        const reply = (await stubbed(url, init)) as {
          ok: boolean;
          status: number;
          text: () => Promise<string>;
        };
        return { ...reply, json: async () => JSON.parse(await reply.text()) as unknown };
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Unknown time zone "X".')).toBeInTheDocument();
  });
});

describe('EntityHistoryDrawer', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  it("shows an item's history and links to the filtered History page", async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/folders/f1/history': {
        body: historyPage([
          makeEvent({
            id: 'c1',
            entity_type: 'folder_contact',
            action: 'create',
            attributes: { contact_name: 'Ann Smith', changes: { folder: { name: 'Clients' } } },
          }),
          makeEvent({ id: 'c0', attributes: { name: 'Clients' } }),
        ]),
      },
    });
    store = makeRecordingStore(signedInState()).store;
    renderWithProviders(<EntityHistoryDrawer />, { store, route: '/home' });
    act(() => {
      store.dispatch(historyActions.itemPanelOpened({ type: 'folder', id: 'f1', name: 'Clients' }));
    });
    const list = await screen.findByRole('list', { name: 'History of Clients' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.querySelector('.history-summary')!.textContent),
    ).toEqual([
      'Ada Lovelace linked contact "Ann Smith" to folder "Clients"',
      'Ada Lovelace added folder "Clients"',
    ]);
    expect(screen.getByText('History of "Clients"')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open in History' })).toHaveAttribute(
      'href',
      '/history?item=f1&item_name=Clients',
    );
    expect(callsTo(calls, 'GET /api/rest/folders/f1/history')).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: /close/i }));
    await waitFor(() => expect(store.getState().history.item.target).toBeNull());
  });
});
