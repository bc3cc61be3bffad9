/**
 * GET REST/private/records/protection: what protects one folder or file now, for the side panel
 * of the firm's administrators: the schedules that apply (for a folder, those its files get from
 * it), when the file's retention ends, the holds that cover it, and the message a permanent
 * delete would get.
 */
import type { ItemProtectionDto } from '@common/retention';
import { notFound } from '@server/errors';
import { assertAdmin } from '../access';
import type { RequestContext, Services } from '../context';
import { protectionOf, refusalOf, todayOf } from './protection';

/**
 * The protection of a folder or file of the session's firm (archived ones included).
 * @throws AppError 403 for non-administrators; 404 for an item not the firm's, the root, or a
 *   pending upload
 */
export async function itemProtection(
  services: Services,
  ctx: RequestContext,
  type: 'folder' | 'file',
  id: string,
): Promise<ItemProtectionDto> {
  assertAdmin(ctx);
  const today = todayOf(services.clock);
  const protection = await protectionOf(
    services.db,
    ctx.databaseId,
    type === 'file' ? { fileIds: [id] } : { folderIds: [id] },
    today,
  );
  const p = type === 'file' ? protection.files.get(id) : protection.folders.get(id);
  if (!p) throw notFound();
  return {
    type: p.type,
    id: p.id,
    name: p.name,
    schedules: p.schedules.map((s) => ({
      schedule_id: s.schedule_id,
      schedule_name: s.schedule_name,
      locked: s.locked,
      ends_on: s.ends_on,
      via: s.via,
    })),
    retained_until: p.type === 'file' ? p.retainedUntil : null,
    retention_pending: p.type === 'file' && p.pending !== null,
    holds: p.holds,
    refusal: refusalOf(p, today),
  };
}
