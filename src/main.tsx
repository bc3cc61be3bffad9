/** Entry point of the web client. */
// antd's prebuilt styles first (the theme runs in zero-runtime mode, see app/theme.ts), so every
// stylesheet of ours comes after them.
import 'antd/dist/antd.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App, AppProviders } from './app/App';
import './app/app.css';
import { prefetchFolderPage } from './features/entities/entitiesApi';
import { bootstrapSession } from './features/session/components/SessionGate';
import { canCacheUser, readCachedUser } from './features/session/userCache';
import { makeStore } from './store/store';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const store = makeStore();
// The session and flags requests leave before the first render rather than after it, and so do
// the calls of a folder page opened by its address (its first page, details and breadcrumbs).
// Without a cached user in a browser that keeps one, nobody is signed in here: the sign-in page
// shows without a 401 first. A browser that cannot keep it always asks.
const cached = readCachedUser();
bootstrapSession(store.dispatch, cached !== null || !canCacheUser());
prefetchFolderPage(window.location.pathname, cached, window.location.search);

createRoot(container).render(
  <StrictMode>
    <AppProviders store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
