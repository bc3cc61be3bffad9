// Contacts sagas and slice: typing fast sends one debounced query and shows only the latest
// answer (an older answer arriving late is dropped); link, unlink and import against a store.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { CONTACT_SEARCH_DEBOUNCE_MS } from '@src/features/contacts/contactsSagas';
import {
  contactsActions,
  contactsReducer,
  initialContactsState,
} from '@src/features/contacts/contactsSlice';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { makeContact, makeLink } from './contactsFixtures';
import { allowConsoleError } from '../../consoleErrors';

let store: AppStore | undefined;

function start(routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  return { ...stub, ...recording, store: recording.store };
}

afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('contact picker search', () => {
  it('sends one debounced query for fast typing and shows only the latest answer', async () => {
    const grace = makeContact();
    const gra = makeContact({ id: 'c2', name: 'Gral Gruber' });
    let release: (() => void) | undefined;
    const { calls, store } = start({
      'POST /api/rest/private/contacts/search': async (call) => {
        const { name } = call.body as { name: string };
        if (name === 'gra') {
          // The older query's answer arrives late, after the newer one.
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return { body: { items: [gra] } };
        }
        return { body: { items: [grace] } };
      },
    });
    for (const text of ['g', 'gr', 'gra']) store.dispatch(contactsActions.pickerQueryChanged(text));
    expect(callsTo(calls, 'POST /api/rest/private/contacts/search')).toHaveLength(0);
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/private/contacts/search')).toHaveLength(1),
    );
    expect(calls[0]!.body).toEqual({ name: 'gra' });
    // While "gra" is in flight the user types on.
    store.dispatch(contactsActions.pickerQueryChanged('grace'));
    await waitFor(() => expect(store.getState().contacts.picker.status).toBe('succeeded'));
    expect(store.getState().contacts.picker.items).toEqual([grace]);
    expect(callsTo(calls, 'POST /api/rest/private/contacts/search').map((c) => c.body)).toEqual([
      { name: 'gra' },
      { name: 'grace' },
    ]);
    release?.();
    await sleep(CONTACT_SEARCH_DEBOUNCE_MS);
    expect(store.getState().contacts.picker).toMatchObject({
      query: 'grace',
      answered: 'grace',
      items: [grace],
    });
  });

  it('drops an answer to a query that is no longer the text typed (slice)', () => {
    let state = contactsReducer(initialContactsState, contactsActions.pickerQueryChanged('ada'));
    state = contactsReducer(state, contactsActions.pickerQueryChanged('ada k'));
    state = contactsReducer(
      state,
      contactsActions.pickerResultsLoaded({ query: 'ada', items: [makeContact()] }),
    );
    expect(state.picker).toMatchObject({ status: 'loading', items: [], answered: '' });
    state = contactsReducer(state, contactsActions.pickerQueryChanged(''));
    expect(state.picker.status).toBe('idle');
  });

  it('sends nothing for blank text', async () => {
    const { calls, store } = start({});
    store.dispatch(contactsActions.pickerQueryChanged('   '));
    await sleep(CONTACT_SEARCH_DEBOUNCE_MS + 50);
    expect(calls).toHaveLength(0);
  });
});

describe('folder contacts', () => {
  it('reads, links and unlinks, keeping the list by name', async () => {
    const grace = makeContact();
    const ada = makeContact({ id: 'c0', name: 'Ada King', email: null });
    const { calls, store } = start({
      'GET /api/rest/folders/f1/folder_contacts': { body: { items: [makeLink(grace)] } },
      'POST /api/rest/folder_contacts': { status: 201, body: makeLink(ada) },
      'DELETE /api/rest/folder_contacts/l-c1': { status: 204 },
    });
    store.dispatch(contactsActions.folderContactsRequested('f1'));
    await waitFor(() => expect(store.getState().contacts.folder.status).toBe('succeeded'));
    store.dispatch(contactsActions.linkRequested({ folderId: 'f1', contactId: 'c0' }));
    await waitFor(() => expect(store.getState().contacts.folder.items).toHaveLength(2));
    expect(store.getState().contacts.folder.items.map((i) => i.contact_name)).toEqual([
      'Ada King',
      'Grace Hopper',
    ]);
    expect(callsTo(calls, 'POST /api/rest/folder_contacts')[0]!.body).toEqual({
      folder_id: 'f1',
      contact_id: 'c0',
    });
    store.dispatch(contactsActions.unlinkRequested({ linkId: 'l-c1', contactId: 'c1' }));
    await waitFor(() => expect(store.getState().contacts.folder.items).toHaveLength(1));
    expect(callsTo(calls, 'DELETE /api/rest/folder_contacts/l-c1')[0]!.url).toBe(
      '/api/rest/folder_contacts/l-c1?contact_id=c1',
    );
  });

  it("shows the server's message when a link fails", async () => {
    allowConsoleError(/^POST \/api\/rest\/folder_contacts\S* answered 409/);
    const { store } = start({
      'POST /api/rest/folder_contacts': {
        status: 409,
        body: { message: 'This contact is already linked to the folder.', code: 'already_linked' },
      },
    });
    store.dispatch(contactsActions.linkRequested({ folderId: 'f1', contactId: 'c1' }));
    await waitFor(() => expect(store.getState().contacts.link.status).toBe('failed'));
    expect(store.getState().contacts.link.error).toBe(
      'This contact is already linked to the folder.',
    );
  });
});

describe('CSV import', () => {
  it('posts the text, keeps the answer and reads the list again', async () => {
    const result = {
      created: 2,
      updated: 1,
      rejected: [{ line: 3, reason: 'A contact name is required.' }],
    };
    const { calls, store } = start({
      'POST /api/rest/private/contacts/import': { body: result },
      'POST /api/rest/private/contacts/search': { body: { items: [makeContact()] } },
    });
    store.dispatch(contactsActions.importRequested({ fileName: 'crm.csv', csv: 'name\nA\n' }));
    await waitFor(() => expect(store.getState().contacts.import.status).toBe('succeeded'));
    expect(store.getState().contacts.import.result).toEqual(result);
    expect(callsTo(calls, 'POST /api/rest/private/contacts/import')[0]!.body).toEqual({
      csv: 'name\nA\n',
    });
    await waitFor(() => expect(store.getState().contacts.admin.items).toHaveLength(1));
  });
});
