/**
 * The app shell (antd Layout): header, left navigation, the page, the upload panel and the entity
 * side panel.
 */
import { Layout } from 'antd';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { PRODUCT_NAME } from '../../common/constants';
import { SHARED_LANDING } from '../../common/sharing';
import { DetailsPanel } from '../features/details/components/DetailsPanel';
import { SearchBox } from '../features/search/components/SearchBox';
import { FirmSwitcher } from '../features/session/components/FirmSwitcher';
import { selectUserDisplayName } from '../features/session/sessionSelectors';
import { selectIsGuest } from '../features/sharing/sharingSelectors';
import { UploadPanel } from '../features/uploads/components/UploadPanel';
import { useAppSelector } from '../store/hooks';
import { Navigation } from './Navigation';
import { PageLoading } from './pages';

/**
 * The layout of every signed-in page. A guest (issue 7) gets no search, firm switcher or upload
 * panel, and the brand leads to the Shared page.
 */
export function AppLayout() {
  const userName = useAppSelector(selectUserDisplayName);
  const guest = useAppSelector(selectIsGuest);
  return (
    <Layout className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Layout.Header className="app-header">
        <Link to={guest ? SHARED_LANDING : '/home'} className="app-brand">
          {PRODUCT_NAME}
        </Link>
        {guest ? null : <SearchBox />}
        <div className="app-header-end">
          {guest ? null : <FirmSwitcher />}
          <span className="app-user" title="Signed in user">
            {userName}
          </span>
          <Link to="/logout" className="app-sign-out">
            Sign out
          </Link>
        </div>
      </Layout.Header>
      <Layout className="app-body">
        <Layout.Sider
          className="app-sider"
          width={220}
          theme="light"
          breakpoint="md"
          collapsedWidth={64}
        >
          <Navigation />
        </Layout.Sider>
        <Layout.Content className="app-content" id="main-content" tabIndex={-1}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {guest ? null : <UploadPanel />}
      {guest ? null : <DetailsPanel />}
    </Layout>
  );
}
