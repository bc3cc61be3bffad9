import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { AppliedIndexesSection } from '@src/features/indexFields/components/AppliedIndexesSection';
import { BulkApplyIndexButton } from '@src/features/indexFields/components/BulkApplyIndexButton';
import { MissingIndexesPage } from '@src/features/indexFields/components/MissingIndexesPage';
import { notificationsActions } from '@src/features/notifications/notificationsSlice';
import type { AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
import {
  callsTo,
  makeFile,
  makePage,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { DOC_TYPE, TAX_YEAR, makeApplied } from './indexFieldsFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

const FILE = makeFile({ id: 'file1', name: 'Return.pdf', folder_id: 'f1' });

function render(ui: ReactElement, routes: StubRoutes, route = '/home', user = makeUser()) {
  const stub = stubRoutes({
    'GET /api/rest/index_fields': { body: [TAX_YEAR, DOC_TYPE] },
    ...routes,
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(ui, { store, route });
  return { ...stub, ...recording };
}

describe('AppliedIndexesSection', () => {
  it('lists the values and applies new ones from the form, inputs by field type', async () => {
    const user = userEvent.setup();
    const { calls } = render(<AppliedIndexesSection entity={FILE} />, {
      'GET /api/rest/applied_indexes': { body: [makeApplied()] },
      'POST /api/rest/applied_indexes': {
        status: 201,
        body: {
          items: [
            makeApplied(),
            makeApplied({
              id: 'a2',
              index_field_id: 'doctype',
              index_field_name: 'Document type',
              index_field_type: 'list',
              value: 'Statement',
            }),
          ],
        },
      },
    });
    const list = await screen.findByRole('list', { name: 'Applied index values' });
    expect(within(list).getByRole('listitem', { name: 'Tax year: 2023' })).toBeTruthy();
    expect(callsTo(calls, 'GET /api/rest/applied_indexes')[0]!.url).toBe(
      '/api/rest/applied_indexes?entity_id=file1',
    );
    await user.click(screen.getByRole('combobox', { name: 'Add an index field' }));
    await user.click(await screen.findByTitle('Document type'));
    await user.click(await screen.findByRole('combobox', { name: 'Document type' }));
    await user.click(await screen.findByTitle('Statement'));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(callsTo(calls, 'POST /api/rest/applied_indexes')[0]!.body).toEqual({
      entity_id: 'file1',
      indexes: [{ indexFieldId: 'doctype', value: 'Statement' }],
    });
  });

  it('shows a wrong value at once, and removes a value', async () => {
    const user = userEvent.setup();
    const { calls } = render(<AppliedIndexesSection entity={FILE} />, {
      'GET /api/rest/applied_indexes': { body: [makeApplied()] },
      'DELETE /api/rest/applied_indexes/a1': { status: 204 },
    });
    await screen.findByRole('list', { name: 'Applied index values' });
    await user.click(screen.getByRole('button', { name: 'Change Tax year' }));
    const input = screen.getByRole('textbox', { name: 'New value of Tax year' });
    await user.clear(input);
    await user.paste('next year');
    await user.click(screen.getByRole('button', { name: 'Save Tax year' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Enter a number, for example 2024 or -12.5.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Remove Tax year' }));
    await waitFor(() => expect(screen.getByText('No index values yet.')).toBeTruthy());
    expect(callsTo(calls, 'DELETE /api/rest/applied_indexes/a1')).toHaveLength(1);
  });

  it('archives a value (shown as archived) and restores it', async () => {
    const user = userEvent.setup();
    const archived = makeApplied({ archived_at: '2024-02-01T00:00:00.000Z' });
    const statement = makeApplied({
      id: 'a2',
      index_field_id: 'doctype',
      index_field_name: 'Document type',
      index_field_type: 'list',
      value: 'Statement',
    });
    const { calls, actions } = render(<AppliedIndexesSection entity={FILE} />, {
      'GET /api/rest/applied_indexes': { body: [makeApplied(), statement] },
      'POST /api/rest/applied_indexes/a1/archive': { body: archived },
      'POST /api/rest/applied_indexes/a1/restore': { body: makeApplied() },
    });
    const list = await screen.findByRole('list', { name: 'Applied index values' });
    await user.click(within(list).getByRole('button', { name: 'Archive Tax year' }));
    const row = await within(list).findByRole('listitem', { name: 'Tax year: 2023 (archived)' });
    expect(within(row).getByText('Archived')).toBeInTheDocument();
    // An archived value cannot be changed; it is listed after the live ones.
    expect(within(row).queryByRole('button', { name: 'Change Tax year' })).toBeNull();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Document type: Statement', 'Tax year: 2023 (archived)']);
    expect(callsTo(calls, 'POST /api/rest/applied_indexes/a1/archive')).toHaveLength(1);
    expect(
      actions.filter(notificationsActions.infoMessageRequested.match).map((a) => a.payload.text),
    ).toContain('“Tax year” archived.');

    await user.click(within(row).getByRole('button', { name: 'Restore Tax year' }));
    expect(
      await within(list).findByRole('listitem', { name: 'Tax year: 2023' }),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/rest/applied_indexes/a1/restore')).toHaveLength(1);
  });

  it('shows why a restore was refused', async () => {
    const user = userEvent.setup();
    const message = 'Tax year is already applied to this item.';
    allowConsoleError(/answered 400/);
    render(<AppliedIndexesSection entity={FILE} />, {
      'GET /api/rest/applied_indexes': {
        body: [makeApplied({ archived_at: '2024-02-01T00:00:00.000Z' })],
      },
      'POST /api/rest/applied_indexes/a1/restore': {
        status: 400,
        body: { message, code: 'index_already_applied' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Restore Tax year' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('a read-only member sees the values without the form', async () => {
    const readOnly = makeUser({
      databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role: 'read_only' }],
    });
    render(
      <AppliedIndexesSection entity={FILE} />,
      { 'GET /api/rest/applied_indexes': { body: [makeApplied()] } },
      '/home',
      readOnly,
    );
    await screen.findByRole('list', { name: 'Applied index values' });
    expect(screen.queryByRole('group', { name: 'Apply index values' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Tax year' })).toBeNull();
  });
});

describe('BulkApplyIndexButton', () => {
  it('applies the dialog values to every selected file in one call', async () => {
    const user = userEvent.setup();
    const { calls } = render(<BulkApplyIndexButton fileIds={['a', 'b']} />, {
      'POST /api/rest/applied_indexes': { status: 201, body: { items: [] } },
    });
    await user.click(screen.getByRole('button', { name: /Index values/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply index values to 2 files' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Add an index field' }));
    await user.click(await screen.findByTitle('Tax year'));
    await user.click(within(dialog).getByRole('textbox', { name: 'Tax year' }));
    await user.paste('2021');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/applied_indexes')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/applied_indexes')[0]!.body).toEqual({
      entity_ids: ['a', 'b'],
      indexes: [{ indexFieldId: 'tax', value: '2021' }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('MissingIndexesPage', () => {
  it('lists the files lacking the URL fields with a link to each folder', async () => {
    const { calls } = render(
      <MissingIndexesPage />,
      {
        'POST /api/rest/entities/search/missing-indexes': {
          body: makePage(
            [FILE, makeFile({ id: 'file2', name: 'Top.pdf', folder_id: '' })],
            1,
            2,
            50,
          ),
        },
      },
      '/missing-indexes?field=tax',
    );
    const group = await screen.findByRole('group', { name: 'Files missing index values' });
    expect(within(group).getByText('2 files missing a value')).toBeTruthy();
    expect(
      within(group)
        .getByRole('link', { name: 'Open the folder of Return.pdf' })
        .getAttribute('href'),
    ).toBe('/home/folders/f1');
    expect(
      within(group).getByRole('link', { name: 'Open the folder of Top.pdf' }).getAttribute('href'),
    ).toBe('/home');
    expect(callsTo(calls, 'POST /api/rest/entities/search/missing-indexes')[0]!.body).toEqual({
      index_field_ids: ['tax'],
    });
  });

  it('asks for fields first', () => {
    render(<MissingIndexesPage />, {}, '/missing-indexes');
    expect(
      screen.getByText(
        'Choose one or more index fields to list the files that have no value for them.',
      ),
    ).toBeTruthy();
  });
});
