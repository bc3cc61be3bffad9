/**
 * Keyboard operation of an antd Dropdown menu (WAI-ARIA menu button pattern), used by the rows'
 * "More actions" menu and the lists' context menu:
 *
 * - the trigger opens it with Enter, Space or ArrowDown and the first item takes the focus;
 * - ArrowDown/ArrowUp (wrapping), Home and End move between the items of one menu level;
 * - Enter or Space activates the focused item; on a submenu (Colour) they, or ArrowRight, open it
 *   and focus its first item, and ArrowLeft or Escape close it again, back on its title;
 * - Escape and Tab close the menu and the focus returns to the element that opened it, as it does
 *   after an item was chosen (before the item's action runs, so a dialog opened by the action
 *   returns there when it closes).
 *
 * The keys are handled in the capture phase around the menu, before rc-menu's own handling, so
 * every item behaves the same whichever way the menu was opened.
 */
import type { DropdownProps, MenuProps } from 'antd';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';

/** Selector of the items a menu level offers (rc-menu's leaf items and submenu titles). */
const ITEM = '[role="menuitem"]';

/** How many animation frames (about a second) to wait at most for a menu level to be shown. */
const FOCUS_FRAMES = 60;

/** The enabled items of the menu level (`ul[role=menu]`) that contains `element`. */
function levelItems(element: Element): HTMLElement[] {
  const level = element.closest('[role="menu"]');
  if (!level) return [];
  return Array.from(level.querySelectorAll<HTMLElement>(ITEM)).filter(
    (item) =>
      item.closest('[role="menu"]') === level && item.getAttribute('aria-disabled') !== 'true',
  );
}

/** Focuses the first enabled item inside `container` once it is shown (within a few frames). */
function focusFirstItem(getContainer: () => Element | null | undefined, frames = FOCUS_FRAMES) {
  const container = getContainer();
  const first = container?.querySelector<HTMLElement>(ITEM);
  if (first) {
    const target = levelItems(first)[0] ?? first;
    target.focus();
    // A menu still hidden (its popup not shown yet, or one closing) does not take the focus.
    if (document.activeElement === target) return;
  }
  if (frames > 0) requestAnimationFrame(() => focusFirstItem(getContainer, frames - 1));
}

/** The menu key of a submenu title, from rc-menu's `data-menu-id` (`<uuid>-<key>`). */
function submenuKey(title: HTMLElement, keys: readonly string[]): string | undefined {
  const id = title.getAttribute('data-menu-id') ?? '';
  return keys.find((key) => id.endsWith(`-${key}`));
}

/** Options of {@link useKeyboardMenu}. */
export interface KeyboardMenuOptions {
  /** Keys of the items that open a submenu. */
  submenuKeys: readonly string[];
  /**
   * Where the focus returns when the menu closes (the trigger button, or the row of a context
   * menu); read when it closes.
   */
  returnFocus: RefObject<HTMLElement | null>;
}

/** What {@link useKeyboardMenu} gives the Dropdown and its trigger. */
export interface KeyboardMenu {
  open: boolean;
  /** Opens the menu; `focusFirst` moves the focus to its first item (opened from the keyboard). */
  openMenu: (focusFirst: boolean) => void;
  /** Closes the menu and returns the focus (to {@link KeyboardMenuOptions.returnFocus}). */
  closeMenu: () => void;
  /** The trigger's keydown: Enter, Space and ArrowDown open the menu on its first item. */
  onTriggerKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** For the Dropdown: `open`, `onOpenChange` and `popupRender`. */
  dropdownProps: Pick<DropdownProps, 'open' | 'onOpenChange' | 'popupRender'>;
  /** For the Dropdown's `menu`: the open submenus. */
  menuProps: Pick<MenuProps, 'openKeys' | 'onOpenChange'>;
}

/**
 * State and key handling of one keyboard-operable Dropdown menu (see the module comment).
 *
 * @param options the submenu keys and where the focus returns
 * @returns the props for the Dropdown, its menu and its trigger, and open/close functions
 */
export function useKeyboardMenu({ submenuKeys, returnFocus }: KeyboardMenuOptions): KeyboardMenu {
  const [open, setOpen] = useState(false);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const overlayRef = useRef<HTMLDivElement | null>(null);
  // Bumped by each keyboard open: the first item takes the focus once the menu has rendered.
  const [focusRequest, setFocusRequest] = useState(0);

  const openMenu = useCallback((first: boolean) => {
    if (first) setFocusRequest((count) => count + 1);
    setOpenKeys([]);
    setOpen(true);
  }, []);

  const closeMenu = useCallback(() => {
    setOpen(false);
    setOpenKeys([]);
    returnFocus.current?.focus();
  }, [returnFocus]);

  useEffect(() => {
    if (focusRequest > 0) focusFirstItem(() => overlayRef.current);
  }, [focusRequest]);

  const onTriggerKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return;
      event.preventDefault();
      event.stopPropagation();
      openMenu(true);
    },
    [openMenu],
  );

  const openSubmenu = (title: HTMLElement) => {
    const key = submenuKey(title, submenuKeys);
    if (!key) return;
    setOpenKeys([key]);
    focusFirstItem(() => {
      const popupId = title.getAttribute('aria-controls');
      return popupId ? document.getElementById(popupId) : null;
    });
  };

  /** The submenu title whose popup holds `element`, if `element` is inside a submenu. */
  const parentTitle = (element: HTMLElement): HTMLElement | null => {
    const level = element.closest('[role="menu"]');
    if (!level?.id) return null;
    return overlayRef.current?.querySelector<HTMLElement>(`[aria-controls="${level.id}"]`) ?? null;
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    const item = target.closest<HTMLElement>(ITEM);
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    const isSubmenuTitle = item?.getAttribute('aria-haspopup') === 'true';
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
      case 'Home':
      case 'End': {
        handled();
        const items = levelItems(item ?? target.querySelector(ITEM) ?? target);
        if (items.length === 0) return;
        const at = item ? items.indexOf(item) : -1;
        const next =
          event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? items.length - 1
              : event.key === 'ArrowDown'
                ? (at + 1) % items.length
                : (at - 1 + items.length) % items.length;
        items[next]?.focus();
        return;
      }
      case 'Enter':
      case ' ':
        if (!item) return;
        handled();
        if (isSubmenuTitle) openSubmenu(item);
        else item.click();
        return;
      case 'ArrowRight':
        if (item && isSubmenuTitle) {
          handled();
          openSubmenu(item);
        }
        return;
      case 'ArrowLeft':
      case 'Escape': {
        const title = item ? parentTitle(item) : null;
        handled();
        if (title) {
          setOpenKeys([]);
          title.focus();
        } else if (event.key === 'Escape') closeMenu();
        return;
      }
      case 'Tab':
        handled();
        closeMenu();
        return;
    }
  };

  const popupRender = (menu: ReactNode) => (
    <div ref={overlayRef} onKeyDownCapture={onMenuKeyDown}>
      {menu}
    </div>
  );

  return {
    open,
    openMenu,
    closeMenu,
    onTriggerKeyDown,
    dropdownProps: {
      open,
      onOpenChange: (next) => {
        // A keyboard open (openMenu(true)) may be followed by the trigger's own: keep its focus.
        if (next) setOpen(true);
        else {
          setOpen(false);
          setOpenKeys([]);
        }
      },
      popupRender,
    },
    menuProps: { openKeys, onOpenChange: (keys) => setOpenKeys(keys) },
  };
}
