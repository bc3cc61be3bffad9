/**
 * The examiner's export slice (administrators): whether the dialog is open and for which folder,
 * the contact chooser's search, and the export asked for — its request, then its progress as the
 * server reports it while the browser downloads the zip. Sign-out, an ended session and a firm
 * switch empty it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ContactDto } from '@common/contacts';
import type { ExaminerExportDto, ExaminerScope, ExportVersions } from '@common/examinerExport';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** Shown when the export cannot be asked for (followed by the server's reason). */
export const COULD_NOT_EXPORT = 'Could not start the export.';
/** Shown when the progress cannot be read (the download itself may go on). */
export const COULD_NOT_READ_PROGRESS =
  'Could not read the export’s progress. The download may still be running in your browser.';
/** Shown when contacts cannot be searched (followed by the server's reason). */
export const COULD_NOT_SEARCH_CONTACTS = 'Could not search contacts.';

/** A contact as the chooser offers it. */
export interface ContactChoice {
  id: string;
  name: string;
  /** E-mail or phone, to tell contacts of one name apart ('' when none). */
  detail: string;
}

/** State of the examiner's export feature. */
export interface ExaminerExportState {
  /** The dialog (from a folder's side panel) is open. */
  dialogOpen: boolean;
  /** The folder the dialog was opened for, or null (the admin page offers no folder). */
  folder: { id: string; name: string } | null;
  /** The contact chooser: the text searched and its matches. */
  contacts: { status: Status; query: string; items: ContactChoice[]; error: string | null };
  /** The request of the export (POST examiner_exports). */
  status: Status;
  error: string | null;
  /** The export asked for, as last reported (progress), or null. */
  current: ExaminerExportDto | null;
  /** Reading the progress failed the last time (the download may still go on). */
  progressError: string | null;
}

/** The state before anything is asked. */
const initialExaminerExportState: ExaminerExportState = {
  dialogOpen: false,
  folder: null,
  contacts: { status: 'idle', query: '', items: [], error: null },
  status: 'idle',
  error: null,
  current: null,
  progressError: null,
};

/** The contact chooser's entries of search results. */
export function contactChoices(items: ContactDto[]): ContactChoice[] {
  return items.map((c) => ({
    id: c.id,
    name: c.name,
    detail: [c.email, ...c.phones_display].filter(Boolean).join(' · '),
  }));
}

const slice = createSlice({
  name: 'examinerExport',
  initialState: initialExaminerExportState,
  reducers: {
    /** The dialog was opened for a folder (its side panel). A finished export is forgotten. */
    dialogOpened(state, action: PayloadAction<{ id: string; name: string }>) {
      state.dialogOpen = true;
      state.folder = action.payload;
      if (state.status !== 'loading' && !isActive(state.current)) {
        state.current = null;
        state.status = 'idle';
        state.error = null;
        state.progressError = null;
      }
    },
    /** The dialog was closed (the download, if any, goes on in the browser). */
    dialogClosed(state) {
      state.dialogOpen = false;
    },
    /** The admin page was opened: it offers no folder; a finished export is forgotten. */
    pageOpened(state) {
      state.folder = null;
      if (state.status !== 'loading' && !isActive(state.current)) {
        state.current = null;
        state.status = 'idle';
        state.error = null;
        state.progressError = null;
      }
    },
    /** The contact chooser's text changed: search for it after a pause. */
    contactQueryChanged(state, action: PayloadAction<string>) {
      state.contacts.query = action.payload;
      state.contacts.status = action.payload.trim() === '' ? 'idle' : 'loading';
      state.contacts.error = null;
      if (action.payload.trim() === '') state.contacts.items = [];
    },
    /** Matches of a search arrived (ignored when the text changed since). */
    contactsLoaded(state, action: PayloadAction<{ query: string; items: ContactChoice[] }>) {
      if (action.payload.query !== state.contacts.query) return;
      state.contacts.status = 'succeeded';
      state.contacts.items = action.payload.items;
    },
    /** The search failed. Payload: COULD_NOT_SEARCH_CONTACTS (with the reason). */
    contactsFailed(state, action: PayloadAction<{ query: string; error: string }>) {
      if (action.payload.query !== state.contacts.query) return;
      state.contacts.status = 'failed';
      state.contacts.error = action.payload.error;
    },
    /** Export was pressed: ask for an export of the scope. */
    exportRequested(
      state,
      _action: PayloadAction<{ scope: ExaminerScope; versions: ExportVersions }>,
    ) {
      state.status = 'loading';
      state.error = null;
      state.current = null;
      state.progressError = null;
    },
    /** The export was made and its download started in the browser. */
    exportStarted(state, action: PayloadAction<ExaminerExportDto>) {
      state.status = 'succeeded';
      state.current = action.payload;
    },
    /** The export could not be asked for. Payload: COULD_NOT_EXPORT (with the reason). */
    exportFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    /** The server reported the export's progress. */
    progressLoaded(state, action: PayloadAction<ExaminerExportDto>) {
      if (state.current?.id !== action.payload.id) return;
      state.current = { ...action.payload, url: state.current.url };
      state.progressError = null;
    },
    /** The progress could not be read. Payload: COULD_NOT_READ_PROGRESS. */
    progressFailed(state, action: PayloadAction<string>) {
      state.progressError = action.payload;
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialExaminerExportState;
    builder
      .addCase(sessionActions.signedOut, reset)
      .addCase(sessionActions.expired, reset)
      .addCase(sessionActions.endedInAnotherTab, reset)
      .addCase(sessionActions.databaseSwitched, reset);
  },
});

/** Whether an export is still to be downloaded or downloading. */
export function isActive(current: ExaminerExportDto | null): boolean {
  return current !== null && (current.status === 'ready' || current.status === 'running');
}

/** Event creators of the examiner's export slice. */
export const examinerExportActions = slice.actions;
/** The examiner's export slice's reducer. */
export const examinerExportReducer = slice.reducer;
