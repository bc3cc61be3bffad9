/**
 * Side effects of the CRM contacts feature. Every worker is wrapped with
 * `safely`. The picker and the admin list search as the user types: each change restarts the
 * worker (takeLatest), which waits CONTACT_SEARCH_DEBOUNCE_MS before asking, so a fast typist
 * sends one query for the last text; a newer change cancels an older worker's call, and the
 * slice drops any answer whose query is no longer the text typed.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import {
  all,
  call,
  delay,
  put,
  select,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import { CONTACT_MESSAGES } from '@common/contacts';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { notificationsActions } from '../notifications/notificationsSlice';
import * as contactsApi from './contactsApi';
import { selectAdminContacts } from './contactsSelectors';
import { contactsActions } from './contactsSlice';
import type { Saga } from '@src/sagas/saga';
import { listError } from '@src/api/client';

/** Pause after the last keystroke before a search is sent, in milliseconds. */
export const CONTACT_SEARCH_DEBOUNCE_MS = 300;

/** Reads the contacts of the side panel's folder. */
export function* loadFolderContacts(action: PayloadAction<string>): Saga {
  const folderId = action.payload;
  try {
    const items = yield* call(contactsApi.fetchFolderContacts, folderId);
    yield* put(contactsActions.folderContactsLoaded({ folderId, items }));
  } catch (error) {
    yield* put(
      contactsActions.folderContactsFailed({
        folderId,
        error: listError(CONTACT_MESSAGES.couldNotGetContacts, error),
      }),
    );
  }
}

/** The picker's text changed: after a pause, search for it (nothing for blank text). */
export function* searchPicker(action: PayloadAction<string>): Saga {
  const query = action.payload;
  if (query.trim() === '') return;
  yield* delay(CONTACT_SEARCH_DEBOUNCE_MS);
  try {
    const items = yield* call(contactsApi.searchContacts, query);
    yield* put(contactsActions.pickerResultsLoaded({ query, items }));
  } catch (error) {
    yield* put(
      contactsActions.pickerFailed({
        query,
        error: listError(CONTACT_MESSAGES.couldNotGetContacts, error),
      }),
    );
  }
}

/** The admin list's text changed: after a pause ('' at once), search for it. */
export function* searchAdmin(action: PayloadAction<string>): Saga {
  const query = action.payload;
  if (query !== '') yield* delay(CONTACT_SEARCH_DEBOUNCE_MS);
  try {
    const items = yield* call(contactsApi.searchContacts, query);
    yield* put(contactsActions.adminResultsLoaded({ query, items }));
  } catch (error) {
    yield* put(
      contactsActions.adminFailed({
        query,
        error: listError(CONTACT_MESSAGES.couldNotGetContacts, error),
      }),
    );
  }
}

/** Links a contact to a folder (POST REST/folder_contacts). */
export function* linkContact(action: PayloadAction<{ folderId: string; contactId: string }>): Saga {
  try {
    const link = yield* call(
      contactsApi.linkContact,
      action.payload.folderId,
      action.payload.contactId,
    );
    yield* put(contactsActions.linked(link));
    yield* put(
      notificationsActions.infoMessageRequested({
        text: `${link.contact_name} was linked.`,
        kind: 'success',
      }),
    );
  } catch (error) {
    yield* put(contactsActions.linkFailed(errorMessage(error)));
  }
}

/** Unlinks a contact from a folder (DELETE REST/folder_contacts/{id}?contact_id). */
export function* unlinkContact(action: PayloadAction<{ linkId: string; contactId: string }>): Saga {
  const { linkId, contactId } = action.payload;
  try {
    yield* call(contactsApi.unlinkContact, linkId, contactId);
    yield* put(contactsActions.unlinked(linkId));
  } catch (error) {
    yield* put(contactsActions.unlinkFailed({ linkId, error: errorMessage(error) }));
  }
}

/** Imports a CSV text; then the admin list is read again. */
export function* importContacts(action: PayloadAction<{ fileName: string; csv: string }>): Saga {
  try {
    const result = yield* call(contactsApi.importContacts, action.payload.csv);
    yield* put(contactsActions.imported(result));
    const admin = yield* select(selectAdminContacts);
    yield* put(contactsActions.adminSearchChanged(admin.query));
  } catch (error) {
    yield* put(contactsActions.importFailed(errorMessage(error)));
  }
}

/** Saves a contact's phone numbers (PATCH REST/private/contacts/{id}) and says so. */
export function* saveContactPhones(
  action: PayloadAction<{ contactId: string; phones: string[] }>,
): Saga {
  const { contactId, phones } = action.payload;
  try {
    const contact = yield* call(contactsApi.updateContactPhones, contactId, phones);
    yield* put(contactsActions.phonesSaved(contact));
    yield* put(
      notificationsActions.infoMessageRequested({
        text: `Phone numbers of ${contact.name} saved.`,
        kind: 'success',
      }),
    );
  } catch (error) {
    yield* put(contactsActions.phonesSaveFailed({ contactId, error: errorMessage(error) }));
  }
}

/** The CRM contacts feature saga. */
export function* contactsSaga(): Saga {
  yield* all([
    takeLatest(contactsActions.folderContactsRequested.type, safely(loadFolderContacts)),
    takeLatest(contactsActions.pickerQueryChanged.type, safely(searchPicker)),
    takeLatest(contactsActions.adminSearchChanged.type, safely(searchAdmin)),
    takeEvery(contactsActions.linkRequested.type, safely(linkContact)),
    takeEvery(contactsActions.unlinkRequested.type, safely(unlinkContact)),
    takeLeading(contactsActions.importRequested.type, safely(importContacts)),
    takeLeading(contactsActions.phonesSaveRequested.type, safely(saveContactPhones)),
  ]);
}
