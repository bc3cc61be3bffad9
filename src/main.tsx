/** Entry point of the web client. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App, AppProviders } from './app/App';
import './app/app.css';
import { bootstrapSession } from './features/session/components/SessionGate';
import { makeStore } from './store/store';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const store = makeStore();
// The session and flags requests leave before the first render rather than after it.
bootstrapSession(store.dispatch);

createRoot(container).render(
  <StrictMode>
    <AppProviders store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
