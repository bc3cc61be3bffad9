// The Requests list (/requests) and a request's page (/requests/:id) inside the app, the api
// stubbed: overdue requests first with the "Overdue" tag, the Closed tab, a row opening its page;
// accept and reject (with its reason) post and show the answered request; remind and cancel.
import { beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REQUEST_MESSAGES } from '@common/documentRequests';
import { NO_REQUESTS_TEXT } from '@src/features/documentRequests/components/RequestsPage';
import {
  CANCEL_CONFIRM_TEXT,
  cancelConfirmTitle,
} from '@src/features/documentRequests/components/RequestPage';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';
import { callsTo } from '../../testUtils';
import { renderAppAt } from '../../renderAppAt';
import { makeItem, makeRequest, makeSummary } from './documentRequestsFixtures';

// The shell reads more than each test stubs (routes answer 404 "Not found.").
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const OVERDUE = makeSummary({
  id: 'r2',
  title: 'Tax documents',
  folder_id: 'f2',
  folder_name: 'Jones',
  due_date: '2030-03-01',
  overdue: true,
  counts: { missing: 2, received: 1, accepted: 2, rejected: 0 },
});
const ON_TIME = makeSummary({ id: 'r1', title: 'Documents for Smith family' });

describe('Requests list', () => {
  it('shows overdue requests first, in red with an "Overdue" tag, and their progress', async () => {
    const { calls } = renderAppAt('/requests', {
      'GET /api/rest/requests': { body: { items: [OVERDUE, ON_TIME] } },
    });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('link')[0]?.textContent)).toEqual([
      'Tax documents',
      'Documents for Smith family',
    ]);
    const first = rows[0] as HTMLElement;
    expect(within(first).getByText('Overdue')).toBeInTheDocument();
    expect(first.querySelector('.request-due')).toHaveClass('overdue');
    expect(first).toHaveTextContent('2 of 5 accepted');
    expect(first).toHaveTextContent('2 missing · 1 received');
    expect(within(first).getByRole('link', { name: 'Jones' })).toHaveAttribute(
      'href',
      '/home/folders/f2',
    );
    expect(within(rows[1] as HTMLElement).queryByText('Overdue')).toBeNull();
    expect(callsTo(calls, 'GET /api/rest/requests')[0]?.url).toBe('/api/rest/requests?status=open');
    // The navigation's entry is the highlighted one.
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Requests' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('reads the Closed tab, and says when it is empty', async () => {
    const { calls } = renderAppAt('/requests', {
      'GET /api/rest/requests': (call) => ({
        body: { items: call.url.includes('status=closed') ? [] : [ON_TIME] },
      }),
    });
    const user = userEvent.setup();
    await screen.findByRole('table');
    await user.click(screen.getByRole('tab', { name: 'Closed' }));
    expect(await screen.findByText(NO_REQUESTS_TEXT.closed)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/requests');
    expect(callsTo(calls, 'GET /api/rest/requests').map((c) => c.url)).toEqual([
      '/api/rest/requests?status=open',
      '/api/rest/requests?status=closed',
    ]);
  });

  it('opens a request’s page from a click on its row', async () => {
    renderAppAt('/requests', {
      'GET /api/rest/requests': { body: { items: [OVERDUE] } },
      'GET /api/rest/requests/r2': { body: makeRequest({ id: 'r2', title: 'Tax documents' }) },
    });
    const user = userEvent.setup();
    const table = await screen.findByRole('table');
    await user.click(within(table).getByText('2 of 5 accepted'));
    expect(screen.getByTestId('location')).toHaveTextContent('/requests/r2');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Tax documents' }),
    ).toBeInTheDocument();
  });
});

describe('A request’s page', () => {
  const received = makeItem({
    id: 'i1',
    name: 'Passport',
    state: 'received',
    uploads: [
      {
        id: 'u1',
        file_id: 'file1',
        name: 'passport.pdf',
        size: 2048,
        uploaded_at: '2030-04-02T10:00:00.000Z',
        email: 'jane@example.com',
      },
    ],
  });
  const payslip = makeItem({ id: 'i2', name: 'Payslip', state: 'received', description: '' });
  // The request's counts follow its items (makeRequest works them out).
  const base = {
    target_folder_id: 'f7',
    recipients: [
      { email: 'jane@example.com', opened_at: '2030-04-02T09:00:00.000Z' },
      { email: 'john@example.com', opened_at: null },
    ],
  };
  const request = makeRequest({ ...base, items: [received, payslip] });

  it('shows the request from its address, with its recipients and uploads', async () => {
    renderAppAt('/requests/r1', { 'GET /api/rest/requests/r1': { body: request } });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Documents for Smith family' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/not opened yet/)).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace', { exact: false, selector: 'dd' })).toBeInTheDocument();
    const card = screen.getByRole('listitem', { name: /Passport/ });
    expect(within(card).getByRole('link', { name: 'passport.pdf' })).toHaveAttribute(
      'href',
      '/home/folders/f7',
    );
    expect(card).toHaveTextContent('2.0 KB');
    expect(card).toHaveTextContent('jane@example.com');
  });

  it('accepts a received item and shows the answered state', async () => {
    const accepted = makeRequest({
      ...base,
      items: [{ ...received, state: 'accepted' }, payslip],
    });
    const { calls } = renderAppAt('/requests/r1', {
      'GET /api/rest/requests/r1': { body: request },
      'POST /api/rest/requests/r1/items/i1/accept': { body: accepted },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept Passport' }));
    const card = screen.getByRole('listitem', { name: /Passport/ });
    await waitFor(() => expect(within(card).getByText('Accepted')).toBeInTheDocument());
    expect(within(card).queryByRole('button', { name: 'Accept Passport' })).toBeNull();
    expect(callsTo(calls, 'POST /api/rest/requests/r1/items/i1/accept')).toHaveLength(1);
    expect(screen.getByText(/1 of 2 accepted/)).toBeInTheDocument();
  });

  it('rejects a received item with a reason, required first', async () => {
    const rejected = makeRequest({
      ...base,
      items: [received, { ...payslip, state: 'rejected', reject_reason: 'Too blurry' }],
    });
    const { calls } = renderAppAt('/requests/r1', {
      'GET /api/rest/requests/r1': { body: request },
      'POST /api/rest/requests/r1/items/i2/reject': { body: rejected },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reject Payslip' }));
    const heading = await screen.findByText('Reject “Payslip”', { selector: '.ant-modal-title' });
    const dialog = heading.closest('[role="dialog"]') as HTMLElement;
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      REQUEST_MESSAGES.reasonRequired,
    );
    expect(callsTo(calls, 'POST /api/rest/requests/r1/items/i2/reject')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason (the client reads it)'), 'Too blurry');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/requests/r1/items/i2/reject')[0]?.body).toEqual({
        reason: 'Too blurry',
      }),
    );
    const card = screen.getByRole('listitem', { name: /Payslip/ });
    await waitFor(() => expect(card).toHaveTextContent('Rejected: Too blurry'));
    expect(within(card).queryByRole('button', { name: 'Reject Payslip' })).toBeNull();
    await waitFor(() => expect(screen.queryByText('Reject “Payslip”')).toBeNull());
  });

  it('sends a reminder, and cancels only after the confirmation', async () => {
    const cancelled = makeRequest({ ...base, items: request.items, status: 'cancelled' });
    const { calls } = renderAppAt('/requests/r1', {
      'GET /api/rest/requests/r1': { body: request },
      'POST /api/rest/requests/r1/remind': { body: request },
      'POST /api/rest/requests/r1/cancel': { body: cancelled },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remind' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/requests/r1/remind')).toHaveLength(1),
    );
    await user.click(screen.getByRole('button', { name: 'Cancel request' }));
    const title = await screen.findByText(cancelConfirmTitle(request.title), {
      selector: '.ant-modal-confirm-title',
    });
    const confirm = title.closest('.ant-modal') as HTMLElement;
    expect(confirm).toHaveTextContent(CANCEL_CONFIRM_TEXT);
    expect(callsTo(calls, 'POST /api/rest/requests/r1/cancel')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel request' }));
    await waitFor(() => expect(screen.getByText('Cancelled')).toBeInTheDocument());
    expect(callsTo(calls, 'POST /api/rest/requests/r1/cancel')).toHaveLength(1);
    // A closed request offers neither Remind nor Cancel.
    expect(screen.queryByRole('button', { name: 'Remind' })).toBeNull();
  });
});
