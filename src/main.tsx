/**
 * Entry point of the web client: a small module that starts the API calls of the first page at
 * once (the current user and the feature flags, and for a folder address the folder's first page,
 * details and breadcrumbs: src/api/prefetch.ts keeps the replies for the sagas), then loads the
 * app (app/start.tsx), whose chunks arrive while the calls are answered.
 */
import { prefetchGet } from './api/prefetch';
import { prefetchFolderPage } from './features/entities/entitiesApi';
import { FEATURE_FLAGS_PATH } from './features/flags/flagsApi';
import { CURRENT_USER_PATH } from './features/session/sessionApi';
import { canCacheUser, readCachedUser } from './features/session/userCache';

const cached = readCachedUser();
// Without a cached user in a browser that keeps one nobody is signed in: no call, no 401.
if (cached !== null || !canCacheUser()) prefetchGet(CURRENT_USER_PATH);
prefetchGet(FEATURE_FLAGS_PATH);
prefetchFolderPage(window.location.pathname, cached, window.location.search);

void import('./app/start');
