/**
 * Sagas of the request link page (/r/:token): read the page, unlock a password-protected one
 * (the grant goes to sessionStorage), check picked files with the app's rules and the page's
 * restrictions and hand the valid ones to the request uploader, turn its events into
 * `publicRequest/*` events, record each stored file to its item and show the refreshed page.
 */
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import { all, call, delay, fork, put, select, take, takeEvery, takeLatest } from 'typed-redux-saga';
import { REQUEST_MESSAGES } from '@common/documentRequests';
import { MESSAGES, formatMessage } from '@common/messages';
import { ApiError, errorMessage } from '@src/api/client';
import { subscriptionChannel } from '@src/sagas/channels';
import { safely } from '@src/sagas/safely';
import type { Saga } from '@src/sagas/saga';
import { validateUploads } from '@src/features/uploads/validateUploads';
import { fetchPublicRequest, recordRequestUpload, unlockPublicRequest } from './publicRequestApi';
import {
  canUploadTo,
  selectActiveRequestUploads,
  selectPublicRequest,
  selectPublicRequestToken,
  selectRequestUploads,
} from './publicRequestSelectors';
import {
  publicRequestActions as actions,
  type RequestFilesAddedPayload,
  type RequestFilesPickedPayload,
} from './publicRequestSlice';
import { forgetRequestAccess, readRequestAccess, saveRequestAccess } from './requestAccess';
import {
  loadRequestUploader,
  takeStagedRequestFiles,
  type RequestUploader,
  type RequestUploaderEvent,
} from './requestUploader';

/** How often a record that reached no server is tried, and how long apart. */
export const REQUEST_RECORD_ATTEMPTS = 3;
export const REQUEST_RECORD_RETRY_DELAY_MS = 2_000;

/** Keeps the password out of the developer tools' action log. */
export function sanitizePublicRequestAction<A extends Action>(action: A): A {
  if (actions.unlockRequested.match(action)) {
    return { ...action, payload: { ...action.payload, password: '••••••' } };
  }
  return action;
}

let watched: RequestUploader | null = null;
const waitingForWatch: ((uploader: RequestUploader) => void)[] = [];

/** The uploader once {@link watchRequestUploader} listens to it (no event of a file is missed). */
function watchedRequestUploader(): RequestUploader | Promise<RequestUploader> {
  return watched ?? new Promise((resolve) => waitingForWatch.push(resolve));
}

/** {@link watchedRequestUploader} as a typed saga. */
function* readyUploader(): Saga<RequestUploader> {
  return (yield* call(watchedRequestUploader)) as RequestUploader;
}

/** Whether an error carries no message of the server (the client's "HTTP n" text). */
function withoutServerMessage(error: unknown): boolean {
  return error instanceof ApiError && /^The request failed \(HTTP \d+\)\.$/.test(error.message);
}

/** Reads the page of a link (with its grant when the tab holds one). */
export function* loadPublicRequest(action: PayloadAction<{ token: string }>): Saga {
  const { token } = action.payload;
  try {
    const request = yield* call(fetchPublicRequest, token);
    // A grant the server no longer takes (expired, another password) is of no use.
    if (request.locked && readRequestAccess(token)) forgetRequestAccess(token);
    yield* put(actions.pageLoaded({ token, request }));
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    const fallback =
      status === 404 ? REQUEST_MESSAGES.notFound : status === 410 ? REQUEST_MESSAGES.expired : '';
    const message = fallback && withoutServerMessage(error) ? fallback : errorMessage(error);
    yield* put(actions.pageFailed({ token, status, message }));
  }
}

/**
 * Sends the password (POST unlock); the answered grant is kept in sessionStorage for the link and
 * the page is read again with it. A refusal shows the server's message (403 wrong password, 429
 * too many tries).
 */
export function* unlockRequest(action: PayloadAction<{ token: string; password: string }>): Saga {
  const { token, password } = action.payload;
  if (password.trim() === '') {
    yield* put(actions.unlockFailed({ message: REQUEST_MESSAGES.passwordRequired }));
    return;
  }
  try {
    const grant = yield* call(unlockPublicRequest, token, password);
    saveRequestAccess(token, grant);
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    const generic = withoutServerMessage(error);
    const message =
      generic && status === 403
        ? REQUEST_MESSAGES.wrongPassword
        : generic && status === 429
          ? REQUEST_MESSAGES.locked
          : errorMessage(error);
    yield* put(actions.unlockFailed({ message }));
    return;
  }
  yield* put(actions.unlockSucceeded());
  yield* call(loadPublicRequest, actions.pageOpened({ token }));
}

let refusedCounter = 0;
function nextRefusedId(): string {
  refusedCounter += 1;
  return `refused-${refusedCounter}`;
}

/**
 * Checks a picked batch for one item with the app's rules (validateUploads: name, size limit,
 * the page's restrictions, duplicates among the files still being sent to that item, count),
 * queues the valid files in the uploader, reports the batch with `publicRequest/filesAdded`,
 * then starts the upload. Nothing is sent for a refused file.
 */
export function* addPickedRequestFiles(action: PayloadAction<RequestFilesPickedPayload>): Saga {
  const { itemId, batchId } = action.payload;
  const picked = takeStagedRequestFiles(batchId);
  if (picked.length === 0) return;
  const request = yield* select(selectPublicRequest);
  const token = yield* select(selectPublicRequestToken);
  const item = request?.items.find((candidate) => candidate.id === itemId);
  if (!request || !token || !item) return;

  const refused: RequestFilesAddedPayload['refused'] = [];
  const files: RequestFilesAddedPayload['files'] = [];
  if (!canUploadTo(request, item)) {
    const reason =
      item.state === 'accepted' ? REQUEST_MESSAGES.itemAccepted : REQUEST_MESSAGES.notOpen;
    for (const file of picked) {
      refused.push({ id: nextRefusedId(), name: file.name, size: file.size, reason });
    }
    yield* put(actions.filesAdded({ itemId, files, refused }));
    return;
  }

  const active = yield* select(selectActiveRequestUploads);
  const { accepted, rejected } = validateUploads(
    picked.map((file) => ({ file, name: file.name, size: file.size, isDirectory: false })),
    {
      restrictions: request.restrictions,
      pendingNames: active.namesByItem[itemId] ?? [],
      countInUse: active.count,
    },
  );
  for (const { candidate, reason } of rejected) {
    refused.push({ id: nextRefusedId(), name: candidate.name, size: candidate.size, reason });
  }
  if (accepted.length > 0) {
    const uploader = yield* readyUploader();
    yield* call([uploader, 'configure'], token, request.restrictions);
    const results = uploader.add(accepted.map((candidate) => ({ file: candidate.file, itemId })));
    results.forEach((result, index) => {
      const candidate = accepted[index];
      if (!candidate) return;
      if (result.ok) {
        files.push({ id: result.id, name: candidate.name, size: candidate.size });
      } else {
        refused.push({
          id: nextRefusedId(),
          name: candidate.name,
          size: candidate.size,
          reason: result.reason || formatMessage(MESSAGES.uploadFailed, { file: candidate.name }),
        });
      }
    });
    yield* put(actions.filesAdded({ itemId, files, refused }));
    if (files.length > 0) yield* call([uploader, 'start']);
    return;
  }
  yield* put(actions.filesAdded({ itemId, files, refused }));
}

/** Whether the page still lists an upload row (it was not removed or the page left). */
function* rowExists(id: string): Saga<boolean> {
  const uploads = yield* select(selectRequestUploads);
  return uploads.some((upload) => upload.id === id);
}

/**
 * Records a stored file to its item (POST …/files/record, with the uploader's checksum when it has
 * one), puts the refreshed page in the store and lets the uploader forget the file. A record that
 * reaches no server is tried again a few times; a refused one fails the file with the server's
 * message.
 */
export function* recordRequestFile(id: string, uploadId: string, sha256: string | null): Saga {
  const uploader = yield* readyUploader();
  yield* put(actions.uploadStored({ id }));
  for (let attempt = 1; ; attempt += 1) {
    const token = yield* select(selectPublicRequestToken);
    if (!token || !(yield* call(rowExists, id))) return;
    try {
      const request = yield* call(
        recordRequestUpload,
        token,
        sha256 ? { id: uploadId, sha256 } : { id: uploadId },
      );
      yield* put(actions.uploadRecorded({ id, request }));
      yield* call([uploader, 'release'], id);
      return;
    } catch (error) {
      if (error instanceof ApiError && error.status === 0 && attempt < REQUEST_RECORD_ATTEMPTS) {
        yield* delay(REQUEST_RECORD_RETRY_DELAY_MS);
        continue;
      }
      yield* put(actions.uploadFailed({ id, message: errorMessage(error) }));
      return;
    }
  }
}

/** Turns one uploader event into store events. */
export function* handleRequestUploaderEvent(event: RequestUploaderEvent): Saga {
  switch (event.type) {
    case 'progress':
      yield* put(actions.uploadProgressed({ id: event.id, bytesUploaded: event.bytesUploaded }));
      break;
    case 'uploaded':
      yield* fork(safely(recordRequestFile), event.id, event.uploadId, event.sha256);
      break;
    case 'failed':
      yield* put(actions.uploadFailed({ id: event.id, message: event.message }));
      break;
  }
}

/**
 * Once a link's page is opened, loads the uploader (Uppy's chunk, while the recipient reads the
 * page) and listens to it for as long as the saga runs, each event in its own task.
 */
export function* watchRequestUploader(): Saga {
  yield* take(actions.pageOpened.type);
  const uploader = (yield* call(loadRequestUploader)) as RequestUploader;
  const channel = subscriptionChannel<RequestUploaderEvent>((emit) => uploader.subscribe(emit));
  watched = uploader;
  for (const resolve of waitingForWatch.splice(0)) resolve(uploader);
  const handle = safely(handleRequestUploaderEvent);
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

/** Sends a failed file again. */
export function* retryRequestUpload(action: PayloadAction<{ id: string }>): Saga {
  yield* call([yield* readyUploader(), 'retry'], action.payload.id);
}

/** Cancels a removed file (a refused one was never given to the uploader: nothing happens). */
export function* cancelRequestUpload(action: PayloadAction<{ id: string }>): Saga {
  if (action.payload.id.startsWith('refused-')) return;
  yield* call([yield* readyUploader(), 'cancel'], action.payload.id);
}

/** Cancels every file when the page is left. */
export function* cancelRequestUploads(): Saga {
  if (watched) yield* call([watched, 'cancelAll']);
}

/** Root saga of the request link page. */
export function* publicRequestSaga(): Saga {
  yield* all([
    takeLatest(actions.pageOpened.type, safely(loadPublicRequest)),
    takeLatest(actions.unlockRequested.type, safely(unlockRequest)),
    takeEvery(actions.filesPicked.type, safely(addPickedRequestFiles)),
    takeEvery(actions.retryRequested.type, safely(retryRequestUpload)),
    takeEvery(actions.uploadRemoved.type, safely(cancelRequestUpload)),
    takeEvery(actions.pageClosed.type, safely(cancelRequestUploads)),
    fork(safely(watchRequestUploader)),
  ]);
}
