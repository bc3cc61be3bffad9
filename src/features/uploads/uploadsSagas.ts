/**
 * Sagas of the uploads feature: load the server's restrictions, check picked files and hand the
 * valid ones to the uploader, turn the uploader's events into `uploads/*` events, record each
 * stored file, retry and cancel per file or all, resume uploads found again after a reload, and
 * cancel everything on the reset (panel closed) and on sign-out (SPEC sections 3, 4, 5 and 8).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, delay, fork, put, race, select, take, takeEvery } from 'typed-redux-saga';
import { MESSAGES, formatMessage } from '@common/messages';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import type { ConflictChoice, UploadConflictsResponse } from '@common/versions';
import { ApiError, errorMessage } from '@src/api/client';
import { subscriptionChannel } from '@src/sagas/channels';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import { sessionActions } from '../session/sessionSlice';
import { fetchUploadConflicts } from '../versions/versionsApi';
import { clearFailedUploads, collectFailedUpload, forgetFailedUpload } from './failedUploads';
import { UPLOADER_REFUSED } from './uploadMessages';
import type { RestoredUpload, UploaderEvent } from './uploader';
import { fetchUploadRestrictions, recordUpload } from './uploadsApi';
import { selectActiveUploadNamesByFolder, selectUploadCountInUse } from './uploadsSelectors';
import {
  uploadsActions,
  type FilesAddedPayload,
  type FilesPickedPayload,
  type InvalidUpload,
  type UploadConflict,
  type UploadItem,
} from './uploadsSlice';
import { takeStagedFiles } from './stagedFiles';
import type { Uploader } from './uploader';
import { currentUploader } from './uploaderRegistry';
import { validateUploads } from './validateUploads';
import type { Saga } from '@src/sagas/saga';

let watched: Uploader | null = null;
const waitingForWatch: ((uploader: Uploader) => void)[] = [];

/**
 * The uploader once {@link watchUploader} listens to it: the sagas that hand it files wait for
 * that, so no event of theirs (a small file can finish within milliseconds) is missed.
 */
export function watchedUploader(): Uploader | Promise<Uploader> {
  return watched ?? new Promise((resolve) => waitingForWatch.push(resolve));
}

/**
 * {@link watchedUploader} as a saga, typed: redux-saga resolves the promise, but `call`'s types
 * cannot unwrap a union of a value and a promise.
 */
function* readyUploader(): Saga<Uploader> {
  return (yield* call(watchedUploader)) as Uploader;
}

/** Resolves when the browser is first idle after start-up (at most 2 s later). */
export function afterStartUp(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(() => resolve(), { timeout: 2000 });
    } else {
      setTimeout(resolve, 0);
    }
  });
}

/**
 * The app's uploader: the one in use, else Uppy's (uppyClient.ts) loaded as its own chunk on first
 * use, so the folder page's first rows do not wait for Uppy's code.
 */
export function loadUploader(): Uploader | Promise<Uploader> {
  return currentUploader() ?? import('./uppyClient').then((client) => client.getUploader());
}
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
export function* ensureRestrictions(): Saga<UploadRestrictions> {
  const known = yield* select((state: RootState) => state.uploads.restrictions);
  if (known) return known;
  yield* put(uploadsActions.restrictionsRequested());
  try {
    const restrictions = yield* call(fetchUploadRestrictions);
    yield* call([yield* readyUploader(), 'configure'], restrictions);
    yield* put(uploadsActions.restrictionsLoaded(restrictions));
    return restrictions;
  } catch {
    yield* put(uploadsActions.restrictionsFailed());
    return DEFAULT_UPLOAD_RESTRICTIONS;
  }
}

/** What the user chose for a picked file whose name a file of the folder has. */
export interface ConflictAnswer {
  choice: ConflictChoice;
  /** The file of the folder with that name (a new version's target). */
  fileId: string;
}

/**
 * Asks the server which of the names about to be uploaded into a folder a file there already has
 * (POST files/conflicts); when some do, the conflict dialog asks, for each, "upload as a new
 * version" or "keep both" (`uploads/conflictsFound`), and the answer is awaited. A failed question
 * asks nothing: the server then keeps both, as SPEC section 5 says.
 * @param names the accepted names of the batch, in order
 * @returns the answer per index of `names` (absent: no file has that name), or null when the
 *   session ended while the dialog was open
 */
export function* conflictChoices(
  batchId: string,
  folderId: string,
  names: string[],
): Saga<Map<number, ConflictAnswer> | null> {
  const answers = new Map<number, ConflictAnswer>();
  if (names.length === 0) return answers;
  let found: UploadConflictsResponse['items'];
  try {
    found = (yield* call(fetchUploadConflicts, folderId, names)).items;
  } catch {
    return answers;
  }
  const byName = new Map(found.map((conflict) => [conflict.name, conflict]));
  const conflicts: UploadConflict[] = [];
  names.forEach((name, key) => {
    const conflict = byName.get(name);
    if (conflict) {
      conflicts.push({ key, name, fileId: conflict.file_id, fileName: conflict.file_name });
    }
  });
  if (conflicts.length === 0) return answers;
  yield* put(uploadsActions.conflictsFound({ batchId, folderId, conflicts }));
  for (;;) {
    const action = yield* take([
      uploadsActions.conflictsResolved.type,
      sessionActions.signedOut.type,
      sessionActions.expired.type,
    ]);
    if (!uploadsActions.conflictsResolved.match(action)) return null;
    if (action.payload.batchId !== batchId) continue;
    for (const conflict of conflicts) {
      answers.set(conflict.key, {
        choice: action.payload.choices[conflict.key] ?? 'keep_both',
        fileId: conflict.fileId,
      });
    }
    return answers;
  }
}

/**
 * Checks a staged batch (SPEC sections 5 and 8) against the restrictions, the names still
 * uploading into the folder and the count in use; asks about names the folder's files already
 * have ({@link conflictChoices}); queues the valid files in the uploader (as new versions where
 * the user chose so, none of the skipped ones), reports the batch with `uploads/filesAdded`, then
 * starts the upload.
 */
export function* addPickedFiles(action: PayloadAction<FilesPickedPayload>): Saga {
  const { batchId, folderId } = action.payload;
  const picked = takeStagedFiles(batchId);
  if (picked.length === 0) return;

  const restrictions = yield* call(ensureRestrictions);
  const pendingByFolder = yield* select(selectActiveUploadNamesByFolder);
  const countInUse = yield* select(selectUploadCountInUse);
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
  const choices = yield* call(
    conflictChoices,
    batchId,
    folderId,
    accepted.map((candidate) => candidate.name),
  );
  // Signed out while the dialog was open: nothing is uploaded.
  if (choices === null) return;
  const sent = accepted
    .map((candidate, index) => ({ candidate, answer: choices.get(index) }))
    .filter(({ answer }) => answer?.choice !== 'skip');
  const files: FilesAddedPayload['files'] = [];
  const uploader = yield* readyUploader();
  if (sent.length > 0) {
    const results = uploader.add(
      sent.map(({ candidate, answer }) =>
        answer?.choice === 'version'
          ? { file: candidate.file, folderId, versionOf: answer.fileId }
          : { file: candidate.file, folderId },
      ),
    );
    results.forEach((result, index) => {
      const { candidate, answer } = sent[index] ?? {};
      if (!candidate) return;
      if (result.ok) {
        files.push(
          answer?.choice === 'version'
            ? {
                id: result.id,
                name: candidate.name,
                size: candidate.size,
                versionOf: answer.fileId,
              }
            : { id: result.id, name: candidate.name, size: candidate.size },
        );
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

  yield* put(uploadsActions.filesAdded({ folderId, files, invalid }));
  if (files.length > 0) yield* call([uploader, 'start']);
}

function failureMessage(name: string): string {
  return formatMessage(MESSAGES.uploadFailed, { file: name });
}

function* uploadItem(id: string): Saga<UploadItem | null> {
  const files = yield* select((state: RootState) => state.uploads.files);
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
): Saga {
  const uploader = yield* readyUploader();
  for (let attempt = 1; ; attempt += 1) {
    const before = yield* call(uploadItem, id);
    if (!before || before.status === 'cancelled') return;
    try {
      const file = yield* call(recordUpload, sha256 ? { id: uploadId, sha256 } : { id: uploadId });
      yield* put(uploadsActions.fileRecorded({ id, file }));
      yield* call([uploader, 'release'], id);
      return;
    } catch (error) {
      const unreachable = error instanceof ApiError && error.status === 0;
      const network = yield* select((state: RootState) => state.uploads.network);
      if (unreachable && network === 'offline') {
        yield* take(uploadsActions.connectionRestored.type);
        continue;
      }
      if (unreachable && attempt < RECORD_ATTEMPTS) {
        yield* delay(RECORD_RETRY_DELAY_MS);
        continue;
      }
      const item = yield* call(uploadItem, id);
      if (item === null || item.status === 'cancelled') return;
      collectFailedUpload(id, {
        error,
        response: error instanceof ApiError ? { status: error.status, code: error.code } : null,
        file: uploader.fileOf(id),
      });
      yield* put(
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
function* waitForSignedIn(): Saga {
  for (;;) {
    const user = yield* select((state: RootState) => state.session.user);
    if (user) return;
    yield* take([sessionActions.signedIn.type, sessionActions.currentUserLoaded.type]);
  }
}

/**
 * Shows the files found again after a reload, records those whose bytes were already stored,
 * and, once the session is known, resumes the others (a multipart file from its stored parts).
 */
export function* restoreUploads(files: RestoredUpload[]): Saga {
  yield* put(uploadsActions.filesRestored(files));
  for (const file of files) {
    if (file.state === 'uploaded' && file.uploadId) {
      yield* fork(safely(recordStoredFile), file.id, file.uploadId, null, file.message);
    }
  }
  yield* call(waitForSignedIn);
  yield* call(ensureRestrictions);
  yield* call([yield* readyUploader(), 'resumeRestored']);
}

/** Turns one uploader event into store events. */
export function* handleUploaderEvent(event: UploaderEvent): Saga {
  switch (event.type) {
    case 'progress': {
      const now = Date.now();
      yield* put(
        uploadsActions.progressReported({
          id: event.id,
          bytesUploaded: event.bytesUploaded,
          bytesTotal: event.bytesTotal,
          at: now,
        }),
      );
      const last = yield* select((state: RootState) => state.uploads.lastActivityAt);
      if (last === null || now - last >= ACTIVITY_REPORT_INTERVAL_MS) {
        yield* put(uploadsActions.activityReported({ at: now }));
      }
      break;
    }
    case 'uploaded':
      yield* fork(safely(recordStoredFile), event.id, event.uploadId, event.sha256);
      break;
    case 'failed': {
      const item = yield* call(uploadItem, event.id);
      if (item === null) break;
      yield* put(
        uploadsActions.fileFailed({
          id: event.id,
          message: failureMessage(item.name),
          detail: event.message,
        }),
      );
      break;
    }
    case 'waiting':
      yield* put(uploadsActions.fileWaiting({ id: event.id }));
      break;
    case 'offline':
      yield* put(uploadsActions.connectionLost());
      break;
    case 'online':
      yield* put(uploadsActions.connectionRestored());
      break;
    case 'restored':
      yield* fork(safely(restoreUploads), event.files);
      break;
  }
}

/**
 * Listens to the uploader for as long as the saga runs. Each event is handled in its own task
 * (forked, so it ends with this watcher): a record that waits for the connection must not hold up
 * the events behind it, among them the one saying the connection is back.
 */
export function* watchUploader(): Saga {
  // At start-up Uppy's chunk (and the uploads it restores after a reload) waits until the page
  // is idle, behind the first page; a file picked meanwhile loads it at once.
  if (!currentUploader()) yield* race([call(afterStartUp), take(uploadsActions.filesPicked.type)]);
  const uploader = (yield* call(loadUploader)) as Uploader;
  const channel = subscriptionChannel<UploaderEvent>((emit) => uploader.subscribe(emit));
  // Subscribed first: the restore's own events wait in the channel meanwhile.
  const restoring = uploader.restoring();
  if (restoring) yield* call(() => restoring);
  watched = uploader;
  for (const resolve of waitingForWatch.splice(0)) resolve(uploader);
  const handle = safely(handleUploaderEvent);
  try {
    for (;;) {
      const event = yield* take(channel);
      yield* fork(handle, event);
    }
  } finally {
    watched = null;
    channel.close();
  }
}

/** Sends one failed file again. */
export function* retryUpload(action: PayloadAction<{ id: string }>): Saga {
  forgetFailedUpload(action.payload.id);
  yield* call([yield* readyUploader(), 'retry'], action.payload.id);
}

/** Sends every failed file of the action again. */
export function* retryAllUploads(action: PayloadAction<{ ids: string[] }>): Saga {
  const uploader = yield* readyUploader();
  for (const id of action.payload.ids) {
    forgetFailedUpload(id);
    yield* call([uploader, 'retry'], id);
  }
}

/** Cancels one file. */
export function* cancelUpload(action: PayloadAction<{ id: string }>): Saga {
  forgetFailedUpload(action.payload.id);
  yield* call([yield* readyUploader(), 'cancel'], action.payload.id);
}

/** Cancels every queued, running or failed upload (and forgets the collected failures). */
export function* cancelUploads(): Saga {
  clearFailedUploads();
  yield* call([yield* readyUploader(), 'cancelAll']);
}

/** Root saga of the uploads feature. */
export function* uploadsSaga(): Saga {
  yield* all([
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
