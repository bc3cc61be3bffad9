/**
 * The admin area (issue 8): /admin with /admin/members, /admin/teams, /admin/integrations, and
 * the sections of issues 7 and 9 (/admin/index-fields, /admin/contacts, /admin/outbox) and
 * /admin/imaging (document imaging: tools, jobs, failures),
 * for administrators of the current firm database only (others see "Administrators only"; the
 * server refuses them too). The navigation entry "Admin" is AdminNavItem, in its own module so
 * the shell does not load this page until it opens (router.tsx loads it lazily).
 */
import { Result } from 'antd';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { useAppSelector } from '../../../store/hooks';
import { selectIsAdmin } from '../../session/sessionSelectors';
import { ContactsAdminPage } from '../../contacts/components/ContactsAdminPage';
import { IndexFieldsPage } from '../../indexFields/components/IndexFieldsPage';
import { OutboxPage } from '../../outbox/components/OutboxPage';
import { ImagingStatusPage } from '../../imaging/components/ImagingStatusPage';
import { ADMIN_LABEL, ADMIN_ROUTE } from './AdminNavItem';
import { IntegrationsPage } from './IntegrationsPage';
import { MembersPage } from './MembersPage';
import { TeamsPage } from './TeamsPage';
import './admin.css';

/** The sections of the admin area: their path below /admin and their tab label. */
export const ADMIN_SECTIONS = [
  { path: 'members', label: 'Members' },
  { path: 'teams', label: 'Teams' },
  { path: 'integrations', label: 'Integrations' },
  { path: 'index-fields', label: 'Index fields' },
  { path: 'contacts', label: 'Contacts' },
  { path: 'outbox', label: 'Outbox' },
  { path: 'imaging', label: 'Document imaging' },
] as const;

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
            key={section.path}
            to={`${ADMIN_ROUTE}/${section.path}`}
            className={({ isActive }) => (isActive ? 'admin-tab active' : 'admin-tab')}
          >
            {section.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<Navigate to="members" replace />} />
        <Route path="members" element={<MembersPage />} />
        <Route path="teams" element={<TeamsPage />} />
        <Route path="integrations" element={<IntegrationsPage />} />
        <Route path="index-fields" element={<IndexFieldsPage />} />
        <Route path="contacts" element={<ContactsAdminPage />} />
        <Route path="outbox" element={<OutboxPage />} />
        <Route path="imaging" element={<ImagingStatusPage />} />
        <Route path="*" element={<Navigate to="members" replace />} />
      </Routes>
    </div>
  );
}
