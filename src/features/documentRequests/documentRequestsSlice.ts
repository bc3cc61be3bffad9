/**
 * The `documentRequests` slice (the advisor's side): the firm's requests of the list's tab, the
 * one request open on its page, the review action in progress with the server's refusal, the
 * request templates and their one change in progress, the create dialog's folder, sending and
 * answer (the links), and what the checklist editor offers (the firm's index fields, the folder's
 * contact e-mails). Only wire shapes and plain values: the due date is a `YYYY-MM-DD` string.
 * Sign-out, an ended session and a firm switch empty it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  CreateDocumentRequestRequest,
  CreateDocumentRequestResponse,
  DocumentRequestDto,
  DocumentRequestSummaryDto,
  RequestTemplateDto,
  RequestTemplateInput,
} from '@common/documentRequests';
import type { IndexFieldType } from '@common/indexFields';
import type { Status } from '@src/store/status';
import { upsertById } from '@src/store/listState';
import { sessionActions } from '../session/sessionSlice';
import type { RequestListTab } from './documentRequestsApi';

/** Shown when the requests cannot be loaded (followed by the server's reason). */
export const COULD_NOT_LOAD_REQUESTS = 'Could not load the requests.';
/** Shown when one request cannot be loaded (followed by the server's reason). */
export const COULD_NOT_LOAD_REQUEST = 'Could not load the request.';
/** Shown when the templates cannot be loaded (followed by the server's reason). */
export const COULD_NOT_LOAD_TEMPLATES = 'Could not load the request templates.';

/** An index field as the checklist editor offers it (live fields only). */
export interface FieldChoice {
  id: string;
  name: string;
  type: IndexFieldType;
  /** A list field's values, by position; empty for other types. */
  values: string[];
}

/** A linked contact's e-mail, offered as a recipient. */
export interface ContactEmail {
  name: string;
  email: string;
}

/** A list loaded from the server. */
export interface LoadedList<T> {
  status: Status;
  items: T[];
  error: string | null;
}

/** The review actions of a request's page. */
export type RequestActionKind = 'remind' | 'cancel' | 'accept' | 'reject';

/** What a template change is. */
export type TemplateChangeKind = 'create' | 'update' | 'delete';

/** State of the advisor's document requests. */
export interface DocumentRequestsState {
  /** The list page: the tab shown and its requests, as the server sorts them. */
  list: LoadedList<DocumentRequestSummaryDto> & { tab: RequestListTab };
  /** The request page: which request, and the request as last answered. */
  detail: {
    requestId: string | null;
    status: Status;
    request: DocumentRequestDto | null;
    error: string | null;
  };
  /** The last review action asked for: which, on which item, its state and the refusal. */
  action: {
    kind: RequestActionKind | null;
    itemId: string | null;
    status: Status;
    error: string | null;
  };
  /** The firm's request templates, by name. */
  templates: LoadedList<RequestTemplateDto>;
  /** The last template change asked for: which, its state and the server's refusal. */
  templateChange: { kind: TemplateChangeKind | null; status: Status; error: string | null };
  /** The create dialog: the folder it asks for (null: closed), the sending and the answer. */
  create: {
    folderId: string | null;
    status: Status;
    error: string | null;
    result: CreateDocumentRequestResponse | null;
  };
  /** The index fields the checklist editor offers. */
  fields: LoadedList<FieldChoice>;
  /** The e-mails of the create dialog's folder's linked contacts. */
  contacts: LoadedList<ContactEmail> & { folderId: string | null };
}

const idleList = { status: 'idle', error: null } as const;

/** The state before anything is loaded. */
export const initialDocumentRequestsState: DocumentRequestsState = {
  list: { ...idleList, items: [], tab: 'open' },
  detail: { requestId: null, status: 'idle', request: null, error: null },
  action: { kind: null, itemId: null, status: 'idle', error: null },
  templates: { ...idleList, items: [] },
  templateChange: { kind: null, status: 'idle', error: null },
  create: { folderId: null, status: 'idle', error: null, result: null },
  fields: { ...idleList, items: [] },
  contacts: { ...idleList, items: [], folderId: null },
};

/** A request without its items, as the list holds it. */
function summaryOf(request: DocumentRequestDto): DocumentRequestSummaryDto {
  const { items: _items, ...summary } = request;
  return summary;
}

/** Puts an answered request on the page (when it is the one shown) and in the list. */
function applyRequest(state: DocumentRequestsState, request: DocumentRequestDto) {
  if (state.detail.requestId === request.id) {
    state.detail.request = request;
    state.detail.status = 'succeeded';
    state.detail.error = null;
  }
  const index = state.list.items.findIndex((r) => r.id === request.id);
  if (index >= 0) state.list.items[index] = summaryOf(request);
}

function startAction(state: DocumentRequestsState, kind: RequestActionKind, itemId: string | null) {
  state.action = { kind, itemId, status: 'loading', error: null };
}

const slice = createSlice({
  name: 'documentRequests',
  initialState: initialDocumentRequestsState,
  reducers: {
    /** The list page shows a tab: load its requests. */
    listRequested(state, action: PayloadAction<{ tab: RequestListTab }>) {
      if (state.list.tab !== action.payload.tab) state.list.items = [];
      state.list.tab = action.payload.tab;
      state.list.status = 'loading';
      state.list.error = null;
    },
    /** A tab's requests arrived. */
    listLoaded(
      state,
      action: PayloadAction<{ tab: RequestListTab; items: DocumentRequestSummaryDto[] }>,
    ) {
      if (state.list.tab !== action.payload.tab) return;
      state.list = {
        tab: action.payload.tab,
        status: 'succeeded',
        items: action.payload.items,
        error: null,
      };
    },
    /** A tab's requests could not be loaded. Payload: COULD_NOT_LOAD_REQUESTS with the reason. */
    listFailed(state, action: PayloadAction<{ tab: RequestListTab; error: string }>) {
      if (state.list.tab !== action.payload.tab) return;
      state.list.status = 'failed';
      state.list.error = action.payload.error;
    },
    /** The request page opened (or a reload): load the request. */
    requestOpened(state, action: PayloadAction<{ requestId: string }>) {
      const { requestId } = action.payload;
      if (state.detail.requestId !== requestId) state.detail.request = null;
      state.detail.requestId = requestId;
      state.detail.status = 'loading';
      state.detail.error = null;
      state.action = initialDocumentRequestsState.action;
    },
    /** The request arrived. */
    requestLoaded(state, action: PayloadAction<DocumentRequestDto>) {
      applyRequest(state, action.payload);
    },
    /** The request could not be loaded. Payload: the request and the message to show. */
    requestFailed(state, action: PayloadAction<{ requestId: string; error: string }>) {
      if (state.detail.requestId !== action.payload.requestId) return;
      state.detail.status = 'failed';
      state.detail.error = action.payload.error;
    },
    /** Remind was pressed on a request. */
    remindRequested(state, _action: PayloadAction<{ requestId: string }>) {
      startAction(state, 'remind', null);
    },
    /** Cancelling a request was confirmed. */
    cancelRequested(state, _action: PayloadAction<{ requestId: string }>) {
      startAction(state, 'cancel', null);
    },
    /** Accept was pressed on a received item. */
    itemAcceptRequested(state, action: PayloadAction<{ requestId: string; itemId: string }>) {
      startAction(state, 'accept', action.payload.itemId);
    },
    /** A received item's rejection was confirmed with its reason. */
    itemRejectRequested(
      state,
      action: PayloadAction<{ requestId: string; itemId: string; reason: string }>,
    ) {
      startAction(state, 'reject', action.payload.itemId);
    },
    /** The server answered a review action with the whole refreshed request. */
    actionSucceeded(state, action: PayloadAction<DocumentRequestDto>) {
      applyRequest(state, action.payload);
      state.action.status = 'succeeded';
    },
    /** The review action was refused or failed. Payload: the server's message, verbatim. */
    actionFailed(state, action: PayloadAction<string>) {
      state.action.status = 'failed';
      state.action.error = action.payload;
    },
    /** The action's outcome was seen (its dialog closed, or the refusal dismissed). */
    actionDismissed(state) {
      if (state.action.status !== 'loading') state.action = initialDocumentRequestsState.action;
    },
    /** The templates admin section opened: load the templates and the index fields. */
    templatesPageOpened(state) {
      state.templates.status = 'loading';
      state.templates.error = null;
      state.templateChange = initialDocumentRequestsState.templateChange;
    },
    /** The templates arrived. */
    templatesLoaded(state, action: PayloadAction<RequestTemplateDto[]>) {
      state.templates = { status: 'succeeded', items: action.payload, error: null };
    },
    /** The templates could not be loaded. Payload: COULD_NOT_LOAD_TEMPLATES with the reason. */
    templatesFailed(state, action: PayloadAction<string>) {
      state.templates.status = 'failed';
      state.templates.error = action.payload;
    },
    /** Create was pressed in the template form. */
    templateCreateRequested(state, _action: PayloadAction<RequestTemplateInput>) {
      state.templateChange = { kind: 'create', status: 'loading', error: null };
    },
    /** Save was pressed in the form of an existing template. */
    templateUpdateRequested(
      state,
      _action: PayloadAction<{ id: string; changes: RequestTemplateInput }>,
    ) {
      state.templateChange = { kind: 'update', status: 'loading', error: null };
    },
    /** Deleting a template was confirmed. */
    templateDeleteRequested(state, _action: PayloadAction<{ id: string }>) {
      state.templateChange = { kind: 'delete', status: 'loading', error: null };
    },
    /** The server answered a created or changed template. */
    templateSaved(state, action: PayloadAction<RequestTemplateDto>) {
      upsertById(state.templates.items, action.payload);
      state.templates.items.sort((a, b) => a.name.localeCompare(b.name));
      state.templateChange.status = 'succeeded';
    },
    /** The template was deleted. */
    templateDeleted(state, action: PayloadAction<{ id: string }>) {
      state.templates.items = state.templates.items.filter((t) => t.id !== action.payload.id);
      state.templateChange.status = 'succeeded';
    },
    /** The template change was refused or failed. Payload: the server's message, verbatim. */
    templateChangeFailed(state, action: PayloadAction<string>) {
      state.templateChange.status = 'failed';
      state.templateChange.error = action.payload;
    },
    /** A template dialog was closed: its change's outcome is forgotten. */
    templateChangeDismissed(state) {
      if (state.templateChange.status !== 'loading') {
        state.templateChange = initialDocumentRequestsState.templateChange;
      }
    },
    /**
     * "Request documents" was pressed on a folder: the dialog opens; load the templates, the
     * index fields and the folder's contacts.
     */
    createDialogOpened(state, action: PayloadAction<{ folderId: string }>) {
      state.create = {
        folderId: action.payload.folderId,
        status: 'idle',
        error: null,
        result: null,
      };
      if (state.templates.status !== 'succeeded') state.templates.status = 'loading';
      state.contacts = {
        folderId: action.payload.folderId,
        status: 'loading',
        items: [],
        error: null,
      };
    },
    /** The create dialog was closed: its outcome and links are forgotten. */
    createDialogClosed(state) {
      state.create = initialDocumentRequestsState.create;
    },
    /** Send was pressed in the create dialog (checked on the client first). */
    createRequested(state, _action: PayloadAction<CreateDocumentRequestRequest>) {
      state.create.status = 'loading';
      state.create.error = null;
    },
    /** The request was created: the links to show, and whether mail failed. */
    createSucceeded(state, action: PayloadAction<CreateDocumentRequestResponse>) {
      state.create.status = 'succeeded';
      state.create.result = action.payload;
    },
    /** The request was refused or failed. Payload: the server's message, verbatim. */
    createFailed(state, action: PayloadAction<string>) {
      state.create.status = 'failed';
      state.create.error = action.payload;
    },
    /** The index fields arrived (archived and deleted ones left out). */
    fieldsLoaded(state, action: PayloadAction<FieldChoice[]>) {
      state.fields = { status: 'succeeded', items: action.payload, error: null };
    },
    /** The index fields could not be loaded (the editor then offers no field). */
    fieldsFailed(state, action: PayloadAction<string>) {
      state.fields.status = 'failed';
      state.fields.error = action.payload;
    },
    /** The folder's contact e-mails arrived. */
    contactsLoaded(state, action: PayloadAction<{ folderId: string; items: ContactEmail[] }>) {
      if (state.contacts.folderId !== action.payload.folderId) return;
      state.contacts.status = 'succeeded';
      state.contacts.items = action.payload.items;
    },
    /** The folder's contacts could not be read (no e-mail is offered then). */
    contactsFailed(state, action: PayloadAction<{ folderId: string; error: string }>) {
      if (state.contacts.folderId !== action.payload.folderId) return;
      state.contacts.status = 'failed';
      state.contacts.error = action.payload.error;
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialDocumentRequestsState;
    builder
      .addCase(sessionActions.signedOut, reset)
      .addCase(sessionActions.expired, reset)
      .addCase(sessionActions.endedInAnotherTab, reset)
      .addCase(sessionActions.databaseSwitched, reset);
  },
});

/** Event creators of the document requests slice. */
export const documentRequestsActions = slice.actions;
/** The document requests slice's reducer. */
export const documentRequestsReducer = slice.reducer;
