/**
 * The records management slice (administrators): the firm's retention schedules, legal holds and
 * disposition queue as last loaded, the index fields the schedule form offers, the contact
 * chooser of the hold form, the one change in progress (a save, lock, delete, target change,
 * placing or releasing a hold) with the server's refusal, the disposition approval and its
 * result, and what protects the item of the side panel. Sign-out, an ended session and a firm
 * switch empty it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { IndexFieldType } from '@common/indexFields';
import type {
  ApproveDispositionResponse,
  CreateLegalHoldRequest,
  CreateRetentionScheduleRequest,
  DispositionItemDto,
  DispositionQueueDto,
  ItemProtectionDto,
  LegalHoldDto,
  RecordsTargetRequest,
  RetentionScheduleDto,
  UpdateLegalHoldRequest,
  UpdateRetentionScheduleRequest,
} from '@common/retention';
import type { Status } from '@src/store/status';
import type { PickerFolder, PickerLevel } from '../organise/organiseSlice';
import { sessionActions } from '../session/sessionSlice';
import { upsertById } from '@src/store/listState';

/** Shown when the schedules cannot be loaded (followed by the server's reason). */
export const COULD_NOT_LOAD_SCHEDULES = 'Could not load the retention schedules.';
/** Shown when the holds cannot be loaded (followed by the server's reason). */
export const COULD_NOT_LOAD_HOLDS = 'Could not load the legal holds.';
/** Shown when the disposition queue cannot be loaded (followed by the server's reason). */
export const COULD_NOT_LOAD_DISPOSITION = 'Could not load the disposition queue.';
/** Shown when the approved files could not be deleted (followed by the server's reason). */
export const COULD_NOT_DISPOSE = 'The files were not deleted.';
/** Shown when contacts cannot be searched (followed by the server's reason). */
export const COULD_NOT_SEARCH_CONTACTS = 'Could not search contacts.';

/** A list loaded from the server. */
export interface Loaded<T> {
  status: Status;
  items: T[];
  error: string | null;
}

/** An index field as the schedule form offers it. */
export interface FieldChoice {
  id: string;
  name: string;
  type: IndexFieldType;
}

/** A contact as the hold form's chooser offers it. */
export interface ContactChoice {
  id: string;
  name: string;
  /** E-mail, to tell contacts of one name apart ('' when none). */
  detail: string;
}

/** What the one change in progress is. */
export type RecordsChangeKind =
  | 'scheduleCreate'
  | 'scheduleUpdate'
  | 'scheduleLock'
  | 'scheduleDelete'
  | 'scheduleTarget'
  | 'holdPlace'
  | 'holdUpdate'
  | 'holdTarget'
  | 'holdRelease';

/** What protects one folder or file (the side panel), as last loaded. */
export interface ProtectionEntry {
  status: Status;
  data: ItemProtectionDto | null;
  error: string | null;
}

/** State of the records management feature. */
export interface RecordsState {
  schedules: Loaded<RetentionScheduleDto>;
  holds: Loaded<LegalHoldDto>;
  /** The disposition queue: due files, all due (`total`) and the day it was worked out for. */
  disposition: Loaded<DispositionItemDto> & { total: number; today: string | null };
  /** The index fields (date fields for a basis, text and list fields for a selector). */
  fields: Loaded<FieldChoice>;
  /** The hold form's contact chooser: the text searched and its matches. */
  contacts: Loaded<ContactChoice> & { query: string };
  /** The last change asked for: which, its state and the server's refusal. */
  change: { kind: RecordsChangeKind | null; status: Status; error: string | null };
  /** The approval of the disposition queue: its state, the server's refusal, the files deleted. */
  approval: { status: Status; error: string | null; result: ApproveDispositionResponse | null };
  /** What protects each folder or file asked for, by its id. */
  protection: Record<string, ProtectionEntry>;
  /** The folder chooser's subfolders, by parent folder id (emptied when a chooser opens). */
  picker: Record<string, PickerLevel>;
}

const emptyList = { status: 'idle', items: [], error: null } as const;

/** The state before anything is loaded. */
export const initialRecordsState: RecordsState = {
  schedules: { ...emptyList, items: [] },
  holds: { ...emptyList, items: [] },
  disposition: { ...emptyList, items: [], total: 0, today: null },
  fields: { ...emptyList, items: [] },
  contacts: { ...emptyList, items: [], query: '' },
  change: { kind: null, status: 'idle', error: null },
  approval: { status: 'idle', error: null, result: null },
  protection: {},
  picker: {},
};

function startChange(state: RecordsState, kind: RecordsChangeKind) {
  state.change = { kind, status: 'loading', error: null };
}

const slice = createSlice({
  name: 'records',
  initialState: initialRecordsState,
  reducers: {
    /** The schedules page opened: load the schedules and the index fields. */
    schedulesRequested(state) {
      state.schedules.status = 'loading';
      state.schedules.error = null;
      state.change = initialRecordsState.change;
    },
    /** The schedules arrived. */
    schedulesLoaded(state, action: PayloadAction<RetentionScheduleDto[]>) {
      state.schedules = { status: 'succeeded', items: action.payload, error: null };
    },
    /** The schedules could not be loaded. Payload: COULD_NOT_LOAD_SCHEDULES (with the reason). */
    schedulesFailed(state, action: PayloadAction<string>) {
      state.schedules.status = 'failed';
      state.schedules.error = action.payload;
    },
    /** The index fields arrived (archived and deleted ones left out). */
    fieldsLoaded(state, action: PayloadAction<FieldChoice[]>) {
      state.fields = { status: 'succeeded', items: action.payload, error: null };
    },
    /** The index fields could not be loaded (the form then offers no field). */
    fieldsFailed(state, action: PayloadAction<string>) {
      state.fields.status = 'failed';
      state.fields.error = action.payload;
    },
    /** Create was pressed in the schedule form. */
    scheduleCreateRequested(state, _action: PayloadAction<CreateRetentionScheduleRequest>) {
      startChange(state, 'scheduleCreate');
    },
    /** Save was pressed in the schedule form of an existing schedule. */
    scheduleUpdateRequested(
      state,
      _action: PayloadAction<{ id: string; changes: UpdateRetentionScheduleRequest }>,
    ) {
      startChange(state, 'scheduleUpdate');
    },
    /** Lock was confirmed. */
    scheduleLockRequested(state, _action: PayloadAction<{ id: string }>) {
      startChange(state, 'scheduleLock');
    },
    /** Delete was confirmed (unlocked schedules only). */
    scheduleDeleteRequested(state, _action: PayloadAction<{ id: string }>) {
      startChange(state, 'scheduleDelete');
    },
    /** A folder was chosen to apply a schedule to. */
    scheduleTargetAddRequested(
      state,
      _action: PayloadAction<{ id: string; target: RecordsTargetRequest }>,
    ) {
      startChange(state, 'scheduleTarget');
    },
    /** Remove was pressed on a target of an unlocked schedule. */
    scheduleTargetRemoveRequested(state, _action: PayloadAction<{ id: string; targetId: string }>) {
      startChange(state, 'scheduleTarget');
    },
    /** The server answered a schedule after a change. */
    scheduleSaved(state, action: PayloadAction<RetentionScheduleDto>) {
      upsertById(state.schedules.items, action.payload);
      state.change.status = 'succeeded';
    },
    /** The schedule was deleted. */
    scheduleDeleted(state, action: PayloadAction<{ id: string }>) {
      state.schedules.items = state.schedules.items.filter((s) => s.id !== action.payload.id);
      state.change.status = 'succeeded';
    },
    /** The change was refused or failed. Payload: the server's message, verbatim. */
    changeFailed(state, action: PayloadAction<string>) {
      state.change.status = 'failed';
      state.change.error = action.payload;
    },
    /** A dialog was closed: its change's outcome is forgotten. */
    changeDismissed(state) {
      if (state.change.status !== 'loading') state.change = initialRecordsState.change;
    },
    /** The holds page opened: load the holds. */
    holdsRequested(state) {
      state.holds.status = 'loading';
      state.holds.error = null;
      state.change = initialRecordsState.change;
    },
    /** The holds arrived. */
    holdsLoaded(state, action: PayloadAction<LegalHoldDto[]>) {
      state.holds = { status: 'succeeded', items: action.payload, error: null };
    },
    /** The holds could not be loaded. Payload: COULD_NOT_LOAD_HOLDS (with the reason). */
    holdsFailed(state, action: PayloadAction<string>) {
      state.holds.status = 'failed';
      state.holds.error = action.payload;
    },
    /** Place hold was pressed in the hold form. */
    holdPlaceRequested(state, _action: PayloadAction<CreateLegalHoldRequest>) {
      startChange(state, 'holdPlace');
    },
    /** Release was confirmed. */
    holdReleaseRequested(state, _action: PayloadAction<{ id: string }>) {
      startChange(state, 'holdRelease');
    },
    /** Save was pressed in the form of an active hold (its name, reason and matter). */
    holdUpdateRequested(
      state,
      _action: PayloadAction<{ id: string; changes: UpdateLegalHoldRequest }>,
    ) {
      startChange(state, 'holdUpdate');
    },
    /**
     * A folder, file or contact is to be held by an active hold: from the hold's form, or from
     * the side panel of the folder or file.
     */
    holdTargetAddRequested(
      state,
      _action: PayloadAction<{ id: string; target: RecordsTargetRequest }>,
    ) {
      startChange(state, 'holdTarget');
    },
    /** Stop holding was confirmed on one target of an active hold. */
    holdTargetRemoveRequested(state, _action: PayloadAction<{ id: string; targetId: string }>) {
      startChange(state, 'holdTarget');
    },
    /** The server answered a hold after a change (a new one goes first). */
    holdSaved(state, action: PayloadAction<LegalHoldDto>) {
      const known = state.holds.items.some((h) => h.id === action.payload.id);
      if (known) upsertById(state.holds.items, action.payload);
      else state.holds.items.unshift(action.payload);
      state.change.status = 'succeeded';
    },
    /** The hold form's contact text changed: search for it after a pause. */
    contactQueryChanged(state, action: PayloadAction<string>) {
      const blank = action.payload.trim() === '';
      state.contacts.query = action.payload;
      state.contacts.status = blank ? 'idle' : 'loading';
      state.contacts.error = null;
      if (blank) state.contacts.items = [];
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
    /** The disposition page opened (or was refreshed): load the queue. */
    dispositionRequested(state) {
      state.disposition.status = 'loading';
      state.disposition.error = null;
    },
    /** The queue arrived. */
    dispositionLoaded(state, action: PayloadAction<DispositionQueueDto>) {
      state.disposition = {
        status: 'succeeded',
        items: action.payload.items,
        total: action.payload.total,
        today: action.payload.today,
        error: null,
      };
    },
    /** The queue could not be loaded. Payload: COULD_NOT_LOAD_DISPOSITION (with the reason). */
    dispositionFailed(state, action: PayloadAction<string>) {
      state.disposition.status = 'failed';
      state.disposition.error = action.payload;
    },
    /** Permanent deletion of the selected files was confirmed. */
    approvalRequested(state, _action: PayloadAction<{ fileIds: string[] }>) {
      state.approval = { status: 'loading', error: null, result: null };
    },
    /** The files were deleted: they leave the queue. */
    approvalSucceeded(state, action: PayloadAction<ApproveDispositionResponse>) {
      state.approval = { status: 'succeeded', error: null, result: action.payload };
      const gone = new Set(action.payload.items.map((item) => item.id));
      const before = state.disposition.items.length;
      state.disposition.items = state.disposition.items.filter((item) => !gone.has(item.id));
      state.disposition.total -= before - state.disposition.items.length;
    },
    /** Nothing was deleted. Payload: COULD_NOT_DISPOSE (with the server's reason). */
    approvalFailed(state, action: PayloadAction<string>) {
      state.approval = { status: 'failed', error: action.payload, result: null };
    },
    /** The approval's outcome was dismissed. */
    approvalDismissed(state) {
      if (state.approval.status !== 'loading') state.approval = initialRecordsState.approval;
    },
    /** A folder chooser opened: its folders are read afresh. */
    pickerOpened(state) {
      state.picker = {};
    },
    /** The folder chooser needs a folder's subfolders. */
    pickerLevelRequested(state, action: PayloadAction<{ parentId: string }>) {
      const known = state.picker[action.payload.parentId];
      if (known?.status === 'loading' || known?.status === 'succeeded') return;
      state.picker[action.payload.parentId] = { status: 'loading', folders: [], error: null };
    },
    /** A folder's subfolders arrived. */
    pickerLevelLoaded(state, action: PayloadAction<{ parentId: string; folders: PickerFolder[] }>) {
      state.picker[action.payload.parentId] = {
        status: 'succeeded',
        folders: action.payload.folders,
        error: null,
      };
    },
    /** A folder's subfolders could not be read. Payload: the server's message. */
    pickerLevelFailed(state, action: PayloadAction<{ parentId: string; error: string }>) {
      state.picker[action.payload.parentId] = {
        status: 'failed',
        folders: [],
        error: action.payload.error,
      };
    },
    /** The side panel shows a folder or file: load what protects it. */
    protectionRequested(state, action: PayloadAction<{ type: 'folder' | 'file'; id: string }>) {
      const known = state.protection[action.payload.id];
      state.protection[action.payload.id] = {
        status: 'loading',
        data: known?.data ?? null,
        error: null,
      };
    },
    /** What protects the item arrived. */
    protectionLoaded(state, action: PayloadAction<ItemProtectionDto>) {
      state.protection[action.payload.id] = {
        status: 'succeeded',
        data: action.payload,
        error: null,
      };
    },
    /** What protects the item could not be read. Payload: the server's message. */
    protectionFailed(state, action: PayloadAction<{ id: string; error: string }>) {
      state.protection[action.payload.id] = {
        status: 'failed',
        data: null,
        error: action.payload.error,
      };
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialRecordsState;
    builder
      .addCase(sessionActions.signedOut, reset)
      .addCase(sessionActions.expired, reset)
      .addCase(sessionActions.endedInAnotherTab, reset)
      .addCase(sessionActions.databaseSwitched, reset);
  },
});

/** Event creators of the records management slice. */
export const recordsActions = slice.actions;
/** The records management slice's reducer. */
export const recordsReducer = slice.reducer;
