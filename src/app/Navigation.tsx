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
import { NAV_ITEMS } from '../../common/constants';
import { AdminNavItem } from '../features/admin/components/AdminPage';

type NavRoute = (typeof NAV_ITEMS)[number]['route'];

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
 * name, so it survives the collapsed sider, which hides the visible text.
 */
export function Navigation() {
  return (
    <nav aria-label="Main" className="app-nav">
      <ul>
        {NAV_ITEMS.map((item) => (
          <li key={item.route}>
            <NavLink
              to={item.route}
              aria-label={item.label}
              className={({ isActive }) => (isActive ? 'app-nav-link active' : 'app-nav-link')}
            >
              {ICONS[item.route]}
              <span>{item.label}</span>
            </NavLink>
          </li>
        ))}
        <AdminNavItem />
      </ul>
    </nav>
  );
}
