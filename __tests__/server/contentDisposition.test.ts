/**
 * The Content-Disposition header of every response that names a file, on SQLite and PostgreSQL:
 * pure ASCII, an ASCII `filename` stand-in and the exact name in `filename*=UTF-8''…` for a name
 * that is not plain ASCII (a Latin-1 name included), on download, preview, print, the folder zip,
 * a share link's download and the presigned upload PUT.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contentTypeFor } from '@common/files';
import { splitFileName } from '@common/names';
import type { CreateUploadResponse } from '@common/uploads';
import { asciiFileName, dispositionHeader } from '@server/disposition';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFile, makeFolder, type Actor } from './organiseHelpers';
import { createLink, guestCookie, send } from './sharingHelpers';

const LATIN1 = 'ÿlatin1é.txt';
const LATIN1_EXTENDED = "UTF-8''%C3%BFlatin1%C3%A9.txt";
/** Printable ASCII only: what an HTTP header value may safely hold. */
const ASCII_ONLY = /^[\x20-\x7e]+$/;

describe('dispositionHeader', () => {
  it('sends an ASCII filename and the exact name in filename* for a non-ASCII name', () => {
    expect(dispositionHeader(LATIN1, 'attachment')).toBe(
      `attachment; filename="ylatin1e.txt"; filename*=${LATIN1_EXTENDED}`,
    );
    expect(dispositionHeader('Отчёт Ω.pdf', 'inline')).toBe(
      'inline; filename="_____ _.pdf"; filename*=UTF-8\'\'%D0%9E%D1%82%D1%87%D1%91%D1%82%20%CE%A9.pdf',
    );
  });

  it('keeps a plain ASCII name as a quoted filename only', () => {
    expect(dispositionHeader('Statement 2024.pdf', 'attachment')).toBe(
      'attachment; filename="Statement 2024.pdf"',
    );
    expect(dispositionHeader('say "hi".txt', 'inline')).toBe('inline; filename="say \\"hi\\".txt"');
  });

  it('replaces what has no ASCII form and never answers an empty stand-in', () => {
    expect(asciiFileName('ﬁle\u00a0€.txt')).toBe('file _.txt');
    expect(asciiFileName('\u0301')).toBe('_');
  });
});

describeEachDatabase('Content-Disposition of a Latin-1 name', (kind) => {
  let server: TestServer;
  let admin: Actor;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Asserts an ASCII header with the stand-in and the exact name, of the given type. */
  function expectLatin1Header(header: unknown, type: 'attachment' | 'inline') {
    expect(typeof header).toBe('string');
    const value = header as string;
    expect(value).toMatch(ASCII_ONLY);
    expect(value).toBe(`${type}; filename="ylatin1e.txt"; filename*=${LATIN1_EXTENDED}`);
  }

  it('is ASCII with filename* on download, preview and print', async () => {
    const folder = await makeFolder(server, admin, 'Latin-1 files');
    const file = await makeFile(server, admin, LATIN1, folder.id, 'latin-1 bytes');
    for (const [mode, type] of [
      ['download', 'attachment'],
      ['preview', 'inline'],
      ['print', 'inline'],
    ] as const) {
      const response = await call(server, admin, 'GET', `/api/rest/files/${file.id}/${mode}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('latin-1 bytes');
      expectLatin1Header(response.headers['content-disposition'], type);
    }
  });

  it('is ASCII with filename* on a folder zip', async () => {
    const folder = await makeFolder(server, admin, 'Dossier ÿé');
    await makeFile(server, admin, 'inside.txt', folder.id);
    const response = await call(server, admin, 'GET', `/api/rest/folders/${folder.id}/download`);
    expect(response.statusCode).toBe(200);
    const header = response.headers['content-disposition'] as string;
    expect(header).toMatch(ASCII_ONLY);
    expect(header).toBe(
      'attachment; filename="Dossier ye.zip"; filename*=UTF-8\'\'Dossier%20%C3%BF%C3%A9.zip',
    );
  });

  it("is ASCII with filename* on a share link's download and preview", async () => {
    const folder = await makeFolder(server, admin, 'Shared Latin-1');
    const file = await makeFile(server, admin, LATIN1, folder.id, 'shared bytes');
    const link = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      allow_download: true,
    });
    const guest = await guestCookie(server, link.token, 'latin1-guest@example.com');
    const download = await send(server, guest, 'GET', `/api/rest/shared/files/${file.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('shared bytes');
    expectLatin1Header(download.headers['content-disposition'], 'attachment');
    const preview = await send(server, guest, 'GET', `/api/rest/shared/files/${file.id}/preview`);
    expect(preview.statusCode).toBe(200);
    expectLatin1Header(preview.headers['content-disposition'], 'inline');
  });

  it('is ASCII with filename* in the headers of the presigned upload PUT', async () => {
    const { extension } = splitFileName(LATIN1);
    const response = await call(server, admin, 'POST', '/api/rest/files', {
      folder_id: '',
      name: LATIN1,
      extension,
      content_type: contentTypeFor(extension),
      size: 5,
    });
    expect(response.statusCode).toBe(201);
    const upload = response.json<CreateUploadResponse>();
    expectLatin1Header(upload.headers['Content-Disposition'], 'attachment');
  });
});
