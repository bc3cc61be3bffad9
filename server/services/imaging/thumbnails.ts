/**
 * Serving first-page thumbnails (docs/architecture.md "Document imaging"): the PNG document
 * imaging stored under `renditions/<sha256>/thumbnail`, to whoever may read the file (the same
 * checks as its preview, archived files included) or to a guest through a share that reaches it.
 * A thumbnail is not a preview: reading one records nothing in the history.
 */
import { IMAGING_MESSAGES } from '@common/imaging';
import { notFound } from '@server/errors';
import { findRendition } from '@server/repositories/renditions';
import { accessibleFile } from '../access';
import type { RequestContext, Services } from '../context';
import { sharedFile } from '../sharingAccess';

/** A stored thumbnail, ready to be sent or answered 304. */
export interface StoredThumbnail {
  /** Its object key. */
  key: string;
  /** Its size in bytes. */
  size: number;
  /** Its strong entity tag (quoted): the original's sha256, from which the PNG is derived. */
  etag: string;
}

/**
 * The thumbnail of some bytes, when one is recorded and its object stored.
 * @throws AppError 404 `no_thumbnail` when there is none (yet)
 */
async function storedThumbnail(
  services: Pick<Services, 'db' | 'store'>,
  sha256: string | null,
): Promise<StoredThumbnail> {
  const missing = () => notFound(IMAGING_MESSAGES.noThumbnail, 'no_thumbnail');
  if (!sha256) throw missing();
  const rendition = await findRendition(services.db, sha256);
  if (!rendition?.thumbnail_key) throw missing();
  const object = await services.store.head(rendition.thumbnail_key);
  if (!object) throw missing();
  return { key: rendition.thumbnail_key, size: object.size, etag: `"${sha256}"` };
}

/**
 * GET /api/rest/files/{id}/thumbnail: the thumbnail of a file the session may read (archived
 * files too, as their preview).
 * @throws AppError 404 when the file is not visible to the session, or `no_thumbnail`
 */
export async function fileThumbnail(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<StoredThumbnail> {
  const file = await accessibleFile(services.db, ctx, id, 'read', { allowArchived: true });
  return storedThumbnail(services, file.sha256);
}

/**
 * GET /api/rest/shared/files/{id}/thumbnail: the thumbnail of a file a share gives the session
 * user (a guest) access to. Shown like an inline preview, so a link without download allows it.
 * @throws AppError 404 (`access_ended` when the share has ended), or `no_thumbnail`
 */
export async function sharedFileThumbnail(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<StoredThumbnail> {
  const { file } = await sharedFile(services, ctx, id);
  return storedThumbnail(services, file.sha256);
}
