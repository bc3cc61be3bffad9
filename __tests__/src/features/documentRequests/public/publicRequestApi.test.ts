import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { REQUEST_ACCESS_HEADER } from '@common/documentRequests';
import { ApiError } from '@src/api/client';
import * as api from '@src/features/documentRequests/public/publicRequestApi';
import {
  readRequestAccess,
  saveRequestAccess,
} from '@src/features/documentRequests/public/requestAccess';

/** Stubs fetch with one reply and records url, method, headers and body of every call. */
function stubFetch(status = 200, body: unknown = {}) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: unknown }[] =
    [];
  Object.defineProperty(globalThis, 'fetch', {
    configurable: true,
    writable: true,
    value: jest.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        method: init?.method ?? 'GET',
        headers: (init?.headers ?? {}) as Record<string, string>,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      });
      return {
        ok: status >= 200 && status < 300,
        status,
        text: async () => JSON.stringify(body),
      };
    }),
  });
  return calls;
}

const BASE = '/api/rest/public/requests/t%2F1';

describe('request link API', () => {
  afterEach(() => sessionStorage.clear());

  it('sends every upload step to the link routes with the kept grant', async () => {
    saveRequestAccess('t/1', { access: 'grant-7', expires_at: '2999-01-01T00:00:00Z' });
    const calls = stubFetch(200, { parts: [] });
    const start = {
      item_id: 'i1',
      name: 'a.pdf',
      extension: 'pdf',
      content_type: 'application/pdf',
    };
    await api.createRequestUpload('t/1', start);
    await api.createRequestMultipartUpload('t/1', { ...start, size: 20_000_000 });
    await api.signRequestUploadParts('t/1', 'up 1', 'k/1', 3, 10);
    await api.signRequestUploadPart('t/1', 'up 1', 4, 'k/1');
    await api.signRequestListParts('t/1', 'up 1', 'k/1');
    await api.signRequestCompleteMultipart('t/1', 'up 1', 'k/1');
    await api.abortRequestMultipartUpload('t/1', 'up 1', 'k/1');
    await api.recordRequestUpload('t/1', { id: 'up 1', sha256: 'ff' });

    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `POST ${BASE}/files`,
      `POST ${BASE}/files/multipart`,
      `GET ${BASE}/files/multipart/up%201/parts?key=k%2F1&first=3&count=10`,
      `GET ${BASE}/files/multipart/up%201/4?key=k%2F1`,
      `GET ${BASE}/files/multipart/up%201?key=k%2F1`,
      `POST ${BASE}/files/multipart/up%201/complete`,
      `DELETE ${BASE}/files/multipart/up%201?key=k%2F1`,
      `POST ${BASE}/files/record`,
    ]);
    expect(calls.map((call) => call.headers[REQUEST_ACCESS_HEADER])).toEqual(
      Array(8).fill('grant-7'),
    );
    expect(calls[1]?.body).toEqual({ ...start, size: 20_000_000 });
    expect(calls[5]?.body).toEqual({ key: 'k/1' });
    expect(calls[7]?.body).toEqual({ id: 'up 1', sha256: 'ff' });
  });

  it('sends no grant without one, and forgets an expired one', async () => {
    saveRequestAccess('t/1', { access: 'old', expires_at: '2000-01-01T00:00:00Z' });
    expect(readRequestAccess('t/1')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    const calls = stubFetch(200, {});
    await api.fetchPublicRequest('t/1');
    expect(calls[0]?.headers[REQUEST_ACCESS_HEADER]).toBeUndefined();
  });

  it("throws the server's message and status of a refusal", async () => {
    stubFetch(410, { message: 'This request was cancelled.', code: 'gone' });
    const failure = api.fetchPublicRequest('t/1');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 410,
      message: 'This request was cancelled.',
    });
  });
});
