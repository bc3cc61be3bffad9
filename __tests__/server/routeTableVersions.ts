/** The authorisation matrix's rows for file versions; see routeTable.ts for the shape. */
import { Readable } from 'node:stream';
import { newId } from '@server/ids';
import { insertVersions } from '@server/repositories/fileVersions';
import { s, type Fixture, type RouteRow, type Target } from './routeTable';

/** Reading an item: everyone of the firm; the item of another firm is 404. */
const READ = (ok = 200) => s(ok, ok, ok, 404);
/** Reading an item in a restricted folder: only administrators. */
const READ_HIDDEN = (ok = 200) => s(ok, 404, 404, 404);
/** Changing an item: administrators and members; read-only members 403. */
const WRITE = (ok = 200) => s(ok, ok, 403, 404);
/** Changing an item in a restricted folder: administrators; members 404; read-only 403 first. */
const WRITE_HIDDEN = (ok = 200) => s(ok, 404, 403, 404);

/**
 * A fresh file of the target with two versions (version 2, its newest, is the row's object):
 * its id.
 */
async function fileWithTwoVersions(f: Fixture, t: Target): Promise<string> {
  const id = await f.freshFile(t);
  const { db } = f.server.services;
  const first = await db
    .selectFrom('files')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const key = `${f.databaseId}/${newId()}`;
  const bytes = Buffer.from(`second version of ${first.name}`);
  const stored = await f.server.store.write(key, Readable.from([bytes]), bytes.length);
  const base = {
    file_id: id,
    database_id: f.databaseId,
    content_type: first.content_type,
    created_by: f.adminId,
    created_at: first.created_at,
  };
  await insertVersions(db, [
    { ...base, number: 1, storage_key: first.storage_key, size: first.size, sha256: first.sha256 },
    { ...base, number: 2, storage_key: key, size: bytes.length, sha256: stored.sha256 ?? null },
  ]);
  await db
    .updateTable('files')
    .set({ storage_key: key, size: bytes.length, sha256: stored.sha256 ?? null })
    .where('id', '=', id)
    .execute();
  return id;
}

export const VERSION_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/files/:id/versions',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/files/${await f.freshFile(t)}/versions`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  },
  ...(['download', 'preview'] as const).map((mode): RouteRow => ({
    route: `GET /api/rest/files/:id/versions/:number/${mode}`,
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/files/${await fileWithTwoVersions(f, t)}/versions/1/${mode}`,
    }),
    own: READ(),
    restricted: READ_HIDDEN(),
  })),
  {
    route: 'POST /api/rest/files/:id/versions/:number/restore',
    request: async (f, t) => ({
      method: 'POST',
      url: `/api/rest/files/${await fileWithTwoVersions(f, t)}/versions/1/restore`,
    }),
    own: WRITE(201),
    restricted: WRITE_HIDDEN(201),
  },
  {
    route: 'DELETE /api/rest/files/:id/versions/:number',
    request: async (f, t) => ({
      method: 'DELETE',
      url: `/api/rest/files/${await fileWithTwoVersions(f, t)}/versions/1`,
    }),
    // Administrators only; a member who cannot see the folder gets 404 first.
    own: s(204, 403, 403, 404),
    restricted: s(204, 404, 403, 404),
  },
  {
    route: 'POST /api/rest/files/conflicts',
    request: (f, t) => ({
      method: 'POST',
      url: '/api/rest/files/conflicts',
      payload: { folder_id: f.home(t), names: ['a.txt'] },
    }),
    // As an upload into the folder: members and administrators.
    own: WRITE(),
    restricted: WRITE_HIDDEN(),
  },
];
