/**
 * Document imaging's place in the file lifecycle, on both databases: recording an upload queues
 * its derivation (only for formats imaging handles); a permanent delete removes the derivatives
 * of bytes no other file holds, and keeps those another file still holds; the start-up sweep
 * removes what is left over.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { contentTypeFor } from '@common/files';
import { missingToolMessage, type FileRenditionDto } from '@common/imaging';
import { splitFileName } from '@common/names';
import type { FileDto } from '@common/entities';
import type { CreateUploadResponse } from '@common/uploads';
import { isoAt } from '@server/ids';
import { claimJobs, failAttempt, findJobForFile } from '@server/repositories/jobs';
import { findRendition, saveRendition } from '@server/repositories/renditions';
import { sweepOrphanDerivatives } from '@server/services/imaging/cleanup';
import { renditionKeys } from '@server/services/imaging/derive';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFile, makeFolder, type Actor } from './organiseHelpers';

describeEachDatabase('imaging in the file lifecycle', (kind) => {
  let server: TestServer;
  let admin: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Uploads bytes through the API and answers the recorded file. */
  async function upload(name: string, body: Buffer): Promise<FileDto> {
    const cookie = await signIn(server);
    const { extension } = splitFileName(name);
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/rest/files',
      headers: { cookie },
      payload: {
        folder_id: '',
        name,
        extension,
        content_type: contentTypeFor(extension),
        size: body.length,
      },
    });
    expect(created.statusCode).toBe(201);
    const answer = created.json<CreateUploadResponse>();
    const put = await server.app.inject({
      method: 'PUT',
      url: answer.url,
      headers: answer.headers,
      payload: body,
    });
    expect(put.statusCode).toBe(200);
    const recorded = await server.app.inject({
      method: 'POST',
      url: '/api/rest/files/record',
      headers: { cookie },
      payload: { id: answer.id },
    });
    expect(recorded.statusCode).toBe(201);
    return recorded.json<FileDto>();
  }

  /** Records a rendition of `sha256` with its three objects in the store. */
  async function fakeRendition(sha256: string): Promise<void> {
    const keys = renditionKeys(sha256);
    for (const key of Object.values(keys)) {
      await server.store.write(key, Readable.from([Buffer.from(key)]), 1000);
    }
    await saveRendition(server.services.db, {
      sha256,
      source_kind: 'office',
      pdf_key: keys.pdf,
      text_key: keys.text,
      thumbnail_key: keys.thumbnail,
      page_count: 1,
      text_chars: 3,
      recognized: 0,
      created_at: isoAt(server.services.clock),
    });
  }

  /** Whether every object of the sha256's rendition is still stored. */
  async function objectsKept(sha256: string): Promise<boolean[]> {
    const keys = renditionKeys(sha256);
    return Promise.all(
      Object.values(keys).map(async (key) => (await server.store.head(key)) !== null),
    );
  }

  it('queues the derivation of a recorded document with its sha256, and none for other formats', async () => {
    const memo = await upload('memo.docx', Buffer.from('not really a docx'));
    const job = await findJobForFile(server.services.db, 'derive', memo.id);
    expect(job).toMatchObject({ state: 'queued', database_id: admin.databaseId });
    expect(job!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const bundle = await upload('bundle.zip', Buffer.from('zip bytes'));
    expect(await findJobForFile(server.services.db, 'derive', bundle.id)).toBeUndefined();
  });

  it('removes derivatives when the last file holding the bytes is permanently deleted', async () => {
    const folder = await makeFolder(server, admin, `Destroy ${Date.now()}`);
    const one = await makeFile(server, admin, 'one.docx', folder.id, 'same bytes');
    const two = await makeFile(server, admin, 'two.docx', folder.id, 'same bytes');
    const sha256 = (
      await server.services.db
        .selectFrom('files')
        .select('sha256')
        .where('id', '=', one.id)
        .executeTakeFirstOrThrow()
    ).sha256!;
    await fakeRendition(sha256);
    const destroy = async (id: string) => {
      const items = [{ type: 'file', id }];
      expect(
        (await call(server, admin, 'POST', '/api/rest/bulk/archive', { items })).statusCode,
      ).toBe(200);
      expect(
        (await call(server, admin, 'POST', '/api/rest/bulk/destroy', { items })).statusCode,
      ).toBe(200);
    };
    await destroy(one.id);
    // The copy still holds the bytes: everything stays.
    expect(await findRendition(server.services.db, sha256)).toBeDefined();
    expect(await objectsKept(sha256)).toEqual([true, true, true]);
    await destroy(two.id);
    expect(await findRendition(server.services.db, sha256)).toBeUndefined();
    expect(await objectsKept(sha256)).toEqual([false, false, false]);
  });

  it('sweeps away renditions no file holds', async () => {
    const orphan = 'f'.repeat(64);
    await fakeRendition(orphan);
    const folder = await makeFolder(server, admin, `Kept ${Date.now()}`);
    const kept = await makeFile(server, admin, 'kept.docx', folder.id, 'kept bytes');
    const keptSha = (
      await server.services.db
        .selectFrom('files')
        .select('sha256')
        .where('id', '=', kept.id)
        .executeTakeFirstOrThrow()
    ).sha256!;
    await fakeRendition(keptSha);
    expect(await sweepOrphanDerivatives(server.services, 1)).toBeGreaterThanOrEqual(1);
    expect(await findRendition(server.services.db, orphan)).toBeUndefined();
    expect(await objectsKept(orphan)).toEqual([false, false, false]);
    expect(await findRendition(server.services.db, keptSha)).toBeDefined();
  });

  it('previews and prints an office document or an SVG as its PDF rendition once derived', async () => {
    const folder = await makeFolder(server, admin, `Preview ${Date.now()}`);
    const memo = await makeFile(server, admin, 'memo.docx', folder.id, 'docx bytes');
    const drawing = await makeFile(server, admin, 'drawing.svg', folder.id, '<svg><script/></svg>');
    const read = (id: string, mode: string) =>
      call(server, admin, 'GET', `/api/rest/files/${id}/${mode}`);
    // Not derived yet: an attachment of the original, as before.
    const before = await read(memo.id, 'preview');
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-disposition']).toMatch(/^attachment/);
    for (const file of [memo, drawing]) {
      const sha256 = (
        await server.services.db
          .selectFrom('files')
          .select('sha256')
          .where('id', '=', file.id)
          .executeTakeFirstOrThrow()
      ).sha256!;
      await fakeRendition(sha256);
      for (const mode of ['preview', 'print']) {
        const shown = await read(file.id, mode);
        expect(shown.statusCode).toBe(200);
        expect(shown.headers['content-type']).toBe('application/pdf');
        expect(shown.headers['content-disposition']).toMatch(
          /^inline; filename="(memo|drawing)\.pdf"/,
        );
        expect(shown.body).toBe(renditionKeys(sha256).pdf);
      }
      // A download is always the original.
      const download = await read(file.id, 'download');
      expect(download.headers['content-disposition']).toMatch(/^attachment/);
      expect(download.headers['content-type']).not.toBe('application/pdf');
    }
    const events = await server.services.db
      .selectFrom('history_events')
      .select('action')
      .where('entity_id', '=', memo.id)
      .orderBy('id')
      .execute();
    // The attachment, the preview, the print (a download marked print), the download.
    expect(events.map((e) => e.action)).toEqual(['download', 'preview', 'download', 'download']);
  });

  it("answers a file's derivation: queued, failed with what is missing, done, or unsupported", async () => {
    const rendition = async (id: string) => {
      const response = await call(server, admin, 'GET', `/api/rest/files/${id}/rendition`);
      expect(response.statusCode).toBe(200);
      return response.json<FileRenditionDto>();
    };
    const memo = await upload('report.docx', Buffer.from('report bytes'));
    expect(await rendition(memo.id)).toMatchObject({ state: 'queued', reason: null, pdf: false });
    const bundle = await upload('archive.zip', Buffer.from('archive bytes'));
    expect((await rendition(bundle.id)).state).toBe('unsupported');
    const job = (await findJobForFile(server.services.db, 'derive', memo.id))!;
    const [taken] = await claimJobs(server.services.db, {
      dialect: server.services.dialect,
      workerId: 'test-worker',
      now: new Date(server.clock.now + 61_000).toISOString(),
      leaseUntil: new Date(server.clock.now + 120_000).toISOString(),
      limit: 100,
    }).then((jobs) => jobs.filter((j) => j.id === job.id));
    expect(taken).toBeDefined();
    await failAttempt(server.services.db, job.id, 'test-worker', {
      error: missingToolMessage('soffice'),
      now: isoAt(server.services.clock),
      retryAt: null,
    });
    expect(await rendition(memo.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: missingToolMessage('soffice'),
    });
    await fakeRendition(job.sha256!);
    expect(await rendition(memo.id)).toMatchObject({
      state: 'done',
      reason: null,
      pdf: true,
      text: true,
      thumbnail: true,
      page_count: 1,
      recognized: false,
    });
  });
});
