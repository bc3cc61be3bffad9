/**
 * The addresses of replay: the Replay page (`/replay/:folderId` with `as_of`, `event`,
 * `before_event`, the sub-folder shown `folder` and `archived=1`), its printable case file
 * (`/replay/:folderId/case-file?from&to`), and the folder's normal page ("Back to now").
 * `:folderId` is the folder's id, or REPLAY_ROOT_ID for the root.
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import { folderIdOfRouteId, replayRouteId } from './replayApi';
import { NOW_MOMENT, type ReplayMoment } from './replaySlice';

/** The Replay page's route pattern. */
export const REPLAY_PAGE_PATH = '/replay/:folderId';
/** The printable case file's route pattern. */
export const CASE_FILE_PAGE_PATH = '/replay/:folderId/case-file';

/** What the Replay page's address says besides the folder. */
export interface ReplayAddress {
  moment: ReplayMoment;
  /** The folder of the subtree whose items are listed (null: the replayed folder itself). */
  subFolderId: string | null;
  /** Whether archived items are listed too. */
  archived: boolean;
}

/** Reads the Replay page's search parameters. */
export function addressFromSearch(search: URLSearchParams): ReplayAddress {
  const value = (name: string) => {
    const text = search.get(name);
    return text === null || text === '' ? null : text;
  };
  return {
    moment: { as_of: value('as_of'), event: value('event'), before_event: value('before_event') },
    subFolderId: search.has('folder') ? (search.get('folder') ?? '') : null,
    archived: search.get('archived') === '1',
  };
}

/** The search parameters of a Replay page address (empty parts left out). */
export function searchFromAddress(address: ReplayAddress): URLSearchParams {
  const search = new URLSearchParams();
  const { moment } = address;
  if (moment.as_of !== null) search.set('as_of', moment.as_of);
  if (moment.event !== null) search.set('event', moment.event);
  if (moment.before_event !== null) search.set('before_event', moment.before_event);
  if (address.subFolderId !== null) search.set('folder', address.subFolderId);
  if (address.archived) search.set('archived', '1');
  return search;
}

/**
 * The Replay page of a folder ('' is the root), at a moment (now by default).
 * @param folderId the folder's id
 * @param address the moment and the rest of the address
 */
export function replayPagePath(folderId: string, address: Partial<ReplayAddress> = {}): string {
  const search = searchFromAddress({
    moment: address.moment ?? NOW_MOMENT,
    subFolderId: address.subFolderId ?? null,
    archived: address.archived ?? false,
  }).toString();
  const path = `/replay/${encodeURIComponent(replayRouteId(folderId))}`;
  return search ? `${path}?${search}` : path;
}

/** The printable case file of a folder between two ISO moments. */
export function caseFilePagePath(folderId: string, from: string, to: string): string {
  const search = new URLSearchParams({ from, to }).toString();
  return `/replay/${encodeURIComponent(replayRouteId(folderId))}/case-file?${search}`;
}

/** The folder's normal page: /home for the root, else /home/folders/:id. */
export function folderPagePath(folderId: string): string {
  return folderId === ROOT_FOLDER_ID ? '/home' : `/home/folders/${encodeURIComponent(folderId)}`;
}

/** The folder id a Replay route's `:folderId` names. */
export function folderIdOfParam(param: string | undefined): string {
  return folderIdOfRouteId(param ?? '');
}
