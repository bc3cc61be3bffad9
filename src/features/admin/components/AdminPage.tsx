/**
 * The admin area: /admin with /admin/members, /admin/teams, /admin/integrations, and
 * the sections (/admin/index-fields, /admin/contacts, /admin/outbox) and
 * /admin/imaging (document imaging: tools, jobs, failures), /admin/examiner-export (an examiner's
 * export of a contact's folders, a date range or the whole firm), and records management:
 * /admin/retention (retention schedules), /admin/legal-holds and /admin/disposition, and
 * /admin/request-templates (the checklists of document requests),
 * for administrators of the current firm database only (others see "Administrators only"; the
 * server refuses them too). Operators (firm provisioning) also get /admin/firms, loaded on demand;
 * an operator who does not administer the current firm sees only that section. The navigation
 * entry "Admin" is AdminNavItem, in its own module so the shell does not load this page until it
 * opens (router.tsx loads it lazily).
 */
import { Result, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { PageTitle } from '@src/components/PageTitle';
import { useAppSelector } from '@src/store/hooks';
import { selectIsAdmin, selectIsOperator } from '@src/features/session/sessionSelectors';
import { ContactsAdminPage } from '@src/features/contacts/components/ContactsAdminPage';
import { IndexFieldsPage } from '@src/features/indexFields/components/IndexFieldsPage';
import { OutboxPage } from '@src/features/outbox/components/OutboxPage';
import { ImagingStatusPage } from '@src/features/imaging/components/ImagingStatusPage';
import {
  EXAMINER_SECTION,
  ExaminerExportPage,
} from '@src/features/examinerExport/components/ExaminerExportPage';
import {
  DISPOSITION_SECTION,
  DispositionPage,
} from '@src/features/records/components/DispositionPage';
import { HOLDS_SECTION, HoldsPage } from '@src/features/records/components/HoldsPage';
import { SCHEDULES_SECTION, SchedulesPage } from '@src/features/records/components/SchedulesPage';
import {
  REQUEST_TEMPLATES_SECTION,
  RequestTemplatesPage,
} from '@src/features/documentRequests/components/RequestTemplatesPage';
import { ADMIN_LABEL, ADMIN_ROUTE } from './AdminNavItem';
import { IntegrationsPage } from '@src/features/integrations/components/IntegrationsPage';
import { MembersPage } from '@src/features/members/components/MembersPage';
import { TeamsPage } from '@src/features/teams/components/TeamsPage';
import './admin.css';

/** The operator's Firms section, its own chunk: most administrators never open it. */
const FirmsPage = lazy(() =>
  import('@src/features/firms/components/FirmsPage').then((module) => ({
    default: module.FirmsPage,
  })),
);

/** The section of operators (firm provisioning). */
export const FIRMS_SECTION = { path: 'firms', label: 'Firms' } as const;

/** The sections of the admin area: their path below /admin and their tab label. */
export const ADMIN_SECTIONS = [
  { path: 'members', label: 'Members' },
  { path: 'teams', label: 'Teams' },
  { path: 'integrations', label: 'Integrations' },
  { path: 'index-fields', label: 'Index fields' },
  { path: 'contacts', label: 'Contacts' },
  { path: 'outbox', label: 'Outbox' },
  { path: 'imaging', label: 'Document imaging' },
  EXAMINER_SECTION,
  SCHEDULES_SECTION,
  HOLDS_SECTION,
  DISPOSITION_SECTION,
  REQUEST_TEMPLATES_SECTION,
] as const;

/** The admin area: its section tabs and the section's page. */
export function AdminPage() {
  const isAdmin = useAppSelector(selectIsAdmin);
  const isOperator = useAppSelector(selectIsOperator);
  if (!isAdmin && !isOperator) {
    return (
      <Result
        status="403"
        title="Administrators only"
        subTitle="Only administrators of this firm can open the admin area."
      />
    );
  }
  const sections = [...(isAdmin ? ADMIN_SECTIONS : []), ...(isOperator ? [FIRMS_SECTION] : [])];
  const home = isAdmin ? 'members' : FIRMS_SECTION.path;
  return (
    <div className="page admin-page">
      <PageTitle>{ADMIN_LABEL}</PageTitle>
      <nav aria-label="Admin sections" className="admin-tabs">
        {sections.map((section) => (
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
        <Route index element={<Navigate to={home} replace />} />
        {isAdmin ? (
          <>
            <Route path="members" element={<MembersPage />} />
            <Route path="teams" element={<TeamsPage />} />
            <Route path="integrations" element={<IntegrationsPage />} />
            <Route path="index-fields" element={<IndexFieldsPage />} />
            <Route path="contacts" element={<ContactsAdminPage />} />
            <Route path="outbox" element={<OutboxPage />} />
            <Route path="imaging" element={<ImagingStatusPage />} />
            <Route path={EXAMINER_SECTION.path} element={<ExaminerExportPage />} />
            <Route path={SCHEDULES_SECTION.path} element={<SchedulesPage />} />
            <Route path={HOLDS_SECTION.path} element={<HoldsPage />} />
            <Route path={DISPOSITION_SECTION.path} element={<DispositionPage />} />
            <Route path={REQUEST_TEMPLATES_SECTION.path} element={<RequestTemplatesPage />} />
          </>
        ) : null}
        {isOperator ? (
          <Route
            path={FIRMS_SECTION.path}
            element={
              <Suspense
                fallback={
                  <div role="status">
                    <Spin description="Loading firms…" />
                  </div>
                }
              >
                <FirmsPage />
              </Suspense>
            }
          />
        ) : null}
        {/* Absolute: a relative path from a splat route resolves below the unknown path. */}
        <Route path="*" element={<Navigate to={`${ADMIN_ROUTE}/${home}`} replace />} />
      </Routes>
    </div>
  );
}
