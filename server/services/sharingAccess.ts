/**
 * What a share gives access to (SPEC section 7 "Shares"; docs/roles.md "Guests"): the
 * shared item, and for a shared folder everything inside it that is live and not restricted by
 * folder permissions. Access is decided on every request from the share rows, never cached in the
 * session: a share whose link was revoked or expired, or which was removed, ends access at once.
 * An item a share covered once but no longer answers 404 `access_ended` ("Your access to this item
 * has ended."); any other item 404 `not_found`, so nothing else of the firm is revealed.
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import { ACCESS_ENDED_CODE, SHARING_MESSAGES, type SharedEntityDto } from '@common/sharing';
import { previewContentType } from '@common/files';
import { dispositionHeader } from '../disposition';
import type { FileRow, FolderRow } from '../db/schema';
import type { ExternalShareRow } from '../db/schemaSharing';
import type { FileRenditionDto } from '@common/imaging';
import { isInlinePreviewable } from '@common/files';
import { forbidden, notFound, type AppError } from '../errors';
import { displayName } from '../presenters';
import { findFile, findFilesByIds } from '../repositories/files';
import { findFolder, findFoldersByIds, folderAncestry } from '../repositories/folders';
import {
  findLinksByIds,
  restrictedAmong,
  sharedFolderContents,
  sharesOfUser,
  type ShareLinkWithCreator,
} from '../repositories/shares';
import { sha256WithThumbnail } from '../repositories/renditions';
import type { Executor } from '../repositories/types';
import { assertRangeSatisfiable } from './byteRanges';
import type { RequestContext, Services } from './context';
import { partOfRecordedPreview, servedReadMode, type FileStream, type ReadRequest } from './files';
import { recordItemRead } from './historyEvents';
import { pdfRenditionOf, renditionStateOf } from './imaging/renditions';

/** A share of the session user with its link and whether it still gives access. */
export interface UserShare {
  share: ExternalShareRow;
  link: ShareLinkWithCreator;
  active: boolean;
}

/** Whether a link gives access at `now` (epoch ms): not revoked and not expired. */
export function linkLive(link: { revoked_at: string | null; expires_at: string }, now: number) {
  return link.revoked_at === null && Date.parse(link.expires_at) > now;
}

/** 404 `access_ended`: the item was shared with the session user but no longer is. */
export function accessEnded(): AppError {
  return notFound(SHARING_MESSAGES.accessEnded, ACCESS_ENDED_CODE);
}

/** Every share of the session user in its firm, with its link and whether it is active. */
export async function userShares(services: Services, ctx: RequestContext): Promise<UserShare[]> {
  const shares = await sharesOfUser(services.db, ctx.databaseId, ctx.userId);
  const links = await findLinksByIds(services.db, ctx.databaseId, [
    ...new Set(shares.map((s) => s.link_id)),
  ]);
  const byId = new Map(links.map((l) => [l.id, l]));
  const now = services.clock();
  return shares.flatMap((share) => {
    const link = byId.get(share.link_id);
    if (!link) return [];
    return [{ share, link, active: share.removed_at === null && linkLive(link, now) }];
  });
}

/** The access a share gives to a folder: the share and the chain from its root down. */
export interface SharedFolderAccess {
  grant: UserShare;
  folder: FolderRow;
  /** From the shared folder (the share's root) down to the folder, inclusive. */
  chain: { id: string; name: string }[];
}

/**
 * The covering shares of an item given its folder chain (top level first): shares of the item
 * itself and of any folder of the chain. Active ones first; the one nearest the top wins.
 */
function covering(
  shares: UserShare[],
  chainIds: string[],
  item?: { type: 'file'; id: string },
): UserShare[] {
  const position = new Map(chainIds.map((id, i) => [id, i]));
  return shares
    .filter(
      (s) =>
        (s.share.entity_type === 'folder' && position.has(s.share.entity_id)) ||
        (item !== undefined && s.share.entity_type === 'file' && s.share.entity_id === item.id),
    )
    .sort(
      (a, b) =>
        Number(b.active) - Number(a.active) ||
        (position.get(a.share.entity_id) ?? chainIds.length) -
          (position.get(b.share.entity_id) ?? chainIds.length),
    );
}

/**
 * Whether a folder below a share's root is hidden from guests: restricted (it carries folder
 * permissions) anywhere below the shared root.
 */
async function restrictedBelow(
  db: Executor,
  databaseId: string,
  chain: { id: string }[],
): Promise<boolean> {
  const below = chain.slice(1).map((f) => f.id);
  return (await restrictedAmong(db, databaseId, below)).length > 0;
}

/**
 * Resolves a folder id to a folder the session user reaches through a share.
 * @throws AppError 404 `access_ended` when only ended shares covered it; 404 otherwise (not in the
 *   firm, archived, restricted below the shared root, never shared)
 */
export async function sharedFolder(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<SharedFolderAccess> {
  if (folderId === ROOT_FOLDER_ID) throw notFound();
  const folder = await findFolder(services.db, ctx.databaseId, folderId);
  if (!folder) throw notFound();
  const ancestry = await folderAncestry(services.db, ctx.databaseId, folderId);
  const ids = ancestry.map((f) => f.id);
  const grants = covering(await userShares(services, ctx), ids);
  const grant = grants[0];
  if (!grant) throw notFound();
  if (!grant.active) throw accessEnded();
  if (folder.archived_at !== null) throw notFound();
  const chain = ancestry.slice(ids.indexOf(grant.share.entity_id));
  if (await restrictedBelow(services.db, ctx.databaseId, chain)) throw notFound();
  return { grant, folder, chain: chain.map((f) => ({ id: f.id, name: f.name })) };
}

/**
 * Resolves a file id to a ready, live file the session user reaches through a share (of the file
 * or of a folder above it).
 * @throws AppError 404 `access_ended` when only ended shares covered it; 404 otherwise
 */
export async function sharedFile(
  services: Services,
  ctx: RequestContext,
  fileId: string,
): Promise<{ grant: UserShare; file: FileRow }> {
  const file = await findFile(services.db, ctx.databaseId, fileId);
  if (!file || file.status !== 'ready') throw notFound();
  const ancestry =
    file.folder_id === ROOT_FOLDER_ID
      ? []
      : await folderAncestry(services.db, ctx.databaseId, file.folder_id);
  const ids = ancestry.map((f) => f.id);
  const shares = await userShares(services, ctx);
  const grants = covering(shares, ids, { type: 'file', id: fileId });
  const grant = grants[0];
  if (!grant) throw notFound();
  if (!grant.active) throw accessEnded();
  if (file.archived_at !== null) throw notFound();
  if (grant.share.entity_type === 'folder') {
    const chain = ancestry.slice(ids.indexOf(grant.share.entity_id));
    if (await restrictedBelow(services.db, ctx.databaseId, chain)) throw notFound();
  }
  // A file reachable through several shares may be downloaded when any of them allows it.
  const downloadable = grants.find((g) => g.active && g.link.allow_download === 1);
  return { grant: downloadable ?? grant, file };
}

/** Common fields of a SharedEntityDto from the share that gives access. */
function fromGrant(grant: UserShare, folderId: string) {
  return {
    share_id: grant.share.id,
    shared_by_name: displayName(grant.link.creator_first, grant.link.creator_last),
    shared_at: grant.share.created_at,
    allow_download: grant.link.allow_download === 1,
    folder_id: folderId,
  };
}

/** A folder row as a shared entity. */
export function presentSharedFolder(
  folder: FolderRow,
  grant: UserShare,
  folderId: string,
): SharedEntityDto {
  return {
    ...fromGrant(grant, folderId),
    entity_type: 'folder',
    id: folder.id,
    name: folder.name,
    updated_at: folder.updated_at,
  };
}

/**
 * A file row as a shared entity.
 * @param thumbnails the sha256 values with a stored thumbnail (`sha256WithThumbnail`); without
 *   it the entity says nothing of a thumbnail (the client shows the type icon)
 */
export function presentSharedFile(
  file: FileRow,
  grant: UserShare,
  folderId: string,
  thumbnails?: ReadonlySet<string>,
): SharedEntityDto {
  return {
    ...fromGrant(grant, folderId),
    entity_type: 'file',
    id: file.id,
    name: file.name,
    extension: file.extension,
    size: Number(file.size),
    content_type: file.content_type,
    ...(thumbnails ? { thumbnail: file.sha256 !== null && thumbnails.has(file.sha256) } : {}),
    updated_at: file.updated_at,
  };
}

/**
 * The items of some shares that are live (not archived, files ready), as shared entities at the
 * top level, in the shares' order; an item shared twice is listed once.
 * @param withThumbnails say of each file whether a thumbnail is stored (one more query)
 */
export async function presentShareItems(
  services: Services,
  databaseId: string,
  grants: UserShare[],
  withThumbnails = false,
): Promise<SharedEntityDto[]> {
  const folderIds = grants.filter((g) => g.share.entity_type === 'folder');
  const fileIds = grants.filter((g) => g.share.entity_type === 'file');
  const [folders, files] = await Promise.all([
    findFoldersByIds(
      services.db,
      databaseId,
      folderIds.map((g) => g.share.entity_id),
    ),
    findFilesByIds(
      services.db,
      databaseId,
      fileIds.map((g) => g.share.entity_id),
    ),
  ]);
  const thumbnails = withThumbnails
    ? await sha256WithThumbnail(
        services.db,
        files.map((f) => f.sha256),
      )
    : undefined;
  const folderById = new Map(folders.map((f) => [f.id, f]));
  const fileById = new Map(files.map((f) => [f.id, f]));
  const seen = new Set<string>();
  const items: SharedEntityDto[] = [];
  for (const grant of grants) {
    const id = grant.share.entity_id;
    if (seen.has(id)) continue;
    if (grant.share.entity_type === 'folder') {
      const folder = folderById.get(id);
      if (!folder || folder.archived_at !== null) continue;
      items.push(presentSharedFolder(folder, grant, ROOT_FOLDER_ID));
    } else {
      const file = fileById.get(id);
      if (!file || file.archived_at !== null || file.status !== 'ready') continue;
      items.push(presentSharedFile(file, grant, ROOT_FOLDER_ID, thumbnails));
    }
    seen.add(id);
  }
  return items;
}

/**
 * GET /api/rest/shared/entities (and /api/rest/shared_entities): without a folder, what was
 * shared with the session user (active shares, newest first); with one, the contents of a shared
 * folder or of a folder inside it (folders then files, by name).
 * @throws AppError 404 (`access_ended` for a folder whose share has ended)
 */
export async function listSharedEntities(
  services: Services,
  ctx: RequestContext,
  folderId: string | undefined,
): Promise<{ items: SharedEntityDto[]; allow_download: boolean }> {
  if (!folderId) {
    const grants = (await userShares(services, ctx)).filter((g) => g.active).reverse();
    return {
      items: await presentShareItems(services, ctx.databaseId, grants, true),
      allow_download: true,
    };
  }
  const access = await sharedFolder(services, ctx, folderId);
  const { folders, files } = await sharedFolderContents(services.db, ctx.databaseId, folderId);
  const thumbnails = await sha256WithThumbnail(
    services.db,
    files.map((f) => f.sha256),
  );
  return {
    items: [
      ...folders.map((f) => presentSharedFolder(f, access.grant, folderId)),
      ...files.map((f) => presentSharedFile(f, access.grant, folderId, thumbnails)),
    ],
    allow_download: access.grant.link.allow_download === 1,
  };
}

/**
 * GET /api/rest/shared/folders/{id}/breadcrumbs: the folders from the shared folder down to this
 * one (the firm's folders above the share are never named).
 * @throws AppError 404 (`access_ended` when the share has ended)
 */
export async function sharedBreadcrumbs(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<{ items: { id: string; name: string }[] }> {
  return { items: (await sharedFolder(services, ctx, folderId)).chain };
}

/**
 * GET /api/rest/shared/files/{id}/rendition: where document imaging is with a file a share gives
 * the session user (a guest) access to, and what it derived (see GET files/{id}/rendition). Like
 * an inline preview, a link without download allows it.
 * @throws AppError 404 (`access_ended` when the share has ended)
 */
export async function sharedFileRendition(
  services: Services,
  ctx: RequestContext,
  fileId: string,
): Promise<FileRenditionDto> {
  const { file } = await sharedFile(services, ctx, fileId);
  return renditionStateOf(services, file);
}

/**
 * GET /api/rest/shared/files/{id}/preview and /download: opens a shared file and records the
 * file's preview or download event with the session user (the guest) as the user, in its own
 * transaction before the bytes flow. A preview is inline only for the types `isInlinePreviewable`
 * names, or for a file no browser shows safely (office documents, HTML, SVG, TIFF…) once document
 * imaging stored its PDF rendition: that PDF is served instead of the original, inline, as the
 * firm's preview does (`openFile`). Either needs no download permission. A preview of any other
 * file would be a download (served and recorded as one, see `servedReadMode`), so it needs a link
 * that allows download. The media element's request that follows a video or sound preview is not
 * recorded again (`partOfRecordedPreview`).
 * @throws AppError 404 (`access_ended` when the share has ended); 403 `download_not_allowed` for
 *   a download, or a preview that would be one, through a link that does not allow download
 */
export async function openSharedFile(
  services: Services,
  ctx: RequestContext,
  fileId: string,
  mode: 'preview' | 'download',
  request: ReadRequest = {},
): Promise<FileStream> {
  const { grant, file } = await sharedFile(services, ctx, fileId);
  // A file no browser shows safely is previewed as its PDF rendition, once derived.
  const rendition =
    mode === 'preview' && !isInlinePreviewable(file.content_type)
      ? await pdfRenditionOf(services, file)
      : null;
  const served = rendition ? 'preview' : servedReadMode(mode, file.content_type);
  if (served === 'download' && grant.link.allow_download !== 1) {
    throw forbidden(SHARING_MESSAGES.downloadNotAllowed, 'download_not_allowed');
  }
  const object = await services.store.head(file.storage_key);
  if (!object) throw notFound('The file content is missing.', 'object_missing');
  assertRangeSatisfiable(request.range, rendition ? rendition.size : object.size);
  if (!(await partOfRecordedPreview(services, ctx, file.id, served, request))) {
    await services.db.transaction().execute(async (trx) => {
      await recordItemRead(
        trx,
        services,
        ctx,
        { type: 'file', id: file.id, name: file.name },
        served,
      );
    });
  }
  if (rendition) {
    return {
      open: (range) => services.store.read(rendition.key, range),
      size: rendition.size,
      contentType: 'application/pdf',
      disposition: dispositionHeader(rendition.name, 'inline'),
    };
  }
  const inline = served === 'preview';
  return {
    open: (range) => services.store.read(file.storage_key, range),
    size: object.size,
    contentType: inline ? previewContentType(file.content_type) : file.content_type,
    disposition: dispositionHeader(file.name, inline ? 'inline' : 'attachment'),
  };
}
