/**
 * Where the viewer lives: mounted once by the app layout (for internal users and guests), it
 * follows the address (`view=file:<id>`, `page=<n>`) and loads the viewer's own chunk (with
 * pdf.js behind it) only when a file is named. When the viewer closes, the focus goes back to
 * the element that opened it (a file's name, a Preview button), or to the page's content.
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useViewerDeepLink } from '../viewerNavigation';
import './viewer.css';

const Viewer = lazy(() => import('./Viewer').then((module) => ({ default: module.Viewer })));

/** The element that had the focus when the viewer opened, to give it back. */
function useOpenerFocus(open: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    } else if (!open && wasOpen.current) {
      const target = opener.current;
      opener.current = null;
      // The opener may be gone (the list re-rendered, another file was opened): the content.
      if (target?.isConnected) target.focus();
      else document.getElementById('main-content')?.focus();
    }
    wasOpen.current = open;
  }, [open]);
}

/** The viewer overlay while the address names a file; nothing otherwise. */
export function ViewerSlot() {
  const target = useViewerDeepLink();
  useOpenerFocus(target !== null);
  if (!target) return null;
  return (
    <Suspense
      fallback={
        <div className="viewer-overlay" role="dialog" aria-busy="true" aria-label="Viewer" />
      }
    >
      <Viewer />
    </Suspense>
  );
}
