// Stored files are immutable and uploads never make a second file (SPEC sections 3, 5 and 7
// "Upload flow"), on SQLite and PostgreSQL: replayed store URLs after record, records twice and at
// once, batches (duplicates refused, the same client file answered its earlier upload), a create
// without a size, and the start-up cleanup of broken-off single PUTs.
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_FILE_SIZE_BYTES } from '@common/constants';
import { contentTypeFor, duplicateMessage } from '@common/files';
import { splitFileName } from '@common/names';
import type { Page } from '@common/api';
import type { FileDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import type {
  CreateMultipartUploadResponse,
  CreateUploadResponse,
  PresignedRequestDto,
  SettledUploadResponse,
} from '@common/uploads';
import { fingerprintsSettled } from '@server/services/fingerprints';
import { LocalObjectStore, TEMP_FILE_IDLE_MS } from '@server/storage/localObjectStore';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describeEachDatabase('upload integrity', (kind) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    // 5 MiB parts (the smallest allowed) keep the multipart data small.
    server = await startTestServer(kind, { env: { UPLOAD_PART_SIZE: String(5 * MiB) } });
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const payload = (name: string, extra: Record<string, unknown> = {}) => {
    const { extension } = splitFileName(name);
    return { folder_id: '', name, extension, content_type: contentTypeFor(extension), ...extra };
  };
  const createSingle = (name: string, extra: Record<string, unknown> = {}) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/files',
      headers: { cookie },
      payload: payload(name, extra),
    });
  const createMultipart = (name: string, size: number, extra: Record<string, unknown> = {}) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/files/multipart',
      headers: { cookie },
      payload: payload(name, { size, ...extra }),
    });
  const send = (signed: PresignedRequestDto, body?: Buffer | string, headers = {}) =>
    server.app.inject({
      method: signed.method,
      url: signed.url,
      headers: { ...signed.headers, ...headers },
      ...(body === undefined ? {} : { payload: body }),
    });
  const record = (id: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/files/record',
      headers: { cookie },
      payload: { id },
    });
  const getFile = async (id: string) =>
    (
      await server.app.inject({ method: 'GET', url: `/api/rest/files/${id}`, headers: { cookie } })
    ).json<FileDto>();
  const download = async (id: string) =>
    (
      await server.app.inject({
        method: 'GET',
        url: `/api/rest/files/${id}/download`,
        headers: { cookie },
      })
    ).rawPayload;
  const historyOf = async (id: string) =>
    (
      await server.app.inject({
        method: 'POST',
        url: '/api/rest/history',
        headers: { cookie },
        payload: { entity_id: id },
      })
    )
      .json<Page<HistoryEventDto>>()
      .items.map((event) => event.action);
  const rowsNamed = async (pattern: string) =>
    Number(
      (
        await server.services.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('name', 'like', pattern)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const expectRefused = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(409);
    expect(response.json<{ message: string }>().message).toMatch(/cannot be replaced/);
  };

  /** Creates, PUTs and records a single upload; answers the create answer and the file. */
  const uploadSingle = async (name: string, bytes: Buffer, extra: Record<string, unknown> = {}) => {
    const created = await createSingle(name, { size: bytes.length, ...extra });
    expect(created.statusCode).toBe(201);
    const answer = created.json<CreateUploadResponse>();
    expect((await send(answer, bytes)).statusCode).toBe(200);
    const recorded = await record(answer.id);
    expect(recorded.statusCode).toBe(201);
    return { answer, file: recorded.json<FileDto>() };
  };

  describe('stored objects are immutable', () => {
    it('refuses a presigned PUT replayed after record, changing nothing', async () => {
      const original = randomBytes(4096);
      const { answer, file } = await uploadSingle('Replayed put.pdf', original);
      const other = randomBytes(4096);
      expectRefused(await send(answer, other));
      expect(sha256(await download(file.id))).toBe(sha256(original));
      expect(await getFile(file.id)).toMatchObject({ size: 4096, sha256: sha256(original) });
      expect(await historyOf(file.id)).toEqual(['download', 'create']);
    });

    it('refuses a second PUT of a pending upload whose object is stored, keeping the bytes', async () => {
      const original = randomBytes(2048);
      const created = (
        await createSingle('Twice.pdf', { size: 2048 })
      ).json<CreateUploadResponse>();
      expect((await send(created, original)).statusCode).toBe(200);
      expectRefused(await send(created, randomBytes(2048)));
      const recorded = await record(created.id);
      expect(recorded.json<FileDto>().sha256).toBe(sha256(original));
      expect(sha256(await download(created.id))).toBe(sha256(original));
    });

    it('refuses replayed multipart create, part and complete URLs after record', async () => {
      const size = 11 * MiB;
      const data = randomBytes(size);
      const created = await createMultipart('Replayed multipart.bin', size);
      expect(created.statusCode).toBe(201);
      const upload = created.json<CreateMultipartUploadResponse>();
      expect((await send(upload)).statusCode).toBe(200);
      const parts: { signed: PresignedRequestDto; etag: string }[] = [];
      for (let n = 1; n <= 3; n += 1) {
        const signed = (
          await server.app.inject({
            method: 'GET',
            url: `/api/rest/files/multipart/${upload.id}/${n}?key=${encodeURIComponent(upload.key)}`,
            headers: { cookie },
          })
        ).json<PresignedRequestDto>();
        const put = await send(signed, data.subarray((n - 1) * 5 * MiB, n * 5 * MiB));
        expect(put.statusCode).toBe(200);
        parts.push({ signed, etag: String(put.headers.etag).replace(/"/g, '') });
      }
      const complete = (
        await server.app.inject({
          method: 'POST',
          url: `/api/rest/files/multipart/${upload.id}/complete`,
          headers: { cookie },
          payload: { key: upload.key },
        })
      ).json<PresignedRequestDto>();
      const xml = (etags: string[]) =>
        '<CompleteMultipartUpload>' +
        etags
          .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>"${etag}"</ETag></Part>`)
          .join('') +
        '</CompleteMultipartUpload>';
      const xmlHeaders = { 'content-type': 'application/xml' };
      expect((await send(complete, xml(parts.map((p) => p.etag)), xmlHeaders)).statusCode).toBe(
        200,
      );
      const recorded = await record(upload.id);
      expect(recorded.statusCode).toBe(201);
      await fingerprintsSettled(server.services);
      expect((await getFile(upload.id)).sha256).toBe(sha256(data));

      // Replays: create, every part with other bytes, complete.
      expectRefused(await send(upload));
      const other = randomBytes(size);
      for (const [i, part] of parts.entries()) {
        expectRefused(await send(part.signed, other.subarray(i * 5 * MiB, (i + 1) * 5 * MiB)));
      }
      expectRefused(await send(complete, xml(parts.map((p) => p.etag)), xmlHeaders));
      expect(existsSync(path.join(server.localStore!.multipartDirectory, upload.id))).toBe(false);
      expect(sha256(await download(upload.id))).toBe(sha256(data));
      await fingerprintsSettled(server.services);
      expect(await getFile(upload.id)).toMatchObject({ size, sha256: sha256(data) });
      expect(await historyOf(upload.id)).toEqual(['download', 'create']);
    });
  });

  describe('record is idempotent', () => {
    it('makes one file of two concurrent records of one upload, and of a later one', async () => {
      for (let round = 0; round < 3; round += 1) {
        const name = `Concurrent ${round}.pdf`;
        const created = (await createSingle(name, { size: 64 })).json<CreateUploadResponse>();
        expect((await send(created, randomBytes(64))).statusCode).toBe(200);
        const answers = await Promise.all([record(created.id), record(created.id)]);
        expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
        expect(answers[0].json<FileDto>()).toEqual(answers[1].json<FileDto>());
        expect(answers[0].json<FileDto>().name).toBe(name);
        const later = await record(created.id);
        expect(later.statusCode).toBe(201);
        expect(later.json<FileDto>()).toEqual(answers[0].json<FileDto>());
        expect(await rowsNamed(`Concurrent ${round}%`)).toBe(1);
        expect(await historyOf(created.id)).toEqual(['create']);
      }
    });
  });

  describe('batches', () => {
    it('refuses a second file of the same name (case-insensitive) in one batch', async () => {
      const batch = { batch_id: 'batch-duplicates' };
      const first = await createSingle('same.txt', { size: 4, ...batch, client_key: 'file-a' });
      expect(first.statusCode).toBe(201);
      const second = await createSingle('SAME.txt', { size: 4, ...batch, client_key: 'file-b' });
      expect(second.statusCode).toBe(409);
      expect(second.json<{ message: string }>().message).toBe(duplicateMessage('SAME.txt'));
      const multipart = await createMultipart('Same.TXT', 11 * MiB, {
        ...batch,
        client_key: 'file-c',
      });
      expect(multipart.statusCode).toBe(409);
      expect(multipart.json<{ message: string }>().message).toBe(duplicateMessage('Same.TXT'));
      // Recorded, the first still makes the name taken in its batch.
      const answer = first.json<CreateUploadResponse>();
      expect((await send(answer, Buffer.from('same'))).statusCode).toBe(200);
      expect((await record(answer.id)).statusCode).toBe(201);
      const third = await createSingle('same.TXT', { size: 4, ...batch, client_key: 'file-d' });
      expect(third.statusCode).toBe(409);
      // Another batch (or none) may upload the name: it is made unique when recorded.
      expect(
        (await createSingle('same.txt', { size: 4, batch_id: 'other-batch' })).statusCode,
      ).toBe(201);
      expect((await createSingle('same.txt', { size: 4 })).statusCode).toBe(201);
      expect(await rowsNamed('same%')).toBe(3);
    });

    it('refuses two concurrent creates of one name in one batch but one', async () => {
      const answers = await Promise.all(
        ['Race.txt', 'RACE.txt', 'race.txt'].map((name, i) =>
          createSingle(name, { size: 1, batch_id: 'batch-race', client_key: `race-${i}` }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    });

    it('answers the same client file created again with its earlier upload, never a new row', async () => {
      const batch = { batch_id: 'batch-resume', client_key: 'uppy-resume' };
      const bytes = randomBytes(300);
      const first = await createSingle('Resume.pdf', { size: 300, ...batch });
      expect(first.statusCode).toBe(201);
      const pending = first.json<CreateUploadResponse>();
      // Pending, nothing stored: the same upload, signed again.
      const again = await createSingle('Resume.pdf', { size: 300, ...batch });
      expect(again.statusCode).toBe(200);
      expect(again.json<CreateUploadResponse>()).toMatchObject({ id: pending.id, method: 'PUT' });
      // Stored, not recorded: nothing to send, record it.
      expect((await send(again.json<CreateUploadResponse>(), bytes)).statusCode).toBe(200);
      const stored = await createSingle('Resume.pdf', { size: 300, ...batch });
      expect(stored.statusCode).toBe(200);
      expect(stored.json<SettledUploadResponse>()).toEqual({ id: pending.id, state: 'stored' });
      const file = (await record(pending.id)).json<FileDto>();
      // Recorded: answered with the file.
      const recorded = await createSingle('Resume.pdf', { size: 300, ...batch });
      expect(recorded.statusCode).toBe(200);
      expect(recorded.json<SettledUploadResponse>()).toEqual({
        id: pending.id,
        state: 'recorded',
        file,
      });
      // Multipart alike.
      const big = { batch_id: 'batch-resume', client_key: 'uppy-big' };
      const mp = await createMultipart('Resume big.bin', 11 * MiB, big);
      expect(mp.statusCode).toBe(201);
      const mpAgain = await createMultipart('Resume big.bin', 11 * MiB, big);
      expect(mpAgain.statusCode).toBe(200);
      expect(mpAgain.json<CreateMultipartUploadResponse>()).toMatchObject({
        id: mp.json<CreateMultipartUploadResponse>().id,
        key: mp.json<CreateMultipartUploadResponse>().key,
      });
      expect(await rowsNamed('Resume%')).toBe(2);
      expect(sha256(await download(pending.id))).toBe(sha256(bytes));
    });
  });

  describe('create without a size (SPEC section 3 payload)', () => {
    it('accepts the four fields; the record takes the stored size', async () => {
      const bytes = randomBytes(777);
      const created = await createSingle('No size.pdf');
      expect(created.statusCode).toBe(201);
      const answer = created.json<CreateUploadResponse>();
      expect(new URL(answer.url, 'http://x').searchParams.get('max')).toBe(
        String(MAX_FILE_SIZE_BYTES),
      );
      expect((await send(answer, bytes)).statusCode).toBe(200);
      const recorded = await record(answer.id);
      expect(recorded.statusCode).toBe(201);
      expect(recorded.json<FileDto>()).toMatchObject({
        name: 'No size.pdf',
        size: 777,
        status: 'ready',
      });
      await fingerprintsSettled(server.services);
      expect((await getFile(answer.id)).sha256).toBe(sha256(bytes));
      expect(sha256(await download(answer.id))).toBe(sha256(bytes));
    });

    it('refuses to record an object over the limit', async () => {
      const answer = (await createSingle('Too big.bin')).json<CreateUploadResponse>();
      // An object larger than any PUT may send, placed in the store directly.
      const file = path.join(
        server.dataDir,
        'objects',
        ...answer.url.split('objects/')[1]!.split('?')[0]!.split('/'),
      );
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, '');
      truncateSync(file, MAX_FILE_SIZE_BYTES + 1);
      const recorded = await record(answer.id);
      expect(recorded.statusCode).toBe(422);
      expect(existsSync(file)).toBe(false);
      expect(await rowsNamed('Too big%')).toBe(0);
    });
  });

  it('removes broken-off single PUTs at start, keeps running ones and resumable multipart uploads', async () => {
    const tmp = server.localStore!.temporaryDirectory;
    const broken = path.join(tmp, 'broken.part');
    writeFileSync(broken, randomBytes(1024));
    const idle = (Date.now() - TEMP_FILE_IDLE_MS - 60_000) / 1000;
    utimesSync(broken, idle, idle);
    // A PUT still running on another instance sharing the folder: written to just now.
    writeFileSync(path.join(tmp, 'running.part'), randomBytes(1024));
    const multipart = path.join(server.localStore!.multipartDirectory, 'resumable-upload');
    mkdirSync(multipart, { recursive: true });
    writeFileSync(path.join(multipart, 'manifest.json'), '{}');
    const reopened = new LocalObjectStore(server.dataDir, 'test-secret');
    await reopened.init();
    expect(readdirSync(tmp).filter((name) => name.endsWith('.part'))).toEqual(['running.part']);
    expect(existsSync(path.join(multipart, 'manifest.json'))).toBe(true);
    rmSync(path.join(tmp, 'running.part'));
  });
});
