/** The folder colour palette as antd menu items (SPEC section 9 palette, flag folderColors). */
import type { MenuProps } from 'antd';
import { FOLDER_COLORS, type FolderColor } from '@common/constants';
import type { FolderColorKey } from '@common/organise';

/** The palette entry of a stored colour key; undefined for none, 'default' or an unknown key. */
export function folderColor(key: string | null | undefined): FolderColor | undefined {
  if (!key || key === 'default') return undefined;
  return FOLDER_COLORS.find((entry) => entry.key === key);
}

/** A small round swatch of a colour (its dark shade on its light one). */
function ColorSwatch({ color }: { color: FolderColor }) {
  return (
    <span
      className="color-swatch"
      aria-hidden
      style={{ background: color.dark, borderColor: color.light }}
    />
  );
}

/** Menu key prefix of the colour items (keys are `color:<key>`). */
const COLOR_KEY_PREFIX = 'color:';

/** One menu item per palette colour, keyed `color:<key>`. */
export function colorMenuItems(): NonNullable<MenuProps['items']> {
  return FOLDER_COLORS.map((color) => ({
    key: `${COLOR_KEY_PREFIX}${color.key}`,
    label: color.label,
    icon: <ColorSwatch color={color} />,
  }));
}

/** The colour key of a menu key made by {@link colorMenuItems}; null for other keys. */
export function colorFromMenuKey(key: string): FolderColorKey | null {
  if (!key.startsWith(COLOR_KEY_PREFIX)) return null;
  const color = key.slice(COLOR_KEY_PREFIX.length);
  return FOLDER_COLORS.some((entry) => entry.key === color) ? (color as FolderColorKey) : null;
}
