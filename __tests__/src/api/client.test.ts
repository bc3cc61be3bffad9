import { describe, expect, it, jest } from '@jest/globals';
import {
  ApiError,
  buildUrl,
  errorMessage,
  get,
  post,
  subscribeUnauthorized,
} from '@src/api/client';
import { stubFetch } from '../fixtures';
import { allowConsoleError, consoleErrors } from '../consoleErrors';

describe('api client', () => {
  it('sends JSON with credentials included and parses the JSON reply', async () => {
    const { calls } = stubFetch(() => ({ body: { id: 'f1', name: 'Reports' } }));
    const reply = await post<{ id: string }>('/api/rest/folders', {
      name: 'Reports',
      parent_id: '',
    });
    expect(reply).toEqual({ id: 'f1', name: 'Reports' });
    expect(calls).toEqual([
      {
        url: '/api/rest/folders',
        method: 'POST',
        body: { name: 'Reports', parent_id: '' },
        credentials: 'include',
      },
    ]);
  });

  it('encodes query parameters, keeping empty values and dropping undefined ones', async () => {
    const { calls } = stubFetch(() => ({ body: { items: [] } }));
    await get('/api/rest/entities', { query: { folder_id: '', page: 2, skip: undefined } });
    expect(calls[0]!.url).toBe('/api/rest/entities?folder_id=&page=2');
    expect(buildUrl('/x', { q: 'a b&c' })).toBe('/x?q=a+b%26c');
  });

  it("throws an ApiError with the reply's message, code and status, and logs it", async () => {
    allowConsoleError(/^GET \/api\/rest\/folders\/x\S* answered 409/);
    stubFetch(() => ({
      status: 409,
      body: { message: 'That name is taken.', code: 'name_taken' },
    }));
    const failure = get('/api/rest/folders/x');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 409,
      code: 'name_taken',
      message: 'That name is taken.',
    });
    expect(consoleErrors()).toEqual(['GET /api/rest/folders/x answered 409: That name is taken.']);
  });

  it('gives a generic message when a 5xx reply has no JSON body', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* answered 502/);
    stubFetch(() => ({ status: 502 }));
    await expect(get('/api/rest/entities')).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* failed/);
    Object.defineProperty(globalThis, 'fetch', {
      configurable: true,
      writable: true,
      value: jest.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    });
    await expect(get('/api/rest/entities')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
  });

  it('reports a 401 to the unauthorized subscribers', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* answered 401/);
    stubFetch(() => ({ status: 401, body: { message: 'Please sign in.', code: 'not_signed_in' } }));
    const listener = jest.fn();
    const unsubscribe = subscribeUnauthorized(listener);
    await expect(get('/api/rest/entities')).rejects.toMatchObject({ status: 401 });
    expect(listener).toHaveBeenCalledWith('/api/rest/entities');
    unsubscribe();
    await expect(get('/api/rest/entities')).rejects.toMatchObject({ status: 401 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not report a 401 of a call that expects one (current-user, authenticate)', async () => {
    allowConsoleError(/^GET \/api\/auth\/current-user\S* answered 401/);
    stubFetch(() => ({ status: 401, body: { message: 'Please sign in.', code: 'not_signed_in' } }));
    const listener = jest.fn();
    const unsubscribe = subscribeUnauthorized(listener);
    await expect(
      get('/api/auth/current-user', { reportUnauthorized: false }),
    ).rejects.toMatchObject({ status: 401, message: 'Please sign in.' });
    expect(listener).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('errorMessage reads ApiErrors and other errors', () => {
    expect(errorMessage(new ApiError(400, 'bad', 'Bad name.'))).toBe('Bad name.');
    expect(errorMessage(new Error('Oops'))).toBe('Oops');
    expect(errorMessage('nope')).toBe('Something went wrong on our side. Please try again.');
  });
});
