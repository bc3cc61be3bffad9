/**
 * Side effects of the imaging feature: reading a file's derivation state and the administrator's
 * status page, retrying a failed job, asking about the files lists show without a thumbnail until
 * their derivation settles ({@link pollThumbnails}), and remembering the list layout with the cached user's
 * preferences (session/userCache.ts: kept per user, dropped at sign-out). Every worker is wrapped
 * with `safely`; expected failures end in `imaging/…Failed` events.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import {
  all,
  call,
  getContext,
  put,
  select,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import type { RenditionState } from '@common/imaging';
import type { CurrentUserDto } from '@common/session';
import { ApiError, errorMessage } from '@src/api/client';
import type { ListLayout } from '@src/components/listLayout';
import { safely } from '@src/sagas/safely';
import { sessionActions } from '../session/sessionSlice';
import { readCachedUser, setCachedPreference, type CachedUser } from '../session/userCache';
import * as imagingApi from './imagingApi';
import { selectListLayout, selectWatchedThumbnails } from './imagingSelectors';
import {
  COULD_NOT_GET_IMAGING_STATUS,
  COULD_NOT_GET_RENDITION,
  COULD_NOT_RETRY,
  imagingActions,
} from './imagingSlice';
import type { Saga } from '@src/sagas/saga';

/** The cached-user preference holding the list layout. */
export const LIST_LAYOUT_PREFERENCE = 'listLayout';

/** `prefix` followed by the server's reason. */
function withReason(prefix: string, error: unknown): string {
  return `${prefix} ${errorMessage(error)}`;
}

/** Reads a file's derivation state. */
export function* loadRendition(action: PayloadAction<{ fileId: string }>): Saga {
  const { fileId } = action.payload;
  try {
    const rendition = yield* call(imagingApi.fetchRendition, fileId);
    yield* put(imagingActions.renditionLoaded({ fileId, rendition }));
  } catch (error) {
    yield* put(
      imagingActions.renditionFailed({
        fileId,
        error: withReason(COULD_NOT_GET_RENDITION, error),
      }),
    );
  }
}

/**
 * The pauses before each round of questions about the files lists wait for a thumbnail of, in
 * milliseconds; the last one repeats. A list read before a derivation finished shows the
 * thumbnail within seconds, and a long queue costs a question per shown file every half minute.
 */
export const THUMBNAIL_POLL_DELAYS_MS: readonly number[] = [2000, 4000, 8000, 15000, 30000];

/** Most files asked about in one round (the rows a virtualised list shows are fewer). */
export const THUMBNAIL_POLL_BATCH = 50;

/** The pause before round `round` (0: the first), in ms. */
export function thumbnailPollDelayMs(round: number): number {
  const last = THUMBNAIL_POLL_DELAYS_MS.length - 1;
  return THUMBNAIL_POLL_DELAYS_MS[Math.min(round, last)]!;
}

/** Derivation states in which a thumbnail may still come. */
const PENDING_STATES: ReadonlySet<RenditionState> = new Set(['waiting', 'queued', 'running']);

/** The saga context key of an {@link ImagingEnvironment} (tests pass one). */
export const IMAGING_ENVIRONMENT = 'imagingEnvironment';

/** What the imaging sagas need of the browser. */
export interface ImagingEnvironment {
  /** Resolves after `ms` milliseconds. */
  wait: (ms: number) => Promise<void>;
}

const browserImagingEnvironment: ImagingEnvironment = {
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Asks about the files lists show without a thumbnail (FileThumbnail watches them while shown)
 * until none is left: after a pause ({@link thumbnailPollDelayMs}, growing each round and back to
 * the first when a file not asked about before is shown), one question per watched file, one at a
 * time (the firm's rendition route, or the share's for a guest's list). A settled derivation ends
 * the watch: with a thumbnail the list shows it at once; a file the session can no longer read
 * (404) or whose derivation failed or made none is not asked about again. Runs once at a time
 * (takeLeading); it ends when no file is watched after a pause.
 */
export function* pollThumbnails(): Saga {
  const given = yield* getContext<ImagingEnvironment | undefined>(IMAGING_ENVIRONMENT);
  const env = given ?? browserImagingEnvironment;
  const asked = new Set<string>();
  let round = 0;
  for (;;) {
    yield* call(env.wait, thumbnailPollDelayMs(round));
    const watched = yield* select(selectWatchedThumbnails);
    const files = Object.entries(watched).slice(0, THUMBNAIL_POLL_BATCH);
    if (files.length === 0) return;
    round = files.some(([fileId]) => !asked.has(fileId)) ? 0 : round + 1;
    for (const [fileId, { shared }] of files) {
      asked.add(fileId);
      try {
        const rendition = yield* call(
          shared ? imagingApi.fetchSharedRendition : imagingApi.fetchRendition,
          fileId,
        );
        if (!PENDING_STATES.has(rendition.state)) {
          yield* put(imagingActions.thumbnailSettled({ fileId, thumbnail: rendition.thumbnail }));
        }
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          yield* put(imagingActions.thumbnailSettled({ fileId, thumbnail: false }));
        }
        // Anything else (offline, 5xx): asked again next round.
      }
    }
  }
}

/** Reads the administrator's status page. */
export function* loadImagingStatus(): Saga {
  try {
    const status = yield* call(imagingApi.fetchImagingStatus);
    yield* put(imagingActions.statusLoaded(status));
  } catch (error) {
    yield* put(imagingActions.statusFailed(withReason(COULD_NOT_GET_IMAGING_STATUS, error)));
  }
}

/** Retries a failed job. */
export function* retryJob(action: PayloadAction<{ jobId: string; fileId: string }>): Saga {
  const { jobId, fileId } = action.payload;
  try {
    const rendition = yield* call(imagingApi.retryImagingJob, jobId);
    yield* put(imagingActions.retrySucceeded({ jobId, fileId, rendition }));
  } catch (error) {
    yield* put(imagingActions.retryFailed({ jobId, error: withReason(COULD_NOT_RETRY, error) }));
  }
}

/** The layout remembered for a user in the cached user data ('list' when none or another's). */
export function rememberedLayout(cached: CachedUser | null, userId?: string): ListLayout {
  if (!cached || (userId !== undefined && cached.userId !== userId)) return 'list';
  return cached.preferences[LIST_LAYOUT_PREFERENCE] === 'grid' ? 'grid' : 'list';
}

/**
 * Restores the signed-in user's layout (at start, and whenever the user becomes known); nothing is
 * dispatched when it is the layout already shown.
 */
export function* restoreLayout(action?: PayloadAction<CurrentUserDto | null>): Saga {
  const user = action?.payload;
  if (action && !user) return;
  const cached = yield* call(readCachedUser);
  const layout = rememberedLayout(cached, user?.userId);
  if (layout !== (yield* select(selectListLayout))) {
    yield* put(imagingActions.layoutRestored(layout));
  }
}

/** Remembers the chosen layout for the signed-in user. */
export function* rememberLayout(action: PayloadAction<ListLayout>): Saga {
  yield* call(setCachedPreference, LIST_LAYOUT_PREFERENCE, action.payload);
}

/** Root saga of the imaging feature. */
export function* imagingSaga(): Saga {
  yield* all([
    call(safely(restoreLayout)),
    takeEvery(
      [
        sessionActions.signedIn.type,
        sessionActions.currentUserLoaded.type,
        sessionActions.databaseSwitched.type,
      ],
      safely(restoreLayout),
    ),
    takeEvery(imagingActions.layoutChosen.type, safely(rememberLayout)),
    takeEvery(imagingActions.renditionRequested.type, safely(loadRendition)),
    takeLeading(imagingActions.thumbnailWatched.type, safely(pollThumbnails)),
    takeLatest(imagingActions.statusRequested.type, safely(loadImagingStatus)),
    takeEvery(imagingActions.retryRequested.type, safely(retryJob)),
  ]);
}
