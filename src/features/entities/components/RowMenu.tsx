/**
 * A row's "More actions" menu button: the actions of {@link rowMenuItems}, operable from the
 * keyboard ({@link useKeyboardMenu}: Enter, Space or ArrowDown open it on its first item, Escape
 * closes it back on the button).
 */
import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { selectCanOrganise } from '@src/features/organise/organiseSelectors';
import { ROW_SUBMENU_KEYS, rowMenuItems, runRowAction, type RowActionItem } from '../rowActions';
import { useKeyboardMenu } from '../useKeyboardMenu';

/** Props of {@link RowMenu}. */
export interface RowMenuProps {
  item: RowActionItem;
  /** The list edits names in the row (offers Rename); true in the folder view. */
  renameInRow?: boolean;
}

/**
 * The menu button of one row ("More actions for {name}"). The Dropdown is built on first use: a
 * page of rows pays for one button each, not a dropdown.
 *
 * @param props the row's item and whether the list renames in the row
 * @returns the button, in its Dropdown once used
 */
export function RowMenu({ item, renameInRow = true }: RowMenuProps) {
  const dispatch = useAppDispatch();
  const colorsOn = useAppSelector((state) => selectFeatureFlag(state, 'folderColors'));
  const canOrganise = useAppSelector(selectCanOrganise);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const [mounted, setMounted] = useState(false);
  const menu = useKeyboardMenu({ submenuKeys: ROW_SUBMENU_KEYS, returnFocus: buttonRef });

  // Wrapping the button in the Dropdown renders it anew: the focus stays on the button (before
  // the menu's first item takes it, when opened from the keyboard).
  const [refocus, setRefocus] = useState(false);
  useLayoutEffect(() => {
    if (refocus) buttonRef.current?.focus();
  }, [refocus]);
  const mount = () => {
    if (mounted) return;
    setRefocus(buttonRef.current === document.activeElement);
    setMounted(true);
  };

  const onClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    domEvent.stopPropagation();
    menu.closeMenu();
    runRowAction(dispatch, item, key);
  };

  const button = (
    <Button
      ref={buttonRef}
      type="text"
      size="small"
      icon={<MoreOutlined aria-hidden />}
      aria-label={`More actions for ${item.name}`}
      aria-haspopup="menu"
      aria-expanded={menu.open}
      onClick={(event) => {
        event.stopPropagation();
        if (!mounted) {
          mount();
          menu.openMenu(false);
        }
      }}
      onKeyDown={(event) => {
        if (['Enter', ' ', 'ArrowDown'].includes(event.key)) mount();
        menu.onTriggerKeyDown(event);
      }}
    />
  );
  if (!mounted) return button;
  const items = rowMenuItems(item, { canOrganise, colorsOn, renameInRow });
  return (
    <Dropdown
      menu={{ items, onClick, ...menu.menuProps }}
      trigger={['click']}
      {...menu.dropdownProps}
    >
      {button}
    </Dropdown>
  );
}
