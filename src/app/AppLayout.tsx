/**
 * The app shell (antd Layout): header, left navigation, the page, the upload panel and the entity
 * side panel.
 */
import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout } from 'antd';
import { Suspense, useState, type MouseEvent } from 'react';
import { Link, Outlet, useMatch } from 'react-router';
import { PRODUCT_NAME } from '@common/constants';
import { SHARED_LANDING } from '@common/sharing';
import { useDetailsDeepLink } from '../features/details/detailsLink';
import { selectDetailsTarget } from '../features/details/detailsSelectors';
import { SearchBox } from '../features/search/components/SearchBox';
import { FirmSwitcher } from '../features/session/components/FirmSwitcher';
import { selectIsGuest } from '../features/sharing/sharingSelectors';
import { UploadConflictDialog } from '../features/uploads/components/UploadConflictDialog';
import { UploadPanel } from '../features/uploads/components/UploadPanel';
import { ViewerSlot } from '../features/viewer/components/ViewerSlot';
import { useAppSelector } from '../store/hooks';
import { KeyboardShortcuts } from './KeyboardShortcuts';
import { DetailsPanel } from './lazyPages';
import { MAIN_CONTENT_ID } from '../components/useReturnFocus';
import { Navigation } from './Navigation';
import { PageLoading } from './pages';
import { UserMenu } from './UserMenu';

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
 * The layout of every signed-in page. A guest gets no search, firm switcher or upload panel, and
 * the brand leads to the Shared page. The viewer (`?view=file:<id>`, see viewerLink.ts) opens
 * over any page, for guests too (what their share lets them preview).
 *
 * On a phone (below 640px, app.css) the side navigation is hidden and the header's menu button
 * opens it in a drawer instead; the header keeps the brand, the search box and the user menu's
 * initials (the firm switcher, the name and "Sign out" are inside the user menu there).
 *
 * `/` and `?` work on every page (KeyboardShortcuts).
 */
export function AppLayout() {
  const guest = useAppSelector(selectIsGuest);
  const [navOpen, setNavOpen] = useState(false);
  // Following a link in the drawer closes it.
  const onDrawerClick = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest('a')) setNavOpen(false);
  };
  return (
    <Layout className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Layout.Header className="app-header">
        <Button
          type="text"
          className="app-menu-button"
          icon={<MenuOutlined aria-hidden />}
          aria-label="Menu"
          aria-expanded={navOpen}
          onClick={() => setNavOpen(true)}
        />
        <Link to={guest ? SHARED_LANDING : '/home'} className="app-brand">
          {PRODUCT_NAME}
        </Link>
        {guest ? null : <SearchBox />}
        <div className="app-header-end">
          {guest ? null : <FirmSwitcher />}
          <UserMenu guest={guest} />
          <Link to="/logout" className="app-sign-out">
            Sign out
          </Link>
        </div>
      </Layout.Header>
      <Drawer
        open={navOpen}
        onClose={() => setNavOpen(false)}
        placement="left"
        size={264}
        title={PRODUCT_NAME}
        className="app-nav-drawer"
      >
        {/* A click on one of the navigation's links (Enter on one is a click too) closes it. */}
        <div onClick={onDrawerClick}>
          <Navigation />
        </div>
      </Drawer>
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
        {/* Beside the page: the side pane of a desktop window (else a drawer, in a portal). */}
        {guest ? null : <DetailsPanelSlot />}
      </Layout>
      {guest ? null : <UploadPanel />}
      {guest ? null : <UploadConflictDialog />}
      <ViewerSlot />
      <KeyboardShortcuts />
    </Layout>
  );
}
