import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FileStatsDto, FolderStatsDto, TypeStatDto } from '@common/stats';
import { newId } from '@server/ids';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { at, fileRow, firmOf, folderRow, insertRows, type Firm } from './seedRows';

const CATEGORIES = [
  'Video',
  'Image',
  'Document',
  'PDF',
  'Spreadsheet',
  'Audio',
  'Presentation',
  'Other',
];

describeEachDatabase('file statistics', (kind) => {
  let server: TestServer;
  let cookie: string;
  let firm: Firm;
  let otherCookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    cookie = await signIn(server);
    firm = await firmOf(server, cookie);
    await addUser(server, {
      username: 'outsider',
      password: 'outsider-pass-1',
      databaseName: 'Other firm',
    });
    otherCookie = await signIn(server, 'outsider', 'outsider-pass-1');
  });
  afterAll(async () => {
    await server.close();
  });

  const get = async <T>(url: string, as = cookie) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { cookie: as } });
    return { status: response.statusCode, body: response.json<T>() };
  };

  /**
   * top/ a.pdf(100) b.MP4(1000) c.xyz(5) noext(7)
   *   sub/ d.docx(20) e.csv(30)
   *     deep/ f.png(40) g.PPTX(50) h.wav(60)
   *   empty/
   *   archived/ (archived with its file)        x.pdf(999)
   * plus an archived file, a pending file: not counted.
   */
  const tree = async () => {
    const top = folderRow(firm, '', `Stats ${newId()}`);
    const sub = folderRow(firm, top.id, 'sub');
    const deep = folderRow(firm, sub.id, 'deep');
    const empty = folderRow(firm, top.id, 'empty');
    const archived = folderRow(firm, top.id, 'archived', { archived_at: at(5) });
    archived.archived_root_id = archived.id;
    const files = [
      fileRow(firm, top.id, 'a.pdf', { size: 100 }),
      fileRow(firm, top.id, 'b.MP4', { size: 1000 }),
      fileRow(firm, top.id, 'c.xyz', { size: 5 }),
      fileRow(firm, top.id, 'noext', { size: 7 }),
      fileRow(firm, sub.id, 'd.docx', { size: 20 }),
      fileRow(firm, sub.id, 'e.csv', { size: 30 }),
      fileRow(firm, deep.id, 'f.png', { size: 40 }),
      fileRow(firm, deep.id, 'g.PPTX', { size: 50 }),
      fileRow(firm, deep.id, 'h.wav', { size: 60 }),
      fileRow(firm, archived.id, 'x.pdf', {
        size: 999,
        archived_at: at(5),
        archived_root_id: archived.id,
      }),
      fileRow(firm, sub.id, 'old.pdf', { size: 999, archived_at: at(6) }),
      fileRow(firm, sub.id, 'uploading.pdf', { size: 999, status: 'pending' }),
    ];
    files[10]!.archived_root_id = files[10]!.id;
    await insertRows(server, { folders: [top, sub, deep, empty, archived], files });
    return { top, sub, archived };
  };

  const asMap = (stats: TypeStatDto[]) =>
    Object.fromEntries(stats.map((s) => [s.category, [s.count, s.size]]));

  it('counts a folder tree recursively: live subfolders, files, bytes and the eight categories', async () => {
    const { top, sub } = await tree();
    const { status, body } = await get<FolderStatsDto>(`/api/rest/folders/${top.id}/stats`);
    expect(status).toBe(200);
    expect(body.folder_id).toBe(top.id);
    expect(body.folders).toBe(3);
    expect(body.files).toBe(9);
    expect(body.size).toBe(100 + 1000 + 5 + 7 + 20 + 30 + 40 + 50 + 60);
    expect(body.by_type.map((t) => t.category)).toEqual(CATEGORIES);
    expect(asMap(body.by_type)).toEqual({
      Video: [1, 1000],
      Image: [1, 40],
      Document: [1, 20],
      PDF: [1, 100],
      Spreadsheet: [1, 30],
      Audio: [1, 60],
      Presentation: [1, 50],
      Other: [2, 12],
    });
    const subStats = await get<FolderStatsDto>(`/api/rest/folders/${sub.id}/stats`);
    expect([subStats.body.folders, subStats.body.files, subStats.body.size]).toEqual([1, 5, 200]);
  });

  it('counts an archived folder by what was archived with it', async () => {
    const { archived } = await tree();
    const { status, body } = await get<FolderStatsDto>(`/api/rest/folders/${archived.id}/stats`);
    expect(status).toBe(200);
    expect([body.folders, body.files, body.size]).toEqual([0, 1, 999]);
    expect(asMap(body.by_type).PDF).toEqual([1, 999]);
  });

  it('answers the firm totals and the firm by type, and keeps firms apart', async () => {
    const before = await get<FileStatsDto>('/api/rest/files/stats');
    const beforeTypes = await get<TypeStatDto[]>('/api/rest/files/stats/by_type');
    await tree();
    const after = await get<FileStatsDto>('/api/rest/files/stats');
    expect(after.status).toBe(200);
    expect(after.body.files - before.body.files).toBe(9);
    expect(after.body.folders - before.body.folders).toBe(4);
    expect(after.body.size - before.body.size).toBe(1312);
    expect(after.body.archived_files - before.body.archived_files).toBe(2);
    const types = await get<TypeStatDto[]>('/api/rest/files/stats/by_type');
    expect(types.body.map((t) => t.category)).toEqual(CATEGORIES);
    const delta = types.body.map((t, i) => t.count - beforeTypes.body[i]!.count);
    expect(delta).toEqual([1, 1, 1, 1, 1, 1, 1, 2]);

    const theirs = await get<FileStatsDto>('/api/rest/files/stats', otherCookie);
    expect(theirs.body).toEqual({ files: 0, folders: 0, size: 0, archived_files: 0 });
    const theirTypes = await get<TypeStatDto[]>('/api/rest/files/stats/by_type', otherCookie);
    expect(theirTypes.body).toEqual(
      CATEGORIES.map((category) => ({ category, count: 0, size: 0 })),
    );
  });

  it('answers 404 for a folder of another firm', async () => {
    const { top } = await tree();
    expect((await get(`/api/rest/folders/${top.id}/stats`, otherCookie)).status).toBe(404);
    expect((await get(`/api/rest/folders/${newId()}/stats`)).status).toBe(404);
  });

  describe('with fileStats off', () => {
    let off: TestServer;
    let offCookie: string;
    beforeAll(async () => {
      off = await startTestServer(kind, { env: { FEATURE_FLAGS: 'fileStats=0' } });
      offCookie = await signIn(off);
    });
    afterAll(async () => {
      await off.close();
    });

    it('answers 404 for every statistics route', async () => {
      const offFirm = await firmOf(off, offCookie);
      const folder = folderRow(offFirm, '', 'Some folder');
      await insertRows(off, { folders: [folder] });
      for (const url of [
        `/api/rest/folders/${folder.id}/stats`,
        '/api/rest/files/stats',
        '/api/rest/files/stats/by_type',
      ]) {
        const response = await off.app.inject({
          method: 'GET',
          url,
          headers: { cookie: offCookie },
        });
        expect(response.statusCode).toBe(404);
      }
    });
  });
});
