/**
 * The context menu of a list's rows: a right-click on a row (an element with `data-entity-id`),
 * or Shift+F10 or the ContextMenu key while the row or anything in it has the focus, opens the
 * same actions as the row's "More actions" menu ({@link rowMenuItems}) at the pointer (at the row
 * from the keyboard, focused on its first item). One antd Dropdown (trigger contextMenu) wraps the
 * list body, so rows pay nothing for it. Escape or a chosen action returns the focus to the row.
 */
import { Dropdown, type MenuProps } from 'antd';
import {
  cloneElement,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
} from 'react';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { selectCanOrganise } from '@src/features/organise/organiseSelectors';
import { ROW_SUBMENU_KEYS, rowMenuItems, runRowAction, type RowActionItem } from '../rowActions';
import { useKeyboardMenu } from '../useKeyboardMenu';

/** The row element (`data-entity-id`) around `target`, if any. */
function rowElement(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>('[data-entity-id]') : null;
}

/** Whether `event` asks for the context menu from the keyboard. */
function isContextMenuKey(event: { key: string; shiftKey: boolean }): boolean {
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

/** Props of {@link RowContextMenu}. */
export interface RowContextMenuProps {
  /** The item of a row id (the list's loaded rows); undefined: no menu. */
  findItem: (id: string) => RowActionItem | undefined;
  /** The list edits names in the row (offers Rename); true in the folder view. */
  renameInRow?: boolean;
  /** The list body; it must take a ref and the mouse and key handlers (a DOM element). */
  children: ReactElement<{
    onContextMenuCapture?: (event: MouseEvent<HTMLElement>) => void;
    onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  }>;
}

/**
 * Wraps a list body with the rows' context menu (see the module comment).
 *
 * @param props how to find a row's item, whether Rename is offered, and the list body
 * @returns the body in the Dropdown
 */
export function RowContextMenu({ findItem, renameInRow = true, children }: RowContextMenuProps) {
  const dispatch = useAppDispatch();
  const colorsOn = useAppSelector((state) => selectFeatureFlag(state, 'folderColors'));
  const canOrganise = useAppSelector(selectCanOrganise);
  const rowRef = useRef<HTMLElement | null>(null);
  const [item, setItem] = useState<RowActionItem | null>(null);
  const menu = useKeyboardMenu({ submenuKeys: ROW_SUBMENU_KEYS, returnFocus: rowRef });

  /** Takes the row of a contextmenu event; false when it is not on a known row. */
  const target = (eventTarget: EventTarget | null): boolean => {
    const row = rowElement(eventTarget);
    const found = row?.dataset.entityId ? findItem(row.dataset.entityId) : undefined;
    if (!row || !found) return false;
    // The focus follows the row whose menu this is (when the row takes the focus), and comes
    // back to what has it now (the row, or a link in it) when the menu closes.
    if (!row.contains(document.activeElement) && row.tabIndex >= 0) {
      row.focus({ preventScroll: true });
    }
    rowRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setItem(found);
    return true;
  };

  const onContextMenuCapture = (event: MouseEvent<HTMLElement>) => {
    if (!target(event.target)) setItem(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    children.props.onKeyDown?.(event);
    if (event.defaultPrevented || !isContextMenuKey(event)) return;
    if (!target(event.target)) return;
    event.preventDefault();
    menu.openMenu(true);
    // Place the menu at the row, as a right-click there would (rc-trigger aligns to the point).
    const box = (event.target as HTMLElement).getBoundingClientRect();
    (event.target as HTMLElement).dispatchEvent(
      new window.MouseEvent('contextmenu', {
        bubbles: true,
        cancelable: true,
        clientX: box.left + Math.min(box.width / 2, 48),
        clientY: box.top + box.height,
      }),
    );
  };

  const onClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    domEvent.stopPropagation();
    menu.closeMenu();
    if (item) runRowAction(dispatch, item, key);
  };

  const items = item ? rowMenuItems(item, { canOrganise, colorsOn, renameInRow }) : [];
  return (
    <Dropdown
      menu={{ items, onClick, ...menu.menuProps }}
      trigger={['contextMenu']}
      {...menu.dropdownProps}
      open={menu.open && item !== null}
    >
      {cloneElement(children, { onContextMenuCapture, onKeyDown })}
    </Dropdown>
  );
}
