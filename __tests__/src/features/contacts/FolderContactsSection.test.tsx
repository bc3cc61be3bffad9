// The side panel's Contacts section: linked contacts with formatted phones and e-mail, the
// search-as-you-type picker that links one, Unlink, and the read-only view (list only).
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FolderContactsSection } from '@src/features/contacts/components/FolderContactsSection';
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
import { makeContact, makeLink } from './contactsFixtures';
import { allowConsoleError } from '../../consoleErrors';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

const grace = makeContact();
const alan = makeContact({
  id: 'c2',
  name: 'Alan Turing',
  email: null,
  phones: [{ country_code: 44, number: '2079460958' }],
  phones_display: ['+44 20 7946 0958'],
});

function show(routes: StubRoutes, role: 'admin' | 'member' | 'read_only' = 'member') {
  const stub = stubRoutes(routes);
  const user = makeUser({
    databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role }],
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<FolderContactsSection folder={makeFolder()} />, { store });
  return stub;
}

describe('FolderContactsSection', () => {
  it('lists linked contacts with their e-mail and formatted phones', async () => {
    show({
      'GET /api/rest/folders/f1/folder_contacts': {
        body: { items: [makeLink(alan), makeLink(grace)] },
      },
    });
    const list = await screen.findByRole('list', { name: 'Linked contacts' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Alan Turing+44 20 7946 0958'),
      expect.stringContaining('Grace Hoppergrace@example.com(202) 555-0143'),
    ]);
    expect(within(rows[1]!).getByRole('link', { name: 'grace@example.com' })).toHaveAttribute(
      'href',
      'mailto:grace@example.com',
    );
  });

  it('shows an empty state', async () => {
    show({ 'GET /api/rest/folders/f1/folder_contacts': { body: { items: [] } } });
    expect(await screen.findByText('No contacts linked.')).toBeInTheDocument();
  });

  it('links a contact found by typing, and unlinks one', async () => {
    let links = [makeLink(alan)];
    const { calls } = show({
      'GET /api/rest/folders/f1/folder_contacts': () => ({ body: { items: links } }),
      'POST /api/rest/private/contacts/search': { body: { items: [alan, grace] } },
      'POST /api/rest/folder_contacts': () => {
        links = [...links, makeLink(grace)];
        return { status: 201, body: makeLink(grace) };
      },
      'DELETE /api/rest/folder_contacts/l-c2': { status: 204 },
    });
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Linked contacts' });
    const picker = screen.getByRole('combobox', { name: 'Link a contact' });
    await user.click(picker);
    await user.paste('gr');
    // Already linked contacts are not offered.
    const option = await screen.findByTitle('Grace Hopper (grace@example.com · (202) 555-0143)');
    expect(screen.queryByTitle(/^Alan Turing/)).toBeNull();
    expect(callsTo(calls, 'POST /api/rest/private/contacts/search')).toHaveLength(1);
    expect(callsTo(calls, 'POST /api/rest/private/contacts/search')[0]!.body).toEqual({
      name: 'gr',
    });
    await user.click(option);
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Linked contacts' })).toHaveTextContent(
        'Grace Hopper',
      ),
    );
    expect(callsTo(calls, 'POST /api/rest/folder_contacts')[0]!.body).toEqual({
      folder_id: 'f1',
      contact_id: 'c1',
    });

    await user.click(screen.getByRole('button', { name: 'Unlink Alan Turing' }));
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Linked contacts' })).not.toHaveTextContent(
        'Alan Turing',
      ),
    );
    expect(callsTo(calls, 'DELETE /api/rest/folder_contacts/l-c2')).toHaveLength(1);
  });

  it('shows read-only members the list only', async () => {
    show(
      { 'GET /api/rest/folders/f1/folder_contacts': { body: { items: [makeLink(grace)] } } },
      'read_only',
    );
    await screen.findByRole('list', { name: 'Linked contacts' });
    expect(screen.queryByRole('combobox', { name: 'Link a contact' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Unlink/ })).toBeNull();
  });

  it('says when the contacts cannot be read', async () => {
    allowConsoleError(/^GET \/api\/rest\/folders\/f1\/folder_contacts\S* answered 500/);
    show({
      'GET /api/rest/folders/f1/folder_contacts': {
        status: 500,
        body: { message: 'Boom', code: 'x' },
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not get contacts.');
  });
});
