/**
 * Side effects of records management (administrators): loading the schedules (with the index
 * fields their form offers), the holds and the disposition queue; every change (create, update,
 * lock, delete a schedule, apply it to a folder or take it off, place or release a hold); the
 * approval of the disposition queue (the queue is read again afterwards); the hold form's contact
 * search; and what protects the side panel's item. A refusal's message is the server's, shown
 * verbatim. Every worker is wrapped with `safely`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, delay, put, takeEvery, takeLatest } from 'typed-redux-saga';
import type { IndexFieldDto } from '@common/indexFields';
import type {
  CreateLegalHoldRequest,
  CreateRetentionScheduleRequest,
  LegalHoldDto,
  RecordsTargetRequest,
  RetentionScheduleDto,
  UpdateLegalHoldRequest,
  UpdateRetentionScheduleRequest,
} from '@common/retention';
import { errorMessage } from '@src/api/client';
import type { Saga } from '@src/sagas/saga';
import { safely } from '@src/sagas/safely';
import * as contactsApi from '../contacts/contactsApi';
import { CONTACT_SEARCH_DEBOUNCE_MS } from '../contacts/contactsSagas';
import { fetchAllSubfolders } from '../organise/organiseSagas';
import * as recordsApi from './recordsApi';
import {
  COULD_NOT_DISPOSE,
  COULD_NOT_LOAD_DISPOSITION,
  COULD_NOT_LOAD_HOLDS,
  COULD_NOT_LOAD_SCHEDULES,
  COULD_NOT_SEARCH_CONTACTS,
  recordsActions,
  type FieldChoice,
} from './recordsSlice';

/** A failure's text: the lead-in, then the server's reason. */
function failure(lead: string, error: unknown): string {
  return `${lead} ${errorMessage(error)}`.trim();
}

/** The live index fields as the schedule form offers them. */
export function fieldChoices(fields: IndexFieldDto[]): FieldChoice[] {
  return fields
    .filter((f) => f.archived_at === null && f.deleted_at === null)
    .map((f) => ({ id: f.id, name: f.name, type: f.type }));
}

/** Loads the schedules, then the index fields (their failure leaves the form without fields). */
export function* loadSchedules(): Saga {
  try {
    const items = yield* call(recordsApi.fetchSchedules);
    yield* put(recordsActions.schedulesLoaded(items));
  } catch (error) {
    yield* put(recordsActions.schedulesFailed(failure(COULD_NOT_LOAD_SCHEDULES, error)));
    return;
  }
  try {
    const fields = yield* call(recordsApi.fetchFields);
    yield* put(recordsActions.fieldsLoaded(fieldChoices(fields)));
  } catch (error) {
    yield* put(recordsActions.fieldsFailed(errorMessage(error)));
  }
}

/** Runs one schedule change; the answered schedule replaces the listed one. */
function* scheduleChange(
  run: () => Promise<RetentionScheduleDto>,
): Saga<RetentionScheduleDto | null> {
  try {
    const saved = yield* call(run);
    yield* put(recordsActions.scheduleSaved(saved));
    return saved;
  } catch (error) {
    yield* put(recordsActions.changeFailed(errorMessage(error)));
    return null;
  }
}

/** Creates a schedule. */
export function* createSchedule(action: PayloadAction<CreateRetentionScheduleRequest>) {
  yield* scheduleChange(() => recordsApi.createSchedule(action.payload));
}

/** Changes a schedule (a locked one is lengthened only: the server refuses the rest). */
export function* updateSchedule(
  action: PayloadAction<{ id: string; changes: UpdateRetentionScheduleRequest }>,
) {
  yield* scheduleChange(() => recordsApi.updateSchedule(action.payload.id, action.payload.changes));
}

/** Locks a schedule for good. */
export function* lockSchedule(action: PayloadAction<{ id: string }>) {
  yield* scheduleChange(() => recordsApi.lockSchedule(action.payload.id));
}

/** Applies a schedule to a folder or file. */
export function* addScheduleTarget(
  action: PayloadAction<{ id: string; target: RecordsTargetRequest }>,
) {
  yield* scheduleChange(() =>
    recordsApi.addScheduleTarget(action.payload.id, action.payload.target),
  );
}

/** Takes a schedule off one of its targets. */
export function* removeScheduleTarget(action: PayloadAction<{ id: string; targetId: string }>) {
  yield* scheduleChange(() =>
    recordsApi.removeScheduleTarget(action.payload.id, action.payload.targetId),
  );
}

/** Deletes an unlocked schedule. */
export function* deleteSchedule(action: PayloadAction<{ id: string }>): Saga {
  try {
    yield* call(recordsApi.deleteSchedule, action.payload.id);
    yield* put(recordsActions.scheduleDeleted({ id: action.payload.id }));
  } catch (error) {
    yield* put(recordsActions.changeFailed(errorMessage(error)));
  }
}

/** Loads the holds. */
export function* loadHolds(): Saga {
  try {
    const items = yield* call(recordsApi.fetchHolds);
    yield* put(recordsActions.holdsLoaded(items));
  } catch (error) {
    yield* put(recordsActions.holdsFailed(failure(COULD_NOT_LOAD_HOLDS, error)));
  }
}

/** Runs one change of a hold; the answered hold replaces the listed one. */
function* holdChange(run: () => Promise<LegalHoldDto>): Saga<LegalHoldDto | null> {
  try {
    const saved = yield* call(run);
    yield* put(recordsActions.holdSaved(saved));
    return saved;
  } catch (error) {
    yield* put(recordsActions.changeFailed(errorMessage(error)));
    return null;
  }
}

/** Places a hold. */
export function* placeHold(action: PayloadAction<CreateLegalHoldRequest>) {
  yield* holdChange(() => recordsApi.placeHold(action.payload));
}

/** Releases a hold. */
export function* releaseHold(action: PayloadAction<{ id: string }>) {
  yield* holdChange(() => recordsApi.releaseHold(action.payload.id));
}

/** Changes an active hold's name, reason or matter. */
export function* updateHold(
  action: PayloadAction<{ id: string; changes: UpdateLegalHoldRequest }>,
) {
  yield* holdChange(() => recordsApi.updateHold(action.payload.id, action.payload.changes));
}

/**
 * Holds one more folder, file or contact; a folder's or file's side panel then shows the hold
 * (its protection is read again).
 */
export function* addHoldTarget(
  action: PayloadAction<{ id: string; target: RecordsTargetRequest }>,
): Saga {
  const { id, target } = action.payload;
  const saved = yield* holdChange(() => recordsApi.addHoldTarget(id, target));
  if (saved && target.type !== 'contact') {
    yield* put(recordsActions.protectionRequested({ type: target.type, id: target.id }));
  }
}

/** Stops holding one target of an active hold (a hold keeps at least one: the server says so). */
export function* removeHoldTarget(action: PayloadAction<{ id: string; targetId: string }>) {
  yield* holdChange(() => recordsApi.removeHoldTarget(action.payload.id, action.payload.targetId));
}

/** The hold form's contact text changed: after a pause, search the firm's contacts. */
export function* searchContacts(action: PayloadAction<string>): Saga {
  const query = action.payload;
  if (query.trim() === '') return;
  yield* delay(CONTACT_SEARCH_DEBOUNCE_MS);
  try {
    const items = yield* call(contactsApi.searchContacts, query);
    yield* put(
      recordsActions.contactsLoaded({
        query,
        items: items.map((c) => ({ id: c.id, name: c.name, detail: c.email ?? '' })),
      }),
    );
  } catch (error) {
    yield* put(
      recordsActions.contactsFailed({ query, error: failure(COULD_NOT_SEARCH_CONTACTS, error) }),
    );
  }
}

/** Loads the disposition queue. */
export function* loadDisposition(): Saga {
  try {
    const queue = yield* call(recordsApi.fetchDisposition);
    yield* put(recordsActions.dispositionLoaded(queue));
  } catch (error) {
    yield* put(recordsActions.dispositionFailed(failure(COULD_NOT_LOAD_DISPOSITION, error)));
  }
}

/** Deletes the approved files permanently, then reads the queue again. */
export function* approveDisposition(action: PayloadAction<{ fileIds: string[] }>): Saga {
  try {
    const result = yield* call(recordsApi.approveDisposition, action.payload.fileIds);
    yield* put(recordsActions.approvalSucceeded(result));
  } catch (error) {
    yield* put(recordsActions.approvalFailed(failure(COULD_NOT_DISPOSE, error)));
  }
  yield* put(recordsActions.dispositionRequested());
}

/** Loads what protects the side panel's folder or file. */
export function* loadProtection(
  action: PayloadAction<{ type: 'folder' | 'file'; id: string }>,
): Saga {
  try {
    const data = yield* call(recordsApi.fetchProtection, action.payload.type, action.payload.id);
    yield* put(recordsActions.protectionLoaded(data));
  } catch (error) {
    yield* put(
      recordsActions.protectionFailed({ id: action.payload.id, error: errorMessage(error) }),
    );
  }
}

/** Loads every subfolder of one folder for the folder chooser (once per opening). */
export function* loadPickerLevel(action: PayloadAction<{ parentId: string }>): Saga {
  const { parentId } = action.payload;
  try {
    const folders = yield* call(fetchAllSubfolders, parentId);
    yield* put(recordsActions.pickerLevelLoaded({ parentId, folders }));
  } catch (error) {
    yield* put(recordsActions.pickerLevelFailed({ parentId, error: errorMessage(error) }));
  }
}

/** The records management feature saga. */
export function* recordsSaga(): Saga {
  yield* all([
    takeLatest(recordsActions.schedulesRequested.type, safely(loadSchedules)),
    takeEvery(recordsActions.scheduleCreateRequested.type, safely(createSchedule)),
    takeEvery(recordsActions.scheduleUpdateRequested.type, safely(updateSchedule)),
    takeEvery(recordsActions.scheduleLockRequested.type, safely(lockSchedule)),
    takeEvery(recordsActions.scheduleDeleteRequested.type, safely(deleteSchedule)),
    takeEvery(recordsActions.scheduleTargetAddRequested.type, safely(addScheduleTarget)),
    takeEvery(recordsActions.scheduleTargetRemoveRequested.type, safely(removeScheduleTarget)),
    takeLatest(recordsActions.holdsRequested.type, safely(loadHolds)),
    takeEvery(recordsActions.holdPlaceRequested.type, safely(placeHold)),
    takeEvery(recordsActions.holdReleaseRequested.type, safely(releaseHold)),
    takeEvery(recordsActions.holdUpdateRequested.type, safely(updateHold)),
    takeEvery(recordsActions.holdTargetAddRequested.type, safely(addHoldTarget)),
    takeEvery(recordsActions.holdTargetRemoveRequested.type, safely(removeHoldTarget)),
    takeLatest(recordsActions.contactQueryChanged.type, safely(searchContacts)),
    takeLatest(recordsActions.dispositionRequested.type, safely(loadDisposition)),
    takeEvery(recordsActions.approvalRequested.type, safely(approveDisposition)),
    takeEvery(recordsActions.protectionRequested.type, safely(loadProtection)),
    takeEvery(recordsActions.pickerLevelRequested.type, safely(loadPickerLevel)),
  ]);
}
