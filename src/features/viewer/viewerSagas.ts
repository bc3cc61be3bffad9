/**
 * Sagas of the viewer: when the address names a file, read it (a guest: from the shared list the
 * page shows) and its folder path; for a file shown through its PDF rendition, ask where document
 * imaging is (a guest: through the share), and ask again while the rendition is being made, with a growing pause
 * ({@link RENDITION_POLL_DELAYS_MS}: 2 s, 4 s, 8 s, then every 10 s) until it is done, failed or
 * unsupported, the viewer closes or names another file.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { call, getContext, put, race, select, take, takeLatest } from 'typed-redux-saga';
import { ROOT_FOLDER_ID } from '@common/constants';
import type { FileRenditionDto } from '@common/imaging';
import { MESSAGES } from '@common/messages';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import { selectIsGuest } from '../sharing/sharingSelectors';
import { sharingActions } from '../sharing/sharingSlice';
import * as viewerApi from './viewerApi';
import { contentOf, PENDING_RENDITION_STATES } from './viewerSelectors';
import { viewerActions, type ViewerCrumb, type ViewerFile, type ViewerSource } from './viewerSlice';
import type { Saga } from '@src/sagas/saga';

/**
 * The pauses between two questions to the rendition route while the rendition is being made, in
 * milliseconds; the last one repeats.
 */
export const RENDITION_POLL_DELAYS_MS: readonly number[] = [2000, 4000, 8000, 10000];

/** The pause before the `attempt`th question again (0: after the first answer), in ms. */
export function pollDelayMs(attempt: number): number {
  const last = RENDITION_POLL_DELAYS_MS.length - 1;
  return RENDITION_POLL_DELAYS_MS[Math.min(attempt, last)]!;
}

/** The saga context key of a {@link ViewerEnvironment} (tests pass one). */
export const VIEWER_ENVIRONMENT = 'viewerEnvironment';

/** What the viewer sagas need of the browser. */
export interface ViewerEnvironment {
  /** Resolves after `ms` milliseconds. */
  wait: (ms: number) => Promise<void>;
}

const browserViewerEnvironment: ViewerEnvironment = {
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The file of the firm's routes and the folders above it. */
function* readFirmFile(fileId: string): Saga<{ file: ViewerFile; path: ViewerCrumb[] }> {
  const dto = yield* call(viewerApi.fetchFile, fileId);
  let path: ViewerCrumb[] = [];
  if (dto.folder_id !== ROOT_FOLDER_ID) {
    try {
      const crumbs = yield* call(viewerApi.fetchFolderPath, dto.folder_id);
      path = crumbs.map(({ id, name }) => ({ id, name }));
    } catch (error) {
      // The path is a nicety: the file is shown without it.
      console.warn('The folder path could not be read:', errorMessage(error));
    }
  }
  const file: ViewerFile = {
    id: dto.id,
    name: dto.name,
    extension: dto.extension,
    contentType: dto.content_type,
    size: dto.size,
    folderId: dto.folder_id,
    source: 'firm',
    downloadAllowed: true,
  };
  return { file, path };
}

/**
 * A file shared with the user (a guest, or an internal user on the Shared page) from the shared
 * list the page shows, with the share's path above it; null when that list does not have it.
 */
function* readSharedFile(fileId: string): Saga<{ file: ViewerFile; path: ViewerCrumb[] } | null> {
  const find = (state: RootState) => state.sharing.shared.items.find((item) => item.id === fileId);
  let item = yield* select(find);
  const listStatus = yield* select((state: RootState) => state.sharing.shared.list.status);
  if (!item && listStatus === 'loading') {
    // A reload on the deep link: the page's list is being read.
    yield* take([sharingActions.sharedLoaded.type, sharingActions.sharedLoadFailed.type]);
    item = yield* select(find);
  }
  if (!item || item.entity_type !== 'file') return null;
  const shared = yield* select((state: RootState) => state.sharing.shared);
  const file: ViewerFile = {
    id: item.id,
    name: item.name,
    extension: item.extension ?? '',
    contentType: item.content_type ?? '',
    size: item.size ?? 0,
    folderId: item.folder_id,
    source: 'share',
    downloadAllowed: item.allow_download && shared.allowDownload,
  };
  const path =
    shared.folderId === item.folder_id ? shared.crumbs.map(({ id, name }) => ({ id, name })) : [];
  return { file, path };
}

/**
 * Asks where the file's rendition is until it is no longer pending, pausing
 * {@link pollDelayMs} between questions.
 * @param source the firm's routes, or the guest's share (GET shared/files/{id}/rendition)
 */
export function* pollRendition(fileId: string, source: ViewerSource = 'firm'): Saga {
  const given = yield* getContext<ViewerEnvironment | undefined>(VIEWER_ENVIRONMENT);
  const env = given ?? browserViewerEnvironment;
  for (let attempt = 0; ; attempt += 1) {
    let rendition: FileRenditionDto;
    try {
      rendition = yield* call(
        source === 'share' ? viewerApi.fetchSharedRendition : viewerApi.fetchRendition,
        fileId,
      );
    } catch (error) {
      yield* put(viewerActions.renditionLoadFailed({ fileId, message: errorMessage(error) }));
      return;
    }
    const pending = PENDING_RENDITION_STATES.has(rendition.state);
    yield* put(viewerActions.renditionLoaded({ fileId, rendition, pending }));
    if (!pending) return;
    yield* call(env.wait, pollDelayMs(attempt));
  }
}

/**
 * The file the viewer was opened on: a guest's through the share; an internal user's through the
 * share when opened from the Shared page and the list shared with them has it (a file of "Shared
 * by me" is the firm's own), else through the firm's routes.
 * @throws ApiError or Error(MESSAGES.notFound) when it cannot be read
 */
function* readViewerFile(
  fileId: string,
  via: ViewerSource,
): Saga<{ file: ViewerFile; path: ViewerCrumb[] }> {
  const guest = yield* select(selectIsGuest);
  if (guest || via === 'share') {
    const shared = yield* call(readSharedFile, fileId);
    if (shared) return shared;
    if (guest) throw new Error(MESSAGES.notFound);
  }
  return yield* call(readFirmFile, fileId);
}

/** The address named a file: read it, then (a rendition) follow its derivation. */
export function* openFile(
  action: PayloadAction<{ fileId: string; page?: number | null; via?: ViewerSource }>,
): Saga {
  const { fileId, via = 'firm' } = action.payload;
  let file: ViewerFile;
  try {
    const read = yield* call(readViewerFile, fileId, via);
    file = read.file;
    yield* put(viewerActions.fileLoaded({ fileId, file, path: read.path }));
  } catch (error) {
    yield* put(viewerActions.fileLoadFailed({ fileId, message: errorMessage(error) }));
    return;
  }
  if (contentOf(file) === 'rendition') yield* call(pollRendition, fileId, file.source);
}

/** Runs {@link openFile} until the viewer closes (another file: takeLatest cancels it). */
function* openUntilClosed(
  action: PayloadAction<{ fileId: string; page?: number | null; via?: ViewerSource }>,
): Saga {
  yield* race({ open: call(openFile, action), closed: take(viewerActions.closed.type) });
}

/** The viewer feature's root saga. */
export function* viewerSaga(): Saga {
  yield* takeLatest(viewerActions.opened.type, safely(openUntilClosed));
}
