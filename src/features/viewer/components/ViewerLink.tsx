/**
 * A link opening a file in the viewer: the current address with `view=file:<id>` (and a page),
 * pushed with the mark that lets Back, Escape and the close button return to this page
 * (viewerNavigation.ts). A modified click (new tab, new window) opens the same address there.
 */
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { viewerSearch } from '@src/app/viewerLink';
import { VIEWER_OPENED_STATE } from '../viewerNavigation';

/** Props of {@link ViewerLink}. */
export interface ViewerLinkProps {
  fileId: string;
  /** The page to open at (1-based); the first by default. */
  page?: number;
  className?: string;
  tabIndex?: number;
  draggable?: boolean;
  title?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * The `<a>` opening `fileId` in the viewer over the current page.
 * @param props the file, the page, and the anchor's class, tab index, draggability and names
 */
export function ViewerLink({ fileId, page, children, ...anchor }: ViewerLinkProps) {
  const location = useLocation();
  const search = viewerSearch(new URLSearchParams(location.search), fileId, page);
  return (
    <Link
      to={{ pathname: location.pathname, search, hash: location.hash }}
      state={VIEWER_OPENED_STATE}
      {...anchor}
    >
      {children}
    </Link>
  );
}
