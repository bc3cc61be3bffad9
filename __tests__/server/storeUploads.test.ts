// The upload flow against each object store (describeEachStore: the local store on SQLite and
// PostgreSQL, the S3 store on Swift): sign with the API, send the bytes to the presigned URLs the
// way @uppy/aws-s3 does (the app for the local store, Swift for S3), record, read back. Also that
// a recorded file's bytes can never be replaced through a URL the server signed, that the store
// refuses another size or type, abort, and the cleanup of abandoned uploads.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { contentTypeFor } from '@common/files';
import { splitFileName } from '@common/names';
import type { FileDto } from '@common/entities';
import type {
  CreateMultipartUploadResponse,
  CreateUploadResponse,
  PresignedRequestDto,
} from '@common/uploads';
import { cleanUpAbandonedUploads } from '@server/services/uploads';
import { describeEachStore, signIn, startTestServer, type TestServer } from './helpers';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** An answer of the store or the app, whichever was asked. */
interface Answer {
  status: number;
  etag: string | undefined;
  body: Buffer;
}

describeEachStore('uploads through the object store', (kind, store) => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      store,
      env: { UPLOAD_PART_SIZE: String(5 * MiB), UPLOAD_MULTIPART_THRESHOLD: String(5 * MiB) },
    });
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Sends a presigned request: an app URL (relative) by inject, a store URL by fetch. */
  const send = async (
    signed: PresignedRequestDto,
    body?: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const allHeaders = { ...signed.headers, ...headers };
    if (signed.url.startsWith('/')) {
      const answer = await server.app.inject({
        method: signed.method,
        url: signed.url,
        headers: allHeaders,
        payload: body,
      });
      return {
        status: answer.statusCode,
        etag: answer.headers.etag,
        body: answer.rawPayload,
      };
    }
    const answer = await fetch(signed.url, {
      method: signed.method,
      headers: allHeaders,
      body: body === undefined ? undefined : new Uint8Array(Buffer.from(body)),
    });
    return {
      status: answer.status,
      etag: answer.headers.get('etag') ?? undefined,
      body: Buffer.from(await answer.arrayBuffer()),
    };
  };

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: { cookie }, payload });

  const describeFile = (name: string, size: number, extra: object = {}) => {
    const { extension } = splitFileName(name);
    return {
      folder_id: '',
      name,
      extension,
      content_type: contentTypeFor(extension),
      size,
      ...extra,
    };
  };

  const record = (id: string, sha?: string) =>
    api('POST', '/api/rest/files/record', sha ? { id, sha256: sha } : { id });

  const download = async (id: string, range?: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${id}/download`,
      headers: range ? { cookie, range } : { cookie },
    });

  it('stores a single PUT, records it and reads it back; a replayed URL never changes it', async () => {
    const bytes = randomBytes(70_000);
    const created = await api('POST', '/api/rest/files', describeFile('Letter.pdf', bytes.length));
    expect(created.statusCode).toBe(201);
    const upload = created.json<CreateUploadResponse>();
    if (store === 's3') expect(upload.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/test-/);
    expect((await send(upload, bytes)).status).toBe(200);
    const recorded = await record(upload.id, sha256(bytes));
    expect(recorded.statusCode).toBe(201);
    const file = recorded.json<FileDto>();
    expect(file.sha256).toBe(sha256(bytes));
    expect(sha256((await download(file.id)).rawPayload)).toBe(sha256(bytes));

    // The PUT URL is still valid: sent again with other bytes of the same size, it is refused
    // (local) or lands where nothing reads it (S3's staging key): the recorded file is unchanged.
    const replay = await send(upload, randomBytes(bytes.length));
    if (store === 'local') expect(replay.status).toBe(409);
    expect(sha256((await download(file.id)).rawPayload)).toBe(sha256(bytes));
    expect((await record(upload.id)).json<FileDto>().sha256).toBe(sha256(bytes));
  });

  it('refuses a body of another size or content type than signed', async () => {
    const bytes = randomBytes(1000);
    const upload = (
      await api('POST', '/api/rest/files', describeFile('size.txt', bytes.length))
    ).json<CreateUploadResponse>();
    const bigger = await send(upload, Buffer.concat([bytes, bytes]));
    expect(bigger.status).toBe(store === 'local' ? 413 : 403);
    const other = (
      await api('POST', '/api/rest/files', describeFile('type.txt', bytes.length))
    ).json<CreateUploadResponse>();
    const wrongType = await send(other, bytes, { 'Content-Type': 'text/html' });
    expect(wrongType.status).toBe(store === 'local' ? 415 : 403);
    expect((await record(other.id)).statusCode).toBe(409);
  });

  it('uploads in parts, resumes from the listed parts, completes and serves ranges', async () => {
    const bytes = randomBytes(11 * MiB + 4321);
    const batch = { batch_id: `batch-${kind}-${store}`, client_key: 'uppy-file-1' };
    const created = await api(
      'POST',
      '/api/rest/files/multipart',
      describeFile('Portfolio.pdf', bytes.length, batch),
    );
    expect(created.statusCode).toBe(201);
    const upload = created.json<CreateMultipartUploadResponse>();
    // The create step answers the server's id of the upload (for S3: the app answers it, S3's
    // own UploadId stays on the server).
    const initiated = await send(upload, undefined);
    expect(initiated.status).toBe(200);
    expect(initiated.body.toString()).toContain(`<UploadId>${upload.id}</UploadId>`);

    const signPart = async (n: number) =>
      (
        await api(
          'GET',
          `/api/rest/files/multipart/${upload.id}/${n}?key=${encodeURIComponent(upload.key)}`,
        )
      ).json<PresignedRequestDto>();
    const part = (n: number) => bytes.subarray((n - 1) * 5 * MiB, n * 5 * MiB);
    const signedParts = [await signPart(1)];
    const first = await send(signedParts[0]!, part(1));
    expect(first.status).toBe(200);

    // A reload: the same file of the batch is created again and gets the same upload back.
    const again = await api(
      'POST',
      '/api/rest/files/multipart',
      describeFile('Portfolio.pdf', bytes.length, batch),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json<CreateMultipartUploadResponse>().id).toBe(upload.id);
    const list = (
      await api(
        'GET',
        `/api/rest/files/multipart/${upload.id}?key=${encodeURIComponent(upload.key)}`,
      )
    ).json<PresignedRequestDto>();
    const listed = await send(list);
    expect(listed.status).toBe(200);
    const listedParts = [...listed.body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)];
    expect(listedParts.map((m) => Number(m[1]))).toEqual([1]);
    expect(listed.body.toString()).toContain(first.etag!.replaceAll('"', ''));

    const etags = [first.etag!];
    for (const n of [2, 3]) {
      signedParts.push(await signPart(n));
      const sent = await send(signedParts[n - 1]!, part(n));
      expect(sent.status).toBe(200);
      etags.push(sent.etag!);
    }
    const completeSigned = (
      await api('POST', `/api/rest/files/multipart/${upload.id}/complete`, { key: upload.key })
    ).json<PresignedRequestDto>();
    const xml =
      '<CompleteMultipartUpload>' +
      etags
        .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
        .join('') +
      '</CompleteMultipartUpload>';
    const completed = await send(completeSigned, xml, { 'Content-Type': 'application/xml' });
    expect(completed.status).toBe(200);
    const recorded = await record(upload.id, sha256(bytes));
    expect(recorded.statusCode).toBe(201);
    const file = recorded.json<FileDto>();
    expect(file.size).toBe(bytes.length);
    expect(sha256((await download(file.id)).rawPayload)).toBe(sha256(bytes));
    const start = 5 * MiB - 10;
    const ranged = await download(file.id, `bytes=${start}-${start + 19}`);
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(bytes.subarray(start, start + 20))).toBe(true);

    // Every URL signed for the upload, replayed with other bytes after the record, changes
    // nothing: the local store refuses it; on S3 the parts land in the staged upload's segments,
    // which nothing reads once record copied it. (Swift takes a part for a completed upload: had
    // the upload landed at the file's own key, the replay would have broken the recorded object.)
    const other = randomBytes(bytes.length);
    for (const [i, signed] of signedParts.entries()) {
      const replayed = await send(signed, other.subarray(i * 5 * MiB, (i + 1) * 5 * MiB));
      if (store === 'local') expect(replayed.status).toBe(409);
    }
    const completedAgain = await send(completeSigned, xml, { 'Content-Type': 'application/xml' });
    if (store === 'local') expect(completedAgain.status).toBe(409);
    const after = await download(file.id);
    expect(after.statusCode).toBe(200);
    expect(sha256((await download(file.id)).rawPayload)).toBe(sha256(bytes));
  });

  it('aborts a multipart upload: its parts are gone', async () => {
    const created = (
      await api('POST', '/api/rest/files/multipart', describeFile('Dropped.pdf', 6 * MiB))
    ).json<CreateMultipartUploadResponse>();
    expect((await send(created)).status).toBe(200);
    const keyQuery = `key=${encodeURIComponent(created.key)}`;
    const part = (
      await api('GET', `/api/rest/files/multipart/${created.id}/1?${keyQuery}`)
    ).json<PresignedRequestDto>();
    expect((await send(part, randomBytes(5 * MiB))).status).toBe(200);
    const list = (
      await api('GET', `/api/rest/files/multipart/${created.id}?${keyQuery}`)
    ).json<PresignedRequestDto>();
    const aborted = await api('DELETE', `/api/rest/files/multipart/${created.id}?${keyQuery}`);
    expect(aborted.statusCode).toBe(200);
    // The server dropped the upload already: the browser's abort finds none (the local store
    // answers 204 all the same, S3 404, which @uppy/aws-s3 only logs).
    expect((await send(aborted.json<PresignedRequestDto>())).status).toBe(
      store === 'local' ? 204 : 404,
    );
    // The listing signed before the abort now finds no upload.
    expect((await send(list)).status).toBe(404);
    expect((await record(created.id)).statusCode).toBe(404);
  });

  it('removes abandoned uploads: pending rows, staged objects and multipart uploads', async () => {
    const single = (
      await api('POST', '/api/rest/files', describeFile('Left behind.txt', 5))
    ).json<CreateUploadResponse>();
    expect((await send(single, 'bytes')).status).toBe(200);
    const multi = (
      await api('POST', '/api/rest/files/multipart', describeFile('Half.pdf', 6 * MiB))
    ).json<CreateMultipartUploadResponse>();
    expect((await send(multi)).status).toBe(200);
    const staged = server.store.stagingKey(multi.key.replace(multi.id, single.id));
    expect(await server.store.head(staged)).toEqual(expect.objectContaining({ size: 5 }));

    // A multipart upload whose row is gone (a crash between the two): only the store's sweep finds
    // it.
    const orphan = (
      await api('POST', '/api/rest/files/multipart', describeFile('Orphan.pdf', 6 * MiB))
    ).json<CreateMultipartUploadResponse>();
    expect((await send(orphan)).status).toBe(200);
    await server.services.db.deleteFrom('files').where('id', '=', orphan.id).execute();

    server.clock.now += server.config.uploadAbandonedAfterMs + 60 * 60_000;
    const removed = await cleanUpAbandonedUploads(server.services);
    expect(removed.pendingUploads).toBeGreaterThanOrEqual(2);
    // The rows took their uploads with them; the store's own sweep found the orphan.
    expect(removed.multipartUploads).toBe(1);
    expect(await server.store.head(staged)).toBeNull();
    expect(await server.store.removeAbandonedUploads(server.clock.now)).toEqual({
      multipart: 0,
      partial: 0,
    });
  });
});
