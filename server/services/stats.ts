/**
 * File statistics (SPEC section 7 "Folders", "Files"), served only while the
 * `fileStats` flag is on: a folder's tree (recursive), the firm database's totals, and the files
 * by type in the spec's eight categories (SPEC section 3, common/files.ts).
 */
import { FILE_CATEGORIES, fileCategory, type FileCategory } from '@common/files';
import type { FileStatsDto, FolderStatsDto, TypeStatDto } from '@common/stats';
import { notFound } from '../errors';
import {
  firmFileStatsByExtension,
  firmTotals,
  folderTreeStats,
  type ExtensionStat,
} from '../repositories/lists';
import { accessibleFolder, hiddenRoots, visibility } from './access';
import type { RequestContext, Services } from './context';

/** Every category in the spec's order: Video, Image, Document, PDF, Spreadsheet, Audio, Presentation, Other. */
export const CATEGORY_ORDER: readonly FileCategory[] = [
  ...(Object.keys(FILE_CATEGORIES) as Exclude<FileCategory, 'Other'>[]),
  'Other',
];

/**
 * Refuses statistics while the fileStats flag is off, as if the routes did not exist.
 * @throws AppError 404
 */
export function assertStatsEnabled(services: Services): void {
  if (!services.config.featureFlags.fileStats) throw notFound();
}

/** Folds per-extension counts into the eight categories, all present, zeros included. */
export function statsByCategory(byExtension: ExtensionStat[]): TypeStatDto[] {
  const totals = new Map<FileCategory, TypeStatDto>(
    CATEGORY_ORDER.map((category) => [category, { category, count: 0, size: 0 }]),
  );
  for (const stat of byExtension) {
    const entry = totals.get(fileCategory(stat.extension))!;
    entry.count += stat.count;
    entry.size += stat.size;
  }
  return CATEGORY_ORDER.map((category) => totals.get(category)!);
}

/**
 * Statistics of a folder's tree: its subfolders at any depth, its ready files, their bytes and
 * types. A live folder counts its live tree; an archived folder (opened from the Archive page)
 * counts what was archived with it. Restricted subfolders hidden from the session are not counted.
 * @throws AppError 404 when the flag is off or the folder is not visible to the session
 */
export async function folderStats(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<FolderStatsDto> {
  assertStatsEnabled(services);
  const folder = await accessibleFolder(services.db, ctx, folderId, 'read', {
    allowArchived: true,
  });
  if (!folder) throw notFound();
  const scope =
    folder.archived_at === null
      ? ({ live: true } as const)
      : ({ live: false, archivedRootId: folder.archived_root_id ?? folder.id } as const);
  const hidden = await hiddenRoots(services.db, ctx);
  const stats = await folderTreeStats(services.db, ctx.databaseId, folder.id, scope, hidden);
  const byType = statsByCategory(stats.byExtension);
  return {
    folder_id: folder.id,
    folders: stats.folders,
    files: byType.reduce((n, t) => n + t.count, 0),
    size: byType.reduce((n, t) => n + t.size, 0),
    by_type: byType,
  };
}

/**
 * The firm database's totals: live folders, live ready files and their bytes, archived files,
 * leaving out what lies in restricted folders hidden from the session.
 * @throws AppError 404 when the flag is off
 */
export async function fileStats(services: Services, ctx: RequestContext): Promise<FileStatsDto> {
  assertStatsEnabled(services);
  const { folderVisible } = await visibility(services.db, ctx);
  const totals = await firmTotals(services.db, ctx.databaseId, folderVisible);
  return {
    files: totals.files,
    folders: totals.folders,
    size: totals.size,
    archived_files: totals.archivedFiles,
  };
}

/**
 * The firm database's live ready files by type: the eight categories in the spec's order.
 * @throws AppError 404 when the flag is off
 */
export async function fileStatsByType(
  services: Services,
  ctx: RequestContext,
): Promise<TypeStatDto[]> {
  assertStatsEnabled(services);
  const { folderVisible } = await visibility(services.db, ctx);
  return statsByCategory(
    await firmFileStatsByExtension(services.db, ctx.databaseId, folderVisible),
  );
}
