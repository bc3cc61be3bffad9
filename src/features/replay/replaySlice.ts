/**
 * The `replay` slice (docs/architecture/replay.md): the folder a Replay page shows, the moment
 * its address names, the view the server answered for it (the subtree before the window and the
 * window of timeline entries) and the position stepped to in that window; and the case file the
 * printable page reads. Only wire shapes and plain values (times are ISO strings). The states
 * themselves are derived from `base` and `entries` by the selectors. Sign-out, an ended session
 * and a firm switch empty it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CaseFileDto, ReplayViewDto, ReplayViewQuery } from '@common/replayViews';
import { sessionActions } from '../session/sessionSlice';

/** Where a request of the slice is (DESIGN.md section 5: a string union). */
export type ReplayStatus = 'idle' | 'loading' | 'ready' | 'failed';

/** A step along the timeline. */
export type ReplayDirection = 'previous' | 'next';

/**
 * The moment of a view as the address carries it: `event` (right after it), `before_event` (right
 * before it), `as_of` (an ISO time). None: now.
 */
export interface ReplayMoment {
  as_of: string | null;
  event: string | null;
  before_event: string | null;
}

/** The moment "now". */
export const NOW_MOMENT: ReplayMoment = { as_of: null, event: null, before_event: null };

/** Whether two moments name the same thing. */
export function sameMoment(a: ReplayMoment, b: ReplayMoment): boolean {
  return a.as_of === b.as_of && a.event === b.event && a.before_event === b.before_event;
}

/** The API query of a moment (absent fields left out). */
export function momentQuery(moment: ReplayMoment): ReplayViewQuery {
  const query: ReplayViewQuery = {};
  if (moment.as_of !== null) query.as_of = moment.as_of;
  if (moment.event !== null) query.event = moment.event;
  if (moment.before_event !== null) query.before_event = moment.before_event;
  return query;
}

/**
 * The moment the address should carry for `position` of `view`: right after that entry's event,
 * or (-1) right before the window's first entry; `fallback` when the window is empty.
 */
export function momentOfPosition(
  view: ReplayViewDto,
  position: number,
  fallback: ReplayMoment,
): ReplayMoment {
  const entry = view.entries[position];
  if (entry) return { as_of: null, event: entry.event.id, before_event: null };
  const first = view.entries[0];
  if (position < 0 && first) return { as_of: null, event: null, before_event: first.event.id };
  return fallback;
}

/** The case file the printable page shows. */
export interface CaseFileSlice {
  /** What was asked (folder, period and the page's visit), or null. */
  key: string | null;
  status: ReplayStatus;
  error: string | null;
  data: CaseFileDto | null;
}

/** State of the replay feature. */
export interface ReplaySliceState {
  /** The folder replayed ('' is the root), or null before any. */
  folderId: string | null;
  /** The page visit that asked (a new visit reads again what an earlier one read). */
  visit: number;
  /** The moment the address names, as last asked or stepped to. */
  moment: ReplayMoment;
  status: ReplayStatus;
  /** Why the last read failed (the server's message), else null. */
  error: string | null;
  /** The last view answered for the folder (kept on screen while the next one loads). */
  view: ReplayViewDto | null;
  /** Index in `view.entries` of the entry shown; -1 is `view.base` itself. */
  position: number;
  /** A step to take once the view being read has arrived (stepping past the window's end). */
  followUp: ReplayDirection | null;
  caseFile: CaseFileSlice;
  /** The case file dialog's CSV download: loading while it is read, failed with the reason. */
  caseFileCsv: { status: ReplayStatus; error: string | null };
}

/** The state before any replay. */
export const initialReplayState: ReplaySliceState = {
  folderId: null,
  visit: 0,
  moment: NOW_MOMENT,
  status: 'idle',
  error: null,
  view: null,
  position: -1,
  followUp: null,
  caseFile: { key: null, status: 'idle', error: null, data: null },
  caseFileCsv: { status: 'idle', error: null },
};

/** What asks for a view: the folder, the moment and the page visit. */
export interface ViewRequest {
  folderId: string;
  moment: ReplayMoment;
  visit: number;
}

/** What asks for a case file: the folder, the period (ISO times) and the page visit. */
export interface CaseFileRequest {
  folderId: string;
  from: string;
  to: string;
  visit: number;
}

/** The key of a case file request. */
export function caseFileKey(request: CaseFileRequest): string {
  return [request.folderId, request.from, request.to, request.visit].join('\u0000');
}

const slice = createSlice({
  name: 'replay',
  initialState: initialReplayState,
  reducers: {
    /**
     * The Replay page shows a folder at the moment of its address (on opening, and whenever the
     * address changes). The sagas read it unless it is what the store already holds.
     */
    viewOpened(_state, _action: PayloadAction<ViewRequest>) {},
    /** A view is read: the page's, or the next window when a step goes past this one's edge. */
    viewRequested(
      state,
      action: PayloadAction<ViewRequest & { followUp: ReplayDirection | null }>,
    ) {
      const { folderId, moment, visit, followUp } = action.payload;
      if (state.folderId !== folderId) {
        state.view = null;
        state.position = -1;
      }
      state.folderId = folderId;
      state.visit = visit;
      state.moment = moment;
      state.followUp = followUp;
      state.status = 'loading';
      state.error = null;
    },
    viewLoaded(state, action: PayloadAction<ViewRequest & { view: ReplayViewDto }>) {
      const { folderId, moment, view } = action.payload;
      if (state.folderId !== folderId || !sameMoment(state.moment, moment)) return;
      state.view = view;
      state.status = 'ready';
      state.position = view.position;
      if (state.followUp === 'next') {
        if (view.position + 1 < view.entries.length) {
          state.position = view.position + 1;
          state.moment = momentOfPosition(view, state.position, moment);
        } else {
          // The server said there was more, but the window past the last entry holds nothing
          // (`has_later` only says the chain goes on): Next would read the same window again.
          state.view.has_later = false;
        }
      }
      if (
        moment.before_event !== null &&
        view.position === -1 &&
        view.entries[0]?.event.id === moment.before_event
      ) {
        // Likewise back: nothing earlier within the server's reach, Previous would loop.
        state.view.has_earlier = false;
      }
      state.followUp = null;
    },
    viewFailed(state, action: PayloadAction<ViewRequest & { error: string }>) {
      const { folderId, moment, error } = action.payload;
      if (state.folderId !== folderId || !sameMoment(state.moment, moment)) return;
      state.status = 'failed';
      state.error = error;
      state.followUp = null;
    },
    /** Previous or Next (buttons, arrow keys): the sagas move, or read the next window. */
    stepRequested(_state, _action: PayloadAction<{ direction: ReplayDirection }>) {},
    /** Shows entry `position` of the window (-1: the state before its first entry). */
    positionChanged(state, action: PayloadAction<{ position: number }>) {
      const view = state.view;
      if (!view || state.status === 'loading') return;
      const position = Math.max(-1, Math.min(view.entries.length - 1, action.payload.position));
      state.position = position;
      state.moment = momentOfPosition(view, position, state.moment);
    },
    /** The printable page shows the case file of a period (the sagas read it once per visit). */
    caseFileOpened(_state, _action: PayloadAction<CaseFileRequest>) {},
    caseFileRequested(state, action: PayloadAction<CaseFileRequest>) {
      state.caseFile = {
        key: caseFileKey(action.payload),
        status: 'loading',
        error: null,
        data: null,
      };
    },
    caseFileLoaded(state, action: PayloadAction<{ key: string; data: CaseFileDto }>) {
      if (state.caseFile.key !== action.payload.key) return;
      state.caseFile.status = 'ready';
      state.caseFile.data = action.payload.data;
    },
    caseFileFailed(state, action: PayloadAction<{ key: string; error: string }>) {
      if (state.caseFile.key !== action.payload.key) return;
      state.caseFile.status = 'failed';
      state.caseFile.error = action.payload.error;
    },
    /** The case file dialog opened: no download yet. */
    caseFileDialogOpened(state) {
      state.caseFileCsv = { status: 'idle', error: null };
    },
    /** "Download CSV": the sagas read the CSV and hand it to the browser. */
    caseFileCsvRequested(
      state,
      _action: PayloadAction<{ folderId: string; from: string; to: string }>,
    ) {
      state.caseFileCsv = { status: 'loading', error: null };
    },
    caseFileCsvSaved(state) {
      state.caseFileCsv = { status: 'ready', error: null };
    },
    /** The server refused the CSV (its message), or it could not be read. */
    caseFileCsvFailed(state, action: PayloadAction<{ error: string }>) {
      state.caseFileCsv = { status: 'failed', error: action.payload.error };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialReplayState)
      .addCase(sessionActions.expired, () => initialReplayState)
      .addCase(sessionActions.databaseSwitched, () => initialReplayState);
  },
});

/** Event creators of the replay slice. */
export const replayActions = slice.actions;
/** The replay slice's reducer. */
export const replayReducer = slice.reducer;
