/**
 * The navigation entry "Admin", apart from the admin area itself so that the app shell
 * does not load the admin pages until they are opened (they are a lazily loaded chunk).
 */
import { SettingOutlined } from '@ant-design/icons';
import { NavLink } from 'react-router';
import { useAppSelector } from '@src/store/hooks';
import { selectIsAdmin, selectIsOperator } from '@src/features/session/sessionSelectors';

/** The admin area's route. */
export const ADMIN_ROUTE = '/admin';
/** The label of the navigation entry and the page title. */
export const ADMIN_LABEL = 'Admin';
/**
 * The navigation entry "Admin", rendered only for administrators of the current firm and for
 * operators (firm provisioning).
 */
export function AdminNavItem() {
  const isAdmin = useAppSelector(selectIsAdmin);
  const isOperator = useAppSelector(selectIsOperator);
  if (!isAdmin && !isOperator) return null;
  return (
    <li>
      <NavLink
        to={ADMIN_ROUTE}
        aria-label={ADMIN_LABEL}
        className={({ isActive }) => (isActive ? 'app-nav-link active' : 'app-nav-link')}
      >
        <SettingOutlined aria-hidden />
        <span>{ADMIN_LABEL}</span>
      </NavLink>
    </li>
  );
}
