/**
 * What operators rely on (docs/operations.md), on SQLite and PostgreSQL: liveness and readiness
 * (database and object store probed, 503 naming the failed part without secrets, 503 while
 * shutting down), the Prometheus metrics (off without METRICS_TOKEN, bearer token, route patterns
 * never raw URLs, upload bytes, imaging queue depth, PostgreSQL pool, one registry per app) and
 * the request log (one line per request, no password, cookie, Authorization, token or signature).
 */
import { renameSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FileDto } from '@common/entities';
import type { CreateUploadResponse } from '@common/uploads';
import { buildApp } from '@server/app';
import { openDatabase } from '@server/db/database';
import type { ServerLifecycle } from '@server/plugins/health';
import {
  ADMIN_PASSWORD,
  describeEachDatabase,
  json,
  sessionCookie,
  signIn,
  startTestServer,
  type DatabaseKind,
  type TestServer,
} from './helpers';

const METRICS_TOKEN = 'metrics-token-4f1c2a';

/** Creates, PUTs and records a file of `body` in the root folder; answers the upload and file. */
async function uploadFile(
  server: TestServer,
  cookie: string,
  name: string,
  body: Buffer,
  contentType = 'application/pdf',
): Promise<{ upload: CreateUploadResponse; file: FileDto }> {
  const created = await server.app.inject({
    method: 'POST',
    url: '/api/rest/files',
    headers: { cookie },
    payload: {
      folder_id: '',
      name,
      extension: name.split('.').pop(),
      content_type: contentType,
      size: body.length,
    },
  });
  expect(created.statusCode).toBe(201);
  const upload = json<CreateUploadResponse>(created);
  const put = await server.app.inject({
    method: 'PUT',
    url: upload.url,
    headers: upload.headers,
    payload: body,
  });
  expect(put.statusCode).toBe(200);
  const recorded = await server.app.inject({
    method: 'POST',
    url: '/api/rest/files/record',
    headers: { cookie },
    payload: { id: upload.id },
  });
  expect(recorded.statusCode).toBe(201);
  return { upload, file: json<FileDto>(recorded) };
}

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeEachDatabase('health and readiness', (kind: DatabaseKind) => {
  let server: TestServer;
  const lifecycle: ServerLifecycle = { shuttingDown: false };
  beforeAll(async () => {
    server = await startTestServer(kind, { app: { lifecycle } });
  });
  afterAll(async () => {
    await server.close();
  });

  const ready = () => server.app.inject({ method: 'GET', url: '/api/ready' });

  it('is alive and ready when the database and the object store answer', async () => {
    const health = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect({ status: health.statusCode, body: health.json<unknown>() }).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    const answer = await ready();
    expect({ status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', object_store: 'ok' } },
    });
  });

  it('answers 503 naming the object store when its folder is gone, and ready again after', async () => {
    const objects = path.join(server.dataDir, 'objects');
    renameSync(objects, `${objects}-away`);
    try {
      const answer = await ready();
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        status: 'not_ready',
        code: 'not_ready',
        message: 'Not ready: the object store did not answer.',
        checks: { database: 'ok', object_store: 'failed' },
      });
      // No path, host or error text reaches the client.
      expect(answer.body).not.toContain(server.dataDir);
    } finally {
      renameSync(`${objects}-away`, objects);
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('answers 503 shutting_down once a shutdown began, while staying alive', async () => {
    lifecycle.shuttingDown = true;
    try {
      const answer = await ready();
      expect({ status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
        status: 503,
        body: {
          status: 'shutting_down',
          code: 'shutting_down',
          message: 'This instance is shutting down.',
          checks: {},
        },
      });
      expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      lifecycle.shuttingDown = false;
    }
  });

  it('serves no metrics without METRICS_TOKEN (404, even with a bearer token)', async () => {
    const answer = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect({ status: answer.statusCode, code: answer.json<{ code: string }>().code }).toEqual({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('readiness with an unreachable database', () => {
  it('answers 503 naming the database, without its address or password', async () => {
    const server = await startTestServer('sqlite');
    const unreachable = openDatabase('postgres://dossier:hunter2-secret@127.0.0.1:1/nowhere');
    const lines: string[] = [];
    try {
      const app = await buildApp({
        ...server.services,
        config: { ...server.config, logLevel: 'warn' },
        db: unreachable.db,
        localStore: server.localStore!,
        logStream: { write: (line) => lines.push(line) },
      });
      const answer = await app.inject({ method: 'GET', url: '/api/ready' });
      expect({ status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
        status: 503,
        body: {
          status: 'not_ready',
          code: 'not_ready',
          message: 'Not ready: the database did not answer.',
          checks: { database: 'failed', object_store: 'ok' },
        },
      });
      // The reason goes to the log (for the operator), never with the password.
      expect(lines.join('')).toContain('readiness check failed');
      expect(lines.join('')).not.toContain('hunter2-secret');
      await app.close();
    } finally {
      await unreachable.close();
      await server.close();
    }
  });
});

describeEachDatabase('metrics', (kind: DatabaseKind) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { METRICS_TOKEN } });
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const scrape = (authorization?: string) =>
    server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: authorization ? { authorization } : {},
    });

  it('requires the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', METRICS_TOKEN, 'Basic eA==']) {
      const answer = await scrape(authorization);
      expect({ authorization, status: answer.statusCode }).toEqual({ authorization, status: 401 });
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    expect((await scrape(`Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
  });

  it('counts requests by route pattern and status class, upload bytes and the imaging queue', async () => {
    const body = Buffer.from('%PDF-1.4\n% a small stand-in for a scan\n');
    const { upload, file } = await uploadFile(server, cookie, 'scan.pdf', body);
    const read = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${file.id}`,
      headers: { cookie },
    });
    expect(read.statusCode).toBe(200);
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.body;
    expect(sample(text, 'dossier_uploads_total')).toBe(1);
    expect(sample(text, 'dossier_upload_bytes_total')).toBe(body.length);
    const count = (method: string, route: string, statusClass: string) =>
      sample(
        text,
        `http_request_duration_seconds_count{method="${method}",route="${route}",status_class="${statusClass}"}`,
      );
    expect(count('POST', '/api/rest/files/record', '2xx')).toBe(1);
    expect(count('PUT', '/api/storage/objects/*', '2xx')).toBe(1);
    expect(count('GET', '/api/rest/files/:id', '2xx')).toBe(1);
    expect(count('GET', '/metrics', '4xx')).toBe(4);
    // Route labels are patterns: no id, key or signature of a raw URL.
    expect(text).not.toContain(file.id);
    expect(text).not.toContain(upload.url.split('?')[1]!);
    // The recorded PDF waits in the imaging queue (no worker runs in tests).
    expect(sample(text, 'dossier_imaging_jobs{state="queued"}')).toBe(1);
    expect(sample(text, 'dossier_imaging_jobs{state="running"}')).toBe(0);
    expect(sample(text, 'dossier_imaging_jobs{state="failed"}')).toBe(0);
    // Default process metrics.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The PostgreSQL pool's counts; SQLite has no pool.
    if (kind === 'postgres') {
      expect(sample(text, 'dossier_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      // Waiting counts queries queued while a connection opens: present, its value varies.
      expect(sample(text, 'dossier_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(
        0,
      );
    } else {
      expect(text).not.toContain('dossier_db_pool_connections');
    }
  });

  it("keeps each app's counters in its own registry", async () => {
    const other = await startTestServer(kind, { env: { METRICS_TOKEN } });
    try {
      const answer = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(sample(answer.body, 'dossier_uploads_total')).toBe(0);
      expect(answer.body).not.toContain('route="/api/rest/files/record"');
    } finally {
      await other.close();
    }
    const again = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(sample(again.body, 'dossier_uploads_total')).toBe(1);
  });
});

describeEachDatabase('request log', (kind: DatabaseKind) => {
  let server: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: { LOG_LEVEL: 'info', METRICS_TOKEN },
      app: { logStream: { write: (line) => lines.push(line) } },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes one line per request, with route, status, time, request id and user, and no secret', async () => {
    lines.length = 0;
    const signInAnswer = await server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const cookie = sessionCookie(signInAnswer);
    const token = cookie.split('=')[1]!;
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/auth/current-user',
      headers: { cookie },
    });
    const userId = me.json<{ userId: string }>().userId;
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    const { upload } = await uploadFile(
      server,
      cookie,
      'letter.txt',
      Buffer.from('hello'),
      'text/plain',
    );
    const signature = new URL(upload.url, 'http://x').searchParams.get('sig')!;
    // A share-invitation token in the path, a bearer token in a header, a signed query string.
    const invitationToken = 'invitation-token-9d8e7f';
    await server.app.inject({
      method: 'GET',
      url: `/api/rest/shared/invitation/${invitationToken}`,
    });
    await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    await server.app.inject({ method: 'GET', url: '/api/ready' });
    // 7 requests at info level (sign-in, current user, create, PUT, record, invitation, metrics
    // is debug, readiness is debug): one line each.
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.msg === 'request');
    expect(requests.map((entry) => [entry.method, entry.route, entry.status])).toEqual([
      ['POST', '/api/rest/private/users/authenticate', 200],
      ['GET', '/api/auth/current-user', 200],
      ['POST', '/api/rest/files', 201],
      ['PUT', '/api/storage/objects/*', 200],
      ['POST', '/api/rest/files/record', 201],
      ['GET', '/api/rest/shared/invitation/:token', 404],
    ]);
    for (const entry of requests) {
      expect(typeof entry.ms).toBe('number');
      expect(entry.reqId).toMatch(/^[0-9a-f]{12}$/);
    }
    expect(new Set(requests.map((entry) => entry.reqId)).size).toBe(requests.length);
    expect(requests[0]!.user).toBeUndefined();
    expect(requests.slice(1, 5).map((entry) => entry.user)).toEqual([
      userId,
      userId,
      undefined,
      userId,
    ]);
    const all = lines.join('\n');
    for (const secret of [ADMIN_PASSWORD, token, signature, invitationToken, METRICS_TOKEN]) {
      expect({ secret, found: all.includes(secret) }).toEqual({ secret, found: false });
    }
    expect(all).not.toMatch(/cookie|authorization|sig=/i);
  });

  it('echoes the request id, ignoring a client-sent one without TRUST_PROXY', async () => {
    lines.length = 0;
    const answer = await server.app.inject({
      method: 'GET',
      url: '/api/rest/feature_flags',
      headers: { 'x-request-id': 'client-chosen-id' },
    });
    const entry = JSON.parse(lines.find((line) => line.includes('"msg":"request"'))!) as {
      reqId: string;
    };
    expect(answer.headers['x-request-id']).toBe(entry.reqId);
    expect(entry.reqId).toMatch(/^[0-9a-f]{12}$/);
  });
});
