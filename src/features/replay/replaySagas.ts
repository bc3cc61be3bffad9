/**
 * Side effects of replay: read the view the Replay page's address names (unless the store holds
 * it already for this visit), step Previous and Next (inside the window, or by reading the
 * window before or after it), and read the case file of the printable page once per visit.
 * Every worker is wrapped with `safely`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { errorMessage } from '@src/api/client';
import { saveFile } from '@src/api/downloads';
import type { Saga } from '@src/sagas/saga';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import * as api from './replayApi';
import { planStep } from './replayModel';
import {
  caseFileKey,
  momentQuery,
  replayActions,
  sameMoment,
  type CaseFileRequest,
  type ReplayDirection,
  type ViewRequest,
} from './replaySlice';

const selectSlice = (state: RootState) => state.replay;

/** The page shows a moment: read it, unless this visit holds (or is reading) that view. */
export function* openView(action: PayloadAction<ViewRequest>): Saga {
  const { folderId, moment, visit } = action.payload;
  const state = yield* select(selectSlice);
  const held =
    state.folderId === folderId &&
    state.visit === visit &&
    sameMoment(state.moment, moment) &&
    (state.status === 'loading' || state.status === 'ready');
  if (held) return;
  yield* put(replayActions.viewRequested({ folderId, moment, visit, followUp: null }));
}

/** Reads a view (the latest request wins). */
export function* loadView(
  action: PayloadAction<ViewRequest & { followUp: ReplayDirection | null }>,
): Saga {
  const { folderId, moment, visit } = action.payload;
  try {
    const view = yield* call(api.fetchReplayView, folderId, momentQuery(moment));
    yield* put(replayActions.viewLoaded({ folderId, moment, visit, view }));
  } catch (error) {
    yield* put(replayActions.viewFailed({ folderId, moment, visit, error: errorMessage(error) }));
  }
}

/** Previous or Next: move inside the window, or read the one before or after it. */
export function* step(action: PayloadAction<{ direction: ReplayDirection }>): Saga {
  const state = yield* select(selectSlice);
  const { view, folderId } = state;
  if (!view || folderId === null || state.status !== 'ready') return;
  const plan = planStep(view, state.position, action.payload.direction);
  if (plan.kind === 'move') {
    yield* put(replayActions.positionChanged({ position: plan.position }));
  } else if (plan.kind === 'fetch') {
    yield* put(
      replayActions.viewRequested({
        folderId,
        moment: plan.moment,
        visit: state.visit,
        followUp: plan.followUp,
      }),
    );
  }
}

/** The printable page's case file: read once per visit and period (the server records it). */
export function* openCaseFile(action: PayloadAction<CaseFileRequest>): Saga {
  const key = caseFileKey(action.payload);
  const current = yield* select((state: RootState) => state.replay.caseFile);
  if (current.key === key && current.status !== 'failed') return;
  yield* put(replayActions.caseFileRequested(action.payload));
  const { folderId, from, to } = action.payload;
  try {
    const data = yield* call(api.fetchCaseFile, folderId, from, to);
    yield* put(replayActions.caseFileLoaded({ key, data }));
  } catch (error) {
    yield* put(replayActions.caseFileFailed({ key, error: errorMessage(error) }));
  }
}

/**
 * "Download CSV" of the case file dialog: reads the CSV (the server records it) and hands it to
 * the browser; a refusal (a bad period, too many events) reports the server's message.
 */
export function* downloadCaseFileCsv(
  action: ReturnType<typeof replayActions.caseFileCsvRequested>,
): Saga {
  const { folderId, from, to } = action.payload;
  try {
    const file = yield* call(api.downloadCaseFileCsv, folderId, from, to);
    yield* call(saveFile, file);
    yield* put(replayActions.caseFileCsvSaved());
  } catch (error) {
    yield* put(replayActions.caseFileCsvFailed({ error: errorMessage(error) }));
  }
}

/** Root saga of the replay feature. */
export function* replaySaga(): Saga {
  yield* all([
    takeEvery(replayActions.viewOpened.type, safely(openView)),
    takeLatest(replayActions.viewRequested.type, safely(loadView)),
    takeEvery(replayActions.stepRequested.type, safely(step)),
    takeEvery(replayActions.caseFileOpened.type, safely(openCaseFile)),
    takeLeading(replayActions.caseFileCsvRequested.type, safely(downloadCaseFileCsv)),
  ]);
}
