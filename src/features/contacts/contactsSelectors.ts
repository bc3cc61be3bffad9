/** Selectors of the CRM contacts feature. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';
import { selectCurrentRole } from '../session/sessionSelectors';

/** The whole contacts slice. */
export const selectContacts = (state: RootState) => state.contacts;
/** The side panel folder's contacts. */
export const selectFolderContacts = (state: RootState) => state.contacts.folder;
/** The picker's search. */
export const selectContactPicker = (state: RootState) => state.contacts.picker;
/** The admin tab's list. */
export const selectAdminContacts = (state: RootState) => state.contacts.admin;
/** The admin tab's phone numbers editor: the contact edited and its save. */
export const selectContactPhonesEdit = (state: RootState) => state.contacts.phones;
/** The admin tab's CSV import. */
export const selectContactImport = (state: RootState) => state.contacts.import;

/** Whether the session may link and unlink contacts (members and administrators). */
export const selectCanLinkContacts = createSelector(
  [selectCurrentRole],
  (role) => role === 'admin' || role === 'member',
);

/** The picker's answers less the contacts already linked to the panel's folder. */
export const selectPickerOptions = createSelector(
  [selectContactPicker, selectFolderContacts],
  (picker, folder) => {
    const linked = new Set(folder.items.map((item) => item.contact_id));
    return picker.items.filter((contact) => !linked.has(contact.id));
  },
);
