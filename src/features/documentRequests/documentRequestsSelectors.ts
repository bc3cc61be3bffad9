/** Selectors of the advisor's document requests. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';
import { selectCurrentRole } from '../session/sessionSelectors';
import type { DocumentRequestsState } from './documentRequestsSlice';

/** The list page's tab and its requests. */
export const selectRequestList = (state: RootState): DocumentRequestsState['list'] =>
  state.documentRequests.list;
/** The request page's request as last answered. */
export const selectRequestDetail = (state: RootState): DocumentRequestsState['detail'] =>
  state.documentRequests.detail;
/** The last review action and its outcome. */
export const selectRequestAction = (state: RootState): DocumentRequestsState['action'] =>
  state.documentRequests.action;
/** The firm's request templates. */
export const selectRequestTemplates = (state: RootState): DocumentRequestsState['templates'] =>
  state.documentRequests.templates;
/** The last template change and its outcome. */
export const selectTemplateChange = (state: RootState): DocumentRequestsState['templateChange'] =>
  state.documentRequests.templateChange;
/** The create dialog's folder, sending and answer. */
export const selectCreateRequest = (state: RootState): DocumentRequestsState['create'] =>
  state.documentRequests.create;
/** The index fields the checklist editor offers. */
export const selectChecklistFields = (state: RootState): DocumentRequestsState['fields'] =>
  state.documentRequests.fields;
/** The create dialog's folder's contact e-mails. */
export const selectFolderContactEmails = (state: RootState): DocumentRequestsState['contacts'] =>
  state.documentRequests.contacts;

/** The recipient choices of the create dialog: each contact's e-mail labelled with the name. */
export const selectRecipientOptions = createSelector([selectFolderContactEmails], (contacts) =>
  contacts.items.map((c) => ({ value: c.email, label: `${c.name} <${c.email}>` })),
);

/** Whether the session may ask clients for documents (members and administrators, not read-only). */
export const selectCanRequestDocuments = createSelector(
  [selectCurrentRole],
  (role) => role === 'admin' || role === 'member',
);
