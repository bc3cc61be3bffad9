/**
 * The room the upload panel takes at the bottom of the window, published as a CSS custom property
 * on the document's root so that the page keeps its content out from under the panel: the app body
 * gets that much bottom padding (its lists end above the panel, so no row's Modified column or
 * actions are hidden) and the success toasts are lifted above a full-width panel (app.css,
 * notifications.css).
 */
import { useLayoutEffect, type RefObject } from 'react';

/** The CSS custom property holding the panel's room at the bottom of the window, e.g. "332px". */
export const UPLOAD_PANEL_SPACE_PROPERTY = '--upload-panel-space';

/** Gap kept between the page content and the panel's top edge, in px. */
const UPLOAD_PANEL_SPACE_GAP = 8;

/**
 * The room to keep free at the bottom of the window for a fixed panel.
 *
 * @param rect the panel's box (px, relative to the viewport)
 * @param viewportHeight the window's inner height, px
 * @returns px from the panel's top edge to the window's bottom plus the gap; 0 for a panel that
 *   takes no room (not laid out)
 */
function reservedSpaceOf(rect: { top: number; height: number }, viewportHeight: number): number {
  if (rect.height <= 0) return 0;
  return Math.max(0, Math.ceil(viewportHeight - rect.top)) + UPLOAD_PANEL_SPACE_GAP;
}

/**
 * Keeps {@link UPLOAD_PANEL_SPACE_PROPERTY} equal to the room the element takes at the bottom of the
 * window while it is shown (measured again when it resizes or the window does), and removes the
 * property when there is no element or on unmount.
 *
 * @param ref the fixed panel (null while hidden)
 * @param shape anything that changes which element the ref holds or its layout (panel state)
 */
export function useReservedSpace(ref: RefObject<HTMLElement | null>, shape: string): void {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const element = ref.current;
    if (!element) {
      root.style.removeProperty(UPLOAD_PANEL_SPACE_PROPERTY);
      return undefined;
    }
    const update = () => {
      const space = reservedSpaceOf(element.getBoundingClientRect(), window.innerHeight);
      root.style.setProperty(UPLOAD_PANEL_SPACE_PROPERTY, `${space}px`);
    };
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    window.addEventListener('resize', update);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(UPLOAD_PANEL_SPACE_PROPERTY);
    };
  }, [ref, shape]);
}
