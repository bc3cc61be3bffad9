/**
 * The header's user menu: a button with the user's initials (and, on wide windows, the name beside
 * them) that opens a small panel with the full name, the username, the firm (or the firm
 * switcher, for users of several firms) and "Sign out". On a phone the header shows only the initials (app.css), so the panel is where
 * the name and the sign-out live there.
 */
import { Button, Popover } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { FirmSwitcher } from '../features/session/components/FirmSwitcher';
import {
  selectCanSwitchDatabase,
  selectCurrentDatabase,
  selectCurrentUser,
  selectUserDisplayName,
} from '../features/session/sessionSelectors';
import { useAppSelector } from '../store/hooks';

/**
 * Up to two initials of a display name ("Demo Administrator" → "DA", "admin" → "A"), upper case;
 * '' for an empty name.
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words.slice(0, 1);
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase();
}

/** Props of {@link UserMenu}. */
export interface UserMenuProps {
  /** A guest (an outsider who accepted a share) has no firm switcher. */
  guest: boolean;
}

/**
 * The user menu button and its panel. The button's accessible name is the user's full name (the
 * visible name beside the initials, visually hidden on a phone but still read out).
 */
export function UserMenu({ guest }: UserMenuProps) {
  const user = useAppSelector(selectCurrentUser);
  const name = useAppSelector(selectUserDisplayName);
  const firm = useAppSelector(selectCurrentDatabase);
  const canSwitch = useAppSelector(selectCanSwitchDatabase);
  const [open, setOpen] = useState(false);
  if (!user) return null;

  const content = (
    <div className="user-menu">
      <p className="user-menu-name">{name}</p>
      {user.username !== name ? <p className="user-menu-detail">{user.username}</p> : null}
      {/* The firm's name, unless the switcher below shows it. */}
      {firm && !guest && !canSwitch ? (
        <p className="user-menu-detail">{firm.description || firm.name}</p>
      ) : null}
      {guest ? null : (
        <div className="user-menu-firm">
          <FirmSwitcher />
        </div>
      )}
      <Link to="/logout" className="user-menu-sign-out" onClick={() => setOpen(false)}>
        Sign out
      </Link>
    </div>
  );

  return (
    <Popover
      content={content}
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      arrow={false}
    >
      <Button type="text" className="app-user-button" aria-haspopup="dialog" aria-expanded={open}>
        <span className="app-user-avatar" aria-hidden>
          {initialsOf(name)}
        </span>
        <span className="app-user-name">{name}</span>
      </Button>
    </Popover>
  );
}
