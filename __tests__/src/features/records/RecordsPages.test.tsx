// The records management pages of the admin area, the api stubbed: Retention schedules (list,
// empty state, create, lock after its confirmation, a locked schedule's refused shortening shown
// verbatim), Legal holds (place a hold on a folder chosen in the folder chooser, release after its
// confirmation) and Disposition (select, confirm, the result; the server's refusal), and the
// side panel's retention and hold lines.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { RECORDS_MESSAGES, recordsMessage, type ItemProtectionDto } from '@common/retention';
import { DispositionPage } from '@src/features/records/components/DispositionPage';
import { HoldsPage, STOP_HOLDING_TEXT } from '@src/features/records/components/HoldsPage';
import {
  ProtectionSection,
  protectionLines,
} from '@src/features/records/components/ProtectionSection';
import {
  LOCK_CONFIRM_TEXT,
  NO_SCHEDULES_TEXT,
  SchedulesPage,
} from '@src/features/records/components/SchedulesPage';
import type { AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
import {
  callsTo,
  makeFolder,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { makeDue, makeHold, makeSchedule, makeTarget } from './recordsFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function show(ui: ReactElement, routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  renderWithProviders(ui, { store });
  return stub;
}

/** A dialog found by its title text (antd's modal ids are fixed in tests). */
async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  return heading.closest('[role="dialog"]') as HTMLElement;
}

/** The open confirmation (antd's modal.confirm). */
async function findConfirm(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-confirm-title' });
  return heading.closest('.ant-modal') as HTMLElement;
}

const FIELDS = { 'GET /api/rest/index_fields': { body: [] } };

describe('Admin → Retention schedules', () => {
  it('lists a schedule: its rule, lock and targets; says when there is none', async () => {
    show(<SchedulesPage />, {
      ...FIELDS,
      'GET /api/rest/private/retention_schedules': { body: [makeSchedule()] },
    });
    const card = await screen.findByRole('listitem', { name: /Client files/ });
    expect(card).toHaveTextContent('6 years from creation');
    expect(card).toHaveTextContent('Not locked');
    expect(within(card).getByRole('list', { name: 'Client files applies to' })).toHaveTextContent(
      'Clients (in Home)',
    );
  });

  it('shows the empty state', async () => {
    show(<SchedulesPage />, {
      ...FIELDS,
      'GET /api/rest/private/retention_schedules': { body: [] },
    });
    expect(await screen.findByText(NO_SCHEDULES_TEXT)).toBeInTheDocument();
  });

  it('creates a schedule from the form', async () => {
    const created = makeSchedule({ id: 's2', name: 'Wills', period_count: 7, targets: [] });
    const { calls } = show(<SchedulesPage />, {
      ...FIELDS,
      'GET /api/rest/private/retention_schedules': { body: [] },
      'POST /api/rest/private/retention_schedules': { status: 201, body: created },
    });
    const user = userEvent.setup();
    await screen.findByText(NO_SCHEDULES_TEXT);
    await user.click(screen.getByRole('button', { name: 'New schedule' }));
    const dialog = await findDialog('New retention schedule');
    await user.type(within(dialog).getByLabelText('Name'), 'Wills');
    const count = within(dialog).getByLabelText('Keep files for');
    await user.clear(count);
    await user.type(count, '7');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/private/retention_schedules')[0]?.body).toEqual({
        name: 'Wills',
        period_count: 7,
        period_unit: 'years',
        basis: 'created',
        basis_field_id: null,
        selector_field_id: null,
        selector_value: null,
      }),
    );
    expect(await screen.findByRole('listitem', { name: /Wills/ })).toHaveTextContent(
      '7 years from creation',
    );
    await waitFor(() => expect(screen.queryByText('New retention schedule')).toBeNull());
  });

  it('locks a schedule after a confirmation that says it is for good', async () => {
    const schedule = makeSchedule();
    const { calls } = show(<SchedulesPage />, {
      ...FIELDS,
      'GET /api/rest/private/retention_schedules': { body: [schedule] },
      'POST /api/rest/private/retention_schedules/s1/lock': {
        body: { ...schedule, locked_at: '2026-03-01T09:00:00.000Z', locked_by_name: 'Ada' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Lock Client files' }));
    const confirm = await findConfirm('Lock “Client files”?');
    expect(confirm).toHaveTextContent(LOCK_CONFIRM_TEXT);
    expect(callsTo(calls, 'POST /api/rest/private/retention_schedules/s1/lock')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Lock for good' }));
    const card = screen.getByRole('listitem', { name: /Client files/ });
    await waitFor(() => expect(card).toHaveTextContent('Locked on Mar 1, 2026 by Ada'));
    // A locked schedule offers neither Lock, Delete nor Remove.
    expect(within(card).queryByRole('button', { name: 'Delete Client files' })).toBeNull();
    expect(within(card).queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('shows the server’s refusal to shorten a locked schedule', async () => {
    allowConsoleError(/answered 409/);
    const refusal = recordsMessage(RECORDS_MESSAGES.lockedShorten, { name: 'Client files' });
    const { calls } = show(<SchedulesPage />, {
      ...FIELDS,
      'GET /api/rest/private/retention_schedules': {
        body: [makeSchedule({ locked_at: '2026-03-01T09:00:00.000Z' })],
      },
      'PATCH /api/rest/private/retention_schedules/s1': {
        status: 409,
        body: { message: refusal, code: 'schedule_locked' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Client files' }));
    const dialog = await findDialog('Edit “Client files”');
    expect(dialog).toHaveTextContent('only its name and a longer period can be changed');
    const count = within(dialog).getByLabelText('Keep files for');
    await user.clear(count);
    await user.type(count, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(callsTo(calls, 'PATCH /api/rest/private/retention_schedules/s1')[0]?.body).toEqual({
      name: 'Client files',
      period_count: 2,
      period_unit: 'years',
    });
  });
});

describe('Admin → Legal holds', () => {
  it('places a hold on a folder chosen in the folder chooser', async () => {
    const placed = makeHold({ id: 'h2', name: 'Audit 2026' });
    const { calls } = show(<HoldsPage />, {
      'GET /api/rest/private/legal_holds': { body: [] },
      'GET /api/rest/folders': (call) =>
        call.url.includes('parent_id=clients')
          ? { body: makePage([]) }
          : { body: makePage([makeFolder({ id: 'clients', name: 'Clients' })]) },
      'POST /api/rest/private/legal_holds': { status: 201, body: placed },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Place a hold' }));
    const dialog = await findDialog('Place a legal hold');
    await user.type(within(dialog).getByLabelText('Name'), 'Audit 2026');
    await user.type(within(dialog).getByLabelText('Matter'), 'M-1');
    // Nothing held yet: the form says so.
    await user.click(within(dialog).getByRole('button', { name: 'Place hold' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      RECORDS_MESSAGES.holdTargetsRequired,
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Clients' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Hold “Clients”' }));
    expect(within(dialog).getByRole('list', { name: 'Folders to hold' })).toHaveTextContent(
      'Clients',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Place hold' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/private/legal_holds')[0]?.body).toEqual({
        name: 'Audit 2026',
        reason: '',
        matter: 'M-1',
        targets: [{ type: 'folder', id: 'clients' }],
      }),
    );
    expect(await screen.findByRole('listitem', { name: /Audit 2026/ })).toHaveTextContent('Active');
  });

  it('releases a hold after its confirmation', async () => {
    const hold = makeHold();
    const { calls } = show(<HoldsPage />, {
      'GET /api/rest/private/legal_holds': { body: [hold] },
      'POST /api/rest/private/legal_holds/h1/release': {
        body: {
          ...hold,
          status: 'released',
          released_at: '2026-04-02T00:00:00.000Z',
          released_by_name: 'Grace',
        },
      },
    });
    const user = userEvent.setup();
    const card = await screen.findByRole('listitem', { name: /Smith litigation/ });
    expect(card).toHaveTextContent('Smith v. Jones');
    expect(card).toHaveTextContent('Feb 3, 2026 by Ada Lovelace');
    await user.click(within(card).getByRole('button', { name: 'Release Smith litigation' }));
    const confirm = await findConfirm('Release “Smith litigation”?');
    await user.click(within(confirm).getByRole('button', { name: 'Release hold' }));
    await waitFor(() => expect(card).toHaveTextContent('Released'));
    expect(card).toHaveTextContent('Apr 2, 2026 by Grace');
    expect(callsTo(calls, 'POST /api/rest/private/legal_holds/h1/release')).toHaveLength(1);
    expect(within(card).queryByRole('button', { name: 'Release Smith litigation' })).toBeNull();
  });
});

describe('Admin → Legal holds: editing an active hold', () => {
  const contact = makeTarget({
    id: 't2',
    type: 'contact',
    item_id: 'c1',
    name: 'Ann Smith',
    path: '',
  });

  it('saves its name, reason and matter, and closes', async () => {
    const hold = makeHold();
    const { calls } = show(<HoldsPage />, {
      'GET /api/rest/private/legal_holds': { body: [hold] },
      'GET /api/rest/folders': { body: makePage([]) },
      'PATCH /api/rest/private/legal_holds/h1': {
        body: { ...hold, name: 'Smith arbitration', matter: 'A-7' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Smith litigation' }));
    const dialog = await findDialog('Edit “Smith litigation”');
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      RECORDS_MESSAGES.nameRequired,
    );
    await user.type(name, 'Smith arbitration');
    const matter = within(dialog).getByLabelText('Matter');
    await user.clear(matter);
    await user.type(matter, 'A-7');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(calls, 'PATCH /api/rest/private/legal_holds/h1')[0]?.body).toEqual({
        name: 'Smith arbitration',
        reason: 'Pending lawsuit',
        matter: 'A-7',
      }),
    );
    await waitFor(() => expect(screen.queryByText('Edit “Smith litigation”')).toBeNull());
    expect(await screen.findByRole('listitem', { name: /Smith arbitration/ })).toHaveTextContent(
      'A-7',
    );
  });

  it('holds another folder, and stops holding a target after its confirmation', async () => {
    const hold = makeHold({ targets: [makeTarget(), contact] });
    const more = makeTarget({ id: 't3', item_id: 'archive', name: 'Archive', path: 'Home' });
    const { calls } = show(<HoldsPage />, {
      'GET /api/rest/private/legal_holds': { body: [hold] },
      'GET /api/rest/folders': (call) =>
        call.url.includes('parent_id=archive')
          ? { body: makePage([]) }
          : { body: makePage([makeFolder({ id: 'archive', name: 'Archive' })]) },
      'POST /api/rest/private/legal_holds/h1/targets': {
        body: { ...hold, targets: [...hold.targets, more] },
      },
      'DELETE /api/rest/private/legal_holds/h1/targets/t2': {
        body: { ...hold, targets: [makeTarget(), more] },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Smith litigation' }));
    const dialog = await findDialog('Edit “Smith litigation”');
    await user.click(await within(dialog).findByRole('button', { name: 'Archive' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Hold “Archive”' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/private/legal_holds/h1/targets')[0]?.body).toEqual({
        type: 'folder',
        id: 'archive',
      }),
    );
    const held = within(dialog).getByRole('list', { name: 'Smith litigation holds' });
    await waitFor(() => expect(held).toHaveTextContent('Archive (in Home)'));
    await user.click(within(held).getByRole('button', { name: 'Remove Ann Smith' }));
    const confirm = await findConfirm('Stop holding “Ann Smith”?');
    expect(confirm).toHaveTextContent(STOP_HOLDING_TEXT);
    await user.click(within(confirm).getByRole('button', { name: 'Stop holding' }));
    await waitFor(() => expect(held).not.toHaveTextContent('Ann Smith'));
    expect(callsTo(calls, 'DELETE /api/rest/private/legal_holds/h1/targets/t2')).toHaveLength(1);
  });

  it('shows the server’s refusal to remove the last target', async () => {
    allowConsoleError(/409/);
    const hold = makeHold();
    show(<HoldsPage />, {
      'GET /api/rest/private/legal_holds': { body: [hold] },
      'GET /api/rest/folders': { body: makePage([]) },
      'DELETE /api/rest/private/legal_holds/h1/targets/t1': {
        status: 409,
        body: { message: RECORDS_MESSAGES.holdLastTarget, code: 'hold_last_target' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Smith litigation' }));
    const dialog = await findDialog('Edit “Smith litigation”');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Clients' }));
    const confirm = await findConfirm('Stop holding “Clients”?');
    await user.click(within(confirm).getByRole('button', { name: 'Stop holding' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      RECORDS_MESSAGES.holdLastTarget,
    );
  });
});

describe('the side panel: adding a file to a legal hold', () => {
  const unheld: ItemProtectionDto = {
    type: 'file',
    id: 'x1',
    name: 'a.pdf',
    schedules: [],
    retained_until: null,
    retention_pending: false,
    holds: [],
    refusal: null,
  };

  it('offers the active holds when opened and adds the file to the one chosen', async () => {
    let protection = unheld;
    const audit = makeHold({ id: 'h2', name: 'Audit 2026', matter: 'M-1' });
    const released = makeHold({ id: 'h3', name: 'Old matter', status: 'released' });
    const { calls } = show(<ProtectionSection item={{ type: 'file', id: 'x1' }} />, {
      'GET /api/rest/private/records/protection': () => ({ body: protection }),
      'GET /api/rest/private/legal_holds': { body: [audit, released] },
      'POST /api/rest/private/legal_holds/h2/targets': () => {
        protection = { ...unheld, holds: [{ id: 'h2', name: 'Audit 2026', matter: 'M-1' }] };
        return { body: audit };
      },
    });
    const user = userEvent.setup();
    const chooser = await screen.findByRole('combobox', { name: 'Add to a legal hold' });
    // The holds are read when the list opens, not before.
    expect(callsTo(calls, 'GET /api/rest/private/legal_holds')).toHaveLength(0);
    await user.click(chooser);
    const option = await screen.findByTitle('Audit 2026 (M-1)');
    expect(screen.queryByTitle('Old matter (Smith v. Jones)')).toBeNull();
    await user.click(option);
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/private/legal_holds/h2/targets')[0]?.body).toEqual({
        type: 'file',
        id: 'x1',
      }),
    );
    expect(await screen.findByText(/On legal hold: Audit 2026/)).toBeInTheDocument();
  });
});

describe('Admin → Disposition', () => {
  const queue = {
    items: [makeDue(), makeDue({ id: 'd2', name: 'b.pdf' })],
    total: 2,
    today: '2026-05-01',
  };

  it('deletes the selected files after a confirmation and says how many', async () => {
    let reads = 0;
    const { calls } = show(<DispositionPage />, {
      'GET /api/rest/private/disposition': () => {
        reads += 1;
        return { body: reads === 1 ? queue : { ...queue, items: [makeDue()], total: 1 } };
      },
      'POST /api/rest/private/disposition/approve': {
        body: { count: 1, items: [{ id: 'd2', name: 'b.pdf', sha256: null }] },
      },
    });
    const user = userEvent.setup();
    const table = await screen.findByRole('table');
    expect(table).toHaveTextContent('Jun 30, 2025');
    expect(table).toHaveTextContent('Client files');
    const approve = screen.getByRole('button', { name: /Delete permanently/ });
    expect(approve).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select b.pdf' }));
    await user.click(screen.getByRole('button', { name: /Delete 1 permanently/ }));
    const confirm = await findConfirm('Delete 1 file permanently?');
    expect(callsTo(calls, 'POST /api/rest/private/disposition/approve')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete permanently' }));
    expect(
      await screen.findByText(
        'Deleted 1 file permanently. A proof of each deletion is in History.',
      ),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/private/disposition/approve')[0]?.body).toEqual({
      file_ids: ['d2'],
    });
    await waitFor(() => expect(screen.queryByText('b.pdf')).toBeNull());
  });

  it('shows the server’s refusal', async () => {
    allowConsoleError(/answered 409/);
    const refusal = recordsMessage(RECORDS_MESSAGES.underHold, {
      name: 'b.pdf',
      hold: 'Smith litigation',
      action: 'deleted',
    });
    show(<DispositionPage />, {
      'GET /api/rest/private/disposition': { body: queue },
      'POST /api/rest/private/disposition/approve': {
        status: 409,
        body: { message: refusal, code: 'under_hold' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select b.pdf' }));
    await user.click(screen.getByRole('button', { name: /Delete 1 permanently/ }));
    const confirm = await findConfirm('Delete 1 file permanently?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete permanently' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `The files were not deleted. ${refusal}`,
    );
  });

  it('says when nothing is due', async () => {
    show(<DispositionPage />, {
      'GET /api/rest/private/disposition': { body: { items: [], total: 0, today: '2026-05-01' } },
    });
    expect(await screen.findByText(/No files are due for disposition/)).toBeInTheDocument();
  });
});

describe('the side panel’s records lines', () => {
  const base: ItemProtectionDto = {
    type: 'file',
    id: 'x1',
    name: 'a.pdf',
    schedules: [
      {
        schedule_id: 's1',
        schedule_name: 'Client files',
        locked: true,
        ends_on: '2031-03-01',
        via: 'folder',
      },
    ],
    retained_until: '2031-03-01',
    retention_pending: false,
    holds: [{ id: 'h1', name: 'Smith litigation', matter: '' }],
    refusal: 'x',
  };

  it('reads the retention end and each hold', () => {
    expect(protectionLines(base)).toEqual([
      'Under retention until Mar 1, 2031 (Client files)',
      'On legal hold: Smith litigation',
    ]);
  });

  it('says nothing when nothing protects the item', () => {
    expect(protectionLines({ ...base, schedules: [], retained_until: null, holds: [] })).toEqual(
      [],
    );
  });
});
