// File versions on both databases and both stores (describeEachStore): an upload with version_of
// becomes a new version that keeps the file's id, favorites, index values, contact links, shares
// and permissions; the versions are listed, read and restored (a server-side copy into a new
// version); an administrator deletes an older one; history records each in the transaction of
// the change; download, share links and content search serve the newest; a version_of that is
// not a live, visible, writable file of the same folder and firm is refused with nothing recorded.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Migrator, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summarizeHistoryEvent } from '@common/history';
import { contentTypeFor } from '@common/files';
import { nameKey, splitFileName } from '@common/names';
import type { AppliedIndexDto, IndexFieldDto } from '@common/indexFields';
import type { SearchResponse } from '@common/search';
import type { FileDto, FolderDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import type {
  CreateUploadResponse,
  PresignedRequestDto,
  SettledUploadResponse,
} from '@common/uploads';
import type {
  FileVersionsResponse,
  RestoreVersionResponse,
  UploadConflictsResponse,
} from '@common/versions';
import { migrateToLatest, openDatabase } from '@server/db/database';
import { migrations } from '@server/db/migrations';
import { isoAt, newId } from '@server/ids';
import { findJobForFile } from '@server/repositories/jobs';
import { replaceContentPages, saveRendition } from '@server/repositories/renditions';
import { insertContacts } from '@server/repositories/contacts';
import { contentPagesOf } from '@server/services/imaging/contentPages';
import { renditionKeys } from '@server/services/imaging/derive';
import { fingerprintsSettled } from '@server/services/fingerprints';
import {
  createPostgresDatabase,
  describeEachStore,
  startTestServer,
  type DatabaseKind,
  type TestServer,
} from './helpers';
import {
  adminActor,
  call,
  fileRow,
  itemEvents,
  makeFile,
  makeFolder,
  newActor,
  objectText,
  type Actor,
} from './organiseHelpers';
import { createLink, guestCookie, invitationMail, send as sendAs } from './sharingHelpers';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describeEachStore('file versions', (kind, store) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let readOnly: Actor;
  let otherFirm: Actor;
  let clients: FolderDto;
  let board: FolderDto;

  beforeAll(async () => {
    server = await startTestServer(kind, { store });
    admin = await adminActor(server);
    member = await newActor(server, 'ver-member', 'member', admin.databaseId);
    readOnly = await newActor(server, 'ver-reader', 'read_only', admin.databaseId);
    otherFirm = await newActor(server, 'ver-other', 'admin');
    clients = await makeFolder(server, admin, 'Clients');
    board = await makeFolder(server, admin, 'Board');
    const permit = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: board.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permit.statusCode).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Sends a presigned request: an app URL by inject, a store URL (S3) by fetch. */
  const put = async (signed: PresignedRequestDto, body: Buffer): Promise<number> => {
    if (signed.url.startsWith('/')) {
      const answer = await server.app.inject({
        method: signed.method,
        url: signed.url,
        headers: signed.headers,
        payload: body,
      });
      return answer.statusCode;
    }
    const answer = await fetch(signed.url, {
      method: signed.method,
      headers: signed.headers,
      body: new Uint8Array(body),
    });
    return answer.status;
  };

  const createBody = (folderId: string, name: string, size: number, extra: object = {}) => {
    const { extension } = splitFileName(name);
    return {
      folder_id: folderId,
      name,
      extension,
      content_type: contentTypeFor(extension),
      size,
      ...extra,
    };
  };

  /** Creates an upload, stores its bytes and answers the pending upload (no record yet). */
  const stageUpload = async (
    actor: Actor,
    folderId: string,
    name: string,
    bytes: Buffer,
    extra: object = {},
  ): Promise<CreateUploadResponse> => {
    const created = await call(
      server,
      actor,
      'POST',
      '/api/rest/files',
      createBody(folderId, name, bytes.length, extra),
    );
    expect(created.statusCode).toBe(201);
    const upload = created.json<CreateUploadResponse>();
    expect(await put(upload, bytes)).toBe(200);
    return upload;
  };
  const stage = async (...args: Parameters<typeof stageUpload>): Promise<string> =>
    (await stageUpload(...args)).id;

  const record = (actor: Actor, id: string, bytes?: Buffer) =>
    call(
      server,
      actor,
      'POST',
      '/api/rest/files/record',
      bytes ? { id, sha256: sha256(bytes) } : { id },
    );

  /** Uploads a file (or, with version_of, a new version) and answers the recorded file. */
  const upload = async (
    actor: Actor,
    folderId: string,
    name: string,
    bytes: Buffer,
    extra: object = {},
  ): Promise<FileDto> => {
    const id = await stage(actor, folderId, name, bytes, extra);
    const recorded = await record(actor, id, bytes);
    expect(recorded.statusCode).toBe(201);
    return recorded.json<FileDto>();
  };

  const versions = async (actor: Actor, fileId: string) => {
    const response = await call(server, actor, 'GET', `/api/rest/files/${fileId}/versions`);
    expect(response.statusCode).toBe(200);
    return response.json<FileVersionsResponse>().items;
  };

  const download = (actor: Actor, url: string) =>
    server.app.inject({ method: 'GET', url, headers: { cookie: actor.cookie } });

  const versionEvents = async (fileId: string): Promise<HistoryEventDto[]> =>
    (await itemEvents(server, admin, 'file', fileId)).filter((e) => e.action.endsWith('_version'));

  const counts = async () => {
    const db = server.services.db;
    const files = await db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await db
      .selectFrom('file_versions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const events = await db
      .selectFrom('history_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { files: Number(files.n), versions: Number(rows.n), events: Number(events.n) };
  };

  it('a new version keeps the id, favorites, index values, contact links, shares and permissions', async () => {
    const v1 = Buffer.from('Statement, first edition\n');
    const v2 = Buffer.from('Statement, second edition with corrections\n');
    const file = await upload(admin, clients.id, 'Statement.txt', v1);
    expect(await versions(admin, file.id)).toEqual([
      expect.objectContaining({ number: 1, size: v1.length, sha256: sha256(v1), newest: true }),
    ]);

    // Favorite, an index value, a contact on its folder, a share link with a guest.
    expect(
      (
        await call(server, admin, 'PATCH', `/api/rest/files/${file.id}/favorite`, {
          enabled: true,
        })
      ).statusCode,
    ).toBe(200);
    const field = await call(server, admin, 'POST', '/api/rest/index_fields', {
      name: `Account ${kind} ${store}`,
    });
    expect(field.statusCode).toBe(201);
    const fieldId = field.json<IndexFieldDto>().id;
    const applied = await call(server, admin, 'POST', '/api/rest/applied_indexes', {
      entity_ids: [file.id],
      indexes: [{ indexFieldId: fieldId, value: 'ACC-42' }],
    });
    expect(applied.statusCode).toBe(201);
    const contactId = newId();
    const at = isoAt(server.services.clock);
    await insertContacts(server.services.db, [
      {
        id: contactId,
        database_id: admin.databaseId,
        crm_id: null,
        name: 'Ada Client',
        name_key: 'ada client',
        email: null,
        phones: '[]',
        created_at: at,
        updated_at: at,
      },
    ]);
    const linked = await call(server, admin, 'POST', '/api/rest/folder_contacts', {
      folder_id: clients.id,
      contact_id: contactId,
    });
    expect(linked.statusCode).toBe(201);
    const email = `statement-${kind}-${store}@example.com`;
    await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      emails: [email],
      allow_download: true,
    });
    const guest = await guestCookie(server, (await invitationMail(server, email)).token, email);

    // The new version, by a member.
    const newer = await upload(member, clients.id, 'statement.TXT', v2, { version_of: file.id });
    expect(newer.id).toBe(file.id);
    expect(newer.name).toBe('Statement.txt');
    expect(newer.size).toBe(v2.length);
    expect(newer.sha256).toBe(sha256(v2));
    // No second file in the folder.
    const names = await call(
      server,
      admin,
      'GET',
      `/api/rest/folders/name_list?parent_id=${clients.id}`,
    );
    expect(names.json<{ names: string[] }>().names.filter((n) => /statement/i.test(n))).toEqual([
      'Statement.txt',
    ]);

    const after = await call(server, admin, 'GET', `/api/rest/files/${file.id}`);
    expect(after.json<FileDto>()).toMatchObject({ id: file.id, favorite: true, size: v2.length });
    const values = await call(
      server,
      admin,
      'GET',
      `/api/rest/applied_indexes?entity_id=${file.id}`,
    );
    expect(values.json<AppliedIndexDto[]>().map((v) => v.value)).toEqual(['ACC-42']);
    const contacts = await call(
      server,
      admin,
      'GET',
      `/api/rest/folders/${clients.id}/folder_contacts`,
    );
    expect(
      contacts.json<{ items: { contact_id: string }[] }>().items.map((c) => c.contact_id),
    ).toEqual([contactId]);
    // The share link serves the newest bytes.
    const shared = await sendAs(server, guest, 'GET', `/api/rest/shared/files/${file.id}/download`);
    expect(shared.statusCode).toBe(200);
    expect(shared.rawPayload.equals(v2)).toBe(true);
    const mine = await download(admin, `/api/rest/files/${file.id}/download`);
    expect(mine.rawPayload.equals(v2)).toBe(true);

    const list = await versions(admin, file.id);
    expect(list.map((v) => [v.number, v.size, v.sha256, v.newest, v.restored_from])).toEqual([
      [2, v2.length, sha256(v2), true, null],
      [1, v1.length, sha256(v1), false, null],
    ]);
    expect(list[0]!.created_by).toBe(member.userId);
    expect(list[0]!.created_by_name).toBe('ver-member Tester');
    expect(list[1]!.created_by).toBe(admin.userId);

    const [event] = await versionEvents(file.id);
    expect(event).toMatchObject({
      entity_type: 'file',
      entity_id: file.id,
      action: 'add_version',
      user_id: member.userId,
      attributes: {
        name: 'Statement.txt',
        parent: { id: clients.id, name: 'Clients' },
        version: { number: 2, size: v2.length, sha256: sha256(v2), content_type: 'text/plain' },
      },
    });
    expect(summarizeHistoryEvent(event!).summary).toBe(
      'ver-member Tester uploaded version 2 of file "Statement.txt"',
    );
    expect(summarizeHistoryEvent(event!).label).toBe('New version');
    // Filtered by its label on the History page.
    const filtered = await call(server, admin, 'POST', '/api/rest/history', {
      labels: ['New version'],
      item_id: file.id,
    });
    expect(filtered.json<{ items: HistoryEventDto[] }>().items.map((e) => e.action)).toEqual([
      'add_version',
    ]);
  });

  it('reads an older version, and restores it as a new version by a copy in the store', async () => {
    const v1 = randomBytes(3000);
    const v2 = randomBytes(4000);
    const file = await upload(admin, clients.id, 'Chart.png', v1);
    await upload(admin, clients.id, 'Chart.png', v2, { version_of: file.id });

    const old = await download(admin, `/api/rest/files/${file.id}/versions/1/download`);
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(v1)).toBe(true);
    expect(old.headers['content-disposition']).toContain(
      'attachment; filename="Chart (version 1).png"',
    );
    const preview = await download(admin, `/api/rest/files/${file.id}/versions/1/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(preview.headers['content-disposition']).toMatch(/^inline/);
    const ranged = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${file.id}/versions/1/download`,
      headers: { cookie: admin.cookie, range: 'bytes=10-19' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(v1.subarray(10, 20))).toBe(true);
    const reads = (await itemEvents(server, admin, 'file', file.id)).filter(
      (e) => e.action === 'download' || e.action === 'preview',
    );
    expect(reads[0]!.attributes.version).toEqual({ number: 1 });
    expect(summarizeHistoryEvent(reads[0]!).summary).toMatch(
      /downloaded version 1 of file "Chart.png"$/,
    );
    expect(summarizeHistoryEvent(reads.find((e) => e.action === 'preview')!).summary).toMatch(
      /previewed version 1 of file "Chart.png"$/,
    );
    const missing = await download(admin, `/api/rest/files/${file.id}/versions/9/download`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ code: string }>().code).toBe('version_not_found');

    // The newest cannot be restored.
    const newest = await call(
      server,
      admin,
      'POST',
      `/api/rest/files/${file.id}/versions/2/restore`,
    );
    expect(newest.statusCode).toBe(409);
    expect(newest.json<{ code: string; message: string }>()).toEqual({
      code: 'version_is_newest',
      message: 'Version 2 is already the newest.',
    });
    // A read-only member cannot restore.
    const reader = await call(
      server,
      readOnly,
      'POST',
      `/api/rest/files/${file.id}/versions/1/restore`,
    );
    expect(reader.statusCode).toBe(403);

    const restored = await call(
      server,
      member,
      'POST',
      `/api/rest/files/${file.id}/versions/1/restore`,
    );
    expect(restored.statusCode).toBe(201);
    const answer = restored.json<RestoreVersionResponse>();
    expect(answer.file_id).toBe(file.id);
    expect(answer.version).toMatchObject({
      number: 3,
      size: v1.length,
      sha256: sha256(v1),
      restored_from: 1,
      newest: true,
      created_by: member.userId,
    });
    const list = await versions(admin, file.id);
    expect(list.map((v) => [v.number, v.sha256, v.restored_from])).toEqual([
      [3, sha256(v1), 1],
      [2, sha256(v2), null],
      [1, sha256(v1), null],
    ]);
    const now = await download(admin, `/api/rest/files/${file.id}/download`);
    expect(now.rawPayload.equals(v1)).toBe(true);
    const row = await fileRow(server, file.id);
    expect(row).toMatchObject({ sha256: sha256(v1), size: v1.length });
    // Version 3 is an object of its own (a copy), not version 1's.
    const keys = await server.services.db
      .selectFrom('file_versions')
      .select(['number', 'storage_key'])
      .where('file_id', '=', file.id)
      .orderBy('number')
      .execute();
    expect(new Set(keys.map((k) => k.storage_key)).size).toBe(3);
    expect(row!.storage_key).toBe(keys[2]!.storage_key);

    const [event] = await versionEvents(file.id);
    expect(event).toMatchObject({
      action: 'restore_version',
      user_id: member.userId,
      attributes: { version: { number: 3, restored_from: 1, sha256: sha256(v1) } },
    });
    expect(summarizeHistoryEvent(event!).summary).toBe(
      'ver-member Tester restored version 1 of file "Chart.png" as version 3',
    );
  });

  it('lets an administrator delete an older version, never the newest, with its event', async () => {
    const v1 = Buffer.from('draft one');
    const v2 = Buffer.from('draft two!');
    const file = await upload(admin, clients.id, 'Draft.txt', v1);
    await upload(admin, clients.id, 'Draft.txt', v2, { version_of: file.id });
    const [oldKey] = (
      await server.services.db
        .selectFrom('file_versions')
        .select('storage_key')
        .where('file_id', '=', file.id)
        .where('number', '=', 1)
        .execute()
    ).map((r) => r.storage_key);
    expect(await objectText(server, oldKey!)).toBe('draft one');

    const byMember = await call(server, member, 'DELETE', `/api/rest/files/${file.id}/versions/1`);
    expect(byMember.statusCode).toBe(403);
    const newest = await call(server, admin, 'DELETE', `/api/rest/files/${file.id}/versions/2`);
    expect(newest.statusCode).toBe(409);
    expect(newest.json<{ code: string }>().code).toBe('version_is_newest');
    const deleted = await call(server, admin, 'DELETE', `/api/rest/files/${file.id}/versions/1`);
    expect(deleted.statusCode).toBe(204);
    expect((await versions(admin, file.id)).map((v) => v.number)).toEqual([2]);
    expect(await objectText(server, oldKey!)).toBeNull();
    const again = await call(server, admin, 'DELETE', `/api/rest/files/${file.id}/versions/1`);
    expect(again.statusCode).toBe(404);
    const [event] = await versionEvents(file.id);
    expect(event).toMatchObject({
      action: 'delete_version',
      attributes: { version: { number: 1, size: v1.length, sha256: sha256(v1) } },
    });
    expect(summarizeHistoryEvent(event!).summary).toMatch(
      /deleted version 1 of file "Draft.txt" permanently$/,
    );
    expect(summarizeHistoryEvent(event!).label).toBe('Version deleted');
    // The next version still takes the next number.
    await upload(admin, clients.id, 'Draft.txt', Buffer.from('draft three'), {
      version_of: file.id,
    });
    expect((await versions(admin, file.id)).map((v) => v.number)).toEqual([3, 2]);
  });

  it('refuses a version_of that is not a live, visible, writable file of the folder, recording nothing', async () => {
    const file = await upload(admin, clients.id, 'Target.txt', Buffer.from('target'));
    const secret = await upload(admin, board.id, 'Secret.txt', Buffer.from('secret'));
    const elsewhere = await makeFolder(server, admin, `Elsewhere ${kind}`);
    const foreign = await makeFile(server, otherFirm, 'Foreign.txt', '');
    const archived = await upload(admin, clients.id, 'Old.txt', Buffer.from('old'));
    expect(
      (await call(server, admin, 'POST', `/api/rest/files/${archived.id}/archive`)).statusCode,
    ).toBe(200);
    const before = await counts();
    const attempt = (actor: Actor, folderId: string, name: string, versionOf: string) =>
      call(
        server,
        actor,
        'POST',
        '/api/rest/files',
        createBody(folderId, name, 5, { version_of: versionOf }),
      );
    const cases: [Actor, string, string, string, number, string][] = [
      // Another folder than the file's.
      [admin, elsewhere.id, 'Target.txt', file.id, 400, 'version_other_folder'],
      // Another extension.
      [admin, clients.id, 'Target.pdf', file.id, 400, 'version_other_extension'],
      // Another firm's file: not revealed.
      [admin, '', 'Foreign.txt', foreign.id, 404, 'not_found'],
      // A file in a folder the member may not see.
      [member, board.id, 'Secret.txt', secret.id, 404, 'not_found'],
      // An archived file.
      [admin, clients.id, 'Old.txt', archived.id, 404, 'not_found'],
      // No such file.
      [admin, clients.id, 'Target.txt', newId(), 404, 'not_found'],
      // A read-only member.
      [readOnly, clients.id, 'Target.txt', file.id, 403, 'read_only'],
    ];
    for (const [actor, folderId, name, versionOf, status, code] of cases) {
      const response = await attempt(actor, folderId, name, versionOf);
      expect({
        name,
        status: response.statusCode,
        code: response.json<{ code: string }>().code,
      }).toEqual({
        name,
        status,
        code,
      });
    }
    expect(await counts()).toEqual(before);
    // Another firm's administrator naming this firm's file: 404, nothing recorded.
    const cross = await attempt(otherFirm, '', 'Target.txt', file.id);
    expect(cross.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it('refuses the record when the file was archived meanwhile, deleting the upload', async () => {
    const file = await upload(admin, clients.id, 'Moving.txt', Buffer.from('first'));
    const bytes = Buffer.from('second bytes');
    const pendingId = await stage(admin, clients.id, 'Moving.txt', bytes, { version_of: file.id });
    const pending = await fileRow(server, pendingId);
    expect(pending?.upload_version_of).toBe(file.id);
    expect(
      (await call(server, admin, 'POST', `/api/rest/files/${file.id}/archive`)).statusCode,
    ).toBe(200);
    const before = await counts();
    const refused = await record(admin, pendingId, bytes);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ code: string; message: string }>()).toEqual({
      code: 'version_target_changed',
      message:
        '"Moving.txt" was moved, archived or deleted while its new version was uploaded. Upload it again.',
    });
    expect(await fileRow(server, pendingId)).toBeUndefined();
    expect(await server.store.head(pending!.storage_key)).toBeNull();
    const after = await counts();
    expect(after).toEqual({ ...before, files: before.files - 1 });
  });

  it('records an upload once: a second record or create-upload answers the file', async () => {
    const file = await upload(admin, clients.id, 'Once.txt', Buffer.from('one'));
    const bytes = Buffer.from('two, once');
    const batch = { batch_id: newId(), client_key: 'uppy-once', version_of: file.id };
    const signed = await stageUpload(admin, clients.id, 'Once.txt', bytes, batch);
    const { id } = signed;
    const first = await record(admin, id, bytes);
    expect(first.statusCode).toBe(201);
    expect(first.json<FileDto>().id).toBe(file.id);
    const second = await record(admin, id);
    expect(second.statusCode).toBe(201);
    expect(second.json<FileDto>()).toMatchObject({ id: file.id, sha256: sha256(bytes) });
    // A resume after a reload asks create-upload again: the upload is settled.
    const again = await call(
      server,
      admin,
      'POST',
      '/api/rest/files',
      createBody(clients.id, 'Once.txt', bytes.length, batch),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json<SettledUploadResponse>()).toMatchObject({
      id,
      state: 'recorded',
      file: { id: file.id },
    });
    expect((await versions(admin, file.id)).map((v) => v.number)).toEqual([2, 1]);
    expect((await versionEvents(file.id)).map((e) => e.action)).toEqual(['add_version']);
    // Someone else cannot record it.
    expect((await record(member, id)).statusCode).toBe(404);
    // The presigned URL replayed: the local store refuses it (the key is a version's now), S3
    // takes it at a staging key nothing reads; the version's bytes stay.
    const replay = await put(signed, Buffer.from('evil, once'));
    if (store === 'local') expect(replay).toBe(409);
    const now = await download(admin, `/api/rest/files/${file.id}/versions/2/download`);
    expect(now.rawPayload.equals(bytes)).toBe(true);
  });

  it('fingerprints a version recorded without a sha256 after the record', async () => {
    const file = await upload(admin, clients.id, 'Ledger.csv', Buffer.from('a,b\n'));
    // Over the inline checksum limit (the multipart threshold), without the client's sha256.
    const size = server.config.uploads.multipart_threshold + 1024;
    const bytes = randomBytes(size);
    const id = await stage(admin, clients.id, 'Ledger.csv', bytes, { version_of: file.id });
    const recorded = await record(admin, id);
    expect(recorded.statusCode).toBe(201);
    await fingerprintsSettled(server.services);
    const list = await versions(admin, file.id);
    expect(list[0]).toMatchObject({ number: 2, size, sha256: sha256(bytes) });
    expect((await fileRow(server, file.id))!.sha256).toBe(sha256(bytes));
  });

  it('answers the clashing names of an upload with their files', async () => {
    const a = await upload(admin, clients.id, 'Clash A.txt', Buffer.from('a'));
    const response = await call(server, admin, 'POST', '/api/rest/files/conflicts', {
      folder_id: clients.id,
      names: ['clash a.TXT', 'Fresh.txt', 'Clients'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<UploadConflictsResponse>().items).toEqual([
      { name: 'clash a.TXT', file_id: a.id, file_name: 'Clash A.txt' },
    ]);
    const hidden = await call(server, member, 'POST', '/api/rest/files/conflicts', {
      folder_id: board.id,
      names: ['Secret.txt'],
    });
    expect(hidden.statusCode).toBe(404);
    const reader = await call(server, readOnly, 'POST', '/api/rest/files/conflicts', {
      folder_id: clients.id,
      names: ['Clash A.txt'],
    });
    expect(reader.statusCode).toBe(403);
  });

  it('search and document imaging follow the newest version', async () => {
    const v1 = Buffer.from('old words');
    const v2 = Buffer.from('new words');
    const file = await upload(admin, clients.id, `Memo ${store}.pdf`, v1);
    const withText = async (bytes: Buffer, text: string) => {
      const sha = sha256(bytes);
      await server.services.db.transaction().execute(async (trx) => {
        await saveRendition(trx, {
          sha256: sha,
          source_kind: 'pdf',
          pdf_key: null,
          text_key: renditionKeys(sha).text,
          thumbnail_key: null,
          page_count: 1,
          text_chars: text.length,
          recognized: 0,
          created_at: isoAt(server.services.clock),
        });
        await replaceContentPages(trx, sha, contentPagesOf(text));
      });
    };
    await withText(v1, 'the platypusfirst clause');
    await withText(v2, 'the echidnasecond clause');
    const search = async (query: string) => {
      const response = await call(server, admin, 'POST', '/api/rest/entities/search', {
        filters: { query },
      });
      return response.json<SearchResponse>().items.map((h) => h.id);
    };
    expect(await search('platypusfirst')).toEqual([file.id]);
    const jobBefore = await findJobForFile(server.services.db, 'derive', file.id);
    expect(jobBefore).toBeDefined();
    await server.services.db
      .updateTable('jobs')
      .set({ state: 'done' })
      .where('id', '=', jobBefore!.id)
      .execute();
    await upload(admin, clients.id, `Memo ${store}.pdf`, v2, { version_of: file.id });
    expect(await search('platypusfirst')).toEqual([]);
    expect(await search('echidnasecond')).toEqual([file.id]);
    // The derivation job runs again, for the new bytes.
    const job = await findJobForFile(server.services.db, 'derive', file.id);
    expect(job).toMatchObject({
      id: jobBefore!.id,
      state: 'queued',
      sha256: sha256(v2),
      attempts: 0,
    });
    // The older version keeps its derivatives (its preview shows them).
    const { unreferencedSha256 } = await import('@server/repositories/renditions');
    expect(await unreferencedSha256(server.services.db, [sha256(v1)])).toEqual([]);
  });

  it('a permanent delete removes every version and its objects', async () => {
    const file = await upload(admin, clients.id, 'Gone.txt', Buffer.from('gone one'));
    await upload(admin, clients.id, 'Gone.txt', Buffer.from('gone two'), { version_of: file.id });
    const keys = (
      await server.services.db
        .selectFrom('file_versions')
        .select('storage_key')
        .where('file_id', '=', file.id)
        .execute()
    ).map((r) => r.storage_key);
    expect(keys).toHaveLength(2);
    expect(
      (await call(server, admin, 'POST', `/api/rest/files/${file.id}/archive`)).statusCode,
    ).toBe(200);
    const destroyed = await call(server, admin, 'POST', '/api/rest/bulk/destroy', {
      items: [{ id: file.id, type: 'file' }],
    });
    expect(destroyed.statusCode).toBe(200);
    for (const key of keys) expect(await server.store.head(key)).toBeNull();
    const left = await server.services.db
      .selectFrom('file_versions')
      .select('number')
      .where('file_id', '=', file.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('a copy starts at version 1, and a file recorded without versions counts as version 1', async () => {
    const file = await upload(admin, clients.id, 'Copied.txt', Buffer.from('c1'));
    await upload(admin, clients.id, 'Copied.txt', Buffer.from('c2'), { version_of: file.id });
    const copied = await call(server, admin, 'POST', `/api/rest/files/${file.id}/copy`, {});
    expect(copied.statusCode).toBe(201);
    const copy = copied.json<FileDto>();
    expect(await versions(admin, copy.id)).toEqual([
      expect.objectContaining({ number: 1, sha256: sha256('c2'), newest: true }),
    ]);

    const bare = await makeFile(server, admin, 'Bare.txt', clients.id, 'bare one');
    expect((await versions(admin, bare.id)).map((v) => [v.number, v.sha256])).toEqual([
      [1, sha256('bare one')],
    ]);
    await upload(admin, clients.id, 'Bare.txt', Buffer.from('bare two'), { version_of: bare.id });
    expect((await versions(admin, bare.id)).map((v) => [v.number, v.sha256])).toEqual([
      [2, sha256('bare two')],
      [1, sha256('bare one')],
    ]);
    const first = await download(admin, `/api/rest/files/${bare.id}/versions/1/download`);
    expect(first.payload).toBe('bare one');
  });

  it('keeps versions private to whoever may read the file', async () => {
    const secret = await upload(admin, board.id, 'Minutes.txt', Buffer.from('minutes'));
    for (const [actor, status] of [
      [member, 404],
      [otherFirm, 404],
      [readOnly, 404],
      [admin, 200],
    ] as const) {
      const list = await call(server, actor, 'GET', `/api/rest/files/${secret.id}/versions`);
      expect(list.statusCode).toBe(status);
      const read = await download(actor, `/api/rest/files/${secret.id}/versions/1/download`);
      expect(read.statusCode).toBe(status);
    }
  });
});

describe.each<DatabaseKind>(process.env.DOSSIER_TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite'])(
  'migration 0026 [%s]',
  (kind) => {
    it('gives every recorded file its version 1 and leaves pending uploads alone', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'dossier-versions-'));
      let url = `sqlite://${path.join(dir, 'm.sqlite')}`;
      let drop: () => Promise<void> = async () => undefined;
      if (kind === 'postgres') ({ url, drop } = await createPostgresDatabase());
      const database = openDatabase(url);
      try {
        const migrator = new Migrator({
          db: database.db,
          provider: { getMigrations: () => Promise.resolve(migrations) },
        });
        expect((await migrator.migrateTo('0025_firm_provisioning')).error).toBeUndefined();
        const now = '2024-03-01T10:00:00.000Z';
        const firm = newId();
        const user = newId();
        await sql`insert into databases (id, name, description, created_at)
                values (${firm}, 'Firm', 'Firm', ${now})`.execute(database.db);
        await sql`insert into users (id, username, username_key, email, first_name, last_name,
                  password_hash, sso, disabled_at, created_at, updated_at)
                values (${user}, 'u', 'u', null, 'U', 'Ser', 'x', 0, null, ${now}, ${now})`.execute(
          database.db,
        );
        const insert = (id: string, status: string, sha: string | null) =>
          sql`insert into files (id, database_id, folder_id, name, name_key, extension, size,
              content_type, storage_key, status, sha256, created_by, created_at, updated_at)
            values (${id}, ${firm}, '', ${id}, ${nameKey(id)}, 'txt', 12, 'text/plain',
              ${`${firm}/${id}`}, ${status}, ${sha}, ${user}, ${now}, ${now})`.execute(database.db);
        const ready = newId();
        const pending = newId();
        await insert(ready, 'ready', 'a'.repeat(64));
        await insert(pending, 'pending', null);
        await migrateToLatest(database.db);
        const rows = await database.db.selectFrom('file_versions').selectAll().execute();
        expect(rows.map((r) => ({ ...r, size: Number(r.size), number: Number(r.number) }))).toEqual(
          [
            {
              file_id: ready,
              number: 1,
              database_id: firm,
              storage_key: `${firm}/${ready}`,
              size: 12,
              sha256: 'a'.repeat(64),
              content_type: 'text/plain',
              created_by: user,
              created_at: now,
              restored_from: null,
              upload_id: null,
              upload_batch_id: null,
              upload_client_key: null,
            },
          ],
        );
      } finally {
        await database.close();
        await drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
