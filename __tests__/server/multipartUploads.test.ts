// Resumable multipart uploads, restrictions, discarding and cleanup, on SQLite and
// PostgreSQL, through the real app: sign with the API, send to the store's S3-style endpoints.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { MULTIPART_MIN_PART_BYTES } from '@common/constants';
import { contentTypeFor } from '@common/files';
import { splitFileName } from '@common/names';
import type { Page } from '@common/api';
import type { FileDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import type {
  CreateMultipartUploadResponse,
  CreateUploadResponse,
  PresignedRequestDto,
} from '@common/uploads';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import { loadConfig } from '@server/config';
import { fingerprintMissingFiles, fingerprintsSettled } from '@server/services/fingerprints';
import { cleanUpAbandonedUploads } from '@server/services/uploads';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The helpers every suite below uses, bound to one server and session. */
function client(getServer: () => TestServer, getCookie: () => string) {
  const inject = (options: InjectOptions): Promise<LightMyRequestResponse> =>
    getServer().app.inject(options);
  const body = (name: string, size: number, folderId = '') => {
    const { extension } = splitFileName(name);
    return { folder_id: folderId, name, extension, content_type: contentTypeFor(extension), size };
  };
  const api = {
    createMultipart: (name: string, size: number, as = getCookie()) =>
      inject({
        method: 'POST',
        url: '/api/rest/files/multipart',
        headers: { cookie: as },
        payload: body(name, size),
      }),
    createSingle: (name: string, size: number, as = getCookie()) =>
      inject({
        method: 'POST',
        url: '/api/rest/files',
        headers: { cookie: as },
        payload: body(name, size),
      }),
    signPart: (uploadId: string, partNumber: number, key: string, as = getCookie()) =>
      inject({
        method: 'GET',
        url: `/api/rest/files/multipart/${uploadId}/${partNumber}?key=${encodeURIComponent(key)}`,
        headers: { cookie: as },
      }),
    signList: (uploadId: string, key: string, as = getCookie()) =>
      inject({
        method: 'GET',
        url: `/api/rest/files/multipart/${uploadId}?key=${encodeURIComponent(key)}`,
        headers: { cookie: as },
      }),
    signComplete: (uploadId: string, key: string, as = getCookie()) =>
      inject({
        method: 'POST',
        url: `/api/rest/files/multipart/${uploadId}/complete`,
        headers: { cookie: as },
        payload: { key },
      }),
    abort: (uploadId: string, key: string, as = getCookie()) =>
      inject({
        method: 'DELETE',
        url: `/api/rest/files/multipart/${uploadId}?key=${encodeURIComponent(key)}`,
        headers: { cookie: as },
      }),
    discard: (id: string, as = getCookie()) =>
      inject({ method: 'DELETE', url: `/api/rest/files/uploads/${id}`, headers: { cookie: as } }),
    record: (id: string, extra: Record<string, string> = {}, as = getCookie()) =>
      inject({
        method: 'POST',
        url: '/api/rest/files/record',
        headers: { cookie: as },
        payload: { id, ...extra },
      }),
    /** Sends a presigned store request. */
    send: (signed: PresignedRequestDto, payload?: Buffer | string, headers = {}) =>
      inject({
        method: signed.method,
        url: signed.url,
        headers: { ...signed.headers, ...headers },
        ...(payload === undefined ? {} : { payload }),
      }),
  };

  /** Creates a multipart upload and starts it in the store; answers ids and key. */
  const start = async (name: string, size: number) => {
    const created = await api.createMultipart(name, size);
    expect(created.statusCode).toBe(201);
    const answer = created.json<CreateMultipartUploadResponse>();
    const init = await api.send(answer);
    expect(init.statusCode).toBe(200);
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(init.body)?.[1];
    expect(uploadId).toBe(answer.id);
    return { id: answer.id, key: answer.key };
  };

  /** Signs and sends one part; answers the ETag. */
  const putPart = async (
    upload: { id: string; key: string },
    partNumber: number,
    data: Buffer,
  ): Promise<string> => {
    const signed = await api.signPart(upload.id, partNumber, upload.key);
    expect(signed.statusCode).toBe(200);
    const response = await api.send(signed.json<PresignedRequestDto>(), data);
    expect(response.statusCode).toBe(200);
    return String(response.headers.etag).replace(/"/g, '');
  };

  const completeXml = (parts: { partNumber: number; etag: string }[]) =>
    '<CompleteMultipartUpload>' +
    parts
      .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>"${p.etag}"</ETag></Part>`)
      .join('') +
    '</CompleteMultipartUpload>';

  const complete = async (
    upload: { id: string; key: string },
    parts: { partNumber: number; etag: string }[],
  ) => {
    const signed = await api.signComplete(upload.id, upload.key);
    expect(signed.statusCode).toBe(200);
    return api.send(signed.json<PresignedRequestDto>(), completeXml(parts), {
      'content-type': 'application/xml',
    });
  };

  const listParts = async (upload: { id: string; key: string }) => {
    const signed = await api.signList(upload.id, upload.key);
    expect(signed.statusCode).toBe(200);
    const response = await api.send(signed.json<PresignedRequestDto>());
    expect(response.statusCode).toBe(200);
    return [
      ...response.body.matchAll(/<PartNumber>(\d+)<\/PartNumber>.*?<ETag>([^<]+)<\/ETag>/g),
    ].map((m) => ({ partNumber: Number(m[1]), etag: m[2]! }));
  };

  return { api, start, putPart, complete, listParts };
}

describeEachDatabase('multipart uploads', (kind) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    // 5 MiB parts (the smallest allowed) keep the test data small.
    server = await startTestServer(kind, { env: { UPLOAD_PART_SIZE: String(5 * MiB) } });
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });
  const { api, start, putPart, complete, listParts } = client(
    () => server,
    () => cookie,
  );
  const uploadDir = (id: string) => path.join(server.localStore!.multipartDirectory, id);
  /** The file's sha256 once the background fingerprinting is done. */
  const fingerprintOf = async (id: string) => {
    await fingerprintsSettled(server.services);
    const answer = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${id}`,
      headers: { cookie },
    });
    return answer.json<FileDto>().sha256;
  };

  it('serves the restrictions, with the documented defaults where nothing is configured', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/rest/files/restrictions',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<UploadRestrictions>()).toEqual({
      max_file_size: 104_857_600,
      min_file_size: 0,
      max_number_of_files: 100,
      allowed_file_types: [],
      multipart_threshold: 10 * MiB,
      part_size: 5 * MiB,
    });
    expect(loadConfig({ DATA_DIR: server.dataDir, SESSION_SECRET: 's' }).uploads).toEqual({
      ...DEFAULT_UPLOAD_RESTRICTIONS,
      part_size: 10 * MiB,
    });
    const anonymous = await server.app.inject({
      method: 'GET',
      url: '/api/rest/files/restrictions',
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('creates, signs, uploads, lists and completes: the recorded file is byte-identical', async () => {
    const bytes = randomBytes(12 * MiB + 12_345);
    const upload = await start('Quarterly statement.pdf', bytes.length);
    expect(upload.key).toMatch(new RegExp(`/${upload.id}$`));
    const parts = [];
    for (let n = 1, offset = 0; offset < bytes.length; n += 1, offset += 5 * MiB) {
      parts.push({
        partNumber: n,
        etag: await putPart(upload, n, bytes.subarray(offset, offset + 5 * MiB)),
      });
    }
    expect(parts).toHaveLength(3);
    expect(await listParts(upload)).toEqual(parts);
    // Not visible before it is complete and recorded.
    expect((await api.record(upload.id)).statusCode).toBe(409);

    const completed = await complete(upload, parts);
    expect(completed.statusCode).toBe(200);
    // S3's multipart ETag: a digest of the parts' ETags and the part count.
    expect(completed.body).toMatch(/<ETag>[0-9a-f]{32}-3<\/ETag>/);
    expect(existsSync(uploadDir(upload.id))).toBe(false);

    const recorded = await api.record(upload.id, { sha256: sha256(bytes) });
    expect(recorded.statusCode).toBe(201);
    const file = recorded.json<FileDto>();
    expect(file).toMatchObject({
      name: 'Quarterly statement.pdf',
      size: bytes.length,
      status: 'ready',
    });
    expect(file.sha256).toBe(sha256(bytes));
    const download = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${file.id}/download`,
      headers: { cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(bytes));
    const history = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history',
      headers: { cookie },
      payload: { entity_id: file.id },
    });
    expect(history.json<Page<HistoryEventDto>>().items.map((e) => e.action)).toEqual([
      'download',
      'create',
    ]);
  });

  it('keeps the last copy of a part uploaded twice', async () => {
    const bytes = randomBytes(6 * MiB);
    const upload = await start('twice.bin', bytes.length);
    const wrong = await putPart(upload, 1, randomBytes(5 * MiB));
    const first = await putPart(upload, 1, bytes.subarray(0, 5 * MiB));
    expect(first).not.toBe(wrong);
    const second = await putPart(upload, 2, bytes.subarray(5 * MiB));
    expect(await listParts(upload)).toEqual([
      { partNumber: 1, etag: first },
      { partNumber: 2, etag: second },
    ]);
    // The replaced copy is gone: completing with its ETag is refused.
    const stale = await complete(upload, [
      { partNumber: 1, etag: wrong },
      { partNumber: 2, etag: second },
    ]);
    expect(stale.statusCode).toBe(400);
    expect(stale.json<{ code: string }>().code).toBe('invalid_part');
    expect(
      (
        await complete(upload, [
          { partNumber: 1, etag: first },
          { partNumber: 2, etag: second },
        ])
      ).statusCode,
    ).toBe(200);
    const file = (await api.record(upload.id)).json<FileDto>();
    expect(await fingerprintOf(file.id)).toBe(sha256(bytes));
  });

  it('signs several parts at once, only within the file', async () => {
    const upload = await start('batch.bin', 11 * MiB);
    const signParts = (first: number, count: number, as = cookie) =>
      server.app.inject({
        method: 'GET',
        url: `/api/rest/files/multipart/${upload.id}/parts?key=${encodeURIComponent(upload.key)}&first=${first}&count=${count}`,
        headers: { cookie: as },
      });
    const batch = await signParts(1, 10);
    expect(batch.statusCode).toBe(200);
    const parts = batch.json<{ parts: (PresignedRequestDto & { part_number: number })[] }>().parts;
    // 11 MiB in 5 MiB parts: three parts, the others are left out.
    expect(parts.map((p) => p.part_number)).toEqual([1, 2, 3]);
    const data = randomBytes(11 * MiB);
    const etags: string[] = [];
    for (const part of parts) {
      const offset = (part.part_number - 1) * 5 * MiB;
      const response = await api.send(part, data.subarray(offset, offset + 5 * MiB));
      expect(response.statusCode).toBe(200);
      etags.push(String(response.headers.etag).replace(/"/g, ''));
    }
    const done = await complete(
      upload,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    expect(done.statusCode).toBe(200);
    expect(await fingerprintOf((await api.record(upload.id)).json<FileDto>().id)).toBe(
      sha256(data),
    );
    expect((await signParts(4, 1)).statusCode).toBe(404);
    const other = await start('batch-2.bin', 11 * MiB);
    const outside = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/multipart/${other.id}/parts?key=${encodeURIComponent(other.key)}&first=4&count=1`,
      headers: { cookie },
    });
    expect(outside.statusCode).toBe(400);
    const tooMany = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/multipart/${other.id}/parts?key=${encodeURIComponent(other.key)}&first=1&count=101`,
      headers: { cookie },
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('refuses a part of another size than its place in the file, and does not list it', async () => {
    const upload = await start('sizes.bin', 6 * MiB);
    const signed = (await api.signPart(upload.id, 2, upload.key)).json<PresignedRequestDto>();
    const short = await api.send(signed, randomBytes(MiB - 1));
    expect(short.statusCode).toBe(400);
    expect(short.json<{ code: string }>().code).toBe('invalid_part');
    expect(await listParts(upload)).toEqual([]);
    // Part numbers past the end of the file are not signed.
    expect((await api.signPart(upload.id, 3, upload.key)).statusCode).toBe(400);
  });

  it('refuses to complete with a missing part or parts that do not add up, and stores nothing', async () => {
    const bytes = randomBytes(11 * MiB);
    const upload = await start('gaps.bin', bytes.length);
    const one = await putPart(upload, 1, bytes.subarray(0, 5 * MiB));
    const three = await putPart(upload, 3, bytes.subarray(10 * MiB));
    const gap = await complete(upload, [
      { partNumber: 1, etag: one },
      { partNumber: 3, etag: three },
    ]);
    expect(gap.statusCode).toBe(400);
    expect(gap.json<{ code: string }>().code).toBe('invalid_part_order');
    const missing = await complete(upload, [
      { partNumber: 1, etag: one },
      { partNumber: 2, etag: 'a'.repeat(64) },
      { partNumber: 3, etag: three },
    ]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ code: string }>().code).toBe('invalid_part');
    const short = await complete(upload, [{ partNumber: 1, etag: one }]);
    expect(short.statusCode).toBe(400);
    expect(short.json<{ code: string }>().code).toBe('size_mismatch');
    expect(await server.store.head(upload.key)).toBeNull();
    expect((await api.record(upload.id)).statusCode).toBe(409);
    // The stored parts are still there: the upload can resume.
    expect((await listParts(upload)).map((p) => p.partNumber)).toEqual([1, 3]);
  });

  it('aborts: the parts and the pending upload go, and old part links stop working', async () => {
    const upload = await start('abort.bin', 11 * MiB);
    await putPart(upload, 1, randomBytes(5 * MiB));
    const laterPart = (await api.signPart(upload.id, 2, upload.key)).json<PresignedRequestDto>();
    expect(readdirSync(uploadDir(upload.id))).toEqual(
      expect.arrayContaining(['manifest.json', 'data', 'part-00001.json']),
    );
    const aborted = await api.abort(upload.id, upload.key);
    expect(aborted.statusCode).toBe(200);
    expect(existsSync(uploadDir(upload.id))).toBe(false);
    const storeAbort = aborted.json<PresignedRequestDto>();
    expect(storeAbort.method).toBe('DELETE');
    expect((await api.send(storeAbort)).statusCode).toBe(204);
    const late = await api.send(laterPart, randomBytes(1024));
    expect(late.statusCode).toBe(404);
    expect(existsSync(uploadDir(upload.id))).toBe(false);
    expect((await api.record(upload.id)).statusCode).toBe(404);
    expect((await api.signPart(upload.id, 2, upload.key)).statusCode).toBe(404);
  });

  it('signs only the user’s own pending uploads, and a link works for its own key only', async () => {
    const a = await start('a.bin', 11 * MiB);
    const b = await start('b.bin', 11 * MiB);
    // The server will not sign a part of upload A for the key of upload B.
    expect((await api.signPart(a.id, 1, b.key)).statusCode).toBe(404);
    // A link signed for A, pointed at B's key (or another part number), is refused by the store.
    const signed = (await api.signPart(a.id, 1, a.key)).json<PresignedRequestDto>();
    const otherKey = { ...signed, url: signed.url.replace(a.key, b.key) };
    expect((await api.send(otherKey, randomBytes(1024))).statusCode).toBe(403);
    const otherPart = { ...signed, url: signed.url.replace('partNumber=1', 'partNumber=2') };
    expect((await api.send(otherPart, randomBytes(1024))).statusCode).toBe(403);
    const otherUpload = {
      ...signed,
      url: signed.url.replace(`uploadId=${a.id}`, `uploadId=${b.id}`),
    };
    expect((await api.send(otherUpload, randomBytes(1024))).statusCode).toBe(403);
    // A larger part than signed is refused while streaming.
    const tooBig = await api.send(signed, randomBytes(5 * MiB + 1));
    expect(tooBig.statusCode).toBe(413);
    expect(await listParts(a)).toEqual([]);
    // An expired link is refused.
    server.clock.now += 16 * 60_000;
    const expired = await api.send(signed, randomBytes(1024));
    server.clock.now = Date.now();
    expect(expired.statusCode).toBe(403);
    // Part numbers beyond what the file can have are not signed.
    expect((await api.signPart(a.id, 4, a.key)).statusCode).toBe(400);

    // Another user (same firm) and a user of another firm get 404 for every step.
    await addUser(server, {
      username: 'colleague',
      password: 'colleague-pw-1',
      databaseId: a.key.split('/')[0],
    });
    await addUser(server, { username: 'rival', password: 'rival-pw-1' });
    for (const [username, password] of [
      ['colleague', 'colleague-pw-1'],
      ['rival', 'rival-pw-1'],
    ] as const) {
      const other = await signIn(server, username, password);
      const statuses = [
        (await api.signPart(a.id, 1, a.key, other)).statusCode,
        (await api.signList(a.id, a.key, other)).statusCode,
        (await api.signComplete(a.id, a.key, other)).statusCode,
        (await api.abort(a.id, a.key, other)).statusCode,
        (await api.discard(a.id, other)).statusCode,
        (await api.record(a.id, {}, other)).statusCode,
      ];
      expect({ username, statuses }).toEqual({
        username,
        statuses: [404, 404, 404, 404, 404, 404],
      });
    }
    expect(existsSync(uploadDir(a.id))).toBe(true);
  });

  it('refuses a create request with another content type, and an empty multipart upload', async () => {
    const created = (
      await api.createMultipart('c.pdf', 11 * MiB)
    ).json<CreateMultipartUploadResponse>();
    const wrongType = await api.send(created, undefined, { 'content-type': 'text/html' });
    expect(wrongType.statusCode).toBe(415);
    expect(existsSync(uploadDir(created.id))).toBe(false);
    expect((await api.createMultipart('empty.pdf', 0)).statusCode).toBe(400);
  });

  it('refuses to record when the client’s checksum differs, and deletes the object', async () => {
    const bytes = Buffer.from('checksum test');
    const single = (await api.createSingle('sum.txt', bytes.length)).json<CreateUploadResponse>();
    expect((await api.send(single, bytes)).statusCode).toBe(200);
    const refused = await api.record(single.id, { sha256: sha256(Buffer.from('other')) });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ message: string; code: string }>()).toEqual({
      message: 'Failed to upload sum.txt.',
      code: 'checksum_mismatch',
    });
    expect(await server.store.head(`${single.url.split('objects/')[1]!.split('?')[0]}`)).toBeNull();
    expect((await api.record(single.id)).statusCode).toBe(404);
  });

  it('hashes small single PUTs on the way in and larger objects after recording them', async () => {
    const small = Buffer.from('a small statement');
    const single = (await api.createSingle('small.txt', small.length)).json<CreateUploadResponse>();
    const sent = await api.send(single, small);
    // Hashed while it arrived: the sha256 is the ETag and the recorded file has it at once.
    expect(sent.headers.etag).toBe(`"${sha256(small)}"`);
    expect((await api.record(single.id)).json<FileDto>().sha256).toBe(sha256(small));

    const large = randomBytes(11 * MiB);
    const big = (await api.createSingle('large.bin', large.length)).json<CreateUploadResponse>();
    const bigSent = await api.send(big, large);
    expect(bigSent.statusCode).toBe(200);
    expect(bigSent.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    const bigKey = big.url.split('objects/')[1]!.split('?')[0]!;
    expect(await server.store.head(bigKey)).toEqual({ size: large.length });
    const recorded = (await api.record(big.id)).json<FileDto>();
    expect(await fingerprintOf(recorded.id)).toBe(sha256(large));
    // The store keeps it, so reading it again is not needed.
    expect(await server.store.head(bigKey)).toEqual({ size: large.length, sha256: sha256(large) });
    expect(await server.store.checksum(`${bigKey}-missing`)).toBeNull();
  });

  it('compares a client’s sha256 with a multipart object, hashing it at record', async () => {
    const bytes = randomBytes(11 * MiB);
    /** Sends the bytes in 5 MiB parts and completes the upload. */
    const sendAll = async (upload: { id: string; key: string }) => {
      const parts = [];
      for (let n = 1, offset = 0; offset < bytes.length; n += 1, offset += 5 * MiB) {
        parts.push({
          partNumber: n,
          etag: await putPart(upload, n, bytes.subarray(offset, offset + 5 * MiB)),
        });
      }
      expect((await complete(upload, parts)).statusCode).toBe(200);
    };
    const upload = await start('declared.bin', bytes.length);
    await sendAll(upload);
    const refused = await api.record(upload.id, { sha256: sha256(Buffer.from('other')) });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ code: string }>().code).toBe('checksum_mismatch');
    expect(await server.store.head(upload.key)).toBeNull();
    expect((await api.record(upload.id)).statusCode).toBe(404);

    const again = await start('declared-2.bin', bytes.length);
    await sendAll(again);
    const accepted = await api.record(again.id, { sha256: sha256(bytes).toUpperCase() });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json<FileDto>().sha256).toBe(sha256(bytes));
  });

  it('sweeps files left without a sha256, past objects it cannot read', async () => {
    const ids: string[] = [];
    const contents: Buffer[] = [];
    for (const name of ['sweep-1.txt', 'sweep-2.txt', 'sweep-3.txt']) {
      const bytes = randomBytes(1000);
      const single = (await api.createSingle(name, bytes.length)).json<CreateUploadResponse>();
      expect((await api.send(single, bytes)).statusCode).toBe(200);
      ids.push((await api.record(single.id)).json<FileDto>().id);
      contents.push(bytes);
    }
    // As a restart before the background hash, or a file from before checksums, leaves them.
    const { db } = server.services;
    const rows = await db
      .selectFrom('files')
      .select(['id', 'storage_key'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    await db.updateTable('files').set({ sha256: null }).where('id', 'in', ids).execute();
    for (const row of rows) rmSync(`${server.dataDir}/objects/${row.storage_key}.sha256`);
    // The first file's object is lost: the sweep reports it and goes on.
    rmSync(`${server.dataDir}/objects/${rows[0]!.storage_key}`);

    const first = await fingerprintMissingFiles(server.services, '', 2);
    expect(first.fingerprinted + first.failed).toBe(2);
    expect(first.cursor).not.toBe('');
    const second = await fingerprintMissingFiles(server.services, first.cursor, 2);
    expect(second.cursor).toBe('');
    expect(first.failed + second.failed).toBe(1);
    const after = await db
      .selectFrom('files')
      .select(['id', 'sha256'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(after.map((r) => [r.id, r.sha256]));
    expect(byId.get(rows[0]!.id)).toBeNull();
    for (const row of rows.slice(1)) {
      expect(byId.get(row.id)).toBe(sha256(contents[ids.indexOf(row.id)]!));
    }
  });

  it('discards a pending upload with its object on request, without a history event', async () => {
    const bytes = Buffer.from('discard me');
    const single = (
      await api.createSingle('discard.txt', bytes.length)
    ).json<CreateUploadResponse>();
    expect((await api.send(single, bytes)).statusCode).toBe(200);
    const key = single.url.split('objects/')[1]!.split('?')[0]!;
    expect(await server.store.head(key)).not.toBeNull();
    expect((await api.discard(single.id)).statusCode).toBe(204);
    expect(await server.store.head(key)).toBeNull();
    expect((await api.record(single.id)).statusCode).toBe(404);
    expect((await api.discard(single.id)).statusCode).toBe(404);
    const history = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history',
      headers: { cookie },
      payload: { entity_id: single.id },
    });
    expect(history.json<Page<HistoryEventDto>>().items).toEqual([]);
  });

  it('cleans up stale pending uploads and their parts, and keeps running and recorded ones', async () => {
    const stalePut = (await api.createSingle('stale.txt', 5)).json<CreateUploadResponse>();
    expect((await api.send(stalePut, Buffer.from('stale'))).statusCode).toBe(200);
    const staleKey = stalePut.url.split('objects/')[1]!.split('?')[0]!;
    const staleMultipart = await start('stale.bin', 11 * MiB);
    await putPart(staleMultipart, 1, randomBytes(5 * MiB));
    const kept = (await api.createSingle('kept.txt', 4)).json<CreateUploadResponse>();
    expect((await api.send(kept, Buffer.from('kept'))).statusCode).toBe(200);
    const keptFile = (await api.record(kept.id)).json<FileDto>();

    // 25 hours later (the session has long expired: sign in again) a new upload starts; then the
    // job runs.
    server.clock.now = Date.now() + 25 * 3_600_000;
    cookie = await signIn(server);
    const fresh = await start('fresh.bin', 11 * MiB);
    await putPart(fresh, 1, randomBytes(5 * MiB));
    const removed = await cleanUpAbandonedUploads(server.services);
    server.clock.now = Date.now();
    cookie = await signIn(server);

    expect(removed.pendingUploads).toBeGreaterThanOrEqual(2);
    expect(await server.store.head(staleKey)).toBeNull();
    expect(existsSync(uploadDir(staleMultipart.id))).toBe(false);
    expect((await api.record(stalePut.id)).statusCode).toBe(404);
    expect((await api.signPart(staleMultipart.id, 2, staleMultipart.key)).statusCode).toBe(404);
    // The running upload and the recorded file are untouched.
    expect(existsSync(uploadDir(fresh.id))).toBe(true);
    expect((await api.signPart(fresh.id, 2, fresh.key)).statusCode).toBe(200);
    const download = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${keptFile.id}/download`,
      headers: { cookie },
    });
    expect(download.body).toBe('kept');
    // No history event for what never became a file.
    for (const id of [stalePut.id, staleMultipart.id]) {
      const history = await server.app.inject({
        method: 'POST',
        url: '/api/rest/history',
        headers: { cookie },
        payload: { entity_id: id },
      });
      expect(history.json<Page<HistoryEventDto>>().items).toEqual([]);
    }
  });

  it('removes multipart folders without a row and broken-off temporary files', async () => {
    const orphan = await start('orphan.bin', 11 * MiB);
    await putPart(orphan, 1, randomBytes(MULTIPART_MIN_PART_BYTES));
    // The row goes (e.g. an earlier crash between the two steps); the folder stays behind.
    await server.services.db.deleteFrom('files').where('id', '=', orphan.id).execute();
    server.clock.now = Date.now() + 25 * 3_600_000;
    const removed = await cleanUpAbandonedUploads(server.services);
    server.clock.now = Date.now();
    cookie = await signIn(server);
    expect(removed.multipartUploads).toBeGreaterThanOrEqual(1);
    expect(existsSync(uploadDir(orphan.id))).toBe(false);
  });
});

describeEachDatabase('upload restrictions from the configuration', (kind) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: {
        UPLOAD_MAX_FILES: '2',
        UPLOAD_MIN_FILE_SIZE: '10',
        UPLOAD_ALLOWED_TYPES: 'PDF, image/*',
        UPLOAD_MULTIPART_THRESHOLD: String(20 * MiB),
        UPLOAD_PART_SIZE: String(8 * MiB),
      },
    });
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });
  const { api } = client(
    () => server,
    () => cookie,
  );

  it('serves the configured restrictions', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/rest/files/restrictions',
      headers: { cookie },
    });
    expect(response.json<UploadRestrictions>()).toEqual({
      max_file_size: 104_857_600,
      min_file_size: 10,
      max_number_of_files: 2,
      allowed_file_types: ['.pdf', 'image/*'],
      multipart_threshold: 20 * MiB,
      part_size: 8 * MiB,
    });
  });

  it('refuses files under the minimum size and of other types, single and multipart', async () => {
    for (const create of [api.createSingle, api.createMultipart]) {
      const small = await create('tiny.pdf', 5);
      expect(small.statusCode).toBe(400);
      expect(small.json<{ message: string; code: string }>()).toEqual({
        message: 'tiny.pdf is smaller than the minimum allowed size of 0.1 KB',
        code: 'file_too_small',
      });
      const exe = await create('setup.exe', 30 * MiB);
      expect(exe.statusCode).toBe(400);
      expect(exe.json<{ message: string; code: string }>()).toEqual({
        message: 'setup.exe is not an allowed file type. Allowed: .pdf, image/*',
        code: 'file_type_not_allowed',
      });
    }
  });

  it('refuses more running uploads than the count, until one is discarded or goes stale', async () => {
    const first = (await api.createSingle('one.pdf', 100)).json<CreateUploadResponse>();
    expect((await api.createSingle('two.png', 100)).statusCode).toBe(201);
    const third = await api.createMultipart('three.pdf', 30 * MiB);
    expect(third.statusCode).toBe(400);
    expect(third.json<{ message: string; code: string }>()).toEqual({
      message: 'You can only upload 2 file(s).',
      code: 'too_many_files',
    });
    expect((await api.discard(first.id)).statusCode).toBe(204);
    const again = await api.createMultipart('three.pdf', 30 * MiB);
    expect(again.statusCode).toBe(201);
    // Parts are signed at the configured size.
    const upload = again.json<CreateMultipartUploadResponse>();
    expect((await api.send(upload)).statusCode).toBe(200);
    const part = (await api.signPart(upload.id, 1, upload.key)).json<PresignedRequestDto>();
    expect(new URL(part.url, 'http://x').searchParams.get('max')).toBe(String(8 * MiB));
    expect((await api.createSingle('four.pdf', 100)).statusCode).toBe(400);
    // Uploads untouched for longer than a presigned link lives no longer count as running.
    server.clock.now = Date.now() + 16 * 60_000;
    const later = await api.createSingle('four.pdf', 100);
    server.clock.now = Date.now();
    expect(later.statusCode).toBe(201);
  });
});

describe('upload configuration', () => {
  it('refuses a part size under 5 MiB, a count under 1 and a minimum over the maximum', () => {
    const env = { DATA_DIR: os.tmpdir(), SESSION_SECRET: 's' };
    expect(() => loadConfig({ ...env, UPLOAD_PART_SIZE: String(5 * MiB - 1) })).toThrow(
      'UPLOAD_PART_SIZE must be between 5242880 and 104857600',
    );
    expect(() => loadConfig({ ...env, UPLOAD_MAX_FILES: '0' })).toThrow(
      'UPLOAD_MAX_FILES must be a whole number of at least 1',
    );
    expect(() => loadConfig({ ...env, UPLOAD_MIN_FILE_SIZE: '104857601' })).toThrow(
      'UPLOAD_MIN_FILE_SIZE must be at most 104857600',
    );
    expect(loadConfig({ ...env, UPLOAD_ABANDONED_AFTER_HOURS: '2' }).uploadAbandonedAfterMs).toBe(
      7_200_000,
    );
  });
});

describe('multipart XML parsing', () => {
  it('reads quoted and escaped ETags and refuses a part without a number', async () => {
    const { parseCompleteRequest } = await import('@server/routes/storageProtocol');
    expect(
      parseCompleteRequest(
        '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&quot;ab&quot;</ETag></Part>' +
          '<Part><ETag>"cd"</ETag><PartNumber>2</PartNumber></Part></CompleteMultipartUpload>',
      ),
    ).toEqual([
      { partNumber: 1, etag: 'ab' },
      { partNumber: 2, etag: 'cd' },
    ]);
    expect(() => parseCompleteRequest('<Part><ETag>x</ETag></Part>')).toThrow('malformed_xml');
    expect(() => parseCompleteRequest('<CompleteMultipartUpload/>')).toThrow('malformed_xml');
  });
});
