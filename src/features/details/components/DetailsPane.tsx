/**
 * The details panel as a side pane (windows of 1100px and wider, DETAILS_PANE_QUERY): a
 * non-modal complementary region beside the page, so the list stays usable. It holds whatever
 * DetailsPanel puts in it (the same content as the drawer of narrower windows). While it is open,
 * selecting one other row of the folder view shows that row's details. Opening moves the focus to
 * the pane; its Close button (and Esc inside it) closes it and returns the focus to what opened
 * it (for a row menu's "Details", the menu's button in that row, or else the row).
 */
import { CloseOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectSelectedItems } from '@src/features/organise/organiseSelectors';
import { selectDetailsTarget } from '../detailsSelectors';
import { detailsActions } from '../detailsSlice';

/** Props of {@link DetailsPane}. */
export interface DetailsPaneProps {
  /** Closes the panel (details/panelClosed). */
  onClose: () => void;
  children: ReactNode;
}

/** What opened the pane: the element focused then, and the item it opened. */
interface Opener {
  element: Element | null;
  itemId: string | null;
}

/** Whether an element can take the focus back (still in the page, not in a closed menu). */
function canRefocus(element: Element | null): element is HTMLElement {
  return (
    element instanceof HTMLElement &&
    element.isConnected &&
    element !== document.body &&
    !element.closest('.ant-dropdown')
  );
}

/**
 * Returns the focus to the opener; when it is gone (a row menu's item), to the menu button of the
 * row of the item first opened, or to that row.
 */
function refocus({ element, itemId }: Opener): void {
  if (canRefocus(element)) {
    element.focus();
    return;
  }
  if (!itemId) return;
  const row = document.querySelector<HTMLElement>(`[data-entity-id="${CSS.escape(itemId)}"]`);
  const button = row?.querySelector<HTMLElement>('button[aria-haspopup]');
  (button ?? row)?.focus();
}

/** Whether a key event comes from a field that uses Esc itself. */
function fromField(target: EventTarget): boolean {
  const element = target as HTMLElement;
  return (
    element.tagName === 'INPUT' ||
    element.tagName === 'TEXTAREA' ||
    element.isContentEditable ||
    element.getAttribute('role') === 'combobox'
  );
}

/** While the pane is open, one row selected (other than the shown item) is shown in it. */
function useFollowSelection(): void {
  const dispatch = useAppDispatch();
  const target = useAppSelector(selectDetailsTarget);
  const selected = useAppSelector(selectSelectedItems);
  const selectedKey = selected.map((item) => item.id).join('\n');
  const previousKey = useRef(selectedKey);

  useEffect(() => {
    if (previousKey.current === selectedKey) return;
    previousKey.current = selectedKey;
    const only = selected.length === 1 ? selected[0]! : null;
    if (!only || only.id === target?.id) return;
    dispatch(detailsActions.panelOpened({ id: only.id, type: only.type }));
  }, [dispatch, selectedKey, selected, target]);
}

/** The side pane around the panel's content. */
export function DetailsPane({ onClose, children }: DetailsPaneProps) {
  const target = useAppSelector(selectDetailsTarget);
  const pane = useRef<HTMLElement>(null);
  // The item first shown (useRef keeps its first value) and the element focused when it opened.
  const openedId = useRef(target?.id ?? null);
  const opener = useRef<Opener>({ element: null, itemId: null });
  useFollowSelection();

  // Only when the pane opens: switching items keeps the focus where it is.
  useEffect(() => {
    const focused = document.activeElement;
    if (!pane.current?.contains(focused)) {
      opener.current = { element: focused, itemId: openedId.current };
    }
    pane.current?.focus({ preventScroll: true });
  }, []);

  const close = () => {
    onClose();
    refocus(opener.current);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented || fromField(event.target)) return;
    // Dialogs opened from the pane (Share, permissions) are portals: their Esc is their own.
    if (!pane.current?.contains(event.target as Node)) return;
    event.preventDefault();
    close();
  };

  return (
    <aside
      ref={pane}
      className="details-panel details-pane"
      aria-label="Details"
      data-testid="details-panel"
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <div className="details-pane-head">
        <span className="details-pane-title">Details</span>
        <Button
          type="text"
          icon={<CloseOutlined aria-hidden />}
          aria-label="Close"
          title="Close"
          onClick={close}
        />
      </div>
      <div className="details-pane-body">{children}</div>
    </aside>
  );
}
