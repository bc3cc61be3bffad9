/**
 * The app shell (antd Layout): header, left navigation, the page, the upload panel and the entity
 * side panel.
 */
import { Layout } from 'antd';
import { Suspense } from 'react';
import { Link, Outlet, useMatch } from 'react-router';
import { PRODUCT_NAME } from '../../common/constants';
import { SHARED_LANDING } from '../../common/sharing';
import { useDetailsDeepLink } from '../features/details/detailsLink';
import { selectDetailsTarget } from '../features/details/detailsSelectors';
import { SearchBox } from '../features/search/components/SearchBox';
import { FirmSwitcher } from '../features/session/components/FirmSwitcher';
import { selectUserDisplayName } from '../features/session/sessionSelectors';
import { selectIsGuest } from '../features/sharing/sharingSelectors';
import { UploadPanel } from '../features/uploads/components/UploadPanel';
import { useAppSelector } from '../store/hooks';
import { KeyboardShortcuts } from './KeyboardShortcuts';
import { DetailsPanel } from './lazyPages';
import { MAIN_CONTENT_ID } from '../components/useReturnFocus';
import { Navigation } from './Navigation';
import { PageLoading } from './pages';

/**
 * The item side panel, loaded when first needed: when an item is opened in it, or off the folder
 * view, where the panel also serves the History action (the folder view has its own). The open
 * item is kept in the address (`?details=`, see detailsLink.ts).
 */
function DetailsPanelSlot() {
  useDetailsDeepLink();
  const target = useAppSelector(selectDetailsTarget);
  const onFolderView = useMatch('/home/*') !== null;
  if (!target && onFolderView) return null;
  return (
    <Suspense fallback={null}>
      <DetailsPanel />
    </Suspense>
  );
}

/**
 * The layout of every signed-in page. A guest (issue 7) gets no search, firm switcher or upload
 * panel, and the brand leads to the Shared page. `/` and `?` work on every page
 * (KeyboardShortcuts).
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
        <Layout.Content className="app-content" id={MAIN_CONTENT_ID} tabIndex={-1}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {guest ? null : <UploadPanel />}
      {guest ? null : <DetailsPanelSlot />}
      <KeyboardShortcuts />
    </Layout>
  );
}
