/**
 * Compressed answers: the built client's text assets come precompressed (Brotli or gzip, by the
 * request's Accept-Encoding, with `Vary: Accept-Encoding`), API answers over the threshold are
 * compressed on the fly, and file bytes (downloads, previews, ranges, shared downloads) and zips
 * never are. On SQLite and PostgreSQL for the API; the client's assets on SQLite.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { COMPRESSION_THRESHOLD_BYTES } from '@server/plugins/compression';
import { precompressFile } from '../../scripts/vite/precompress';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, makeFile, makeFolder, type Actor } from './organiseHelpers';
import { createLink, guestCookie, invitationMail } from './sharingHelpers';

/** The body of an answer, decoded as its Content-Encoding says. */
function decoded(response: LightMyRequestResponse): string {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw).toString('utf8');
    case 'gzip':
      return zlib.gunzipSync(raw).toString('utf8');
    case undefined:
      return raw.toString('utf8');
    default:
      throw new Error(`unexpected encoding ${String(response.headers['content-encoding'])}`);
  }
}

describe('the built client, precompressed', () => {
  let server: TestServer;
  let clientDir: string;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;
  const html = `<!doctype html><title>Dossier</title>${'<!-- padding -->'.repeat(100)}`;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), html);
    writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), script);
    writeFileSync(path.join(clientDir, 'assets', 'tiny-abc123.js'), 'console.log(1)');
    // The build's own step writes the copies.
    expect(await precompressFile(path.join(clientDir, 'assets', 'app-abc123.js'))).toBe(2);
    expect(await precompressFile(path.join(clientDir, 'assets', 'tiny-abc123.js'))).toBe(0);
    expect(await precompressFile(path.join(clientDir, 'index.html'))).toBe(2);
    server = await startTestServer('sqlite', { clientDir });
  });
  afterAll(async () => {
    await server.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('answers an asset in Brotli or gzip as asked, and plain when not', async () => {
    const url = '/assets/app-abc123.js';
    const br = await get(url, 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(script.length / 2);
    expect(decoded(br)).toBe(script);

    const gz = await get(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toBe(script);

    for (const plain of [await get(url), await get(url, 'identity')]) {
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(script);
    }
  });

  it('answers a small asset as it is, and index.html compressed for a client route', async () => {
    const tiny = await get('/assets/tiny-abc123.js', 'br');
    expect([tiny.statusCode, tiny.headers['content-encoding'], tiny.body]).toEqual([
      200,
      undefined,
      'console.log(1)',
    ]);
    const page = await get('/home/folders/0193-abc', 'br, gzip');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decoded(page)).toBe(html);
  });
});

describeEachDatabase('API answers and compression', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let folder: { id: string };
  // A text file over the threshold: a type that would be compressed if it were an API answer.
  const text = 'line of a plain text file that compresses very well\n'.repeat(100);
  let file: { id: string };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    folder = await makeFolder(server, admin, 'Compressed');
    for (let i = 0; i < 20; i += 1) await makeFolder(server, admin, `Sub folder ${i}`, folder.id);
    file = await makeFile(server, admin, 'notes.txt', folder.id, text);
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (url: string, headers: Record<string, string> = {}, cookie = admin.cookie) =>
    server.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });

  it('compresses a large JSON answer when asked, and not when not', async () => {
    const url = `/api/rest/entities?folder_id=${folder.id}&page_size=100`;
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);

    for (const [asked, expected] of [
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const encoded = await get(url, { 'accept-encoding': asked });
      expect([encoded.statusCode, encoded.headers['content-encoding']]).toEqual([200, expected]);
      expect(encoded.headers.vary).toMatch(/accept-encoding/i);
      expect(encoded.headers['content-type']).toMatch(/^application\/json/);
      expect(encoded.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decoded(encoded))).toEqual(plain.json());
    }
  });

  it('answers a small JSON answer as it is', async () => {
    const health = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect([health.statusCode, health.headers['content-encoding']]).toEqual([200, undefined]);
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('never re-encodes a file read, a range of it or a shared download', async () => {
    const ask = { 'accept-encoding': 'gzip, deflate, br' };
    for (const mode of ['download', 'preview', 'print']) {
      const url = `/api/rest/files/${file.id}/${mode}`;
      const whole = await get(url, ask);
      expect([whole.statusCode, whole.headers['content-encoding']]).toEqual([200, undefined]);
      expect(whole.headers['content-length']).toBe(String(text.length));
      expect(whole.body).toBe(text);
      const part = await get(url, { ...ask, range: 'bytes=5-1500' });
      expect([part.statusCode, part.headers['content-encoding']]).toEqual([206, undefined]);
      expect(part.headers['content-range']).toBe(`bytes 5-1500/${text.length}`);
      expect(part.body).toBe(text.slice(5, 1501));
    }

    await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      emails: ['compressed.guest@example.com'],
    });
    const mail = await invitationMail(server, 'compressed.guest@example.com');
    const guest = await guestCookie(server, mail.token, 'compressed.guest@example.com');
    const shared = await get(`/api/rest/shared/files/${file.id}/download`, ask, guest);
    expect([shared.statusCode, shared.headers['content-encoding']]).toEqual([200, undefined]);
    expect(shared.body).toBe(text);
  });

  it('never re-encodes a folder zip or a selection zip', async () => {
    const ask = { 'accept-encoding': 'gzip, deflate, br' };
    const folderZip = await get(`/api/rest/folders/${folder.id}/download`, ask);
    expect(folderZip.statusCode).toBe(200);
    expect(folderZip.headers['content-type']).toBe('application/zip');
    expect(folderZip.headers['content-encoding']).toBeUndefined();
    // A zip starts with a local file header (PK\3\4), which no encoded body does.
    expect(folderZip.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 3, 4]));

    const asked = await server.app.inject({
      method: 'POST',
      url: '/api/rest/entities/zip',
      headers: { cookie: admin.cookie },
      payload: { items: [{ type: 'file', id: file.id }] },
    });
    expect(asked.statusCode).toBe(201);
    const { url } = asked.json<{ url: string }>();
    const selectionZip = await get(url, ask);
    expect(selectionZip.statusCode).toBe(200);
    expect(selectionZip.headers['content-encoding']).toBeUndefined();
    expect(selectionZip.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 3, 4]));
  });
});
