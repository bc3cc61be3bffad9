/** The left navigation (SPEC section 2): each entry is highlighted when its route matches. */
import {
  ClockCircleOutlined,
  HistoryOutlined,
  HomeOutlined,
  InboxOutlined,
  ShareAltOutlined,
  StarOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { NAV_ITEMS } from '@common/constants';
import { SHARED_LANDING } from '@common/sharing';
import { AdminNavItem } from '../features/admin/components/AdminNavItem';
import { RequestsNavItem } from '../features/documentRequests/components/RequestsNavItem';
import { selectIsGuest } from '../features/sharing/sharingSelectors';
import { useAppSelector } from '../store/hooks';

type NavRoute = (typeof NAV_ITEMS)[number]['route'];

/** A guest's only navigation entry: the Shared page at the guests' address. */
const GUEST_ITEMS = [{ label: 'Shared', route: SHARED_LANDING, icon: '/shared' }] as const;

const ICONS: Record<NavRoute, ReactNode> = {
  '/home': <HomeOutlined aria-hidden />,
  '/recent': <ClockCircleOutlined aria-hidden />,
  '/favorites': <StarOutlined aria-hidden />,
  '/shared': <ShareAltOutlined aria-hidden />,
  '/archive': <InboxOutlined aria-hidden />,
  '/history': <HistoryOutlined aria-hidden />,
};

/**
 * The navigation links. The active one (its route or a route below it, e.g. /home/folders/x for
 * Home) gets `aria-current="page"` and the highlighted style. The label is also the accessible
 * name, so it survives the collapsed sider, which hides the visible text. Members also get
 * "Requests" (document requests) before "Admin". A guest sees only "Shared", which leads to
 * /sharing/shared.
 */
export function Navigation() {
  const guest = useAppSelector(selectIsGuest);
  const items: readonly { label: string; route: string; icon: NavRoute }[] = guest
    ? GUEST_ITEMS
    : NAV_ITEMS.map((item) => ({ ...item, icon: item.route }));
  return (
    <nav aria-label="Main" className="app-nav">
      <ul>
        {items.map((item) => (
          <li key={item.route}>
            <NavLink
              to={item.route}
              aria-label={item.label}
              className={({ isActive }) => (isActive ? 'app-nav-link active' : 'app-nav-link')}
            >
              {ICONS[item.icon]}
              <span>{item.label}</span>
            </NavLink>
          </li>
        ))}
        {guest ? null : <RequestsNavItem />}
        {guest ? null : <AdminNavItem />}
      </ul>
    </nav>
  );
}
