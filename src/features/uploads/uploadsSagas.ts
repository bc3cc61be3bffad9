/**
 * Sagas of the uploads feature: load the server's restrictions, check picked files and hand the
 * valid ones to the uploader, turn the uploader's events into `uploads/*` events, record each
 * stored file, retry and cancel per file or all, resume uploads found again after a reload, and
 * cancel everything on the reset (panel closed) and on sign-out (SPEC sections 3, 4, 5 and 8).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, delay, fork, put, select, take, takeEvery } from 'redux-saga/effects';
import { MESSAGES, formatMessage } from '../../../common/messages';
import type { CurrentUserDto, FileDto } from '../../../common/types';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '../../../common/uploads';
import { ApiError, errorMessage } from '../../api/client';
import { subscriptionChannel } from '../../sagas/channels';
import { safely } from '../../sagas/safely';
import type { RootState } from '../../store/rootReducer';
import { sessionActions } from '../session/sessionSlice';
import { clearFailedUploads, collectFailedUpload, forgetFailedUpload } from './failedUploads';
import { UPLOADER_REFUSED } from './uploadMessages';
import type { RestoredUpload, UploaderEvent } from './uploader';
import { fetchUploadRestrictions, recordUpload } from './uploadsApi';
import { selectActiveUploadNamesByFolder, selectUploadCountInUse } from './uploadsSelectors';
import {
  uploadsActions,
  type FilesPickedPayload,
  type InvalidUpload,
  type UploadItem,
} from './uploadsSlice';
import { getUploader, takeStagedFiles } from './uppyClient';
import { validateUploads } from './validateUploads';

/** Minimum milliseconds between two `uploads/activityReported` events. */
export const ACTIVITY_REPORT_INTERVAL_MS = 5_000;
/** How often a record that reached no server is tried again while online, and how long apart. */
export const RECORD_ATTEMPTS = 3;
export const RECORD_RETRY_DELAY_MS = 2_000;

let invalidCounter = 0;
function nextInvalidId(): string {
  invalidCounter += 1;
  return `invalid-${invalidCounter}`;
}

/**
 * The server's restrictions: from the store once loaded, else fetched (GET
 * /api/rest/files/restrictions) and applied to the uploader. When they cannot be loaded, the
 * documented defaults apply (the server enforces its own anyway).
 */
export function* ensureRestrictions(): SagaIterator<UploadRestrictions> {
  const known = (yield select(
    (state: RootState) => state.uploads.restrictions,
  )) as UploadRestrictions | null;
  if (known) return known;
  yield put(uploadsActions.restrictionsRequested());
  try {
    const restrictions = (yield call(fetchUploadRestrictions)) as UploadRestrictions;
    yield call([getUploader(), 'configure'], restrictions);
    yield put(uploadsActions.restrictionsLoaded(restrictions));
    return restrictions;
  } catch {
    yield put(uploadsActions.restrictionsFailed());
    return DEFAULT_UPLOAD_RESTRICTIONS;
  }
}

/**
 * Checks a staged batch (SPEC sections 5 and 8) against the restrictions, the names still
 * uploading into the folder and the count in use; queues the valid files in the uploader, reports
 * the batch with `uploads/filesAdded`, then starts the upload.
 */
export function* addPickedFiles(action: PayloadAction<FilesPickedPayload>): SagaIterator {
  const { batchId, folderId } = action.payload;
  const picked = takeStagedFiles(batchId);
  if (picked.length === 0) return;

  const restrictions = (yield call(ensureRestrictions)) as UploadRestrictions;
  const pendingByFolder = (yield select(selectActiveUploadNamesByFolder)) as Record<
    string,
    string[]
  >;
  const countInUse = (yield select(selectUploadCountInUse)) as number;
  const candidates = picked.map((item) => ({
    file: item.file,
    name: item.file.name,
    size: item.file.size,
    isDirectory: item.isDirectory,
  }));
  const { accepted, rejected } = validateUploads(candidates, {
    pendingNames: pendingByFolder[folderId] ?? [],
    restrictions,
    countInUse,
  });

  const invalid: InvalidUpload[] = rejected.map(({ candidate, reason }) => ({
    id: nextInvalidId(),
    name: candidate.name,
    size: candidate.size,
    reason,
  }));
  const files: { id: string; name: string; size: number }[] = [];
  const uploader = getUploader();
  if (accepted.length > 0) {
    const results = uploader.add(accepted.map(({ file }) => ({ file, folderId })));
    results.forEach((result, index) => {
      const candidate = accepted[index];
      if (!candidate) return;
      if (result.ok) {
        files.push({ id: result.id, name: candidate.name, size: candidate.size });
      } else {
        invalid.push({
          id: nextInvalidId(),
          name: candidate.name,
          size: candidate.size,
          reason: result.reason || formatMessage(UPLOADER_REFUSED, { name: candidate.name }),
        });
      }
    });
  }

  yield put(uploadsActions.filesAdded({ folderId, files, invalid }));
  if (files.length > 0) yield call([uploader, 'start']);
}

function failureMessage(name: string): string {
  return formatMessage(MESSAGES.uploadFailed, { file: name });
}

function* uploadItem(id: string): SagaIterator<UploadItem | null> {
  const files = (yield select(
    (state: RootState) => state.uploads.files,
  )) as RootState['uploads']['files'];
  return files.find((item) => item.id === id) ?? null;
}

/**
 * Records a stored file (POST /api/rest/files/record, with the uploader's checksum when it has
 * one) so that it becomes visible, then lets the uploader forget it. A record that reaches no
 * server is tried again: after the connection returns when offline, else a few times, 2 s apart.
 * A refused record fails the file ("Failed to upload {file}." with `refusedDetail`, or else the
 * server's message) and is collected with its error, response and file.
 */
export function* recordStoredFile(
  id: string,
  uploadId: string,
  sha256: string | null = null,
  refusedDetail: string | null = null,
): SagaIterator {
  const uploader = getUploader();
  for (let attempt = 1; ; attempt += 1) {
    const before = (yield call(uploadItem, id)) as UploadItem | null;
    if (!before || before.status === 'cancelled') return;
    try {
      const file = (yield call(
        recordUpload,
        sha256 ? { id: uploadId, sha256 } : { id: uploadId },
      )) as FileDto;
      yield put(uploadsActions.fileRecorded({ id, file }));
      yield call([uploader, 'release'], id);
      return;
    } catch (error) {
      const unreachable = error instanceof ApiError && error.status === 0;
      const network = (yield select((state: RootState) => state.uploads.network)) as string;
      if (unreachable && network === 'offline') {
        yield take(uploadsActions.connectionRestored.type);
        continue;
      }
      if (unreachable && attempt < RECORD_ATTEMPTS) {
        yield delay(RECORD_RETRY_DELAY_MS);
        continue;
      }
      const item = (yield call(uploadItem, id)) as UploadItem | null;
      if (item === null || item.status === 'cancelled') return;
      collectFailedUpload(id, {
        error,
        response: error instanceof ApiError ? { status: error.status, code: error.code } : null,
        file: uploader.fileOf(id),
      });
      yield put(
        uploadsActions.fileFailed({
          id,
          message: failureMessage(item.name),
          detail: refusedDetail ?? errorMessage(error),
        }),
      );
      return;
    }
  }
}

/** Whether a session user is known; waits for one (sign-in) when not. */
function* waitForSignedIn(): SagaIterator {
  for (;;) {
    const user = (yield select((state: RootState) => state.session.user)) as CurrentUserDto | null;
    if (user) return;
    yield take([sessionActions.signedIn.type, sessionActions.currentUserLoaded.type]);
  }
}

/**
 * Shows the files found again after a reload, records those whose bytes were already stored,
 * and, once the session is known, resumes the others (a multipart file from its stored parts).
 */
export function* restoreUploads(files: RestoredUpload[]): SagaIterator {
  yield put(uploadsActions.filesRestored(files));
  for (const file of files) {
    if (file.state === 'uploaded' && file.uploadId) {
      yield fork(safely(recordStoredFile), file.id, file.uploadId, null, file.message);
    }
  }
  yield call(waitForSignedIn);
  yield call(ensureRestrictions);
  yield call([getUploader(), 'resumeRestored']);
}

/** Turns one uploader event into store events. */
export function* handleUploaderEvent(event: UploaderEvent): SagaIterator {
  switch (event.type) {
    case 'progress': {
      const now = Date.now();
      yield put(
        uploadsActions.progressReported({
          id: event.id,
          bytesUploaded: event.bytesUploaded,
          bytesTotal: event.bytesTotal,
          at: now,
        }),
      );
      const last = (yield select((state: RootState) => state.uploads.lastActivityAt)) as
        number | null;
      if (last === null || now - last >= ACTIVITY_REPORT_INTERVAL_MS) {
        yield put(uploadsActions.activityReported({ at: now }));
      }
      break;
    }
    case 'uploaded':
      yield fork(safely(recordStoredFile), event.id, event.uploadId, event.sha256);
      break;
    case 'failed': {
      const item = (yield call(uploadItem, event.id)) as UploadItem | null;
      if (item === null) break;
      yield put(
        uploadsActions.fileFailed({
          id: event.id,
          message: failureMessage(item.name),
          detail: event.message,
        }),
      );
      break;
    }
    case 'waiting':
      yield put(uploadsActions.fileWaiting({ id: event.id }));
      break;
    case 'offline':
      yield put(uploadsActions.connectionLost());
      break;
    case 'online':
      yield put(uploadsActions.connectionRestored());
      break;
    case 'restored':
      yield fork(safely(restoreUploads), event.files);
      break;
  }
}

/**
 * Listens to the uploader for as long as the saga runs. Each event is handled in its own task
 * (forked, so it ends with this watcher): a record that waits for the connection must not hold up
 * the events behind it, among them the one saying the connection is back.
 */
export function* watchUploader(): SagaIterator {
  const uploader = getUploader();
  const channel = subscriptionChannel<UploaderEvent>((emit) => uploader.subscribe(emit));
  const handle = safely(handleUploaderEvent);
  try {
    for (;;) {
      const event = (yield take(channel)) as UploaderEvent;
      yield fork(handle, event);
    }
  } finally {
    channel.close();
  }
}

/** Sends one failed file again. */
export function* retryUpload(action: PayloadAction<{ id: string }>): SagaIterator {
  forgetFailedUpload(action.payload.id);
  yield call([getUploader(), 'retry'], action.payload.id);
}

/** Sends every failed file of the action again. */
export function* retryAllUploads(action: PayloadAction<{ ids: string[] }>): SagaIterator {
  const uploader = getUploader();
  for (const id of action.payload.ids) {
    forgetFailedUpload(id);
    yield call([uploader, 'retry'], id);
  }
}

/** Cancels one file. */
export function* cancelUpload(action: PayloadAction<{ id: string }>): SagaIterator {
  forgetFailedUpload(action.payload.id);
  yield call([getUploader(), 'cancel'], action.payload.id);
}

/** Cancels every queued, running or failed upload (and forgets the collected failures). */
export function* cancelUploads(): SagaIterator {
  clearFailedUploads();
  yield call([getUploader(), 'cancelAll']);
}

/** Root saga of the uploads feature. */
export function* uploadsSaga(): SagaIterator {
  yield all([
    takeEvery(uploadsActions.filesPicked.type, safely(addPickedFiles)),
    takeEvery(uploadsActions.retryRequested.type, safely(retryUpload)),
    takeEvery(uploadsActions.retryAllRequested.type, safely(retryAllUploads)),
    takeEvery(uploadsActions.cancelRequested.type, safely(cancelUpload)),
    takeEvery(
      [
        uploadsActions.cancelAllRequested.type,
        uploadsActions.panelClosed.type,
        sessionActions.signedOut.type,
        sessionActions.expired.type,
      ],
      safely(cancelUploads),
    ),
    fork(safely(watchUploader)),
  ]);
}
