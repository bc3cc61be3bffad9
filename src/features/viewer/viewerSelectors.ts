/**
 * Selectors of the viewer: what it shows (`selectViewerPhase`), the file's addresses, and the
 * previous and next file of the list the viewer was opened from (the current page's list in the
 * store: the folder, Favorites, Recent, Archive, search results, Shared).
 */
import { createSelector } from '@reduxjs/toolkit';
import { viewerContent, type ViewerContent, type RenditionState } from '@common/imaging';
import type { RootState } from '@src/store/rootReducer';
import { fileUrl } from '../entities/entitiesApi';
import { sharedFileUrl } from '../sharing/sharingApi';
import type { ViewerFile } from './viewerSlice';

/** The whole viewer slice. */
const selectViewer = (state: RootState) => state.viewer;
/** The file the address names, or null when closed. */
export const selectViewerFileId = (state: RootState) => state.viewer.fileId;
/** The page the address names (1-based). */
export const selectViewerPage = (state: RootState) => state.viewer.page;
/** The file shown, once read. */
export const selectViewerFile = (state: RootState) => state.viewer.file;
/** The folders above the file shown, top level first. */
export const selectViewerPath = (state: RootState) => state.viewer.path;

/** Rendition states in which the derivation is still to come: the viewer keeps asking. */
export const PENDING_RENDITION_STATES: ReadonlySet<RenditionState> = new Set([
  'waiting',
  'queued',
  'running',
]);

/**
 * What the viewer shows of a file: the original (its preview kind), the PDF rendition, or null
 * for nothing. The same for a guest: the share's preview serves the rendition once stored, and
 * GET shared/files/{id}/rendition says where it is.
 */
export function contentOf(file: ViewerFile): ViewerContent | null {
  return viewerContent(file.extension, file.contentType);
}

/**
 * What the viewer's body shows:
 * - `loading`: the file (or, for a rendition, its state) is being read;
 * - `error`: it could not be read (`message`);
 * - `preparing`: the rendition is being made (`state`, `attempts`; the saga polls);
 * - `failed`: the derivation gave up (`reason`, naming a missing tool's install command);
 * - `unsupported`: nothing can show this type (the Download button stays);
 * - `show`: the content, `kind` pdf/image/video/audio/text, from `url` (a rendition is a pdf).
 */
export type ViewerPhase =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'preparing'; state: RenditionState; attempts: number }
  | { kind: 'failed'; reason: string | null }
  | { kind: 'unsupported' }
  | { kind: 'show'; content: Exclude<ViewerContent, 'rendition'>; url: string };

/** The addresses of the file shown: preview (what the viewer loads), download and print. */
export interface ViewerUrls {
  preview: string;
  /** Null when a guest's share does not allow downloading. */
  download: string | null;
  /** Null for a guest (shares have no print route). */
  print: string | null;
}

/** The addresses of a file, by where it was read from. */
function urlsOf(file: ViewerFile): ViewerUrls {
  if (file.source === 'share') {
    return {
      preview: sharedFileUrl(file.id, 'preview'),
      download: file.downloadAllowed ? sharedFileUrl(file.id, 'download') : null,
      print: null,
    };
  }
  return {
    preview: fileUrl(file.id, 'preview'),
    download: fileUrl(file.id, 'download'),
    print: fileUrl(file.id, 'print'),
  };
}

/** The addresses of the file shown, or null before it is read. */
export const selectViewerUrls = createSelector([selectViewerFile], (file) =>
  file ? urlsOf(file) : null,
);

/** What the viewer's body shows now (see {@link ViewerPhase}). */
export const selectViewerPhase = createSelector([selectViewer], (viewer): ViewerPhase => {
  if (!viewer.fileId) return { kind: 'closed' };
  if (viewer.fileStatus === 'failed') return { kind: 'error', message: viewer.fileError ?? '' };
  const file = viewer.file;
  if (!file) return { kind: 'loading' };
  const content = contentOf(file);
  if (content === null) return { kind: 'unsupported' };
  const url = urlsOf(file).preview;
  if (content !== 'rendition') return { kind: 'show', content, url };
  if (viewer.renditionStatus === 'failed') {
    return { kind: 'error', message: viewer.renditionError ?? '' };
  }
  const rendition = viewer.rendition;
  if (!rendition) return { kind: 'loading' };
  if (PENDING_RENDITION_STATES.has(rendition.state)) {
    return { kind: 'preparing', state: rendition.state, attempts: rendition.attempts };
  }
  if (rendition.state === 'unsupported') return { kind: 'unsupported' };
  if (rendition.state === 'failed') return { kind: 'failed', reason: rendition.reason };
  if (!rendition.pdf) return { kind: 'failed', reason: null };
  return { kind: 'show', content: 'pdf', url };
});

/** A file of the list the viewer was opened from. */
export interface ViewerListItem {
  id: string;
  name: string;
}

/** Which list a page shows, by its path; null for a page without a list of files. */
export type ViewerListKind = 'folder' | 'favorites' | 'recent' | 'archive' | 'search' | 'shared';

/** The list shown by the page at `pathname`. */
export function listKindOf(pathname: string): ViewerListKind | null {
  if (pathname === '/home' || pathname.startsWith('/home/')) return 'folder';
  if (pathname === '/favorites') return 'favorites';
  if (pathname === '/recent') return 'recent';
  if (pathname === '/archive') return 'archive';
  if (pathname === '/search') return 'search';
  if (/^\/(shared|sharing\/shared)(\/|$)/.test(pathname)) return 'shared';
  return null;
}

/** An item of any page's list, as far as the viewer needs it. */
interface ListedItem {
  id: string;
  name: string;
  type: 'file' | 'folder';
  extension?: string;
  content_type?: string;
}

/** The lists a page may show, as the store holds them. */
interface Lists {
  folder: readonly ListedItem[];
  favorites: readonly ListedItem[];
  recent: readonly ListedItem[];
  archive: readonly ListedItem[];
  search: readonly ListedItem[];
  shared: RootState['sharing']['shared'];
}

/** The items of one list kind (Shared: what was shared with the user, then by them). */
function itemsOf(lists: Lists, kind: ViewerListKind): readonly ListedItem[] {
  if (kind !== 'shared') return lists[kind];
  return lists.shared.items.concat(lists.shared.byMe).map((item) => ({
    id: item.id,
    name: item.name,
    type: item.entity_type,
    extension: item.extension,
    content_type: item.content_type,
  }));
}

/**
 * The files of the current page's list that open in the viewer, in list order (for previous and
 * next), or null when the page has no list.
 * @param pathname the current address's path
 */
export const selectViewerList = createSelector(
  [
    (_state: RootState, pathname: string) => listKindOf(pathname),
    (state: RootState) => state.entities.items,
    (state: RootState) => state.collections.favorites.items,
    (state: RootState) => state.collections.recent.items,
    (state: RootState) => state.collections.archive.items,
    (state: RootState) => state.search.results.items,
    (state: RootState) => state.sharing.shared,
  ],
  (kind, folder, favorites, recent, archive, search, shared): ViewerListItem[] | null => {
    if (!kind) return null;
    const lists: Lists = { folder, favorites, recent, archive, search, shared };
    const seen = new Set<string>();
    return itemsOf(lists, kind)
      .filter((item) => {
        if (item.type !== 'file' || seen.has(item.id)) return false;
        seen.add(item.id);
        return viewerContent(item.extension ?? '', item.content_type ?? '') !== null;
      })
      .map((item) => ({ id: item.id, name: item.name }));
  },
);

/** The files before and after the one shown in its list (null at either end or without one). */
export interface ViewerNeighbours {
  previous: ViewerListItem | null;
  next: ViewerListItem | null;
  /** The list the file was found in has it (previous/next buttons are shown). */
  listed: boolean;
}

/**
 * The previous and next file of the list the viewer was opened from.
 * @param list the page's viewable files ({@link selectViewerList})
 * @param fileId the file shown
 */
export function neighboursIn(
  list: ViewerListItem[] | null,
  fileId: string | null,
): ViewerNeighbours {
  const at = list && fileId ? list.findIndex((item) => item.id === fileId) : -1;
  if (!list || at < 0) return { previous: null, next: null, listed: false };
  return { previous: list[at - 1] ?? null, next: list[at + 1] ?? null, listed: true };
}
