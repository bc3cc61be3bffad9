/**
 * HTTP Range on the file routes, on SQLite and PostgreSQL: `/download`, `/preview` and `/print`
 * of the original, `/preview` of a PDF rendition, and a guest's shared file answer one byte range
 * with 206 and `Content-Range`, a range past the end with 416, and anything else whole (200);
 * every answer says `Accept-Ranges: bytes`; a read answered 416 records nothing in History. Also
 * the Range parser against RFC 9110's forms.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MESSAGES } from '@common/messages';
import { saveRendition } from '@server/repositories/renditions';
import { parseByteRange } from '@server/services/byteRanges';
import { renditionKeys } from '@server/services/imaging/derive';
import { describeEachStore, startTestServer, type TestServer } from './helpers';
import { adminActor, makeFile, makeFolder, type Actor } from './organiseHelpers';
import { createLink, guestCookie, invitationMail } from './sharingHelpers';

describe('parseByteRange', () => {
  it.each<[string | undefined, number, ReturnType<typeof parseByteRange>]>([
    [undefined, 10, { kind: 'full' }],
    ['bytes=0-3', 10, { kind: 'partial', range: { start: 0, end: 3 } }],
    ['bytes=4-', 10, { kind: 'partial', range: { start: 4, end: 9 } }],
    ['bytes=-3', 10, { kind: 'partial', range: { start: 7, end: 9 } }],
    ['bytes=-30', 10, { kind: 'partial', range: { start: 0, end: 9 } }],
    ['bytes=5-100', 10, { kind: 'partial', range: { start: 5, end: 9 } }],
    ['BYTES = 1 - 2', 10, { kind: 'partial', range: { start: 1, end: 2 } }],
    ['bytes=10-', 10, { kind: 'unsatisfiable' }],
    ['bytes=12-20', 10, { kind: 'unsatisfiable' }],
    ['bytes=-0', 10, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=5-2', 10, { kind: 'full' }],
    ['bytes=0-1,4-5', 10, { kind: 'full' }],
    ['items=0-3', 10, { kind: 'full' }],
    ['bytes=-', 10, { kind: 'full' }],
    ['bytes=abc', 10, { kind: 'full' }],
  ])('%s of %d bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});

describeEachStore('ranged file reads', (kind, store) => {
  let server: TestServer;
  let admin: Actor;
  const text = '0123456789abcdefghij';
  let file: { id: string };

  beforeAll(async () => {
    server = await startTestServer(kind, { store });
    admin = await adminActor(server);
    file = await makeFile(server, admin, 'digits.txt', '', text);
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (url: string, headers: Record<string, string> = {}, cookie = admin.cookie) =>
    server.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });

  it.each(['download', 'preview', 'print'])(
    'answers /%s whole, one range, or 416 past the end',
    async (mode) => {
      const url = `/api/rest/files/${file.id}/${mode}`;
      const whole = await get(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-length']).toBe(String(text.length));
      expect(whole.body).toBe(text);

      const part = await get(url, { range: 'bytes=2-5' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 2-5/${text.length}`);
      expect(part.headers['content-length']).toBe('4');
      expect(part.body).toBe('2345');
      expect(part.headers['x-content-type-options']).toBe('nosniff');
      expect(part.headers['content-disposition']).toBe(whole.headers['content-disposition']);

      const suffix = await get(url, { range: 'bytes=-3' });
      expect([suffix.statusCode, suffix.body]).toEqual([206, 'hij']);
      const open = await get(url, { range: 'bytes=15-' });
      expect([open.statusCode, open.body]).toEqual([206, 'fghij']);
      expect(open.headers['content-range']).toBe(`bytes 15-19/${text.length}`);

      const past = await get(url, { range: 'bytes=20-30' });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${text.length}`);
      expect(past.json()).toEqual({
        message: MESSAGES.rangeNotSatisfiable,
        code: 'range_not_satisfiable',
      });

      // Several ranges, or a range with If-Range (not checked), get everything.
      const several = await get(url, { range: 'bytes=0-1,4-5' });
      expect([several.statusCode, several.body]).toEqual([200, text]);
      const conditional = await get(url, { range: 'bytes=0-1', 'if-range': '"x"' });
      expect([conditional.statusCode, conditional.body]).toEqual([200, text]);
    },
  );

  it('serves a range of the PDF rendition of a file no browser shows', async () => {
    const memo = await makeFile(server, admin, 'memo.docx', '', 'docx bytes');
    const sha = (
      await server.services.db
        .selectFrom('files')
        .select('sha256')
        .where('id', '=', memo.id)
        .executeTakeFirstOrThrow()
    ).sha256!;
    const keys = renditionKeys(sha);
    const pdf = '%PDF-1.4 rendition bytes';
    await server.store.write(keys.pdf, Readable.from([Buffer.from(pdf)]), 1000);
    await saveRendition(server.services.db, {
      sha256: sha,
      source_kind: 'office',
      pdf_key: keys.pdf,
      text_key: null,
      thumbnail_key: null,
      page_count: 1,
      text_chars: 0,
      recognized: 0,
      created_at: new Date(server.clock.now).toISOString(),
    });
    const part = await get(`/api/rest/files/${memo.id}/preview`, { range: 'bytes=0-7' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-type']).toBe('application/pdf');
    expect(part.headers['content-range']).toBe(`bytes 0-7/${pdf.length}`);
    expect(part.body).toBe('%PDF-1.4');
    const past = await get(`/api/rest/files/${memo.id}/preview`, { range: `bytes=${pdf.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${pdf.length}`);
    // The download stays the original, ranged too.
    const original = await get(`/api/rest/files/${memo.id}/download`, { range: 'bytes=0-3' });
    expect([original.statusCode, original.body]).toEqual([206, 'docx']);
  });

  it('records no read in History for a range answered 416', async () => {
    const clip = await makeFile(server, admin, 'unread.txt', '', 'twelve bytes');
    const events = async () =>
      (
        await server.services.db
          .selectFrom('history_events')
          .select('action')
          .where('entity_id', '=', clip.id)
          .execute()
      ).map((row) => row.action);
    const before = await events();
    for (const url of [
      `/api/rest/files/${clip.id}/download`,
      `/api/rest/files/${clip.id}/preview`,
      `/api/rest/files/${clip.id}/print`,
      `/api/rest/files/${clip.id}/versions/1/download`,
      `/api/rest/files/${clip.id}/versions/1/preview`,
    ]) {
      const past = await get(url, { range: 'bytes=12-' });
      expect([url, past.statusCode]).toEqual([url, 416]);
      expect(past.headers['content-range']).toBe('bytes */12');
    }
    expect(await events()).toEqual(before);
    // A satisfiable range is a read, and recorded as one.
    expect(
      (await get(`/api/rest/files/${clip.id}/download`, { range: 'bytes=0-5' })).statusCode,
    ).toBe(206);
    expect(await events()).toEqual([...before, 'download']);
  });

  it("answers a guest's shared file read with ranges", async () => {
    const folder = await makeFolder(server, admin, 'Ranged share');
    const clip = await makeFile(server, admin, 'notes.txt', folder.id, 'shared bytes here');
    await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      emails: ['ranged.guest@example.com'],
    });
    const mail = await invitationMail(server, 'ranged.guest@example.com');
    const guest = await guestCookie(server, mail.token, 'ranged.guest@example.com');
    for (const mode of ['preview', 'download']) {
      const url = `/api/rest/shared/files/${clip.id}/${mode}`;
      const part = await get(url, { range: 'bytes=7-11' }, guest);
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe('bytes 7-11/17');
      expect(part.body).toBe('bytes');
      const readsBefore = await server.services.db
        .selectFrom('history_events')
        .select('id')
        .where('entity_id', '=', clip.id)
        .execute();
      expect((await get(url, { range: 'bytes=17-' }, guest)).statusCode).toBe(416);
      const readsAfter = await server.services.db
        .selectFrom('history_events')
        .select('id')
        .where('entity_id', '=', clip.id)
        .execute();
      expect(readsAfter).toHaveLength(readsBefore.length);
      const whole = await get(url, {}, guest);
      expect([whole.statusCode, whole.headers['accept-ranges']]).toEqual([200, 'bytes']);
    }
  });
});
