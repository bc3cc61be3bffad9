/**
 * Side effects of the advisor's document requests: loading a tab of the list, one request, the
 * templates with the index fields of the checklist editor, and a folder's contact e-mails when
 * the create dialog opens; creating a request (a success toast, or a warning when mail failed);
 * the review actions (remind, cancel, accept, reject), each answered with the whole request,
 * which replaces the one in the store; and the template changes. A refusal's message is the
 * server's, shown verbatim. Every worker is wrapped with `safely`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, takeEvery, takeLatest } from 'typed-redux-saga';
import type { FolderContactDto } from '@common/contacts';
import type {
  CreateDocumentRequestRequest,
  DocumentRequestDto,
  RequestTemplateInput,
} from '@common/documentRequests';
import type { IndexFieldDto } from '@common/indexFields';
import { errorMessage } from '@src/api/client';
import type { Saga } from '@src/sagas/saga';
import { safely } from '@src/sagas/safely';
import { notificationsActions } from '../notifications/notificationsSlice';
import { notifySuccess } from '../notifications/notifySuccess';
import * as api from './documentRequestsApi';
import type { RequestListTab } from './documentRequestsApi';
import {
  COULD_NOT_LOAD_REQUEST,
  COULD_NOT_LOAD_REQUESTS,
  COULD_NOT_LOAD_TEMPLATES,
  documentRequestsActions as actions,
  type ContactEmail,
  type FieldChoice,
} from './documentRequestsSlice';

/** The toast once a request is created. */
export function requestSentText(recipients: number): string {
  return recipients === 1
    ? 'Request sent to 1 recipient.'
    : `Request sent to ${recipients} recipients.`;
}
/** The warning when the request was kept but an e-mail could not be sent. */
export const MAIL_FAILED_TEXT =
  'The request was created, but at least one e-mail could not be sent. Copy the links below and send them yourself.';
/** The toast once a reminder went out. */
export const REMINDER_SENT_TEXT = 'Reminder sent.';
/** The toast once a request is cancelled. */
export const REQUEST_CANCELLED_TEXT = 'Request cancelled.';

/** A failure's text: the lead-in, then the server's reason. */
function failure(lead: string, error: unknown): string {
  return `${lead} ${errorMessage(error)}`.trim();
}

/** The live index fields as the checklist editor offers them. */
export function fieldChoices(fields: IndexFieldDto[]): FieldChoice[] {
  return fields
    .filter((f) => f.archived_at === null && f.deleted_at === null)
    .map((f) => ({ id: f.id, name: f.name, type: f.type, values: f.values.map((v) => v.value) }));
}

/** The linked contacts' e-mails, each once, lowercased, by name. */
export function contactEmails(links: FolderContactDto[]): ContactEmail[] {
  const seen = new Set<string>();
  const out: ContactEmail[] = [];
  for (const link of links) {
    const email = link.contact.email?.trim().toLowerCase();
    if (!email || seen.has(email)) continue;
    seen.add(email);
    out.push({ name: link.contact.name, email });
  }
  return out;
}

/**
 * Keeps the request's password out of the developer tools' action log. Other actions are
 * returned unchanged.
 */
export function sanitizeDocumentRequestsAction<A extends { type: string }>(action: A): A {
  if (actions.createRequested.match(action) && action.payload.password) {
    return { ...action, payload: { ...action.payload, password: '••••••' } };
  }
  return action;
}

/** Loads one tab of the firm's requests. */
export function* loadList(action: PayloadAction<{ tab: RequestListTab }>): Saga {
  const { tab } = action.payload;
  try {
    const items = yield* call(api.fetchRequests, tab);
    yield* put(actions.listLoaded({ tab, items }));
  } catch (error) {
    yield* put(actions.listFailed({ tab, error: failure(COULD_NOT_LOAD_REQUESTS, error) }));
  }
}

/** Loads the request of the request page. */
export function* loadRequest(action: PayloadAction<{ requestId: string }>): Saga {
  const { requestId } = action.payload;
  try {
    const request = yield* call(api.fetchRequest, requestId);
    yield* put(actions.requestLoaded(request));
  } catch (error) {
    yield* put(actions.requestFailed({ requestId, error: failure(COULD_NOT_LOAD_REQUEST, error) }));
  }
}

/** Loads the templates. */
function* loadTemplates(): Saga {
  try {
    const items = yield* call(api.fetchTemplates);
    yield* put(actions.templatesLoaded(items));
  } catch (error) {
    yield* put(actions.templatesFailed(failure(COULD_NOT_LOAD_TEMPLATES, error)));
  }
}

/** Loads the index fields (their failure leaves the editor without fields). */
function* loadFields(): Saga {
  try {
    const fields = yield* call(api.fetchFields);
    yield* put(actions.fieldsLoaded(fieldChoices(fields)));
  } catch (error) {
    yield* put(actions.fieldsFailed(errorMessage(error)));
  }
}

/** Loads the folder's contact e-mails (their failure leaves the recipients to be typed). */
function* loadContacts(folderId: string): Saga {
  try {
    const links = yield* call(api.fetchContacts, folderId);
    yield* put(actions.contactsLoaded({ folderId, items: contactEmails(links) }));
  } catch (error) {
    yield* put(actions.contactsFailed({ folderId, error: errorMessage(error) }));
  }
}

/** The templates admin section opened: its templates and the editor's index fields. */
export function* openTemplatesPage(): Saga {
  yield* all({ templates: call(loadTemplates), fields: call(loadFields) });
}

/** The create dialog opened: the templates, the index fields and the folder's contacts. */
export function* openCreateDialog(action: PayloadAction<{ folderId: string }>): Saga {
  yield* all({
    templates: call(loadTemplates),
    fields: call(loadFields),
    contacts: call(loadContacts, action.payload.folderId),
  });
}

/** Creates a request: a success toast, and a warning when an e-mail could not be sent. */
export function* createRequest(action: PayloadAction<CreateDocumentRequestRequest>): Saga {
  try {
    const answer = yield* call(api.createRequest, action.payload);
    yield* put(actions.createSucceeded(answer));
    yield* notifySuccess(requestSentText(answer.request.recipients.length));
    if (answer.mail_failed) {
      yield* put(
        notificationsActions.infoMessageRequested({ text: MAIL_FAILED_TEXT, kind: 'warning' }),
      );
    }
  } catch (error) {
    yield* put(actions.createFailed(errorMessage(error)));
  }
}

/** Runs one review action; the answered request replaces the one in the store. */
function* reviewAction(
  run: () => Promise<DocumentRequestDto>,
  done?: string,
): Saga<DocumentRequestDto | null> {
  try {
    const request = yield* call(run);
    yield* put(actions.actionSucceeded(request));
    if (done) yield* notifySuccess(done);
    return request;
  } catch (error) {
    yield* put(actions.actionFailed(errorMessage(error)));
    return null;
  }
}

/** Sends a reminder to the request's recipients. */
export function* remind(action: PayloadAction<{ requestId: string }>) {
  yield* reviewAction(() => api.remindRequest(action.payload.requestId), REMINDER_SENT_TEXT);
}

/** Cancels a request. */
export function* cancel(action: PayloadAction<{ requestId: string }>) {
  yield* reviewAction(() => api.cancelRequest(action.payload.requestId), REQUEST_CANCELLED_TEXT);
}

/** Accepts a received item. */
export function* accept(action: PayloadAction<{ requestId: string; itemId: string }>) {
  const { requestId, itemId } = action.payload;
  yield* reviewAction(() => api.acceptItem(requestId, itemId));
}

/** Rejects a received item with the reason the client will read. */
export function* reject(
  action: PayloadAction<{ requestId: string; itemId: string; reason: string }>,
) {
  const { requestId, itemId, reason } = action.payload;
  yield* reviewAction(() => api.rejectItem(requestId, itemId, reason));
}

/** Creates a template. */
export function* createTemplate(action: PayloadAction<RequestTemplateInput>): Saga {
  try {
    const saved = yield* call(api.createTemplate, action.payload);
    yield* put(actions.templateSaved(saved));
  } catch (error) {
    yield* put(actions.templateChangeFailed(errorMessage(error)));
  }
}

/** Changes a template. */
export function* updateTemplate(
  action: PayloadAction<{ id: string; changes: RequestTemplateInput }>,
): Saga {
  try {
    const saved = yield* call(api.updateTemplate, action.payload.id, action.payload.changes);
    yield* put(actions.templateSaved(saved));
  } catch (error) {
    yield* put(actions.templateChangeFailed(errorMessage(error)));
  }
}

/** Deletes a template. */
export function* deleteTemplate(action: PayloadAction<{ id: string }>): Saga {
  try {
    yield* call(api.deleteTemplate, action.payload.id);
    yield* put(actions.templateDeleted({ id: action.payload.id }));
  } catch (error) {
    yield* put(actions.templateChangeFailed(errorMessage(error)));
  }
}

/** The document requests feature saga. */
export function* documentRequestsSaga(): Saga {
  yield* all([
    takeLatest(actions.listRequested.type, safely(loadList)),
    takeLatest(actions.requestOpened.type, safely(loadRequest)),
    takeLatest(actions.templatesPageOpened.type, safely(openTemplatesPage)),
    takeLatest(actions.createDialogOpened.type, safely(openCreateDialog)),
    takeEvery(actions.createRequested.type, safely(createRequest)),
    takeEvery(actions.remindRequested.type, safely(remind)),
    takeEvery(actions.cancelRequested.type, safely(cancel)),
    takeEvery(actions.itemAcceptRequested.type, safely(accept)),
    takeEvery(actions.itemRejectRequested.type, safely(reject)),
    takeEvery(actions.templateCreateRequested.type, safely(createTemplate)),
    takeEvery(actions.templateUpdateRequested.type, safely(updateTemplate)),
    takeEvery(actions.templateDeleteRequested.type, safely(deleteTemplate)),
  ]);
}
