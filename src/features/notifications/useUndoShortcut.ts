/**
 * Ctrl+Z (Cmd+Z on macOS) undoes the last undoable action while its success toast is open: the
 * newest toast with an Undo is undone as if its button were pressed, so the Undo does not have to
 * be reached with Tab before the toast closes (SUCCESS_TOAST_MS). In a text field the keys keep
 * their own meaning (undo typing).
 */
import { useEffect } from 'react';
import { useStore } from 'react-redux';
import type { AppStore } from '@src/store/store';
import { selectSuccessToasts } from './notificationsSelectors';
import { notificationsActions } from './notificationsSlice';

const useAppStore = useStore.withTypes<AppStore>();

/** Whether the platform's command key is ⌘ (macOS, iOS) rather than Ctrl. */
export function isApplePlatform(): boolean {
  return /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
}

/** The hint of a toast's Undo: "Ctrl+Z to undo", or "Cmd+Z to undo" on macOS. */
export function undoShortcutText(): string {
  return `${isApplePlatform() ? 'Cmd' : 'Ctrl'}+Z to undo`;
}

/** The undo keys for `aria-keyshortcuts`. */
export function undoKeyShortcuts(): string {
  return isApplePlatform() ? 'Meta+Z' : 'Control+Z';
}

/** Whether `target` edits text (an input, a text area, an editable element). */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA') return true;
  if (target.tagName !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(
    type,
  );
}

/** Whether `event` is the undo keys: Ctrl+Z, or Cmd+Z on Apple platforms (no Shift, no Alt). */
function isUndoKeys(event: KeyboardEvent): boolean {
  const command = isApplePlatform() ? event.metaKey : event.ctrlKey;
  return command && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'z';
}

/** Installs the undo keys on the document (mounted once, with the toasts). */
export function useUndoShortcut(): void {
  const store = useAppStore();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !isUndoKeys(event) || isTextField(event.target)) return;
      const toast = selectSuccessToasts(store.getState()).findLast((shown) => shown.undo);
      if (!toast) return;
      event.preventDefault();
      store.dispatch(notificationsActions.undoClicked({ id: toast.id }));
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [store]);
}
