/** Selectors of the sharing slice and the guest rules of the app shell. */
import { createSelector } from '@reduxjs/toolkit';
import { fileKind, isInlinePreviewable, type FileKind } from '@common/files';
import { awaitsThumbnail, isViewable } from '@common/imaging';
import { formatDate, formatSize } from '@common/format';
import {
  SHARED_BY_ME_STATE_LABELS,
  type SharedByMeState,
  type SharedEntityDto,
} from '@common/sharing';
import type { RootState } from '@src/store/rootReducer';
import { selectFeatureFlag } from '../flags/flagsSelectors';
import { selectCurrentRole } from '../session/sessionSelectors';

/** The share dialog. */
export const selectShareDialog = (state: RootState) => state.sharing.dialog;
/** The invitation page. */
export const selectInvitation = (state: RootState) => state.sharing.invitation;
/** The Shared page. */
export const selectShared = (state: RootState) => state.sharing.shared;

/** Whether the sharing feature flag is on (off: no Share action, nothing on the Shared page). */
export const selectSharingEnabled = (state: RootState) => selectFeatureFlag(state, 'sharing');

/**
 * Whether the signed-in user is a guest of the current firm database (role 'guest'): a guest sees
 * only the Shared page.
 */
export const selectIsGuest = createSelector(
  [selectCurrentRole],
  // Widened so that this compiles before and after Role gains 'guest' (common/types.ts).
  (role) => (role as string | null) === 'guest',
);

/**
 * Whether the user may share and manage access: administrators and members; read-only members
 * only see who has access (docs/roles.md).
 */
export const selectCanShare = createSelector(
  [selectCurrentRole],
  (role) => role === 'admin' || role === 'member',
);

/** Display text of a size that does not apply (folders). */
export const NO_SIZE = '—';

/** Shared by me: the recipient of a link that named no address and nobody used yet. */
const ANYONE_WITH_THE_LINK = 'Anyone with the link';

/** What a Shared page row shows. */
export interface SharedRow {
  /** The item's id (files and folders). */
  id: string;
  /** The share that gives access (Remove access of Shared by me). */
  shareId: string;
  type: SharedEntityDto['entity_type'];
  name: string;
  kind: FileKind;
  sizeText: string;
  /** Who shared it. */
  sharedBy: string;
  /** When it was shared, formatted (SPEC section 9). */
  sharedText: string;
  /** Shared by me: the recipient's address, or "Anyone with the link"; '' otherwise. */
  recipient: string;
  /** Shared by me: the recipient's state (null on Shared with me). */
  state: SharedByMeState | null;
  /** Shared by me: the state as shown ('' on Shared with me). */
  stateLabel: string;
  /** Shared by me: the row's link ('' on Shared with me). */
  linkId: string;
  /** Shared by me: whether the link still works, so it can be copied again. */
  linkLive: boolean;
  /** A key unique among the list's rows. */
  key: string;
  allowDownload: boolean;
  /** The folder it is listed in ('' at the top level). */
  folderId: string;
  /**
   * Whether the item is a file the browser can show inline (`isInlinePreviewable` of its content
   * type): for an internal user its name opens the share's preview in a tab; otherwise it offers
   * a download (when the share allows it). Always false for folders.
   */
  previewable: boolean;
  /** A file whose thumbnail is stored and reachable through the share (Shared with me). */
  thumbnail: boolean;
  /** A file without one yet whose type document imaging thumbnails (`awaitsThumbnail`). */
  thumbnailAwaited: boolean;
  /**
   * Whether the in-app viewer shows the file (`isViewable`: the browser shows it safely, or
   * document imaging makes a PDF rendition, which the share's preview serves): a guest's name
   * and Preview open the viewer; internal users' rows of their own firm (Shared by me) too.
   * Always false for folders.
   */
  viewable: boolean;
}

/** The row of one shared item. */
function toSharedRow(item: SharedEntityDto): SharedRow {
  const isFolder = item.entity_type === 'folder';
  return {
    id: item.id,
    shareId: item.share_id,
    type: item.entity_type,
    name: item.name,
    kind: isFolder ? 'folder' : fileKind({ type: 'file', extension: item.extension ?? '' }),
    sizeText: isFolder || item.size === undefined ? NO_SIZE : formatSize(item.size),
    sharedBy: item.shared_by_name,
    sharedText: formatDate(item.shared_at),
    recipient: item.recipient_email === '' ? ANYONE_WITH_THE_LINK : (item.recipient_email ?? ''),
    state: item.share_state ?? null,
    stateLabel: item.share_state ? SHARED_BY_ME_STATE_LABELS[item.share_state] : '',
    linkId: item.link_id ?? '',
    linkLive: item.link_live === true,
    key: `${item.id}:${item.row_id ?? item.share_id}`,
    allowDownload: item.allow_download,
    folderId: item.folder_id,
    previewable: item.entity_type === 'file' && isInlinePreviewable(item.content_type ?? ''),
    thumbnail: item.entity_type === 'file' && item.thumbnail === true,
    thumbnailAwaited: item.entity_type === 'file' && awaitsThumbnail(item),
    viewable:
      item.entity_type === 'file' && isViewable(item.extension ?? '', item.content_type ?? ''),
  };
}

/** The rows of the open list (what was shared with the user, or the open folder's contents). */
export const selectSharedRows = createSelector([selectShared], (shared) =>
  shared.items.map(toSharedRow),
);

/** The rows of Shared by me (internal users' top level). */
export const selectSharedByMeRows = createSelector([selectShared], (shared) =>
  shared.byMe.map(toSharedRow),
);
