/**
 * The app itself, loaded by src/main.tsx once the start-up's API calls have left: creates the
 * store, asks for the session and flags (taking the early replies) and renders.
 */
// antd's styles for the shell's components first (the theme runs in zero-runtime mode, see
// app/theme.ts; made at build time by scripts/vite/antdStyles.ts), so every stylesheet of ours
// comes after them.
import 'virtual:antd-shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { bootstrapSession } from '../features/session/components/SessionGate';
import { canCacheUser, readCachedUser } from '../features/session/userCache';
import { makeStore } from '../store/store';
import { App, AppProviders } from './App';
import './app.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const store = makeStore();
// Without a cached user in a browser that keeps one, nobody is signed in here: the sign-in page
// shows without a 401 first. A browser that cannot keep it always asks. The calls themselves left
// earlier (src/main.tsx); the sagas take their replies.
bootstrapSession(store.dispatch, readCachedUser() !== null || !canCacheUser());

createRoot(container).render(
  <StrictMode>
    <AppProviders store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
