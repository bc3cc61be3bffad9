/**
 * Calls started before the first render (src/api/prefetch.ts) and the folder page's use of them
 * (prefetchFolderPage in entitiesApi.ts): a warm reply is taken once, within its time, and a
 * failed one is replaced by a fresh call, never turned into an error.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { PREFETCH_TTL_MS, clearPrefetched, getWarm, prefetchGet } from '@src/api/prefetch';
import {
  fetchBreadcrumbs,
  fetchEntities,
  fetchFolder,
  prefetchFolderPage,
} from '@src/features/entities/entitiesApi';
import { DEFAULT_PAGE_SIZE } from '@common/constants';
import { sessionActions } from '@src/features/session/sessionSlice';
import { makeStore } from '@src/store/store';
import { makeUser, stubFetch } from '../fixtures';
import { allowConsoleError } from '../consoleErrors';

const MEMBER = { role: 'member' };

describe('prefetched calls', () => {
  beforeEach(() => {
    clearPrefetched();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('answers the first matching call with the reply in flight, and only that one', async () => {
    let served = 0;
    const { calls } = stubFetch(() => ({ body: { served: ++served } }));
    prefetchGet('/api/rest/folders/f1');
    expect(calls).toHaveLength(1);
    expect(await getWarm('/api/rest/folders/f1')).toEqual({ served: 1 });
    expect(calls).toHaveLength(1);
    // Used once: the next call asks again.
    expect(await getWarm('/api/rest/folders/f1')).toEqual({ served: 2 });
    expect(calls).toHaveLength(2);
  });

  it('matches the query too', async () => {
    const { calls } = stubFetch((call) => ({ body: { url: call.url } }));
    prefetchGet('/api/rest/entities', { folder_id: 'a', page: 1 });
    expect(await getWarm('/api/rest/entities', { folder_id: 'b', page: 1 })).toEqual({
      url: '/api/rest/entities?folder_id=b&page=1',
    });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/rest/entities?folder_id=a&page=1',
      '/api/rest/entities?folder_id=b&page=1',
    ]);
  });

  it('asks again when the early call failed (no session yet), without reporting it', async () => {
    allowConsoleError(/^GET \/api\/rest\/folders\/f1\S* answered 401/);
    let signedIn = false;
    const { calls } = stubFetch(() =>
      signedIn ? { body: { ok: true } } : { status: 401, body: { message: 'Sign in.' } },
    );
    prefetchGet('/api/rest/folders/f1');
    await Promise.resolve();
    signedIn = true;
    expect(await getWarm('/api/rest/folders/f1')).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('does not use a reply older than its time', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    let served = 0;
    const { calls } = stubFetch(() => ({ body: { served: ++served } }));
    prefetchGet('/api/rest/folders/f1');
    jest.setSystemTime(1_000_000 + PREFETCH_TTL_MS + 1);
    expect(await getWarm('/api/rest/folders/f1')).toEqual({ served: 2 });
    expect(calls).toHaveLength(2);
  });

  it('prefetches what a folder page opened by its address asks for, and nothing elsewhere', async () => {
    const { calls } = stubFetch((call) => ({ body: { url: call.url } }));
    prefetchFolderPage('/history', MEMBER);
    expect(calls).toHaveLength(0);

    prefetchFolderPage('/home/folders/f%201', MEMBER);
    expect(calls.map((c) => c.url)).toEqual([
      `/api/rest/entities?folder_id=f+1&page=1&page_size=${DEFAULT_PAGE_SIZE}`,
      '/api/rest/folders/f%201',
      '/api/rest/folders/f%201/breadcrumbs',
    ]);
    // The folder page's own calls take those replies: no further request.
    await fetchEntities('f 1', 1);
    await fetchFolder('f 1');
    await fetchBreadcrumbs('f 1');
    expect(calls).toHaveLength(3);

    prefetchFolderPage('/home', MEMBER);
    expect(calls[3]!.url).toBe(
      `/api/rest/entities?folder_id=&page=1&page_size=${DEFAULT_PAGE_SIZE}`,
    );
    expect(calls).toHaveLength(4);
  });

  it('starts nothing for a guest, nor without a signed-in user cached', () => {
    const { calls } = stubFetch((call) => ({ body: { url: call.url } }));
    prefetchFolderPage('/home', { role: 'guest' });
    prefetchFolderPage('/home/folders/f1', { role: 'guest' });
    prefetchFolderPage('/home', null);
    expect(calls).toHaveLength(0);
    // An entry cached before roles were: prefetched as before.
    prefetchFolderPage('/home', {});
    expect(calls).toHaveLength(1);
  });

  it('forgets the replies started at page load when the session changes', async () => {
    let served = 0;
    const { calls } = stubFetch(() => ({ body: { served: ++served } }));
    const store = makeStore();
    try {
      prefetchFolderPage('/home', MEMBER);
      // Another user signs in in this tab: the early reply was not theirs.
      store.dispatch(sessionActions.signedIn(makeUser({ userId: 'someone-else' })));
      expect(await fetchEntities('', 1)).toEqual({ served: 2 });
      expect(calls).toHaveLength(2);
    } finally {
      store.sagaTask.cancel();
    }
  });
});
