import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotificationCenter } from '../../../../src/features/notifications/components/NotificationCenter';
import {
  IndexFieldsPage,
  fieldFormProblem,
  moveItem,
} from '../../../../src/features/indexFields/components/IndexFieldsPage';
import type { AppStore } from '../../../../src/store/store';
import {
  callsTo,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { DOC_TYPE, TAX_YEAR } from './indexFieldsFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

function renderPage(routes: StubRoutes = {}) {
  const stub = stubRoutes({
    'GET /api/rest/index_fields': {
      body: [TAX_YEAR, { ...DOC_TYPE, archived_at: '2024-02-01T00:00:00.000Z' }],
    },
    ...routes,
  });
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  renderWithProviders(
    <>
      <IndexFieldsPage />
      <NotificationCenter />
    </>,
    { store, route: '/admin/index-fields' },
  );
  return { ...stub, ...recording };
}

describe('index field helpers', () => {
  it('moves one value and keeps the others in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });

  it('checks the dialog before sending', () => {
    expect(fieldFormProblem(' ', 'text_field', '', [])).toBe('An index field name is required.');
    expect(fieldFormProblem('Kind', 'list', '', [])).toBe('A list field needs at least one value.');
    expect(
      fieldFormProblem('Kind', 'list', '', [
        { key: '1', value: 'A' },
        { key: '2', value: 'a' },
      ]),
    ).toBe('The list already has the value "a".');
    expect(fieldFormProblem('Year', 'number', '', [])).toBeNull();
  });
});

describe('IndexFieldsPage', () => {
  it('lists the fields with their type, values and archived state', async () => {
    renderPage();
    const list = await screen.findByRole('group', { name: 'Index field list' });
    const docType = within(list).getByRole('listitem', { name: 'Document type' });
    expect(docType.textContent).toContain(
      'List of values · 3 values: Invoice, Statement, Contract',
    );
    expect(within(docType).getByText('Archived')).toBeTruthy();
    expect(within(docType).getByRole('button', { name: 'Restore Document type' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Archive Tax year' })).toBeTruthy();
    expect(screen.getByText('2 index fields')).toBeTruthy();
  });

  it('creates a list field whose values are reordered with the keyboard buttons and by drag', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage({
      'POST /api/rest/index_fields': { status: 201, body: DOC_TYPE },
    });
    await screen.findByRole('group', { name: 'Index field list' });
    await user.click(screen.getByRole('button', { name: 'Create index field' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText('Name'));
    await user.paste('Document type');
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByTitle('List of values'));
    const newValue = await within(dialog).findByRole('textbox', { name: 'New value' });
    for (const value of ['Statement', 'Invoice', 'Contract']) {
      await user.click(newValue);
      await user.paste(value);
      await user.keyboard('{Enter}');
    }
    await user.click(within(dialog).getByRole('button', { name: 'Move Invoice up' }));
    // Drag "Contract" (third) onto "Statement" (second).
    const rows = within(dialog).getAllByRole('listitem');
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: 'move',
      dropEffect: 'move',
    };
    fireEvent.dragStart(rows[2]!, { dataTransfer });
    fireEvent.dragOver(rows[1]!, { dataTransfer });
    fireEvent.drop(rows[1]!, { dataTransfer });
    const values = within(dialog)
      .getAllByRole('textbox', { name: /^Value \d$/ })
      .map((input) => (input as HTMLInputElement).value);
    expect(values).toEqual(['Invoice', 'Contract', 'Statement']);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/index_fields')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/index_fields')[0]!.body).toEqual({
      name: 'Document type',
      type: 'list',
      description: '',
      values: ['Invoice', 'Contract', 'Statement'],
    });
  });

  it('deletes a field and brings it back with Undo', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage({
      'DELETE /api/rest/index_fields/tax': {
        body: { ...TAX_YEAR, deleted_at: '2024-03-01T00:00:00.000Z' },
      },
      'POST /api/rest/index_fields/tax/undo-delete': { body: TAX_YEAR },
    });
    const list = await screen.findByRole('group', { name: 'Index field list' });
    await user.click(within(list).getByRole('button', { name: 'Delete Tax year' }));
    await waitFor(() =>
      expect(within(list).queryByRole('listitem', { name: 'Tax year' })).toBeNull(),
    );
    expect(await screen.findByText('Index field “Tax year” deleted.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await within(list).findByRole('listitem', { name: 'Tax year' })).toBeTruthy();
    expect(callsTo(calls, 'POST /api/rest/index_fields/tax/undo-delete')).toHaveLength(1);
  });
});
