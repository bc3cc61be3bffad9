/** The app: providers (store, antd theme and App context) and the routes. */
import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { PRODUCT_NAME } from '@common/constants';
import { NotificationCenter } from '../features/notifications/components/NotificationCenter';
import { FolderPickerDialogSlot } from '../features/organise/components/FolderPickerDialogSlot';
import { LocationReporter } from '../features/organise/components/LocationReporter';
import type { AppStore } from '../store/store';
import { AppRoutes } from './router';
import { theme } from './theme';

/** Props of {@link AppProviders}. */
export interface AppProvidersProps {
  store: AppStore;
  children: ReactNode;
}

/** The store, the antd theme and antd's App context (message, notification, modal). */
export function AppProviders({ store, children }: AppProvidersProps) {
  return (
    <Provider store={store}>
      <ConfigProvider theme={theme}>
        <AntApp className="app-root">{children}</AntApp>
      </ConfigProvider>
    </Provider>
  );
}

/**
 * The app's routes and the shared notifications (panel, toasts, info messages); the page title
 * is the product name (SPEC section 2). Needs a router.
 */
export function App() {
  useEffect(() => {
    document.title = PRODUCT_NAME;
  }, []);
  return (
    <>
      <AppRoutes />
      <LocationReporter />
      <FolderPickerDialogSlot />
      <NotificationCenter />
    </>
  );
}
