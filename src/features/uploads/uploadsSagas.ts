/**
 * Sagas of the uploads feature: check picked files and hand the valid ones to the uploader,
 * turn the uploader's events into `uploads/*` events, record each stored file, and cancel on
 * request, on panel close and on sign-out.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, fork, put, select, take, takeEvery } from 'redux-saga/effects';
import { MESSAGES, formatMessage } from '../../../common/messages';
import type { FileDto } from '../../../common/types';
import { errorMessage } from '../../api/client';
import { subscriptionChannel } from '../../sagas/channels';
import { safely } from '../../sagas/safely';
import type { RootState } from '../../store/rootReducer';
import { sessionActions } from '../session/sessionSlice';
import { UPLOADER_REFUSED } from './uploadMessages';
import type { UploaderEvent } from './uploader';
import { recordUpload } from './uploadsApi';
import { selectActiveUploadNamesByFolder } from './uploadsSelectors';
import { uploadsActions, type FilesPickedPayload, type InvalidUpload } from './uploadsSlice';
import { getUploader, takeStagedFiles } from './uppyClient';
import { validateUploads } from './validateUploads';

/** Minimum milliseconds between two `uploads/activityReported` events. */
export const ACTIVITY_REPORT_INTERVAL_MS = 5_000;

let invalidCounter = 0;
function nextInvalidId(): string {
  invalidCounter += 1;
  return `invalid-${invalidCounter}`;
}

/**
 * Checks a staged batch (SPEC sections 5 and 8), queues the valid files in the uploader, reports
 * the batch with `uploads/filesAdded`, then starts the upload.
 */
export function* addPickedFiles(action: PayloadAction<FilesPickedPayload>): SagaIterator {
  const { batchId, folderId } = action.payload;
  const picked = takeStagedFiles(batchId);
  if (picked.length === 0) return;

  const pendingByFolder = (yield select(selectActiveUploadNamesByFolder)) as Record<
    string,
    string[]
  >;
  const candidates = picked.map((item) => ({
    file: item.file,
    name: item.file.name,
    size: item.file.size,
    isDirectory: item.isDirectory,
  }));
  const { accepted, rejected } = validateUploads(candidates, {
    pendingNames: pendingByFolder[folderId] ?? [],
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

function* uploadName(id: string): SagaIterator<string | null> {
  const files = (yield select(
    (state: RootState) => state.uploads.files,
  )) as RootState['uploads']['files'];
  return files.find((item) => item.id === id)?.name ?? null;
}

/** Records a stored file (POST /api/rest/files/record) so that it becomes visible. */
export function* recordStoredFile(id: string, uploadId: string): SagaIterator {
  try {
    const file = (yield call(recordUpload, { id: uploadId })) as FileDto;
    yield put(uploadsActions.fileRecorded({ id, file }));
  } catch (error) {
    const name = (yield call(uploadName, id)) as string | null;
    if (name === null) return;
    yield put(
      uploadsActions.fileFailed({ id, message: failureMessage(name), detail: errorMessage(error) }),
    );
  }
}

/** Turns one uploader event into store events. */
export function* handleUploaderEvent(event: UploaderEvent): SagaIterator {
  switch (event.type) {
    case 'progress': {
      yield put(
        uploadsActions.progressReported({
          id: event.id,
          bytesUploaded: event.bytesUploaded,
          bytesTotal: event.bytesTotal,
        }),
      );
      const last = (yield select((state: RootState) => state.uploads.lastActivityAt)) as
        number | null;
      const now = Date.now();
      if (last === null || now - last >= ACTIVITY_REPORT_INTERVAL_MS) {
        yield put(uploadsActions.activityReported({ at: now }));
      }
      break;
    }
    case 'uploaded':
      yield fork(safely(recordStoredFile), event.id, event.uploadId);
      break;
    case 'failed': {
      const name = (yield call(uploadName, event.id)) as string | null;
      if (name === null) break;
      yield put(
        uploadsActions.fileFailed({
          id: event.id,
          message: failureMessage(name),
          detail: event.message,
        }),
      );
      break;
    }
  }
}

/** Listens to the uploader for as long as the saga runs. */
export function* watchUploader(): SagaIterator {
  const uploader = getUploader();
  const channel = subscriptionChannel<UploaderEvent>((emit) => uploader.subscribe(emit));
  const handle = safely(handleUploaderEvent);
  try {
    for (;;) {
      const event = (yield take(channel)) as UploaderEvent;
      yield call(handle, event);
    }
  } finally {
    channel.close();
  }
}

/** Cancels every queued or running upload. */
export function* cancelUploads(): SagaIterator {
  const uploader = getUploader();
  yield call([uploader, 'cancelAll']);
}

/** Root saga of the uploads feature. */
export function* uploadsSaga(): SagaIterator {
  yield all([
    takeEvery(uploadsActions.filesPicked.type, safely(addPickedFiles)),
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
