/**
 * Selectors of the replay feature: the slice's parts, and, memoised, the subtree's state at the
 * current position (`selectReplayState`), what the current entry changed (`selectReplayChanges`),
 * the timeline's rows, the breadcrumbs and whether Previous and Next can go anywhere.
 */
import { createSelector } from '@reduxjs/toolkit';
import type { ReplayChange, ReplayItemChange, ReplayState } from '@common/replay';
import type { RootState } from '@src/store/rootReducer';
import {
  changesOf,
  crumbsAt,
  folderMissing,
  isLegacyStep,
  momentTimeAt,
  planStep,
  stepAt,
  timelineRows,
  type ReplayStep,
  type TimelineRow,
} from './replayModel';

/** The whole replay slice. */
export const selectReplay = (state: RootState) => state.replay;
/** The view on screen (null before the first answer). */
export const selectReplayView = (state: RootState) => state.replay.view;
/** The index of the entry shown (-1: the state before the window's first entry). */
export const selectReplayPosition = (state: RootState) => state.replay.position;
/** The moment the address should name. */
export const selectReplayMoment = (state: RootState) => state.replay.moment;
/** The printable page's case file. */
export const selectCaseFile = (state: RootState) => state.replay.caseFile;
/** The case file dialog's CSV download (status and the refusal's message). */
export const selectCaseFileCsv = (state: RootState) => state.replay.caseFileCsv;

/** The current entry and the states around it, or null without a view. */
export const selectReplayStep = createSelector(
  [selectReplayView, selectReplayPosition],
  (view, position): ReplayStep | null => (view ? stepAt(view, position) : null),
);

/** The subtree as it was at the current position, or null without a view. */
export const selectReplayState = createSelector(
  [selectReplayStep],
  (step): ReplayState | null => step?.after ?? null,
);

/** What the current entry changed, item by item (moved-out items included); [] at -1. */
export const selectReplayChanges = createSelector([selectReplayStep], (step): ReplayItemChange[] =>
  step ? changesOf(step) : [],
);

/** The current entry's changes by item id, for the list's highlights. */
export const selectReplayChangesById = createSelector(
  [selectReplayChanges],
  (changes) => new Map<string, ReplayChange[]>(changes.map((c) => [c.id, c.changes])),
);

/** Whether the current entry is one replay could not read. */
export const selectReplayIsLegacy = createSelector([selectReplayStep], (step) =>
  step ? isLegacyStep(step) : false,
);

/** Whether the folder did not exist yet (or any more) at the current position. */
export const selectReplayFolderMissing = createSelector(
  [selectReplayView, selectReplayStep],
  (view, step) => (view && step ? folderMissing(view, step) : false),
);

/** The timeline's rows, oldest first. */
export const selectReplayTimeline = createSelector([selectReplayView], (view): TimelineRow[] =>
  view ? timelineRows(view) : [],
);

/** The replayed folder's ancestors at the current position, the root first. */
export const selectReplayCrumbs = createSelector(
  [selectReplayView, selectReplayPosition],
  (view, position) => (view ? crumbsAt(view, position) : []),
);

/** The ISO time the banner names, or null. */
export const selectReplayMomentTime = createSelector(
  [selectReplayView, selectReplayPosition, selectReplayMoment],
  (view, position, moment) => (view ? momentTimeAt(view, position, moment) : null),
);

/** Whether Previous and Next go anywhere (within the window or by reading another). */
export const selectReplayCanStep = createSelector(
  [selectReplayView, selectReplayPosition],
  (view, position) => ({
    previous: view !== null && planStep(view, position, 'previous').kind !== 'none',
    next: view !== null && planStep(view, position, 'next').kind !== 'none',
  }),
);
