// The admin tab "Contacts": the CSV import (file read as text, counts and rejected lines) and the
// searchable list, and the editor of a contact's phone numbers.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PHONE_ERROR_MESSAGES, PHONE_INPUT_MAX_LENGTH, type PhoneErrorKind } from '@common/phone';
import { ContactsAdminPage } from '@src/features/contacts/components/ContactsAdminPage';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { makeContact } from './contactsFixtures';
import { allowConsoleError } from '../../consoleErrors';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function show(routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  const view = renderWithProviders(<ContactsAdminPage />, { store });
  return { ...stub, ...view };
}

const grace = makeContact();
const alan = makeContact({
  id: 'c2',
  crm_id: null,
  name: 'Alan Turing',
  email: null,
  phones: [{ country_code: 44, number: '2079460958' }],
  phones_display: ['+44 20 7946 0958'],
});

describe('ContactsAdminPage', () => {
  it('lists the contacts and searches as the admin types', async () => {
    const { calls } = show({
      'POST /api/rest/private/contacts/search': (call) => ({
        body: { items: (call.body as { name: string }).name === '' ? [alan, grace] : [grace] },
      }),
    });
    const table = await screen.findByRole('table');
    await within(table).findByText('Alan Turing');
    expect(within(table).getByText('+44 20 7946 0958')).toBeInTheDocument();
    expect(within(table).getByText('(202) 555-0143')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('searchbox', { name: 'Search contacts' }));
    await user.paste('grace');
    await waitFor(() => expect(within(table).queryByText('Alan Turing')).toBeNull());
    expect(callsTo(calls, 'POST /api/rest/private/contacts/search').map((c) => c.body)).toEqual([
      { name: '' },
      { name: 'grace' },
    ]);
  });

  it('imports a chosen CSV file and shows the counts and rejected lines', async () => {
    const { calls, container } = show({
      'POST /api/rest/private/contacts/search': { body: { items: [] } },
      'POST /api/rest/private/contacts/import': {
        body: {
          created: 2,
          updated: 1,
          rejected: [{ line: 4, reason: 'Phone "+1": The phone number is too short. (TOO_SHORT)' }],
        },
      },
    });
    expect(
      await screen.findByText('No contacts yet. Import a CSV file or connect your CRM.'),
    ).toBeInTheDocument();
    const csv = 'name,phone\nGrace,+1 202 555 0143\n';
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const user = userEvent.setup();
    await user.upload(input, new File([csv], 'crm.csv', { type: 'text/csv' }));
    const result = await screen.findByRole('status', { name: 'Import result' });
    expect(result).toHaveTextContent('crm.csv: 2 created, 1 updated, 1 rejected.');
    expect(within(result).getByRole('list', { name: 'Rejected lines' })).toHaveTextContent(
      'Line 4: Phone "+1": The phone number is too short. (TOO_SHORT)',
    );
    expect(callsTo(calls, 'POST /api/rest/private/contacts/import')[0]!.body).toEqual({ csv });
  });

  it("shows the server's message when the import is refused", async () => {
    allowConsoleError(/^POST \/api\/rest\/private\/contacts\/import\S* answered 400/);
    show({
      'POST /api/rest/private/contacts/search': { body: { items: [] } },
      'POST /api/rest/private/contacts/import': {
        status: 400,
        body: { message: 'The CSV file has no contacts.', code: 'csv_empty' },
      },
    });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.setup().upload(input, new File(['name\n'], 'empty.csv', { type: 'text/csv' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The CSV file has no contacts.');
  });

  it("edits a contact's phone numbers, saying each phone error kind before sending", async () => {
    const saved = makeContact({
      phones: [
        { country_code: 1, number: '2025550143' },
        { country_code: 33, number: '123456789' },
      ],
      phones_display: ['(202) 555-0143', '+33 1 23 45 67 89'],
    });
    const { calls } = show({
      'POST /api/rest/private/contacts/search': { body: { items: [grace, alan] } },
      'PATCH /api/rest/private/contacts/c1': { body: saved },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Edit phone numbers of Grace Hopper' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Phone numbers of Grace Hopper' });
    // The stored number, editable in international form, with the display it has.
    expect(within(dialog).getByRole('textbox', { name: 'Phone 1' })).toHaveValue('+1 202 555 0143');
    expect(within(dialog).getByText('Shown as (202) 555-0143')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Add a phone number' }));
    const second = within(dialog).getByRole('textbox', { name: 'Phone 2' });
    expect(second).toHaveAttribute('maxlength', String(PHONE_INPUT_MAX_LENGTH));
    const cases: [string, PhoneErrorKind][] = [
      ['call me maybe', 'NOT_A_NUMBER'],
      ['+44 1', 'TOO_SHORT'],
      ['+1 2133734253999999999', 'TOO_LONG'],
      ['1 23 45 67 89', 'INVALID_COUNTRY'],
    ];
    for (const [text, kind] of cases) {
      await user.clear(second);
      await user.type(second, text);
      await user.tab();
      expect(within(dialog).getByRole('alert')).toHaveTextContent(PHONE_ERROR_MESSAGES[kind]);
      expect(second).toHaveAttribute('aria-invalid', 'true');
    }
    // A refused number is not sent.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(callsTo(calls, 'PATCH /api/rest/private/contacts/c1')).toHaveLength(0);

    await user.clear(second);
    await user.type(second, '+33 1 23 45 67 89');
    expect(within(dialog).getByText('Shown as +33 1 23 45 67 89')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Phone numbers of Grace Hopper' }),
      ).not.toBeInTheDocument(),
    );
    expect(callsTo(calls, 'PATCH /api/rest/private/contacts/c1')[0]!.body).toEqual({
      phones: ['+1 202 555 0143', '+33 1 23 45 67 89'],
    });
    const row = screen.getByRole('row', { name: /Grace Hopper/ });
    expect(row).toHaveTextContent('(202) 555-0143, +33 1 23 45 67 89');
  });

  it("removes a phone number and shows the server's refusal in the editor", async () => {
    allowConsoleError(/answered 400/);
    const { calls } = show({
      'POST /api/rest/private/contacts/search': { body: { items: [grace] } },
      'PATCH /api/rest/private/contacts/c1': {
        status: 400,
        body: { message: 'A contact has at most 10 phone numbers.', code: 'too_many_phones' },
      },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Edit phone numbers of Grace Hopper' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Phone numbers of Grace Hopper' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove phone 1' }));
    expect(within(dialog).getByText('No phone numbers.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A contact has at most 10 phone numbers.',
    );
    expect(callsTo(calls, 'PATCH /api/rest/private/contacts/c1')[0]!.body).toEqual({ phones: [] });
  });
});
