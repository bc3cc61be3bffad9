/** The authorisation matrix's rows for document imaging; see routeTable.ts for the shape. */
import { Readable } from 'node:stream';
import { isoAt, newId } from '@server/ids';
import { saveRendition } from '@server/repositories/renditions';
import { renditionKeys } from '@server/services/imaging/derive';
import { s, type Fixture, type RouteRow } from './routeTable';

/** The 8-byte PNG signature: enough of a thumbnail for the matrix. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Gives a file of the firm a stored thumbnail (the rendition of its sha256; idempotent).
 * @returns the file's id
 */
export async function withThumbnail(f: Fixture, fileId: string): Promise<string> {
  const { db } = f.server.services;
  const { sha256 } = await db
    .selectFrom('files')
    .select('sha256')
    .where('id', '=', fileId)
    .executeTakeFirstOrThrow();
  if (!sha256) throw new Error(`file ${fileId} has no sha256`);
  const keys = renditionKeys(sha256);
  // Objects are immutable: a thumbnail already stored (the shared file's, asked again) stays.
  if (!(await f.server.store.head(keys.thumbnail))) {
    await f.server.store.write(keys.thumbnail, Readable.from([PNG]), PNG.length);
  }
  await saveRendition(db, {
    sha256,
    source_kind: 'pdf',
    pdf_key: null,
    text_key: null,
    thumbnail_key: keys.thumbnail,
    page_count: 1,
    text_chars: 0,
    recognized: 0,
    created_at: isoAt(f.server.services.clock),
  });
  return fileId;
}

/** A derivation job that gave up, on a fresh file of the firm: its id. */
async function failedJob(f: Fixture): Promise<string> {
  const fileId = await f.freshFile('own');
  const id = newId();
  const now = isoAt(f.server.services.clock);
  await f.server.services.db
    .insertInto('jobs')
    .values({
      id,
      kind: 'derive',
      database_id: f.databaseId,
      file_id: fileId,
      sha256: null,
      state: 'failed',
      attempts: 3,
      run_after: now,
      locked_by: null,
      lease_until: null,
      last_error: 'pdftoppm could not render the first page',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

// Statuses are getters: routeTable.ts imports this module, so `s` is read only once it exists.
export const IMAGING_ROWS: RouteRow[] = [
  {
    route: 'GET /api/rest/private/imaging/status',
    request: () => ({ method: 'GET', url: '/api/rest/private/imaging/status' }),
    // Administrators only; another firm's administrator sees their own firm's counts.
    get own() {
      return s(200, 403, 403, 200);
    },
  },
  {
    route: 'GET /api/rest/files/:id/rendition',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/files/${await f.freshFile(t)}/rendition`,
    }),
    // Whoever reads the file; another firm's file is 404, a restricted folder's too for members.
    get own() {
      return s(200, 200, 200, 404);
    },
    get restricted() {
      return s(200, 404, 404, 404);
    },
  },
  {
    route: 'GET /api/rest/files/:id/thumbnail',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/files/${await withThumbnail(f, await f.freshFile(t))}/thumbnail`,
    }),
    // As the preview: whoever reads the file; 404 for another firm and for a hidden folder's.
    get own() {
      return s(200, 200, 200, 404);
    },
    get restricted() {
      return s(200, 404, 404, 404);
    },
  },
  {
    route: 'GET /api/rest/shared/files/:id/rendition',
    request: (f) => ({
      method: 'GET',
      url: `/api/rest/shared/files/${f.sharedFileId}/rendition`,
    }),
    // Guests through their share only (as the shared preview); internal users read the state
    // through files/{id}/rendition.
    get own() {
      return s(404, 404, 404, 404, 401, 200);
    },
  },
  {
    route: 'GET /api/rest/shared/files/:id/thumbnail',
    request: async (f) => ({
      method: 'GET',
      url: `/api/rest/shared/files/${await withThumbnail(f, f.sharedFileId)}/thumbnail`,
    }),
    // Guests through their share only; internal users read thumbnails through files/{id}.
    get own() {
      return s(404, 404, 404, 404, 401, 200);
    },
  },
  {
    route: 'POST /api/rest/private/imaging/jobs/:id/retry',
    request: async (f) => ({
      method: 'POST',
      url: `/api/rest/private/imaging/jobs/${await failedJob(f)}/retry`,
    }),
    // Administrators of the firm owning the job; another firm's administrator 404.
    get own() {
      return s(200, 403, 403, 404);
    },
  },
];
