/** The routes of the app (SPEC section 2). */
import { Navigate, Route, Routes } from 'react-router';
import { AdminPage } from '../features/admin/components/AdminPage';
import { ArchivePage } from '../features/collections/components/ArchivePage';
import { FavoritesPage } from '../features/collections/components/FavoritesPage';
import { RecentPage } from '../features/collections/components/RecentPage';
import { FolderPage } from '../features/entities/components/FolderPage';
import { MaintenanceGate } from '../features/flags/components/MaintenanceGate';
import { SessionTimeout } from '../features/sessionTimeout/components/SessionTimeout';
import { HistoryPage } from '../features/history/components/HistoryPage';
import { LogoutPage } from '../features/session/components/LogoutPage';
import { RequireSession, SignInRoute } from '../features/session/components/SessionGate';
import { TokenSignInRoute } from '../features/session/components/TokenSignInRoute';
import { MissingIndexesPage } from '../features/indexFields/components/MissingIndexesPage';
import { SearchResultsPage } from '../features/search/components/SearchResultsPage';
import { GuestGate } from '../features/sharing/components/GuestGate';
import { InvitationPage } from '../features/sharing/components/InvitationPage';
import { SharedPage } from '../features/sharing/components/SharedPage';
import { AppLayout } from './AppLayout';
import { NotFoundPage } from './pages';

/**
 * The route table: /login, /logout, /sso and the public invitation page outside the shell, every
 * other page inside it. A guest (issue 7) may only use /sharing/shared inside the shell
 * ({@link GuestGate}).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<SignInRoute />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/sso" element={<TokenSignInRoute />} />
      <Route path="/sharing/invitation/:invitationId" element={<InvitationPage />} />
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
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
