import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import yauzl from 'yauzl';
import { newId } from '@server/ids';
import { addUser, describeEachStore, signIn, startTestServer, type TestServer } from './helpers';
import { at, fileRow, firmOf, folderRow, insertRows, storeObject, type Firm } from './seedRows';

/** One entry of a zip as read back: its bytes (null for a directory) and compression method. */
interface ZipEntryRead {
  data: Buffer | null;
  /** 0 stored, 8 deflated. */
  method: number;
}

/** Reads every entry of a zip with yauzl. */
function unzip(buffer: Buffer): Promise<Map<string, ZipEntryRead>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, ZipEntryRead>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          entries.set(entry.fileName, { data: null, method: entry.compressionMethod });
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, {
              data: Buffer.concat(chunks),
              method: entry.compressionMethod,
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describeEachStore('folder zip download', (kind, store) => {
  let server: TestServer;
  let cookie: string;
  let firm: Firm;
  let otherCookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { store });
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

  const download = (id: string, as = cookie) =>
    server.app.inject({
      method: 'GET',
      url: `/api/rest/folders/${id}/download`,
      headers: { cookie: as },
    });

  it('streams the live tree as a zip: paths, contents, empty folders, compression, history', async () => {
    const top = folderRow(firm, '', `Client Smith ${newId().slice(-4)}`);
    const sub = folderRow(firm, top.id, '2026 Returns');
    const deep = folderRow(firm, sub.id, 'Q1');
    const empty = folderRow(firm, top.id, 'Empty');
    const gone = folderRow(firm, top.id, 'Gone', { archived_at: at(1) });
    gone.archived_root_id = gone.id;
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const text = Buffer.from('line of a statement\n'.repeat(2000));
    const files = [
      { row: fileRow(firm, top.id, 'Statement.pdf'), body: big },
      { row: fileRow(firm, sub.id, 'notes.txt'), body: text },
      { row: fileRow(firm, deep.id, 'scan.png'), body: Buffer.from('png bytes') },
      { row: fileRow(firm, deep.id, 'zero.csv'), body: Buffer.alloc(0) },
      {
        row: fileRow(firm, top.id, 'archived.pdf', { archived_at: at(1) }),
        body: Buffer.from('x'),
      },
      {
        row: fileRow(firm, gone.id, 'in gone.pdf', {
          archived_at: at(1),
          archived_root_id: gone.id,
        }),
        body: Buffer.from('y'),
      },
    ];
    for (const f of files) await storeObject(server, f.row, f.body);
    await insertRows(server, {
      folders: [top, sub, deep, empty, gone],
      files: files.map((f) => f.row),
    });

    const response = await download(top.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(
      `attachment; filename="${top.name}.zip"`,
    );
    const entries = await unzip(response.rawPayload);
    const t = top.name;
    expect([...entries.keys()].sort()).toEqual(
      [
        `${t}/`,
        `${t}/Statement.pdf`,
        `${t}/2026 Returns/`,
        `${t}/2026 Returns/notes.txt`,
        `${t}/2026 Returns/Q1/`,
        `${t}/2026 Returns/Q1/scan.png`,
        `${t}/2026 Returns/Q1/zero.csv`,
        `${t}/Empty/`,
      ].sort(),
    );
    expect(entries.get(`${t}/Statement.pdf`)!.data!.equals(big)).toBe(true);
    expect(entries.get(`${t}/Statement.pdf`)!.method).toBe(0);
    expect(entries.get(`${t}/2026 Returns/notes.txt`)!.data!.equals(text)).toBe(true);
    expect(entries.get(`${t}/2026 Returns/notes.txt`)!.method).toBe(8);
    expect(entries.get(`${t}/2026 Returns/Q1/zero.csv`)!.data!.length).toBe(0);
    expect(entries.get(`${t}/2026 Returns/Q1/scan.png`)!.data!.toString()).toBe('png bytes');

    const events = await server.services.db
      .selectFrom('history_events')
      .select(['entity_type', 'action', 'user_id', 'attributes'])
      .where('entity_id', '=', top.id)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity_type: 'folder',
      action: 'download',
      user_id: firm.userId,
    });
    expect(JSON.parse(events[0]!.attributes)).toMatchObject({
      name: top.name,
      download: { preview: false, print: false },
    });
    const recent = await server.services.db
      .selectFrom('recent_items')
      .select('action')
      .where('entity_id', '=', top.id)
      .where('user_id', '=', firm.userId)
      .executeTakeFirst();
    expect(recent?.action).toBe('download');
  });

  it('walks folders bigger than one batch', async () => {
    const top = folderRow(firm, '', `Many ${newId().slice(-4)}`);
    const subs = Array.from({ length: 501 }, (_, i) => folderRow(firm, top.id, `sub ${i}`));
    const files = Array.from({ length: 502 }, (_, i) => fileRow(firm, top.id, `f${i}.txt`));
    for (const f of files) await storeObject(server, f, Buffer.from(f.name));
    await insertRows(server, { folders: [top, ...subs], files });
    const response = await download(top.id);
    expect(response.statusCode).toBe(200);
    const entries = await unzip(response.rawPayload);
    expect(entries.size).toBe(1 + 501 + 502);
    expect(entries.get(`${top.name}/f501.txt`)!.data!.toString()).toBe('f501.txt');
    expect(entries.has(`${top.name}/sub 500/`)).toBe(true);
  });

  it('writes Zip64 records for a tree of 4 GiB or more, still readable', async () => {
    const top = folderRow(firm, '', `Huge ${newId().slice(-4)}`);
    // The rows claim 5 GiB (the choice is made from the rows); the objects are small.
    const files = [fileRow(firm, top.id, 'a.pdf'), fileRow(firm, top.id, 'b.pdf')];
    for (const f of files) await storeObject(server, f, Buffer.from(f.name));
    for (const f of files) f.size = 2.5 * 1024 ** 3;
    await insertRows(server, { folders: [top], files });
    const response = await download(top.id);
    expect(response.statusCode).toBe(200);
    const zip64EndOfCentralDirectory = Buffer.from([0x50, 0x4b, 0x06, 0x06]);
    expect(response.rawPayload.includes(zip64EndOfCentralDirectory)).toBe(true);
    const entries = await unzip(response.rawPayload);
    expect(entries.get(`${top.name}/b.pdf`)!.data!.toString()).toBe('b.pdf');

    const small = folderRow(firm, '', `Small ${newId().slice(-4)}`);
    await insertRows(server, { folders: [small] });
    const plain = await download(small.id);
    expect(plain.rawPayload.includes(zip64EndOfCentralDirectory)).toBe(false);
  });

  it('lets a read-only member download (a read)', async () => {
    await addUser(server, {
      username: 'reader',
      password: 'reader-pass-1',
      role: 'read_only',
      databaseId: firm.databaseId,
    });
    const readerCookie = await signIn(server, 'reader', 'reader-pass-1');
    const top = folderRow(firm, '', `Readable ${newId().slice(-4)}`);
    await insertRows(server, { folders: [top] });
    const response = await download(top.id, readerCookie);
    expect(response.statusCode).toBe(200);
    expect([...(await unzip(response.rawPayload)).keys()]).toEqual([`${top.name}/`]);
  });

  it('answers 404 for a folder of another firm, an archived folder or an unknown id, and records nothing', async () => {
    const top = folderRow(firm, '', `Private ${newId().slice(-4)}`);
    const archived = folderRow(firm, '', `Archived ${newId().slice(-4)}`, { archived_at: at(2) });
    archived.archived_root_id = archived.id;
    await insertRows(server, { folders: [top, archived] });
    expect((await download(top.id, otherCookie)).statusCode).toBe(404);
    expect((await download(archived.id)).statusCode).toBe(404);
    expect((await download(newId())).statusCode).toBe(404);
    const events = await server.services.db
      .selectFrom('history_events')
      .select('id')
      .where('entity_id', 'in', [top.id, archived.id])
      .execute();
    expect(events).toEqual([]);
  });
});
