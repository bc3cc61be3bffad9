/**
 * Records management and file versions together, on SQLite and PostgreSQL: an older version of a
 * file under a legal hold or under retention cannot be deleted (409, nothing removed), and a
 * schedule counted from the last version counts from the newest version's time, not the file's
 * creation.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { newId } from '@server/ids';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFolder, type Actor } from './organiseHelpers';
import {
  applySchedule,
  archive,
  createSchedule,
  daysAgo,
  destroy,
  fileAt,
  placeHold,
  refusal,
} from './recordsHelpers';

describeEachDatabase('records and file versions', (kind) => {
  let server: TestServer;
  let admin: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const unique = (name: string) => `${name} ${newId().slice(-8)}`;

  /**
   * A file created `createdDaysAgo` days ago with two versions: version 1 then, version 2 (its
   * current bytes) `newestDaysAgo` days ago.
   */
  async function versionedFile(folderId: string, createdDaysAgo: number, newestDaysAgo: number) {
    const file = await fileAt(
      server,
      admin,
      `${unique('Statement')}.pdf`,
      folderId,
      daysAgo(server, createdDaysAgo),
    );
    const olderKey = `${admin.databaseId}/${newId()}`;
    const bytes = Buffer.from('the first version');
    const stored = await server.store.write(olderKey, Readable.from([bytes]), bytes.length);
    const version = (number: number, key: string, size: number, at: string) => ({
      file_id: file.id,
      number,
      database_id: admin.databaseId,
      storage_key: key,
      size,
      sha256: number === 1 ? (stored.sha256 ?? null) : file.sha256,
      content_type: 'application/pdf',
      created_by: admin.userId,
      created_at: at,
      restored_from: null,
      upload_id: null,
      upload_batch_id: null,
      upload_client_key: null,
    });
    await server.services.db
      .insertInto('file_versions')
      .values([
        version(1, olderKey, bytes.length, daysAgo(server, createdDaysAgo)),
        version(2, file.storageKey, 10, daysAgo(server, newestDaysAgo)),
      ])
      .execute();
    return file;
  }

  async function versionNumbers(fileId: string): Promise<number[]> {
    const rows = await server.services.db
      .selectFrom('file_versions')
      .select('number')
      .where('file_id', '=', fileId)
      .orderBy('number')
      .execute();
    return rows.map((row) => Number(row.number));
  }

  it('refuses to delete an older version of a held file, and deletes it once nothing holds it', async () => {
    const folder = await makeFolder(server, admin, unique('Held versions'));
    const file = await versionedFile(folder.id, 30, 1);
    await placeHold(server, admin, {
      name: unique('Dispute'),
      targets: [{ type: 'folder', id: folder.id }],
    });
    const refused = await call(server, admin, 'DELETE', `/api/rest/files/${file.id}/versions/1`);
    expect(refused.statusCode).toBe(409);
    expect(refusal(refused).code).toBe('under_legal_hold');
    expect(await versionNumbers(file.id)).toEqual([1, 2]);

    const free = await makeFolder(server, admin, unique('Free versions'));
    const other = await versionedFile(free.id, 30, 1);
    const deleted = await call(server, admin, 'DELETE', `/api/rest/files/${other.id}/versions/1`);
    expect(deleted.statusCode).toBeLessThan(300);
    expect(await versionNumbers(other.id)).toEqual([2]);
  });

  it('counts a last-version schedule from the newest version, not from the creation', async () => {
    const folder = await makeFolder(server, admin, unique('Last version'));
    // Created 400 days ago; its newest version is 10 days old. One year from the last version
    // runs for about 355 more days; one year from creation has ended.
    const file = await versionedFile(folder.id, 400, 10);
    const schedule = await createSchedule(server, admin, {
      name: unique('One year from last version'),
      period_count: 1,
      period_unit: 'years',
      basis: 'last_version',
    });
    await applySchedule(server, admin, schedule.id, { type: 'folder', id: folder.id });
    const refused = await call(server, admin, 'DELETE', `/api/rest/files/${file.id}/versions/1`);
    expect(refused.statusCode).toBe(409);
    expect(refusal(refused).code).toBe('under_retention');
    expect(refusal(refused).message).toContain(schedule.name);

    const byCreation = await makeFolder(server, admin, unique('From creation'));
    const old = await versionedFile(byCreation.id, 400, 10);
    const fromCreation = await createSchedule(server, admin, {
      name: unique('One year from creation'),
      period_count: 1,
      period_unit: 'years',
      basis: 'created',
    });
    await applySchedule(server, admin, fromCreation.id, { type: 'folder', id: byCreation.id });
    expect((await archive(server, admin, [{ type: 'file', id: old.id }])).statusCode).toBe(200);
    expect((await destroy(server, admin, [{ type: 'file', id: old.id }])).statusCode).toBe(200);
  });
});
