/**
 * Missing indexes (SPEC section 7 "Entities"): the live, ready files of the firm
 * that the session can see and that lack a live value for any of the chosen index fields, so a
 * firm can finish tagging its backlog. Every role may read it.
 */
import {
  INDEX_MESSAGES,
  MISSING_INDEXES_MAX_FIELDS,
  MISSING_INDEXES_PAGE_SIZE,
  type MissingIndexesRequest,
  type MissingIndexesResponse,
} from '@common/indexFields';
import { badRequest, notFound } from '../errors';
import { presentFile } from '../presenters';
import { sha256WithThumbnail } from '../repositories/renditions';
import { countMissingIndexes, listMissingIndexes } from '../repositories/appliedIndexes';
import { favoritesFor } from '../repositories/files';
import { findIndexFieldsByIds } from '../repositories/indexFields';
import { accessibleFolder, visibility } from './access';
import type { RequestContext, Services } from './context';
import { pageWindow } from './paging';

/**
 * POST REST/entities/search/missing-indexes?page={n}: files lacking a live value of any of
 * `index_field_ids` (fields of the firm, archived ones allowed), anywhere in the firm or under
 * `folder_id`, by name, MISSING_INDEXES_PAGE_SIZE (50) a page.
 * @throws AppError 400 no fields or too many; 404 a field not the firm's or deleted, or a folder
 *   not the firm's, archived or hidden
 */
export async function missingIndexes(
  services: Services,
  ctx: RequestContext,
  input: MissingIndexesRequest,
  page: number,
): Promise<MissingIndexesResponse> {
  const db = services.db;
  const fieldIds = [...new Set(input.index_field_ids)];
  if (fieldIds.length === 0) throw badRequest(INDEX_MESSAGES.noFieldsChosen, 'no_index_fields');
  if (fieldIds.length > MISSING_INDEXES_MAX_FIELDS) {
    throw badRequest(INDEX_MESSAGES.tooManyFieldsChosen, 'too_many_index_fields');
  }
  const fields = (await findIndexFieldsByIds(db, ctx.databaseId, fieldIds)).filter(
    (f) => f.deleted_at === null,
  );
  if (fields.length !== fieldIds.length) throw notFound();
  const folder = input.folder_id ? await accessibleFolder(db, ctx, input.folder_id, 'read') : null;
  const { folderVisible } = await visibility(db, ctx);
  const scope = {
    databaseId: ctx.databaseId,
    fieldIds,
    folderId: folder?.id ?? null,
    folderVisible,
  };
  const { offset, limit } = pageWindow(page, MISSING_INDEXES_PAGE_SIZE);
  const [total, rows] = await Promise.all([
    countMissingIndexes(db, scope),
    listMissingIndexes(db, scope, offset, limit),
  ]);
  const [favorites, thumbnails] = await Promise.all([
    favoritesFor(
      db,
      ctx.databaseId,
      ctx.userId,
      rows.map((r) => r.id),
    ),
    sha256WithThumbnail(
      db,
      rows.map((r) => r.sha256),
    ),
  ]);
  return {
    items: rows.map((row) => presentFile(row, { favorites, thumbnails })),
    page,
    page_size: MISSING_INDEXES_PAGE_SIZE,
    total,
  };
}
