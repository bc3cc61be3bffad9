import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { MAX_FILE_SIZE_BYTES } from '@common/constants';
import { contentTypeFor } from '@common/files';
import { MESSAGES } from '@common/messages';
import { splitFileName } from '@common/names';
import type { Page } from '@common/api';
import type { FileDto, FolderDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import type { CreateUploadResponse } from '@common/uploads';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';

/** The shared corpus beside the checkout. */
const CORPUS = path.resolve(__dirname, '../../../shared/corpus');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describeEachDatabase('uploads and reading files', (kind) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    cookie = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const createUpload = (
    name: string,
    size: number,
    folderId = '',
    overrides: Record<string, unknown> = {},
  ) => {
    const { extension } = splitFileName(name);
    return server.app.inject({
      method: 'POST',
      url: '/api/rest/files',
      headers: { cookie },
      payload: {
        folder_id: folderId,
        name,
        extension,
        content_type: contentTypeFor(extension),
        size,
        ...overrides,
      },
    });
  };
  const put = (upload: CreateUploadResponse, body: Buffer, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'PUT',
      url: upload.url,
      headers: { ...upload.headers, ...headers },
      payload: body,
    });
  const record = (id: string, as = cookie) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/files/record',
      headers: { cookie: as },
      payload: { id },
    });

  /** Uploads bytes under a name and answers the recorded file. */
  const upload = async (name: string, body: Buffer, folderId = ''): Promise<FileDto> => {
    const created = await createUpload(name, body.length, folderId);
    expect(created.statusCode).toBe(201);
    const answer = created.json<CreateUploadResponse>();
    expect((await put(answer, body)).statusCode).toBe(200);
    const recorded = await record(answer.id);
    expect(recorded.statusCode).toBe(201);
    return recorded.json<FileDto>();
  };
  const fileRowCount = async () =>
    Number(
      (
        await server.services.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const objectCount = () => {
    const dir = path.join(server.dataDir, 'objects');
    return existsSync(dir)
      ? readdirSync(dir, { recursive: true }).filter((f) => !String(f).endsWith('.sha256')).length
      : 0;
  };

  it('uploads every corpus file and downloads byte-identical content', async () => {
    const folder = (
      await server.app.inject({
        method: 'POST',
        url: '/api/rest/folders',
        headers: { cookie },
        payload: { name: 'Corpus' },
      })
    ).json<FolderDto>();
    const names = readdirSync(CORPUS).filter((n) => !['SHA256SUMS', 'SOURCES.md'].includes(n));
    for (const name of names) {
      const bytes = readFileSync(path.join(CORPUS, name));
      const file = await upload(name, bytes, folder.id);
      expect(file).toMatchObject({
        name,
        size: bytes.length,
        status: 'ready',
        folder_id: folder.id,
      });
      expect(file.content_type).toBe(contentTypeFor(splitFileName(name).extension));
      const download = await server.app.inject({
        method: 'GET',
        url: `/api/rest/files/${file.id}/download`,
        headers: { cookie },
      });
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(sha256(bytes));
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
    }
    const listed = await server.app.inject({
      method: 'GET',
      url: `/api/rest/entities?folder_id=${folder.id}`,
      headers: { cookie },
    });
    expect(listed.json<Page<FileDto>>().total).toBe(names.length);
  });

  it('makes duplicate names unique at record time and keeps the extension', async () => {
    const bytes = Buffer.from('statement');
    const first = await upload('Statement.PDF', bytes);
    const second = await upload('statement.pdf', bytes);
    expect(first.name).toBe('Statement.PDF');
    expect(first.extension).toBe('pdf');
    expect(second.name).toBe('statement (1).pdf');
  });

  it('serves preview inline only for what a browser shows safely, never HTML, SVG or Office', async () => {
    const read = (name: string) => readFileSync(path.join(CORPUS, name));
    const pdf = await upload('preview.pdf', read('minimal-document.pdf'));
    const png = await upload('preview.png', read('smile.png'));
    const mp4 = await upload('preview.mp4', read('small-mp4-with-audio.mp4'));
    const mp3 = await upload('preview.mp3', read('small-mp3.mp3'));
    const csv = await upload('preview.csv', Buffer.from('a,b\r\n1,2\r\n'));
    const html = await upload('preview.html', read('small-html5.html'));
    const svg = await upload('preview.svg', read('small-svg.svg'));
    const docx = await upload('preview.docx', read('test.docx'));
    const tiff = await upload('preview.tiff', read('smile.tiff'));
    const headers = async (file: FileDto, mode: string) => {
      const answer = await server.app.inject({
        method: 'GET',
        url: `/api/rest/files/${file.id}/${mode}`,
        headers: { cookie },
      });
      expect(answer.statusCode).toBe(200);
      return answer.headers;
    };
    const disposition = async (file: FileDto, mode: string) =>
      (await headers(file, mode))['content-disposition'] as string;
    expect(await disposition(pdf, 'preview')).toMatch(/^inline/);
    expect(await disposition(png, 'preview')).toMatch(/^inline/);
    expect(await disposition(mp4, 'preview')).toMatch(/^inline/);
    expect(await disposition(mp3, 'preview')).toMatch(/^inline/);
    expect(await disposition(pdf, 'print')).toMatch(/^inline/);
    expect(await disposition(html, 'preview')).toMatch(/^attachment/);
    expect(await disposition(svg, 'preview')).toMatch(/^attachment/);
    expect(await disposition(docx, 'preview')).toMatch(/^attachment/);
    expect(await disposition(tiff, 'preview')).toMatch(/^attachment/);
    expect(await disposition(pdf, 'download')).toMatch(/^attachment/);
    // Text is shown as UTF-8 plain text; its download keeps the stored type.
    const csvPreview = await headers(csv, 'preview');
    expect(csvPreview['content-disposition']).toMatch(/^inline/);
    expect(csvPreview['content-type']).toBe('text/plain; charset=utf-8');
    expect((await headers(csv, 'download'))['content-type']).toMatch(/^text\/csv/);
    // The browser's media view may load the file itself, and nothing runs.
    const policy = (await headers(mp4, 'preview'))['content-security-policy'] as string;
    expect(policy).toContain("media-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('script-src');
  });

  it.each([
    [
      'records one history event per upload, download, preview and print',
      'events.pdf',
      'minimal-document.pdf',
      [
        ['download', { preview: false, print: true }],
        ['preview', { preview: true, print: false }],
        ['download', { preview: false, print: false }],
        ['create', null],
      ],
    ],
    [
      'records a preview or print of a file no browser shows as the download it is',
      'events.docx',
      'test.docx',
      [
        ['download', { preview: false, print: false }],
        ['download', { preview: false, print: false }],
        ['download', { preview: false, print: false }],
        ['create', null],
      ],
    ],
  ])('%s', async (_title, name, corpusFile, expected) => {
    const file = await upload(name, readFileSync(path.join(CORPUS, corpusFile)));
    for (const mode of ['download', 'preview', 'print']) {
      await server.app.inject({
        method: 'GET',
        url: `/api/rest/files/${file.id}/${mode}`,
        headers: { cookie },
      });
    }
    const history = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history',
      headers: { cookie },
      payload: { entity_id: file.id },
    });
    const events = history.json<Page<HistoryEventDto>>().items;
    expect(events.map((e) => [e.action, e.attributes.download ?? null])).toEqual(expected);
    expect(events[3]!.attributes).toMatchObject({
      name,
      parent: { id: '', name: 'Root' },
    });
  });

  it("records a video preview once, not again for the browser's media element request", async () => {
    const video = await upload(
      'clip.mp4',
      readFileSync(path.join(CORPUS, 'small-mp4-with-audio.mp4')),
    );
    const pdf = await upload('media.pdf', readFileSync(path.join(CORPUS, 'minimal-document.pdf')));
    const read = async (file: FileDto, mode: string, dest: string) => {
      const answer = await server.app.inject({
        method: 'GET',
        url: `/api/rest/files/${file.id}/${mode}`,
        headers: { cookie, 'sec-fetch-dest': dest },
      });
      expect(answer.statusCode).toBe(200);
    };
    const actions = async (file: FileDto) =>
      (
        await server.app.inject({
          method: 'POST',
          url: '/api/rest/history',
          headers: { cookie },
          payload: { entity_id: file.id },
        })
      )
        .json<Page<HistoryEventDto>>()
        .items.map((e) => e.action);
    // A media request with no preview before it (a client claiming to be a player) is recorded.
    await read(video, 'preview', 'video');
    expect(await actions(video)).toEqual(['preview', 'create']);
    // Opening the preview (a navigation), then the player's own request: one more event.
    await read(video, 'preview', 'document');
    await read(video, 'preview', 'video');
    expect(await actions(video)).toEqual(['preview', 'preview', 'create']);
    // A download is always recorded, whatever the request says of itself.
    await read(video, 'download', 'video');
    expect(await actions(video)).toEqual(['download', 'preview', 'preview', 'create']);
    // Another file's preview is not covered by this one's.
    await read(pdf, 'preview', 'video');
    expect(await actions(pdf)).toEqual(['preview', 'create']);
  });

  it('refuses a tampered, expired or wrong-type PUT and stores nothing', async () => {
    const bytes = Buffer.from('tamper test');
    const answer = (await createUpload('tamper.txt', bytes.length)).json<CreateUploadResponse>();
    const tampered = {
      ...answer,
      url: answer.url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`),
    };
    expect((await put(tampered, bytes)).statusCode).toBe(403);
    const otherKey = { ...answer, url: answer.url.replace(/objects\/([^?]+)/, 'objects/$1x') };
    expect((await put(otherKey, bytes)).statusCode).toBe(403);
    const biggerLimit = { ...answer, url: answer.url.replace(/max=\d+/, 'max=999999') };
    expect((await put(biggerLimit, bytes)).statusCode).toBe(403);
    expect((await put(answer, bytes, { 'content-type': 'text/html' })).statusCode).toBe(415);
    server.clock.now += 16 * 60_000;
    const expired = await put(answer, bytes);
    server.clock.now = Date.now();
    expect(expired.statusCode).toBe(403);
    expect(expired.json<{ message: string }>().message).toBe(MESSAGES.invalidSignature);
    expect(await server.store.head(`${answer.url.split('objects/')[1]!.split('?')[0]}`)).toBeNull();
    expect((await record(answer.id)).statusCode).toBe(409);
  });

  it('refuses a PUT over the signed size and leaves no row, object or temporary file', async () => {
    const rowsBefore = await fileRowCount();
    const objectsBefore = objectCount();
    const answer = (await createUpload('big.bin', 1024)).json<CreateUploadResponse>();
    const response = await put(answer, Buffer.alloc(4096, 1));
    expect(response.statusCode).toBe(413);
    expect(await fileRowCount()).toBe(rowsBefore);
    expect(objectCount()).toBe(objectsBefore);
    expect(
      readdirSync(server.localStore!.temporaryDirectory).filter((n) => n !== 'multipart'),
    ).toEqual([]);
  });

  it('refuses a create-upload over 104857600 bytes, a non-Latin-1 name and a wrong type', async () => {
    const rowsBefore = await fileRowCount();
    const tooBig = await createUpload('huge.pdf', MAX_FILE_SIZE_BYTES + 1);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json<{ message: string }>().message).toBe(
      'huge.pdf (104,857,601 bytes) exceeds maximum allowed size of 104,857,600 bytes.',
    );
    const exact = await createUpload('exact.pdf', MAX_FILE_SIZE_BYTES);
    expect(exact.statusCode).toBe(201);
    const badName = await createUpload('Отчёт.pdf', 10);
    expect(badName.statusCode).toBe(400);
    expect(badName.json<{ message: string }>().message).toBe(MESSAGES.invalidFileName);
    const wrongType = await createUpload('report.pdf', 10, '', { content_type: 'text/html' });
    expect(wrongType.statusCode).toBe(400);
    const wrongExtension = await createUpload('report.pdf', 10, '', { extension: 'exe' });
    expect(wrongExtension.statusCode).toBe(400);
    expect(await fileRowCount()).toBe(rowsBefore + 1);
  });

  it('refuses to record an object whose size differs from the declared one, and removes it', async () => {
    const answer = (await createUpload('short.txt', 100)).json<CreateUploadResponse>();
    expect((await put(answer, Buffer.from('only a few bytes'))).statusCode).toBe(200);
    const recorded = await record(answer.id);
    expect(recorded.statusCode).toBe(422);
    expect(recorded.json<{ message: string }>().message).toBe('Failed to upload short.txt.');
    const key = answer.url.split('objects/')[1]!.split('?')[0]!;
    expect(await server.store.head(key)).toBeNull();
    expect((await record(answer.id)).statusCode).toBe(404);
  });

  it('answers 404 to a user of another firm for every file route', async () => {
    const file = await upload(
      'confidential.pdf',
      readFileSync(path.join(CORPUS, 'minimal-document.pdf')),
    );
    const pending = (await createUpload('pending.txt', 4)).json<CreateUploadResponse>();
    await addUser(server, { username: 'other-firm', password: 'other-firm-pw-1' });
    const rival = await signIn(server, 'other-firm', 'other-firm-pw-1');
    for (const url of ['', '/download', '/preview', '/print'].map(
      (s) => `/api/rest/files/${file.id}${s}`,
    )) {
      const response = await server.app.inject({ method: 'GET', url, headers: { cookie: rival } });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
    expect((await record(pending.id, rival)).statusCode).toBe(404);
    const history = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history',
      headers: { cookie: rival },
      payload: {},
    });
    expect(history.json<Page<HistoryEventDto>>().items.some((e) => e.entity_id === file.id)).toBe(
      false,
    );
  });
});
