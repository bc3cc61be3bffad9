/**
 * The admin area (issue 8): /admin with /admin/members, /admin/teams and /admin/integrations,
 * for administrators of the current firm database only (others see "Administrators only"; the
 * server refuses them too). The navigation entry "Admin" is {@link AdminNavItem}.
 */
import { SettingOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { capitalize } from '../../../../common/text';
import { PageTitle } from '../../../components/PageTitle';
import { useAppSelector } from '../../../store/hooks';
import { selectIsAdmin } from '../../session/sessionSelectors';
import { IntegrationsPage } from './IntegrationsPage';
import { MembersPage } from './MembersPage';
import { TeamsPage } from './TeamsPage';
import './admin.css';

/** The admin area's route. */
export const ADMIN_ROUTE = '/admin';
/** The label of the navigation entry and the page title. */
export const ADMIN_LABEL = 'Admin';
/** The sections of the admin area, by their path below /admin. */
export const ADMIN_SECTIONS = ['members', 'teams', 'integrations'] as const;

/** The navigation entry "Admin", rendered only for administrators of the current firm. */
export function AdminNavItem() {
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!isAdmin) return null;
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

/** The admin area: its section tabs and the section's page. */
export function AdminPage() {
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!isAdmin) {
    return (
      <Result
        status="403"
        title="Administrators only"
        subTitle="Only administrators of this firm can open the admin area."
      />
    );
  }
  return (
    <div className="page admin-page">
      <PageTitle>{ADMIN_LABEL}</PageTitle>
      <nav aria-label="Admin sections" className="admin-tabs">
        {ADMIN_SECTIONS.map((section) => (
          <NavLink
            key={section}
            to={`${ADMIN_ROUTE}/${section}`}
            className={({ isActive }) => (isActive ? 'admin-tab active' : 'admin-tab')}
          >
            {capitalize(section)}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<Navigate to="members" replace />} />
        <Route path="members" element={<MembersPage />} />
        <Route path="teams" element={<TeamsPage />} />
        <Route path="integrations" element={<IntegrationsPage />} />
        <Route path="*" element={<Navigate to="members" replace />} />
      </Routes>
    </div>
  );
}
