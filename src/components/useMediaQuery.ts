/**
 * Window-width breakpoints of the layout that code (not only CSS) needs, and a hook that follows
 * one. The CSS uses the same widths (app.css, folderTree.css, details.css).
 */
import { useCallback, useSyncExternalStore } from 'react';

/**
 * A desktop window (1024px and up): the folder tree pane is shown beside the folder list. Below
 * it (tablets, phones) the list would lose its desktop columns to the pane (the side navigation
 * is 220px wide from 768px), so the breadcrumbs and the Move picker's tree serve instead.
 */
export const TREE_PANE_QUERY = '(min-width: 1024px)';

/** A desktop window (1100px and up): the details panel is a side pane, not a drawer. */
export const DETAILS_PANE_QUERY = '(min-width: 1100px)';

/**
 * Whether the window matches a media query, updated when it starts or stops matching.
 * @param query a media query such as TREE_PANE_QUERY
 * @returns false where the browser has no matchMedia
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const matches = () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, matches, () => false);
}
