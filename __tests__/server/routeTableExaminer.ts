/**
 * The authorisation matrix's rows for the examiner's export (administrators of the firm only; see
 * routeTable.ts for the shape). Administrators see restricted folders, so the restricted target
 * answers as the own one.
 */
import type { ExaminerExportDto } from '@common/examinerExport';
import { s, type Fixture, type RouteRow, type Target } from './routeTable';

/** Administrators of the firm; members and read-only members 403; another firm's admin 404. */
const ADMIN_ITEM = (ok = 200) => s(ok, 403, 403, 404);

/** An export the administrator asked for, of a fresh folder of the target. */
async function adminExport(f: Fixture, t: Target): Promise<ExaminerExportDto> {
  const response = await f.server.app.inject({
    method: 'POST',
    url: '/api/rest/examiner_exports',
    headers: { cookie: f.adminCookie },
    payload: { scope: { kind: 'folder', folder_id: await f.freshFolder(t) } },
  });
  return response.json<ExaminerExportDto>();
}

export const EXAMINER_ROWS: RouteRow[] = [
  {
    route: 'POST /api/rest/examiner_exports',
    request: async (f, t) => ({
      method: 'POST',
      url: '/api/rest/examiner_exports',
      payload: { scope: { kind: 'folder', folder_id: await f.freshFolder(t) } },
    }),
    own: ADMIN_ITEM(201),
    restricted: ADMIN_ITEM(201),
  },
  {
    route: 'GET /api/rest/examiner_exports/:id',
    request: async (f, t) => ({
      method: 'GET',
      url: `/api/rest/examiner_exports/${(await adminExport(f, t)).id}`,
    }),
    own: ADMIN_ITEM(),
    restricted: ADMIN_ITEM(),
  },
  {
    route: 'GET /api/rest/examiner_exports/zip/:token',
    // The link is the administrator's own: another firm's administrator gets 404 (zip_expired).
    request: async (f, t) => ({ method: 'GET', url: (await adminExport(f, t)).url! }),
    own: ADMIN_ITEM(),
    restricted: ADMIN_ITEM(),
  },
];
