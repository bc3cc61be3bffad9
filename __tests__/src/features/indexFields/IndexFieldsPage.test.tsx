import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotificationCenter } from '@src/features/notifications/components/NotificationCenter';
import {
  IndexFieldsPage,
  fieldFormProblem,
  moveItem,
} from '@src/features/indexFields/components/IndexFieldsPage';
import type { AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
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

/** The open confirmation (antd modal.confirm) titled `title`. */
async function findConfirm(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-confirm-title' });
  return heading.closest('.ant-modal') as HTMLElement;
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

  it('lists a field’s values in use and renames one everywhere after confirming the count', async () => {
    const user = userEvent.setup();
    let renamed = false;
    const { calls } = renderPage({
      'GET /api/rest/index_fields/tax/applied_values': () => ({
        body: {
          index_field_id: 'tax',
          items: renamed
            ? [{ value: '2024', count: 13 }]
            : [
                { value: '2023', count: 12 },
                { value: '2024', count: 1 },
              ],
        },
      }),
      'POST /api/rest/applied_indexes/update_many': () => {
        renamed = true;
        return { body: { updated: 12 } };
      },
    });
    const list = await screen.findByRole('group', { name: 'Index field list' });
    await user.click(within(list).getByRole('button', { name: 'Values in use of Tax year' }));
    const dialog = await screen.findByRole('dialog', { name: 'Values in use: Tax year' });
    const values = await within(dialog).findByRole('list', { name: 'Values of Tax year in use' });
    expect(
      within(values)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['2023: 12 items', '2024: 1 item']);

    await user.click(within(values).getByRole('button', { name: 'Rename “2023” everywhere' }));
    const input = within(values).getByRole('textbox', { name: 'New value for “2023”' });
    // The same value, or one the field's type refuses, is said at once and nothing is sent.
    await user.click(within(values).getByRole('button', { name: 'Rename' }));
    expect(within(values).getByRole('alert')).toHaveTextContent(
      'The new value is the same as the old one.',
    );
    await user.clear(input);
    await user.type(input, '2022');
    await user.click(within(values).getByRole('button', { name: 'Rename' }));
    const confirm = await findConfirm('Rename everywhere?');
    expect(confirm).toHaveTextContent('“2023” becomes “2022” on 12 items.');
    expect(callsTo(calls, 'POST /api/rest/applied_indexes/update_many')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Rename' }));

    expect(await screen.findByText('“2023” renamed to “2022” on 12 items.')).toBeTruthy();
    expect(callsTo(calls, 'POST /api/rest/applied_indexes/update_many')[0]!.body).toEqual({
      indexId: 'tax',
      oldValue: '2023',
      value: '2022',
    });
    // The values in use are read again.
    expect(await within(dialog).findByRole('listitem', { name: '2024: 13 items' })).toBeTruthy();
    await user.click(within(dialog).getByText('Close'));
    expect(store!.getState().indexFields.valuesInUse.fieldId).toBeNull();
  });

  it('says why a rename was refused', async () => {
    const user = userEvent.setup();
    allowConsoleError(/answered 400/);
    renderPage({
      'GET /api/rest/index_fields/tax/applied_values': {
        body: { index_field_id: 'tax', items: [{ value: '2023', count: 2 }] },
      },
      'POST /api/rest/applied_indexes/update_many': {
        status: 400,
        body: { message: 'Tax year is archived.', code: 'index_field_archived' },
      },
    });
    const list = await screen.findByRole('group', { name: 'Index field list' });
    await user.click(within(list).getByRole('button', { name: 'Values in use of Tax year' }));
    const dialog = await screen.findByRole('dialog', { name: 'Values in use: Tax year' });
    await user.click(
      await within(dialog).findByRole('button', { name: 'Rename “2023” everywhere' }),
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'New value for “2023”' }), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    const confirm = await findConfirm('Rename everywhere?');
    expect(confirm).toHaveTextContent('“2023” becomes “20231” on 2 items.');
    await user.click(within(confirm).getByRole('button', { name: 'Rename' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Tax year is archived.');
  });
});
