import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import {
  OUTBOX_EMPTY,
  OutboxPage,
  outboxCountText,
} from '@src/features/outbox/components/OutboxPage';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { LINK, makeMessage, makeSummary, outboxPage } from './outboxFixtures';
import { allowConsoleError } from '../../consoleErrors';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

/** Shows the address's query, to check the selection is kept there. */
function SearchProbe() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderAt(route: string, routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  renderWithProviders(
    <>
      <OutboxPage />
      <SearchProbe />
    </>,
    { store, route },
  );
  return stub;
}

const messageRoutes: StubRoutes = {
  'GET /api/rest/private/outbox': { body: outboxPage([makeSummary(2), makeSummary(1)]) },
  [`GET /api/rest/private/outbox/${makeSummary(1).id}`]: { body: makeMessage(1) },
  [`GET /api/rest/private/outbox/${makeSummary(2).id}`]: { body: makeMessage(2) },
};

describe('OutboxPage', () => {
  it('says so when the outbox is empty', async () => {
    renderAt('/admin/outbox', {
      'GET /api/rest/private/outbox': { body: outboxPage([]) },
    });
    expect(await screen.findByText(OUTBOX_EMPTY)).toBeInTheDocument();
    expect(screen.getByText('0 messages')).toBeInTheDocument();
  });

  it('lists time, recipient and subject, newest first, and shows the text of the selected one', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/admin/outbox', messageRoutes);
    const list = await screen.findByRole('list', { name: 'Outbox messages' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('guest2@example.com'),
      expect.stringContaining('guest1@example.com'),
    ]);
    expect(rows[0]).toHaveTextContent('Ada Adviser shared "Statements 2" with you');
    expect(rows[0]).toHaveTextContent('2026');
    expect(screen.getByText(outboxCountText(2))).toBeInTheDocument();
    expect(screen.queryByLabelText('Message text')).not.toBeInTheDocument();

    await user.click(within(rows[1]!).getByRole('button'));
    const text = await screen.findByLabelText('Message text');
    expect(text).toHaveTextContent('Ada Adviser shared the folder "Statements 1" with you.');
    expect(within(text).getByRole('link', { name: LINK })).toHaveAttribute('href', LINK);
    const reader = screen.getByRole('article', { name: 'Message' });
    expect(reader).toHaveTextContent('guest1@example.com');
    expect(screen.getByTestId('search')).toHaveTextContent(`?message=${makeSummary(1).id}`);
    expect(within(rows[1]!).getByRole('button')).toHaveAttribute('aria-current', 'true');
    expect(callsTo(calls, `GET /api/rest/private/outbox/${makeSummary(1).id}`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Close the message' }));
    await waitFor(() => expect(screen.queryByLabelText('Message text')).not.toBeInTheDocument());
    expect(screen.getByTestId('search').textContent).toBe('');
  });

  it('opens the message named in the address (a deep link survives a reload)', async () => {
    renderAt(`/admin/outbox?message=${makeSummary(2).id}`, messageRoutes);
    const text = await screen.findByLabelText('Message text');
    expect(text).toHaveTextContent('"Statements 2"');
  });

  it("shows 'Could not get the outbox.' and tries again", async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/outbox\S* answered 500/);
    const user = userEvent.setup();
    let fail = true;
    const { calls } = renderAt('/admin/outbox', {
      'GET /api/rest/private/outbox': () =>
        fail
          ? { status: 500, body: { message: 'Disk unavailable.', code: 'internal' } }
          : { body: outboxPage([makeSummary(1)]) },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not get the outbox. Disk unavailable.',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('guest1@example.com')).toBeInTheDocument();
    expect(callsTo(calls, 'GET /api/rest/private/outbox')).toHaveLength(2);
  });
});
