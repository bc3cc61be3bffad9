/** The routes of the app (SPEC section 2). */
import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { REQUEST_PAGE_PATH } from '@common/documentRequests';
import { FolderPage } from '../features/entities/components/FolderPage';
import { MaintenanceGate } from '../features/flags/components/MaintenanceGate';
import { SessionTimeout } from '../features/sessionTimeout/components/SessionTimeout';
import { LogoutPage } from '../features/session/components/LogoutPage';
import { RequireSession, SignInRoute } from '../features/session/components/SessionGate';
import { TokenSignInRoute } from '../features/session/components/TokenSignInRoute';
import { GuestGate } from '../features/sharing/components/GuestGate';
import { AppLayout } from './AppLayout';
import {
  AdminPage,
  ArchivePage,
  CaseFilePage,
  FavoritesPage,
  HistoryPage,
  InvitationPage,
  MissingIndexesPage,
  RecentPage,
  ReplayPage,
  RequestLinkPage,
  RequestPage,
  RequestsPage,
  SearchResultsPage,
  SharedPage,
} from './lazyPages';
import { NotFoundPage, PageLoading } from './pages';

/**
 * The route table: /login, /logout, /sso, the public invitation page and a document request's
 * link page (/r/:token) outside the shell, every other page inside it. A guest may only use
 * /sharing/shared inside the shell ({@link GuestGate}).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<SignInRoute />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/sso" element={<TokenSignInRoute />} />
      <Route
        path="/sharing/invitation/:invitationId"
        element={
          <Suspense fallback={<PageLoading />}>
            <InvitationPage />
          </Suspense>
        }
      />
      <Route
        path={`${REQUEST_PAGE_PATH}/:token`}
        element={
          <Suspense fallback={<PageLoading />}>
            <RequestLinkPage />
          </Suspense>
        }
      />
      <Route
        element={
          <RequireSession>
            <SessionTimeout />
            <MaintenanceGate>
              <GuestGate>
                <AppLayout />
              </GuestGate>
            </MaintenanceGate>
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/home" replace />} />
        <Route path="home" element={<FolderPage />} />
        <Route path="home/folders/:folderId" element={<FolderPage />} />
        <Route path="recent" element={<RecentPage />} />
        <Route path="favorites" element={<FavoritesPage />} />
        <Route path="shared" element={<SharedPage />} />
        <Route path="shared/folders/:folderId" element={<SharedPage />} />
        <Route path="archive" element={<ArchivePage />} />
        <Route path="sharing/shared" element={<SharedPage />} />
        <Route path="sharing/shared/folders/:folderId" element={<SharedPage />} />
        <Route path="search" element={<SearchResultsPage />} />
        <Route path="missing-indexes" element={<MissingIndexesPage />} />
        <Route path="history" element={<HistoryPage />} />
        <Route path="requests" element={<RequestsPage />} />
        <Route path="requests/:requestId" element={<RequestPage />} />
        <Route path="replay/:folderId" element={<ReplayPage />} />
        <Route path="replay/:folderId/case-file" element={<CaseFilePage />} />
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
