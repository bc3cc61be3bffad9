/**
 * Focus return for panels that mount while open and unmount when closed (the Details and History
 * drawers): the element that had the focus when the panel opened gets it back when the panel
 * closes. antd's own return (`focusTriggerAfterClose`) runs only after a close animation, which
 * a panel that unmounts never plays. When that element is gone (its row was archived) or was the
 * page itself, the page's main content takes the focus instead.
 */
import { useLayoutEffect } from 'react';

/** The id of the app shell's main content (`AppLayout`), the fallback focus target. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * Remembers the focused element when `active` turns true and focuses it again when `active`
 * turns false or the component unmounts.
 *
 * @param active whether the panel is open
 */
export function useReturnFocus(active: boolean): void {
  // A layout effect runs before the drawer's own (passive) effect moves the focus into it.
  useLayoutEffect(() => {
    if (!active) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // After the drawer's focus lock has been released.
      setTimeout(() => {
        const focused = document.activeElement;
        // The user has moved on to something else meanwhile: leave the focus there.
        if (focused && focused !== document.body && focused.isConnected) return;
        const target =
          opener && opener !== document.body && opener.isConnected
            ? opener
            : document.getElementById(MAIN_CONTENT_ID);
        target?.focus({ preventScroll: true });
      }, 0);
    };
  }, [active]);
}
