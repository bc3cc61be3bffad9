/**
 * The CRM contacts slice: the contacts linked to the folder of the side panel,
 * the search-as-you-type picker that links one, and the admin tab's searchable list and CSV
 * import, and the phone numbers' editor of one contact. Search answers carry the query they answer; an answer to an older query than the one
 * now typed is dropped (the saga also cancels it), so only the latest answer is shown.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ContactDto, ContactImportResult, FolderContactDto } from '@common/contacts';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** A search-as-you-type list: the text typed and the answer to it. */
export interface ContactSearchState {
  /** The text as typed now. */
  query: string;
  status: Status;
  error: string | null;
  /** The query `items` answer ('' before any answer). */
  answered: string;
  items: ContactDto[];
}

/** The state of the CRM contacts feature. */
export interface ContactsState {
  /** The contacts of the folder shown in the side panel. */
  folder: {
    folderId: string | null;
    status: Status;
    error: string | null;
    items: FolderContactDto[];
  };
  /** The side panel's picker. */
  picker: ContactSearchState;
  /** A link in flight, or its failure. */
  link: { status: Status; error: string | null };
  /** Links being removed (their ids). */
  unlinking: string[];
  unlinkError: string | null;
  /** The admin tab's searchable list. */
  admin: ContactSearchState;
  /** The admin tab's CSV import: the file's name and the answer. */
  import: {
    status: Status;
    error: string | null;
    fileName: string | null;
    result: ContactImportResult | null;
  };
  /** The admin tab's phone numbers editor: the contact edited (null: closed) and its save. */
  phones: { contactId: string | null; status: Status; error: string | null };
}

const emptySearch: ContactSearchState = {
  query: '',
  status: 'idle',
  error: null,
  answered: '',
  items: [],
};

/** The state before anything is loaded. */
export const initialContactsState: ContactsState = {
  folder: { folderId: null, status: 'idle', error: null, items: [] },
  picker: emptySearch,
  link: { status: 'idle', error: null },
  unlinking: [],
  unlinkError: null,
  admin: emptySearch,
  import: { status: 'idle', error: null, fileName: null, result: null },
  phones: { contactId: null, status: 'idle', error: null },
};

function byName(a: FolderContactDto, b: FolderContactDto): number {
  const x = a.contact_name.toLowerCase();
  const y = b.contact_name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

const slice = createSlice({
  name: 'contacts',
  initialState: initialContactsState,
  reducers: {
    /** The side panel shows a folder: read its contacts. */
    folderContactsRequested(state, action: PayloadAction<string>) {
      if (state.folder.folderId !== action.payload) {
        state.folder.items = [];
        state.picker = emptySearch;
        state.link = { status: 'idle', error: null };
        state.unlinkError = null;
      }
      state.folder.folderId = action.payload;
      state.folder.status = 'loading';
      state.folder.error = null;
    },
    folderContactsLoaded(
      state,
      action: PayloadAction<{ folderId: string; items: FolderContactDto[] }>,
    ) {
      if (state.folder.folderId !== action.payload.folderId) return;
      state.folder = { ...state.folder, status: 'succeeded', items: action.payload.items };
    },
    folderContactsFailed(state, action: PayloadAction<{ folderId: string; error: string }>) {
      if (state.folder.folderId !== action.payload.folderId) return;
      state.folder.status = 'failed';
      state.folder.error = action.payload.error;
    },
    /** The picker's text changed (the saga searches after a pause). */
    pickerQueryChanged(state, action: PayloadAction<string>) {
      state.picker.query = action.payload;
      state.picker.error = null;
      if (action.payload.trim() === '') {
        state.picker.status = 'idle';
        state.picker.items = [];
        state.picker.answered = '';
      } else {
        state.picker.status = 'loading';
      }
    },
    /** An answer of the picker's search; dropped unless it answers the text typed now. */
    pickerResultsLoaded(state, action: PayloadAction<{ query: string; items: ContactDto[] }>) {
      if (action.payload.query !== state.picker.query) return;
      state.picker.status = 'succeeded';
      state.picker.answered = action.payload.query;
      state.picker.items = action.payload.items;
    },
    pickerFailed(state, action: PayloadAction<{ query: string; error: string }>) {
      if (action.payload.query !== state.picker.query) return;
      state.picker.status = 'failed';
      state.picker.error = action.payload.error;
    },
    /** Link a contact to the panel's folder. */
    linkRequested(state, _action: PayloadAction<{ folderId: string; contactId: string }>) {
      state.link = { status: 'loading', error: null };
    },
    linked(state, action: PayloadAction<FolderContactDto>) {
      state.link = { status: 'succeeded', error: null };
      state.picker = emptySearch;
      if (state.folder.folderId !== action.payload.folder_id) return;
      if (!state.folder.items.some((item) => item.id === action.payload.id)) {
        state.folder.items.push(action.payload);
        state.folder.items.sort(byName);
      }
    },
    linkFailed(state, action: PayloadAction<string>) {
      state.link = { status: 'failed', error: action.payload };
    },
    /** Unlink a contact from the panel's folder. */
    unlinkRequested(state, action: PayloadAction<{ linkId: string; contactId: string }>) {
      if (!state.unlinking.includes(action.payload.linkId))
        state.unlinking.push(action.payload.linkId);
      state.unlinkError = null;
    },
    unlinked(state, action: PayloadAction<string>) {
      state.unlinking = state.unlinking.filter((id) => id !== action.payload);
      state.folder.items = state.folder.items.filter((item) => item.id !== action.payload);
    },
    unlinkFailed(state, action: PayloadAction<{ linkId: string; error: string }>) {
      state.unlinking = state.unlinking.filter((id) => id !== action.payload.linkId);
      state.unlinkError = action.payload.error;
    },
    /** The admin list's search text changed, or the tab opened ('' lists the first 50). */
    adminSearchChanged(state, action: PayloadAction<string>) {
      state.admin.query = action.payload;
      state.admin.status = 'loading';
      state.admin.error = null;
    },
    adminResultsLoaded(state, action: PayloadAction<{ query: string; items: ContactDto[] }>) {
      if (action.payload.query !== state.admin.query) return;
      state.admin.status = 'succeeded';
      state.admin.answered = action.payload.query;
      state.admin.items = action.payload.items;
    },
    adminFailed(state, action: PayloadAction<{ query: string; error: string }>) {
      if (action.payload.query !== state.admin.query) return;
      state.admin.status = 'failed';
      state.admin.error = action.payload.error;
    },
    /** A CSV file was read as text: import it. */
    importRequested(state, action: PayloadAction<{ fileName: string; csv: string }>) {
      state.import = {
        status: 'loading',
        error: null,
        fileName: action.payload.fileName,
        result: null,
      };
    },
    imported(state, action: PayloadAction<ContactImportResult>) {
      state.import.status = 'succeeded';
      state.import.result = action.payload;
    },
    importFailed(state, action: PayloadAction<string>) {
      state.import.status = 'failed';
      state.import.error = action.payload;
    },
    /** The administrator opened the phone numbers editor of a contact. */
    phonesEditOpened(state, action: PayloadAction<{ contactId: string }>) {
      state.phones = { contactId: action.payload.contactId, status: 'idle', error: null };
    },
    phonesEditClosed(state) {
      state.phones = initialContactsState.phones;
    },
    /** Save the contact's phone numbers, as typed (checked with parsePhone before). */
    phonesSaveRequested(state, _action: PayloadAction<{ contactId: string; phones: string[] }>) {
      state.phones.status = 'loading';
      state.phones.error = null;
    },
    /** The server answered the contact with its new phones: the lists show them, the editor closes. */
    phonesSaved(state, action: PayloadAction<ContactDto>) {
      const contact = action.payload;
      for (const list of [state.admin.items, state.picker.items]) {
        const index = list.findIndex((item) => item.id === contact.id);
        if (index !== -1) list[index] = contact;
      }
      for (const link of state.folder.items) {
        if (link.contact_id === contact.id) link.contact = contact;
      }
      if (state.phones.contactId === contact.id) state.phones = initialContactsState.phones;
    },
    phonesSaveFailed(state, action: PayloadAction<{ contactId: string; error: string }>) {
      if (state.phones.contactId !== action.payload.contactId) return;
      state.phones.status = 'failed';
      state.phones.error = action.payload.error;
    },
  },
  extraReducers: (builder) => {
    // Sign-out, expiry and a firm switch drop another firm's contacts.
    builder
      .addCase(sessionActions.signedOut, () => initialContactsState)
      .addCase(sessionActions.expired, () => initialContactsState)
      .addCase(sessionActions.endedInAnotherTab, () => initialContactsState)
      .addCase(sessionActions.databaseSwitched, () => initialContactsState);
  },
});

export const contactsActions = slice.actions;
export const contactsReducer = slice.reducer;
