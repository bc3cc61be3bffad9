/**
 * Side effects of file versions: read the side panel's file's versions, restore one as the newest
 * or delete one (then say so in an info message), and read the versions again when an upload
 * recorded a new version of that file. Every worker is wrapped with `safely`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery, takeLatest } from 'typed-redux-saga';
import { formatMessage } from '@common/messages';
import type { FileDto } from '@common/entities';
import { VERSION_MESSAGES } from '@common/versions';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import { fetchEntity } from '../details/detailsApi';
import { notificationsActions } from '../notifications/notificationsSlice';
import { uploadsActions } from '../uploads/uploadsSlice';
import * as versionsApi from './versionsApi';
import { versionsActions } from './versionsSlice';
import type { Saga } from '@src/sagas/saga';

type VersionRef = PayloadAction<{ fileId: string; number: number }>;

/** Reads the versions of a file. */
export function* loadVersions(action: PayloadAction<{ fileId: string }>): Saga {
  const { fileId } = action.payload;
  try {
    const answer = yield* call(versionsApi.fetchVersions, fileId);
    yield* put(versionsActions.versionsLoaded({ fileId, items: answer.items }));
  } catch (error) {
    yield* put(versionsActions.versionsFailed({ fileId, error: errorMessage(error) }));
  }
}

/** Restores a version as the newest, then reads the file as it is now. */
export function* restoreVersion(action: VersionRef): Saga {
  const { fileId, number } = action.payload;
  const pending = yield* select((state: RootState) => state.versions.pending);
  if (pending?.kind !== 'restore' || pending.number !== number) return;
  try {
    const answer = yield* call(versionsApi.restoreVersion, fileId, number);
    const file = (yield* call(fetchEntity, { id: fileId, type: 'file' as const })) as FileDto;
    yield* put(
      versionsActions.restoreSucceeded({ fileId, from: number, version: answer.version, file }),
    );
    yield* put(
      notificationsActions.infoMessageRequested({
        text: formatMessage(VERSION_MESSAGES.restoreDone, {
          from: number,
          number: answer.version.number,
        }),
        kind: 'success',
      }),
    );
  } catch (error) {
    yield* put(versionsActions.actionFailed({ fileId, error: errorMessage(error) }));
  }
}

/** Deletes an older version (an administrator confirmed it). */
export function* deleteVersion(action: VersionRef): Saga {
  const { fileId, number } = action.payload;
  const pending = yield* select((state: RootState) => state.versions.pending);
  if (pending?.kind !== 'delete' || pending.number !== number) return;
  try {
    yield* call(versionsApi.deleteVersion, fileId, number);
    yield* put(versionsActions.deleteSucceeded({ fileId, number }));
    yield* put(
      notificationsActions.infoMessageRequested({
        text: formatMessage(VERSION_MESSAGES.deleteDone, { number }),
        kind: 'success',
      }),
    );
  } catch (error) {
    yield* put(versionsActions.actionFailed({ fileId, error: errorMessage(error) }));
  }
}

/** An upload recorded a new version of the file whose versions are shown: read them again. */
export function* followRecordedUpload(action: PayloadAction<{ id: string; file: FileDto }>): Saga {
  const shown = yield* select((state: RootState) => state.versions.fileId);
  if (shown !== null && shown === action.payload.file.id) {
    yield* put(versionsActions.versionsRequested({ fileId: shown }));
  }
}

/** Root saga of the versions feature. */
export function* versionsSaga(): Saga {
  yield* all([
    takeLatest(versionsActions.versionsRequested.type, safely(loadVersions)),
    takeEvery(versionsActions.restoreRequested.type, safely(restoreVersion)),
    takeEvery(versionsActions.deleteRequested.type, safely(deleteVersion)),
    takeEvery(uploadsActions.fileRecorded.type, safely(followRecordedUpload)),
  ]);
}
