/**
 * Input rules of every request (server/plugins/inputs.ts), on SQLite and PostgreSQL:
 *
 * - A NUL character (U+0000) in a body (in a declared field or nested anywhere, in a value or a
 *   key), a query parameter, a path parameter or a header answers 400 `validation_error` with
 *   MESSAGES.nulCharacter on every route of the OpenAPI document — for an administrator and with
 *   no session alike: the guard runs before schema validation and before the session check (both
 *   come later in Fastify's request lifecycle), so that exact message proves no handler and no
 *   query saw the NUL. The presigned store endpoints (not in the document) refuse it in their path
 *   and query.
 * - Every /api answer, errors included, carries `Cache-Control: no-store`; file answers keep
 *   `private, no-store`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@common/messages';
import { containsNonFinite, containsNul } from '@server/plugins/inputs';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { apiOperations, operationUrl, type ApiOperation, type JsonSchema } from './openApiRoutes';
import { seededAdminRowMakers } from './routeTable';

const NUL_TEXT = 'a\u0000b';

/** A body shaped like the schema (required and optional fields), every string holding a NUL. */
function nulBody(schema: JsonSchema | undefined): unknown {
  if (!schema) return NUL_TEXT;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.[0]) {
    return nulBody(alternatives.find((a) => a.type === 'object') ?? alternatives[0]);
  }
  switch (type) {
    case 'object': {
      const body: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        body[key] = nulBody(property);
      }
      return body;
    }
    case 'array':
      return [nulBody(schema.items)];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return NUL_TEXT;
  }
}

/** The requests of one operation, each carrying a NUL in one place. */
function nulRequests(operation: ApiOperation) {
  const requests: { what: string; url: string; payload?: unknown }[] = [];
  const [firstQuery] = operation.queryParams;
  requests.push({
    what: 'query',
    url: operationUrl(operation, {}, [[firstQuery?.name ?? 'probe', NUL_TEXT]]),
  });
  requests.push({ what: 'query key', url: operationUrl(operation, {}, [[NUL_TEXT, 'x']]) });
  for (const param of operation.pathParams) {
    requests.push({
      what: `path ${param.name}`,
      url: operationUrl(operation, { [param.name]: NUL_TEXT }),
    });
  }
  if (operation.body) {
    // A schema without strings (e.g. {favorite: boolean}) gets an extra field holding the NUL.
    const body = nulBody(operation.body);
    const payload = containsNul(body) ? body : { ...(body as object), note: NUL_TEXT };
    requests.push({ what: 'body fields', url: operationUrl(operation), payload });
  }
  if (operation.method !== 'GET') {
    requests.push({
      what: 'nested body key',
      url: operationUrl(operation),
      payload: { nested: [{ deeper: { [NUL_TEXT]: 'x' } }] },
    });
  }
  return requests;
}

const isNulRefusal = (response: LightMyRequestResponse) =>
  response.statusCode === 400 &&
  response.json<{ code?: string; message?: string }>().code === 'validation_error' &&
  response.json<{ message?: string }>().message === MESSAGES.nulCharacter &&
  response.headers['cache-control'] === 'no-store';

describe('containsNul', () => {
  it('finds a NUL in strings, keys and nested values, and nothing in clean values', () => {
    expect(containsNul('a\u0000')).toBe(true);
    expect(containsNul({ a: [{ b: [[{ c: 'x\u0000' }]] }] })).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul({ a: ['x', 1, null, true, { b: 'y' }] })).toBe(false);
    expect(containsNul(undefined)).toBe(false);
    expect(containsNul('\\u0000')).toBe(false);
  });
  it('walks a very deep value without exhausting the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(containsNul(deep)).toBe(true);
  });
});

describe('containsNonFinite', () => {
  it('finds an infinite or NaN number at any depth, and nothing in finite values', () => {
    expect(containsNonFinite({ page: Infinity })).toBe(true);
    expect(containsNonFinite({ a: [{ b: -Infinity }] })).toBe(true);
    expect(containsNonFinite([NaN])).toBe(true);
    expect(containsNonFinite({ page: 1e308, size: -1, name: 'Infinity' })).toBe(false);
    expect(containsNonFinite(undefined)).toBe(false);
  });
});

describeEachDatabase('input rules', (kind) => {
  let server: TestServer;
  let adminCookie: string;
  let operations: ApiOperation[];
  let fileId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    adminCookie = await signIn(server);
    operations = apiOperations(server.app);
    const { makers } = await seededAdminRowMakers(server, adminCookie, 'Inputs');
    fileId = await makers.freshFile('own');
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists every route of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.map((o) => o.name)).toContain('POST /api/rest/private/users/authenticate');
    expect(operations.map((o) => o.name)).toContain('GET /api/rest/folders/{id}');
  });

  it('refuses the sign-in of the probe with a NUL in the username', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username: 'a\u0000', password: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: MESSAGES.nulCharacter, code: 'validation_error' });
  });

  for (const actor of ['admin', 'anon'] as const) {
    it(`answers a NUL in a body, query and path with 400 on every route (${actor})`, async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const operation of operations) {
        for (const request of nulRequests(operation)) {
          const response = await server.app.inject({
            method: operation.method,
            url: request.url,
            headers: actor === 'admin' ? { cookie: adminCookie } : {},
            ...(request.payload !== undefined ? { payload: request.payload as object } : {}),
          });
          sent++;
          if (!isNulRefusal(response)) {
            failures.push(
              `${operation.name} (${request.what}): ${response.statusCode} ${response.body.slice(0, 160)}`,
            );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(operations.length * 2);
    });
  }

  it('refuses an infinite page or page size in a query (the validator skips its bounds)', async () => {
    // The schema validator coerces "1e309" and "Infinity" to Infinity and then skips minimum and
    // maximum: without the guard these would reach the list queries as an infinite offset.
    const urls = [
      ['GET', '/api/rest/folders?page_size=1e309'],
      ['GET', '/api/rest/folders?page=Infinity'],
      ['GET', '/api/rest/folders?page=-Infinity'],
      ['GET', '/api/rest/private/users?page=1e309'],
      ['POST', '/api/rest/history?page_size=1e309'],
      ['GET', '/api/rest/entities/archived?page_size=-1e309'],
    ] as const;
    for (const [method, url] of urls) {
      for (const cookie of [adminCookie, undefined]) {
        const response = await server.app.inject({
          method,
          url,
          headers: cookie ? { cookie } : {},
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        expect({ url, status: response.statusCode, body: response.json<unknown>() }).toEqual({
          url,
          status: 400,
          body: { message: MESSAGES.nonFiniteNumber, code: 'validation_error' },
        });
      }
    }
  });

  it('refuses a NUL in a text body (the CSV import)', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/private/contacts/import',
      headers: { cookie: adminCookie, 'content-type': 'text/csv' },
      payload: 'name,email\nAda\u0000,ada@example.com\n',
    });
    expect(isNulRefusal(response)).toBe(true);
  });

  it('refuses a NUL in a header value that reaches a query (the user agent of a session)', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      headers: { 'user-agent': 'agent\u0000' },
      payload: { username: 'admin', password: 'whatever' },
    });
    expect(isNulRefusal(response)).toBe(true);
  });

  it('refuses a NUL in the path and the query of the presigned store endpoints', async () => {
    // A real pending upload: the store accepts writes only for a key whose upload is pending.
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/rest/files',
      headers: { cookie: adminCookie },
      payload: {
        folder_id: '',
        name: 'nul-probe.txt',
        extension: 'txt',
        content_type: 'text/plain',
        size: 5,
      },
    });
    expect(created.statusCode).toBe(201);
    const signed = created.json<{ url: string }>();
    const [path, query] = signed.url.split('?') as [string, string];
    const inPath = await server.app.inject({
      method: 'PUT',
      url: `${path}%00?${query}`,
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(isNulRefusal(inPath)).toBe(true);
    const inQuery = await server.app.inject({
      method: 'PUT',
      url: `${path}?${query}&probe=%00`,
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(isNulRefusal(inQuery)).toBe(true);
    // The same request without the NUL is accepted: the refusal was the NUL's.
    const clean = await server.app.inject({
      method: 'PUT',
      url: signed.url,
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(clean.statusCode).toBe(200);
  });

  it('sends Cache-Control: no-store on JSON answers, errors and anonymous routes', async () => {
    const cases: {
      method: 'GET' | 'POST';
      url: string;
      cookie?: boolean;
      payload?: object;
      status: number;
    }[] = [
      { method: 'GET', url: '/api/auth/current-user', cookie: true, status: 200 },
      { method: 'GET', url: '/api/rest/folders', cookie: true, status: 200 },
      { method: 'GET', url: '/api/rest/folders/no-such-folder', cookie: true, status: 404 },
      { method: 'GET', url: '/api/rest/folders?page=0', cookie: true, status: 400 },
      { method: 'GET', url: '/api/rest/folders', status: 401 },
      { method: 'GET', url: '/api/rest/feature_flags', status: 200 },
      { method: 'GET', url: '/api/health', status: 200 },
      { method: 'GET', url: '/api/no/such/route', status: 404 },
      {
        method: 'POST',
        url: '/api/rest/private/users/authenticate',
        payload: { username: 'nobody', password: 'wrong' },
        status: 401,
      },
    ];
    for (const c of cases) {
      const response = await server.app.inject({
        method: c.method,
        url: c.url,
        headers: c.cookie ? { cookie: adminCookie } : {},
        ...(c.payload ? { payload: c.payload } : {}),
      });
      expect({
        url: c.url,
        status: response.statusCode,
        cache: response.headers['cache-control'],
      }).toEqual({
        url: c.url,
        status: c.status,
        cache: 'no-store',
      });
    }
  });

  it('keeps private, no-store on file answers', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${fileId}/download`,
      headers: { cookie: adminCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });
});
