/** The routes of the app (SPEC section 2). */
import { Navigate, Route, Routes } from 'react-router';
import { LANDING_SHARED } from '../../common/constants';
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
import { AppLayout } from './AppLayout';
import { COMING_SOON, ComingSoonPage, NotFoundPage } from './pages';

/** The route table: /login and /logout outside the shell, every other page inside it. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<SignInRoute />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/sso" element={<TokenSignInRoute />} />
      <Route
        element={
          <RequireSession>
            <SessionTimeout />
            <MaintenanceGate>
              <AppLayout />
            </MaintenanceGate>
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/home" replace />} />
        <Route path="home" element={<FolderPage />} />
        <Route path="home/folders/:folderId" element={<FolderPage />} />
        <Route path="recent" element={<RecentPage />} />
        <Route path="favorites" element={<FavoritesPage />} />
        <Route path="shared" element={<ComingSoonPage {...COMING_SOON.shared} />} />
        <Route path="archive" element={<ArchivePage />} />
        <Route path={LANDING_SHARED.slice(1)} element={<Navigate to="/shared" replace />} />
        <Route path="history" element={<HistoryPage />} />
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
