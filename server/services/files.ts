/**
 * Uploads and reading files (issue 2 items 6 and 7; SPEC sections 3, 5 and 7 "Files", "Upload
 * flow"). An upload is a pending row plus a presigned PUT; `recordUpload` makes it a visible file
 * only after checking the stored object. Every rule the client checks is checked again here with
 * the same code from common/.
 */
import type { Readable } from 'node:stream';
import { dispositionHeader } from '../disposition';
import { MAX_FILE_SIZE_BYTES, PRESIGNED_URL_TTL_MS } from '../../common/constants';
import {
  contentTypeFor,
  isInlinePreviewable,
  previewContentType,
  validateUploadFile,
} from '../../common/files';
import { formatMessage, MESSAGES } from '../../common/messages';
import {
  fileTooSmallMessage,
  fileTypeMessage,
  isAllowedFileType,
  tooManyFilesMessage,
} from '../../common/uploads';
import { nameKey, splitFileName, uniqueName, validateEntityName } from '../../common/names';
import type { CreateUploadRequest, CreateUploadResponse, FileDto } from '../../common/types';
import { AppError, badRequest, conflict, notFound, tooLarge } from '../errors';
import { isoAt, newId } from '../ids';
import { presentFile } from '../presenters';
import {
  deleteFileRow,
  countActivePendingUploads,
  deletePendingByStorageKey,
  favoritesFor,
  findFile,
  insertFile,
  updateFile,
} from '../repositories/files';
import { accessibleFile, accessibleFolder } from './access';
import type { RequestContext, Services } from './context';
import { fingerprintLater } from './fingerprints';
import { namesIn } from './folders';
import { hasRecentEvent } from '../repositories/history';
import { recordEvent } from './history';
import { enqueueRecordedFile } from './imaging/queue';
import { pdfRenditionOf } from './imaging/renditions';
import { idLowerBound } from './historyChain';

/**
 * Validates an upload's name and size the way the client does.
 * @throws AppError 400 'invalid_name' / 413 'file_too_large' with the spec's message
 */
function assertUploadable(name: string, size: number): void {
  const problem = validateEntityName(name, 'file');
  if (problem) throw badRequest(problem, 'invalid_name');
  const uploadProblem = validateUploadFile({ name, size });
  if (uploadProblem && size > MAX_FILE_SIZE_BYTES) throw tooLarge(uploadProblem, 'file_too_large');
  if (uploadProblem) throw badRequest(uploadProblem, 'invalid_name');
}

/** A pending upload row just created by {@link startPendingUpload}. */
export interface PendingUpload {
  /** The row's id (also the multipart upload id of a multipart upload). */
  id: string;
  /** The server-generated object key, `<database id>/<file id>`. */
  storageKey: string;
  name: string;
  contentType: string;
  /** Declared size in bytes. */
  size: number;
}

/**
 * Checks everything an upload must satisfy before any byte is sent and inserts its pending row:
 * the name (ISO-8859-1, no separators or control characters, at most 255 characters), the size
 * (at most 104857600 bytes, at least the configured minimum), the configured allowed types, that
 * the extension matches the name and the content type is the one derived from it, that the folder
 * is visible and writable, and that the user has fewer running uploads than the configured count
 * (uploads touched within the presigned-URL lifetime count as running).
 * @throws AppError 400 (name, type, size, count), 413 (over 104857600 bytes), 404 (folder not
 *   visible), 403 (read-only member)
 */
export async function startPendingUpload(
  services: Services,
  ctx: RequestContext,
  input: CreateUploadRequest,
): Promise<PendingUpload> {
  const name = input.name.trim();
  if (!Number.isSafeInteger(input.size) || input.size < 0) {
    throw badRequest('The file size must be a whole number of bytes.', 'invalid_size');
  }
  assertUploadable(name, input.size);
  const restrictions = services.config.uploads;
  if (input.size < restrictions.min_file_size) {
    throw badRequest(fileTooSmallMessage(name, restrictions.min_file_size), 'file_too_small');
  }
  if (!isAllowedFileType(name, restrictions.allowed_file_types)) {
    throw badRequest(
      fileTypeMessage(name, restrictions.allowed_file_types),
      'file_type_not_allowed',
    );
  }
  const { extension } = splitFileName(name);
  if (input.extension.toLowerCase() !== extension) {
    throw badRequest('The extension does not match the file name.', 'extension_mismatch');
  }
  const contentType = contentTypeFor(extension);
  if (input.content_type.toLowerCase() !== contentType) {
    throw badRequest(
      `The content type of a .${extension || 'file'} file must be ${contentType}.`,
      'content_type_mismatch',
    );
  }
  await accessibleFolder(services.db, ctx, input.folder_id, 'write');
  const now = services.clock();
  const running = await countActivePendingUploads(
    services.db,
    ctx.databaseId,
    ctx.userId,
    new Date(now - PRESIGNED_URL_TTL_MS).toISOString(),
  );
  if (running >= restrictions.max_number_of_files) {
    throw badRequest(tooManyFilesMessage(restrictions.max_number_of_files), 'too_many_files');
  }
  const id = newId();
  const storageKey = `${ctx.databaseId}/${id}`;
  const at = new Date(now).toISOString();
  await insertFile(services.db, {
    id,
    database_id: ctx.databaseId,
    folder_id: input.folder_id,
    name,
    name_key: nameKey(name),
    extension,
    size: input.size,
    content_type: contentType,
    storage_key: storageKey,
    status: 'pending',
    sha256: null,
    created_by: ctx.userId,
    created_at: at,
    updated_at: at,
    archived_at: null,
  });
  return { id, storageKey, name, contentType, size: input.size };
}

/**
 * Starts a single-PUT upload: {@link startPendingUpload}, then a presigned PUT valid for 15
 * minutes, bound to the key, the content type and the declared size.
 * @throws AppError as {@link startPendingUpload}
 */
export async function createUpload(
  services: Services,
  ctx: RequestContext,
  input: CreateUploadRequest,
): Promise<CreateUploadResponse> {
  const pending = await startPendingUpload(services, ctx, input);
  const presigned = services.store.presignPut(pending.storageKey, {
    contentType: pending.contentType,
    maxBytes: pending.size,
    expiresInMs: PRESIGNED_URL_TTL_MS,
    headers: { 'Content-Disposition': dispositionHeader(pending.name, 'attachment') },
  });
  return { id: pending.id, ...presigned };
}

/**
 * Makes a pending upload a visible file once its object is stored whole: the object must exist and
 * have exactly the declared size (at most 104857600 bytes). The name is made unique in its folder
 * at this moment. When the client sent a sha256 the object's is compared with it (computed now if
 * the store has none yet) and kept on the row; otherwise the store's, if it hashed the object on
 * the way in, is kept, or the file is fingerprinted in the background after this answer (see
 * services/fingerprints.ts). Recording twice answers the same file.
 * @param sha256 optional hex sha256 the client computed of the bytes it sent
 * @throws AppError 404 (no such pending upload of this user), 409 'upload_incomplete' (no object
 *   yet), 422 'size_mismatch' / 'checksum_mismatch' (object deleted, upload refused)
 */
export async function recordUpload(
  services: Services,
  ctx: RequestContext,
  id: string,
  sha256?: string,
): Promise<FileDto> {
  const pending = await findFile(services.db, ctx.databaseId, id);
  if (!pending || pending.created_by !== ctx.userId) throw notFound();
  if (pending.status === 'ready') return getFile(services, ctx, id);
  const object = await services.store.head(pending.storage_key);
  if (!object) throw conflict(MESSAGES.uploadNotComplete, 'upload_incomplete');
  if (object.size !== Number(pending.size) || object.size > MAX_FILE_SIZE_BYTES) {
    await services.store.delete(pending.storage_key);
    await deleteFileRow(services.db, ctx.databaseId, id);
    throw new AppError(
      422,
      'size_mismatch',
      formatMessage(MESSAGES.uploadFailed, { file: pending.name }),
    );
  }
  const stored =
    object.sha256 ?? (sha256 ? await services.store.checksum(pending.storage_key) : undefined);
  if (sha256 && stored && sha256.toLowerCase() !== stored) {
    await services.store.delete(pending.storage_key);
    await deleteFileRow(services.db, ctx.databaseId, id);
    throw new AppError(
      422,
      'checksum_mismatch',
      formatMessage(MESSAGES.uploadFailed, { file: pending.name }),
    );
  }
  await services.db.transaction().execute(async (trx) => {
    const folder = await accessibleFolder(trx, ctx, pending.folder_id, 'write');
    const finalName = uniqueName(
      pending.name,
      await namesIn(trx, ctx.databaseId, pending.folder_id),
      {
        isFile: true,
      },
    );
    await updateFile(trx, ctx.databaseId, id, {
      status: 'ready',
      sha256: stored ?? null,
      name: finalName,
      name_key: nameKey(finalName),
      updated_at: isoAt(services.clock),
    });
    await recordEvent(trx, services, ctx, {
      entityType: 'file',
      entityId: id,
      itemId: id,
      action: 'create',
      attributes: {
        name: finalName,
        next: { name: finalName },
        parent: { id: pending.folder_id, name: folder?.name ?? 'Root' },
        file_name: finalName,
      },
    });
  });
  // Document imaging: rendition, text and thumbnail, derived in the background.
  await enqueueRecordedFile(services, pending, stored ?? null);
  if (!stored) {
    fingerprintLater(services, {
      databaseId: ctx.databaseId,
      id,
      storageKey: pending.storage_key,
    });
  }
  return getFile(services, ctx, id);
}

/**
 * Forgets a pending upload whose PUT the store refused (too large, broken off): the upload never
 * became a file, so no row stays behind and no history event is written.
 */
export async function discardRefusedUpload(services: Services, storageKey: string): Promise<void> {
  await deletePendingByStorageKey(services.db, storageKey);
}

/**
 * One ready file as JSON.
 * @throws AppError 404 when it is not visible to the session
 */
export async function getFile(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<FileDto> {
  const file = await accessibleFile(services.db, ctx, id, 'read', { allowArchived: true });
  const favorites = await favoritesFor(services.db, ctx.databaseId, ctx.userId, [id]);
  return presentFile(file, { favorites });
}

/** How a file is being read: each records its own history event (SPEC section 3 download). */
export type ReadMode = 'download' | 'preview' | 'print';

/** What a route needs to stream a file. */
export interface FileStream {
  body: Readable;
  size: number;
  contentType: string;
  /** The Content-Disposition header value (RFC 6266, with filename*). */
  disposition: string;
}

/**
 * How a read is served and recorded: preview and print stay themselves only for a file the browser
 * can show inline (`isInlinePreviewable`); any other file leaves as an attachment, so the read is a
 * download, and history records it as one (SEC 17a-4: the record says what happened).
 * @param mode what was asked for
 * @param contentType the file's content type
 * @returns the mode the file is served and recorded in
 */
export function servedReadMode(mode: ReadMode, contentType: string): ReadMode {
  return mode !== 'download' && isInlinePreviewable(contentType) ? mode : 'download';
}

/**
 * How long after a recorded preview of a file a media element's request for the same file by the
 * same user counts as part of that preview, in milliseconds.
 */
export const MEDIA_PREVIEW_WINDOW_MS = 60_000;

/** What the route knows of a read request besides its mode. */
export interface ReadRequest {
  /**
   * The request is the browser's media element loading the file (`Sec-Fetch-Dest: video` or
   * `audio`): opening a video or sound preview is a navigation (recorded) and then this request.
   */
  mediaElement?: boolean;
}

/**
 * Whether a read should not be recorded because it is part of a preview already recorded: the
 * media element's own request for a video or sound, within {@link MEDIA_PREVIEW_WINDOW_MS} of
 * the same user's recorded preview of the file. Any other read, or a media request without such
 * a preview (a client that only claims to be a media element), is recorded.
 */
export async function partOfRecordedPreview(
  services: Services,
  ctx: RequestContext,
  fileId: string,
  served: ReadMode,
  request: ReadRequest,
): Promise<boolean> {
  if (served !== 'preview' || !request.mediaElement) return false;
  return hasRecentEvent(services.db, {
    databaseId: ctx.databaseId,
    entityId: fileId,
    userId: ctx.userId,
    action: 'preview',
    sinceId: idLowerBound(services.clock() - MEDIA_PREVIEW_WINDOW_MS),
  });
}

/**
 * Opens a file for download, preview or print and records the event in its own transaction
 * before the bytes flow. Preview and print are inline, with the preview's content type, only for
 * the types `isInlinePreviewable` names; for every other file (HTML and SVG included) they are
 * attachments and recorded as downloads ({@link servedReadMode}), unless document imaging made
 * a PDF rendition of them: preview and print then serve that PDF inline (as `<name>.pdf`). The
 * media element's request that follows a video or sound preview is not recorded again
 * ({@link partOfRecordedPreview}).
 * @throws AppError 404 when the file is not visible to the session
 */
export async function openFile(
  services: Services,
  ctx: RequestContext,
  id: string,
  mode: ReadMode,
  request: ReadRequest = {},
): Promise<FileStream> {
  const file = await accessibleFile(services.db, ctx, id, 'read', { allowArchived: true });
  // A file no browser shows safely is previewed and printed as its PDF rendition, once derived.
  const rendition =
    mode !== 'download' && !isInlinePreviewable(file.content_type)
      ? await pdfRenditionOf(services, file)
      : null;
  const served = rendition ? mode : servedReadMode(mode, file.content_type);
  const object = await services.store.head(file.storage_key);
  if (!object) throw notFound('The file content is missing.', 'object_missing');
  if (!(await partOfRecordedPreview(services, ctx, id, served, request))) {
    await services.db.transaction().execute(async (trx) => {
      await recordEvent(trx, services, ctx, {
        entityType: 'file',
        entityId: id,
        itemId: id,
        action: served === 'preview' ? 'preview' : 'download',
        attributes: {
          name: file.name,
          file_name: file.name,
          download: { preview: served === 'preview', print: served === 'print' },
        },
      });
    });
  }
  if (rendition) {
    return {
      body: services.store.read(rendition.key),
      size: rendition.size,
      contentType: 'application/pdf',
      disposition: dispositionHeader(rendition.name, 'inline'),
    };
  }
  const inline = served !== 'download';
  return {
    body: services.store.read(file.storage_key),
    size: object.size,
    contentType: inline ? previewContentType(file.content_type) : file.content_type,
    disposition: dispositionHeader(file.name, inline ? 'inline' : 'attachment'),
  };
}
