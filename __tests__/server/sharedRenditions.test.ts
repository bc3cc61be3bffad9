/**
 * What document imaging derived, for a guest through a share, on both databases: GET
 * shared/files/{id}/rendition answers the derivation state of a file the share reaches; the
 * shared preview of a file no browser shows safely (an office document, a TIFF scan) serves its
 * PDF rendition inline once stored, through a link without download too, recorded as the guest's
 * preview; before that it stays a download, refused without the permission; anything outside the
 * share, an ended share and the firm's own routes answer 404.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FileRenditionDto } from '@common/imaging';
import type { FolderDto } from '@common/entities';
import { isoAt } from '@server/ids';
import { saveRendition } from '@server/repositories/renditions';
import { renditionKeys } from '@server/services/imaging/derive';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, makeFile, makeFolder, type Actor } from './organiseHelpers';
import { createLink, eventsOf, guestCookie, send } from './sharingHelpers';

/** A stand-in for a stored PDF rendition (the route streams whatever is stored). */
const PDF = Buffer.from('%PDF-1.7\n% a rendition\n%%EOF\n');
/** A stand-in for a stored thumbnail. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describeEachDatabase('shared renditions', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let shared: FolderDto;
  let outside: FolderDto;
  let cookie: string;
  let linkId: string;
  let memo: { id: string };
  let scan: { id: string };
  let pending: { id: string };

  /** Records a derivation of a file's bytes: a PDF rendition and a thumbnail. */
  async function derived(fileId: string, sourceKind: 'office' | 'image'): Promise<void> {
    const { sha256 } = await server.services.db
      .selectFrom('files')
      .select('sha256')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    const keys = renditionKeys(sha256!);
    await server.store.write(keys.pdf, Readable.from([PDF]), PDF.length);
    await server.store.write(keys.thumbnail, Readable.from([PNG]), PNG.length);
    await saveRendition(server.services.db, {
      sha256: sha256!,
      source_kind: sourceKind,
      pdf_key: keys.pdf,
      text_key: null,
      thumbnail_key: keys.thumbnail,
      page_count: 3,
      text_chars: 120,
      recognized: sourceKind === 'image' ? 1 : 0,
      created_at: isoAt(server.services.clock),
    });
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    shared = await makeFolder(server, admin, 'Shared renditions');
    outside = await makeFolder(server, admin, 'Not shared');
    memo = await makeFile(server, admin, 'Memo.docx', shared.id, 'memo bytes');
    scan = await makeFile(server, admin, 'Scan.tiff', shared.id, 'scan bytes');
    pending = await makeFile(server, admin, 'Draft.docx', shared.id, 'draft bytes');
    await derived(memo.id, 'office');
    await derived(scan.id, 'image');
    // A link that allows viewing only.
    const link = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: shared.id,
      allow_download: false,
    });
    linkId = link.link.id;
    cookie = await guestCookie(server, link.token, 'rendition.guest@example.com');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('GET shared/files/{id}/rendition', () => {
    it('answers what was derived from a shared file, and where a pending one is', async () => {
      const done = await get(`/api/rest/shared/files/${memo.id}/rendition`);
      expect(done.statusCode).toBe(200);
      expect(done.json<FileRenditionDto>()).toMatchObject({
        state: 'done',
        pdf: true,
        thumbnail: true,
        page_count: 3,
        recognized: false,
      });
      const recognised = await get(`/api/rest/shared/files/${scan.id}/rendition`);
      expect(recognised.json<FileRenditionDto>()).toMatchObject({
        state: 'done',
        pdf: true,
        recognized: true,
      });
      const waiting = await get(`/api/rest/shared/files/${pending.id}/rendition`);
      expect(waiting.statusCode).toBe(200);
      expect(waiting.json<FileRenditionDto>()).toMatchObject({ state: 'waiting', pdf: false });
    });

    it('answers 404 for a file outside the share, and the firm route stays closed', async () => {
      const elsewhere = await makeFile(server, admin, 'Other.docx', outside.id, 'other bytes');
      await derived(elsewhere.id, 'office');
      const refused = await get(`/api/rest/shared/files/${elsewhere.id}/rendition`);
      expect(refused.statusCode).toBe(404);
      expect((await get(`/api/rest/shared/files/${elsewhere.id}/preview`)).statusCode).toBe(404);
      expect((await get(`/api/rest/files/${memo.id}/rendition`)).statusCode).toBe(404);
      expect((await get(`/api/rest/shared/files/no-such-file/rendition`)).statusCode).toBe(404);
    });
  });

  describe('GET shared/files/{id}/preview of a file shown through its rendition', () => {
    it('serves the PDF rendition inline through a link without download, as a preview', async () => {
      const response = await get(`/api/rest/shared/files/${memo.id}/preview`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(String(response.headers['content-disposition'])).toMatch(/^inline;.*Memo\.pdf/);
      expect(response.rawPayload.equals(PDF)).toBe(true);
      const ranged = await get(`/api/rest/shared/files/${scan.id}/preview`, {
        range: 'bytes=0-7',
      });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.rawPayload.toString('latin1')).toBe('%PDF-1.7');
      const reads = (await eventsOf(server, admin.databaseId, 'file')).filter(
        (event) => event.entity_id === memo.id && event.action === 'preview',
      );
      expect(reads).toHaveLength(1);
      expect(reads[0]!.user_name).not.toBe('');
      expect(reads[0]!.user_id).not.toBe(admin.userId);
    });

    it('still refuses the download, and the preview of a file not derived yet', async () => {
      const download = await get(`/api/rest/shared/files/${memo.id}/download`);
      expect(download.statusCode).toBe(403);
      expect(download.json<{ code: string }>().code).toBe('download_not_allowed');
      // Without a rendition the preview of a Word document would be the original: a download.
      const original = await get(`/api/rest/shared/files/${pending.id}/preview`);
      expect(original.statusCode).toBe(403);
      expect(original.json<{ code: string }>().code).toBe('download_not_allowed');
    });

    it('answers 404 access_ended once the link is revoked', async () => {
      const revoked = await send(
        server,
        admin.cookie,
        'DELETE',
        `/api/rest/shared/links/${linkId}`,
      );
      expect(revoked.statusCode).toBe(204);
      for (const url of [
        `/api/rest/shared/files/${memo.id}/rendition`,
        `/api/rest/shared/files/${memo.id}/preview`,
      ]) {
        const ended = await get(url);
        expect(ended.statusCode).toBe(404);
        expect(ended.json<{ code: string }>().code).toBe('access_ended');
      }
    });
  });
});
