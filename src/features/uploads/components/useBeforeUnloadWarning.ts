/** The browser prompt before leaving while uploads run (SPEC section 2). */
import { useEffect } from 'react';

/**
 * While `active`, leaving or reloading the page asks the browser to confirm (the browser shows
 * its own wording).
 */
export function useBeforeUnloadWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
      return '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}
