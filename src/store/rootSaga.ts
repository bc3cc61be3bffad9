/**
 * The root saga: spawns one saga per feature. `spawn` detaches them, so a feature saga that dies
 * does not take the others with it (each worker is also wrapped with `safely`). Cancelling the
 * root saga (store teardown, tests) cancels the feature sagas too.
 */
import { all, call, cancelled, spawn } from 'typed-redux-saga';
import { firmsSaga } from '../features/firms/firmsSagas';
import { folderPermissionsSaga } from '../features/folderPermissions/folderPermissionsSagas';
import { integrationsSaga } from '../features/integrations/integrationsSagas';
import { membersSaga } from '../features/members/membersSagas';
import { teamsSaga } from '../features/teams/teamsSagas';
import { collectionsSaga } from '../features/collections/collectionsSagas';
import { detailsSaga } from '../features/details/detailsSagas';
import { documentRequestsSaga } from '../features/documentRequests/documentRequestsSagas';
import { entitiesSaga } from '../features/entities/entitiesSagas';
import { examinerExportSaga } from '../features/examinerExport/examinerExportSagas';
import { flagsSaga } from '../features/flags/flagsSagas';
import { folderTreeSaga } from '../features/folderTree/folderTreeSagas';
import { organiseSaga } from '../features/organise/organiseSagas';
import { notificationsSaga } from '../features/notifications/notificationsSagas';
import { sessionTimeoutSaga } from '../features/sessionTimeout/sessionTimeoutSagas';
import { imagingSaga } from '../features/imaging/imagingSagas';
import { historySaga } from '../features/history/historySagas';
import { sessionSaga } from '../features/session/sessionSagas';
import { uploadsSaga } from '../features/uploads/uploadsSagas';
import { contactsSaga } from '../features/contacts/contactsSagas';
import { indexFieldsSaga } from '../features/indexFields/indexFieldsSagas';
import { recordsSaga } from '../features/records/recordsSagas';
import { outboxSaga } from '../features/outbox/outboxSagas';
import { searchSaga } from '../features/search/searchSagas';
import { sharingSaga } from '../features/sharing/sharingSagas';
import { versionsSaga } from '../features/versions/versionsSagas';
import { viewerSaga } from '../features/viewer/viewerSagas';
import { publicRequestSaga } from '../features/documentRequests/public/publicRequestSagas';
import { replaySaga } from '../features/replay/replaySagas';
import type { Saga } from '../sagas/saga';

/** The feature sagas, one per feature. */
export const FEATURE_SAGAS = [
  sessionSaga,
  sessionTimeoutSaga,
  notificationsSaga,
  flagsSaga,
  entitiesSaga,
  uploadsSaga,
  historySaga,
  organiseSaga,
  folderTreeSaga,
  collectionsSaga,
  detailsSaga,
  membersSaga,
  teamsSaga,
  folderPermissionsSaga,
  integrationsSaga,
  firmsSaga,
  sharingSaga,
  outboxSaga,
  indexFieldsSaga,
  contactsSaga,
  searchSaga,
  imagingSaga,
  viewerSaga,
  versionsSaga,
  examinerExportSaga,
  recordsSaga,
  publicRequestSaga,
  documentRequestsSaga,
  replaySaga,
] as const;

/** Never settles: keeps the root saga alive until it is cancelled. */
function untilCancelled(): Promise<never> {
  return new Promise<never>(() => undefined);
}

/** Starts every feature saga and stops them when cancelled. */
export function* rootSaga(): Saga {
  const tasks = yield* all(FEATURE_SAGAS.map((saga) => spawn(saga)));
  try {
    yield* call(untilCancelled);
  } finally {
    if (yield* cancelled()) {
      for (const task of tasks) task.cancel();
    }
  }
}
