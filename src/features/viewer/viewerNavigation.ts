/**
 * The viewer and the address (app/viewerLink.ts): the address is the only input of the viewer.
 * `useViewerDeepLink` (mounted once, in the app layout) tells the slice what the address names;
 * `useViewerNavigation` gives the viewer's controls the addresses they go to.
 *
 * Opening the viewer from a link adds a history entry marked {@link VIEWER_OPENED_STATE}; so
 * Back closes it, and so does Escape or the close button, by going back to that entry's page.
 * Without the mark (the deep link was typed, bookmarked or shared) closing replaces the address
 * with the page's own. Turning pages and going to the previous or next file replace the address
 * (keeping the mark), so Back never walks through the pages read.
 */
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  parseViewerParams,
  viewerSearch,
  withoutViewerParams,
  type ViewerTarget,
} from '@src/app/viewerLink';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { listKindOf, selectViewerFileId, selectViewerPage } from './viewerSelectors';
import { viewerActions, type ViewerSource } from './viewerSlice';

/** The history state of an entry that opened the viewer from the page before it. */
export const VIEWER_OPENED_STATE = { viewerOpened: true } as const;

/** Whether a history entry's state is {@link VIEWER_OPENED_STATE}. */
function openedFromPage(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as { viewerOpened?: unknown }).viewerOpened === true
  );
}

/**
 * Keeps the viewer slice on what the address names: another file opens it (reading the file),
 * another page of the same file turns the page, no file closes it.
 * @returns what the address names, or null
 */
export function useViewerDeepLink(): ViewerTarget | null {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const via: ViewerSource = listKindOf(pathname) === 'shared' ? 'share' : 'firm';
  const target = parseViewerParams(params);
  const shownId = useAppSelector(selectViewerFileId);
  const shownPage = useAppSelector(selectViewerPage);
  const fileId = target?.fileId ?? null;
  const page = target?.page ?? null;
  useEffect(() => {
    if (fileId === null) {
      if (shownId !== null) dispatch(viewerActions.closed());
    } else if (fileId !== shownId) {
      dispatch(viewerActions.opened({ fileId, page, via }));
    } else if ((page ?? 1) !== shownPage) {
      dispatch(viewerActions.pageChanged({ page }));
    }
  }, [dispatch, fileId, page, via, shownId, shownPage]);
  return target;
}

/**
 * Opens a file in the viewer over the current page (a Preview button, Enter on a row): the
 * address with `view=file:<id>`, pushed with {@link VIEWER_OPENED_STATE} as a link would.
 * @returns `open(fileId, page?)`
 */
export function useOpenInViewer(): (fileId: string, page?: number) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (fileId: string, page?: number) => {
      const search = viewerSearch(new URLSearchParams(location.search), fileId, page);
      void navigate(
        { pathname: location.pathname, search, hash: location.hash },
        { state: VIEWER_OPENED_STATE },
      );
    },
    [navigate, location.pathname, location.search, location.hash],
  );
}

/** What the viewer's controls do to the address. */
export interface ViewerNavigation {
  /** Shows another page of the file (replaces the address). */
  goToPage: (page: number) => void;
  /** Shows another file of the list, from its first page (replaces the address). */
  openFile: (fileId: string) => void;
  /** Closes the viewer: back to the page it was opened from, or the page's own address. */
  close: () => void;
}

/** The viewer's navigation on the current address. */
export function useViewerNavigation(): ViewerNavigation {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const fileId = parseViewerParams(params)?.fileId ?? null;
  const state: unknown = location.state;
  const replace = useCallback(
    (search: string) =>
      void navigate(
        { pathname: location.pathname, search, hash: location.hash },
        { replace: true, state },
      ),
    [navigate, location.pathname, location.hash, state],
  );
  return {
    goToPage: useCallback(
      (page: number) => {
        if (fileId) replace(viewerSearch(params, fileId, page));
      },
      [replace, params, fileId],
    ),
    openFile: useCallback((next: string) => replace(viewerSearch(params, next)), [replace, params]),
    close: useCallback(() => {
      if (openedFromPage(state)) void navigate(-1);
      else
        void navigate(
          {
            pathname: location.pathname,
            search: withoutViewerParams(params).toString(),
            hash: location.hash,
          },
          { replace: true },
        );
    }, [navigate, state, params, location.pathname, location.hash]),
  };
}
