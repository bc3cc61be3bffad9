/**
 * Thumbnails and the administrator's retry of document imaging, on both databases: GET
 * files/{id}/thumbnail answers the stored PNG with a private cache lifetime and an entity tag
 * (304 when the browser has it), 404 `no_thumbnail` until there is one, and 404 to whoever may not
 * read the file; lists say which files have one; POST imaging/jobs/{id}/retry queues a job that
 * gave up again, for administrators of its firm only.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  IMAGING_MESSAGES,
  THUMBNAIL_MAX_AGE_SECONDS,
  type FileRenditionDto,
  type ImagingStatusDto,
} from '@common/imaging';
import type { Page } from '@common/api';
import type { EntityDto, FileDto, FolderDto } from '@common/entities';
import { isoAt, newId } from '@server/ids';
import { findJobForFile } from '@server/repositories/jobs';
import { saveRendition } from '@server/repositories/renditions';
import { renditionKeys } from '@server/services/imaging/derive';
import type { SharedEntityDto } from '@common/sharing';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { createLink, guestCookie } from './sharingHelpers';
import { adminActor, call, makeFile, makeFolder, newActor, type Actor } from './organiseHelpers';

/** A tiny stand-in for a PNG thumbnail (its signature and a marker). */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('thumb'),
]);

describeEachDatabase('thumbnails and retries', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let otherAdmin: Actor;
  let open: FolderDto;
  let restricted: FolderDto;

  /** The sha256 the store computed for a file. */
  async function sha256Of(fileId: string): Promise<string> {
    const row = await server.services.db
      .selectFrom('files')
      .select('sha256')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    return row.sha256!;
  }

  /** Stores a thumbnail for a file's bytes and records its rendition. */
  async function giveThumbnail(fileId: string): Promise<string> {
    const sha256 = await sha256Of(fileId);
    const keys = renditionKeys(sha256);
    await server.store.write(keys.thumbnail, Readable.from([PNG]), PNG.length);
    await saveRendition(server.services.db, {
      sha256,
      source_kind: 'office',
      pdf_key: null,
      text_key: null,
      thumbnail_key: keys.thumbnail,
      page_count: 2,
      text_chars: 10,
      recognized: 0,
      created_at: isoAt(server.services.clock),
    });
    return sha256;
  }

  /** A derivation job of a file in a state. */
  async function addJob(fileId: string, state: 'failed' | 'queued', databaseId: string) {
    const id = newId();
    const now = isoAt(server.services.clock);
    await server.services.db
      .insertInto('jobs')
      .values({
        id,
        kind: 'derive',
        database_id: databaseId,
        file_id: fileId,
        sha256: null,
        state,
        attempts: state === 'failed' ? 5 : 0,
        run_after: now,
        locked_by: null,
        lease_until: null,
        last_error: state === 'failed' ? 'LibreOffice not found: apt-get install -y x' : null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  const thumbnail = (actor: Actor, id: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${id}/thumbnail`,
      headers: { cookie: actor.cookie, ...headers },
    });

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'thumb-member', 'member', admin.databaseId);
    otherAdmin = await newActor(server, 'thumb-other', 'admin');
    open = await makeFolder(server, admin, 'Thumbs open');
    restricted = await makeFolder(server, admin, 'Thumbs restricted');
    const permitted = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: restricted.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permitted.statusCode).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('GET files/{id}/thumbnail', () => {
    it('answers the PNG, cached privately with the sha256 as its entity tag', async () => {
      const file = await makeFile(server, admin, 'memo.docx', open.id, 'memo bytes');
      const sha256 = await giveThumbnail(file.id);
      const response = await thumbnail(member, file.id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['cache-control']).toBe(
        `private, max-age=${THUMBNAIL_MAX_AGE_SECONDS}`,
      );
      expect(response.headers.etag).toBe(`"${sha256}"`);
      expect(response.rawPayload.equals(PNG)).toBe(true);
    });

    it('answers 304 without a body when If-None-Match names the entity tag', async () => {
      const file = await makeFile(server, admin, 'plan.docx', open.id, 'plan bytes');
      const sha256 = await giveThumbnail(file.id);
      for (const tag of [`"${sha256}"`, `W/"${sha256}"`, `"other", "${sha256}"`]) {
        const response = await thumbnail(member, file.id, { 'if-none-match': tag });
        expect(response.statusCode).toBe(304);
        expect(response.rawPayload.length).toBe(0);
        expect(response.headers.etag).toBe(`"${sha256}"`);
      }
      const stale = await thumbnail(member, file.id, { 'if-none-match': '"other"' });
      expect(stale.statusCode).toBe(200);
    });

    it('answers 404 no_thumbnail before imaging made one', async () => {
      const file = await makeFile(server, admin, 'later.docx', open.id, 'later bytes');
      const response = await thumbnail(member, file.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'no_thumbnail',
        message: IMAGING_MESSAGES.noThumbnail,
      });
    });

    it('serves an archived file to its readers, as its preview', async () => {
      const file = await makeFile(server, admin, 'old.docx', open.id, 'old bytes');
      await giveThumbnail(file.id);
      const archived = await call(server, admin, 'POST', '/api/rest/bulk/archive', {
        items: [{ type: 'file', id: file.id }],
      });
      expect(archived.statusCode).toBe(200);
      expect((await thumbnail(member, file.id)).statusCode).toBe(200);
    });

    it('answers 404 to another firm and to a member outside a restricted folder', async () => {
      const file = await makeFile(server, admin, 'secret.docx', restricted.id, 'secret bytes');
      await giveThumbnail(file.id);
      expect((await thumbnail(admin, file.id)).statusCode).toBe(200);
      for (const actor of [member, otherAdmin]) {
        const response = await thumbnail(actor, file.id);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'not_found' });
      }
    });
  });

  it('says in the folder list and a single read which files have a thumbnail', async () => {
    const folder = await makeFolder(server, admin, 'Thumbs list');
    const withOne = await makeFile(server, admin, 'with.docx', folder.id, 'with bytes');
    const without = await makeFile(server, admin, 'without.docx', folder.id, 'without bytes');
    await giveThumbnail(withOne.id);
    const list = await call(server, member, 'GET', `/api/rest/entities?folder_id=${folder.id}`);
    expect(list.statusCode).toBe(200);
    const files = list
      .json<Page<EntityDto>>()
      .items.filter((item): item is FileDto => item.type === 'file');
    expect(Object.fromEntries(files.map((f) => [f.name, f.thumbnail]))).toEqual({
      'with.docx': true,
      'without.docx': false,
    });
    const single = await call(server, member, 'GET', `/api/rest/files/${without.id}`);
    expect(single.json<FileDto>().thumbnail).toBe(false);
  });

  it('gives a guest the thumbnails of a shared folder through the share only', async () => {
    const folder = await makeFolder(server, admin, 'Thumbs shared');
    const shown = await makeFile(server, admin, 'shown.docx', folder.id, 'shown bytes');
    const plain = await makeFile(server, admin, 'plain.docx', folder.id, 'plain bytes');
    await giveThumbnail(shown.id);
    const link = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
    });
    const cookie = await guestCookie(server, link.token, 'thumb-guest@example.com');
    const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { cookie } });

    const list = await get(`/api/rest/shared/entities?folder_id=${folder.id}`);
    expect(list.statusCode).toBe(200);
    const items = list.json<{ items: SharedEntityDto[] }>().items;
    expect(Object.fromEntries(items.map((i) => [i.name, i.thumbnail]))).toEqual({
      'plain.docx': false,
      'shown.docx': true,
    });
    const shared = await get(`/api/rest/shared/files/${shown.id}/thumbnail`);
    expect(shared.statusCode).toBe(200);
    expect(shared.rawPayload.equals(PNG)).toBe(true);
    expect((await get(`/api/rest/shared/files/${plain.id}/thumbnail`)).statusCode).toBe(404);
    // The firm's route stays closed to guests.
    expect((await get(`/api/rest/files/${shown.id}/thumbnail`)).statusCode).toBe(404);
    // A file outside the share is not reached through it.
    const outside = await makeFile(server, admin, 'outside.docx', open.id, 'outside bytes');
    await giveThumbnail(outside.id);
    expect((await get(`/api/rest/shared/files/${outside.id}/thumbnail`)).statusCode).toBe(404);
  });

  describe('POST imaging/jobs/{id}/retry', () => {
    it('queues a failed job again with its attempts reset, for the firm administrator', async () => {
      const file = await makeFile(server, admin, 'broken.docx', open.id, 'broken bytes');
      const jobId = await addJob(file.id, 'failed', admin.databaseId);
      const status = await call(server, admin, 'GET', '/api/rest/private/imaging/status');
      expect(status.json<ImagingStatusDto>().failed).toContainEqual(
        expect.objectContaining({ job_id: jobId, file_id: file.id, file_name: 'broken.docx' }),
      );
      const before = await call(server, admin, 'GET', `/api/rest/files/${file.id}/rendition`);
      expect(before.json<FileRenditionDto>()).toMatchObject({ state: 'failed', job_id: jobId });

      const response = await call(
        server,
        admin,
        'POST',
        `/api/rest/private/imaging/jobs/${jobId}/retry`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json<FileRenditionDto>()).toMatchObject({
        state: 'queued',
        job_id: jobId,
        attempts: 0,
      });
      const job = await findJobForFile(server.services.db, 'derive', file.id);
      expect(job).toMatchObject({ state: 'queued', attempts: 0 });
      // Queued now: a second retry is refused.
      const again = await call(
        server,
        admin,
        'POST',
        `/api/rest/private/imaging/jobs/${jobId}/retry`,
      );
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'job_not_failed',
        message: IMAGING_MESSAGES.jobNotFailed,
      });
    });

    it('refuses members (403) and another firm’s administrator (404), changing nothing', async () => {
      const file = await makeFile(server, admin, 'stuck.docx', open.id, 'stuck bytes');
      const jobId = await addJob(file.id, 'failed', admin.databaseId);
      const url = `/api/rest/private/imaging/jobs/${jobId}/retry`;
      const byMember = await call(server, member, 'POST', url);
      expect(byMember.statusCode).toBe(403);
      const byOther = await call(server, otherAdmin, 'POST', url);
      expect(byOther.statusCode).toBe(404);
      expect(byOther.json()).toMatchObject({ code: 'job_not_found' });
      const job = await findJobForFile(server.services.db, 'derive', file.id);
      expect(job).toMatchObject({ state: 'failed', attempts: 5 });
      const unknown = await call(
        server,
        admin,
        'POST',
        '/api/rest/private/imaging/jobs/nope/retry',
      );
      expect(unknown.statusCode).toBe(404);
    });
  });
});
