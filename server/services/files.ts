/**
 * Uploads and reading files (SPEC sections 3, 5 and 7 "Files", "Upload
 * flow"). An upload is a pending row plus a presigned PUT; `recordUpload` makes it a visible file
 * only after checking the stored object. Every rule the client checks is checked again here with
 * the same code from common/.
 */
import type { Readable } from 'node:stream';
import { dispositionHeader } from '../disposition';
import { MAX_FILE_SIZE_BYTES, PRESIGNED_URL_TTL_MS, ROOT_FOLDER_NAME } from '@common/constants';
import {
  contentTypeFor,
  duplicateMessage,
  isInlinePreviewable,
  previewContentType,
  validateUploadFile,
} from '@common/files';
import { formatMessage, MESSAGES } from '@common/messages';
import {
  fileTooSmallMessage,
  fileTypeMessage,
  isAllowedFileType,
  tooManyFilesMessage,
} from '@common/uploads';
import { nameKey, splitFileName, validateEntityName } from '@common/names';
import type { FileDto } from '@common/entities';
import type {
  CreateUploadRequest,
  CreateUploadResponse,
  SettledUploadResponse,
} from '@common/uploads';
import { AppError, badRequest, conflict, notFound, tooLarge } from '../errors';
import { isoAt, newId } from '../ids';
import { presentFile } from '../presenters';
import { sha256WithThumbnail } from '../repositories/renditions';
import {
  countActivePendingUploads,
  deletePendingByStorageKey,
  deletePendingUpload,
  favoritesFor,
  findBatchUpload,
  findFile,
  findByStorageKey,
  insertPendingUpload,
  markUploadReady,
  updateFile,
} from '../repositories/files';
import type { FileRow } from '../db/schema';
import {
  findVersionByBatch,
  findVersionByUpload,
  insertVersions,
  isVersionKey,
} from '../repositories/fileVersions';
import type { ByteRange, ObjectInfo } from '../storage/objectStore';
import { assertRangeSatisfiable } from './byteRanges';
import { accessibleFile, accessibleFolder } from './access';
import type { RequestContext, Services } from './context';
import {
  afterNewVersion,
  firstVersionOf,
  recordVersionUpload,
  versionTarget,
  type RecordedVersion,
} from './fileVersions';
import { fingerprintLater } from './fingerprints';
import { FolderNames } from './folderNames';
import { hasRecentEvent } from '../repositories/history';
import { recordItemCreated, recordItemRead } from './historyEvents';
import { enqueueRecordedFile } from './imaging/queue';
import { pdfRenditionOf } from './imaging/renditions';
import { idLowerBound } from './historyChain';
import { inTransaction } from './transactions';

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

/**
 * The `size` of a pending single upload created without one (SPEC section 3's payload has no
 * size): the presigned PUT then allows up to 104857600 bytes and the record takes the stored
 * object's size. Pending rows are never listed, so the marker is never shown.
 */
export const UNDECLARED_SIZE = -1;

/** A pending upload row, as {@link startPendingUpload} answers it. */
export interface PendingUpload {
  /** The row's id (also the multipart upload id of a multipart upload). */
  id: string;
  /** The server-generated object key, `<database id>/<file id>`. */
  storageKey: string;
  name: string;
  contentType: string;
  /** Declared size in bytes, or {@link UNDECLARED_SIZE}. */
  size: number;
  /** The store's id of its multipart upload once started, else null. */
  storeUploadId: string | null;
}

/**
 * What {@link startPendingUpload} did: inserted a new pending upload, or found the batch's
 * earlier upload of the same client file — still pending with nothing stored (its bytes are to be
 * sent again), or settled (stored or recorded: nothing to send).
 */
export type StartedUpload =
  | { kind: 'new' | 'pending'; pending: PendingUpload }
  | { kind: 'settled'; answer: SettledUploadResponse };

/** The batch identity of an upload request, or null when it has none. */
interface UploadBatch {
  batchId: string;
  /** The client's key of the file, or null. */
  clientKey: string | null;
  /** `nameKey` of the picked name. */
  nameKey: string;
}

/** A pending row as a {@link PendingUpload}. */
function pendingOf(row: FileRow): PendingUpload {
  return {
    id: row.id,
    storageKey: row.storage_key,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    storeUploadId: row.store_upload_id,
  };
}

/**
 * What is stored for an upload of `storageKey`: its staged object, or the object itself once
 * committed (an S3 store's record copies the one to the other), or null when nothing is.
 */
async function uploadedObject(services: Services, storageKey: string): Promise<ObjectInfo | null> {
  const staging = services.store.stagingKey(storageKey);
  const staged = await services.store.head(staging);
  if (staged || staging === storageKey) return staged;
  return services.store.head(storageKey);
}

/**
 * Answers a create-upload that found an earlier upload of its batch for the same picked name in
 * the folder: the same client file of the same user gets its earlier upload back (settled when its
 * bytes are stored or it is recorded; else pending, touched so that it counts as running); any
 * other file is a duplicate in one upload.
 * @throws AppError 409 'duplicate_file' with SPEC section 5's message
 */
async function answerEarlierUpload(
  services: Services,
  ctx: RequestContext,
  earlier: FileRow,
  batch: UploadBatch,
  name: string,
): Promise<StartedUpload> {
  if (
    batch.clientKey === null ||
    earlier.upload_client_key !== batch.clientKey ||
    earlier.created_by !== ctx.userId
  ) {
    throw conflict(duplicateMessage(name), 'duplicate_file');
  }
  if (earlier.status === 'ready') {
    const file = await getFile(services, ctx, earlier.id);
    return { kind: 'settled', answer: { id: earlier.id, state: 'recorded', file } };
  }
  if (await uploadedObject(services, earlier.storage_key)) {
    return { kind: 'settled', answer: { id: earlier.id, state: 'stored' } };
  }
  await updateFile(services.db, ctx.databaseId, earlier.id, { updated_at: isoAt(services.clock) });
  return { kind: 'pending', pending: pendingOf(earlier) };
}

/**
 * Checks everything an upload must satisfy before any byte is sent and inserts its pending row:
 * the name (ISO-8859-1, no separators or control characters, at most 255 characters), the size
 * when declared (at most 104857600 bytes, at least the configured minimum), the configured allowed
 * types, that the extension matches the name and the content type is the one derived from it,
 * that the folder is visible and writable, and that the user has fewer running uploads than the
 * configured count (uploads touched within the presigned-URL lifetime count as running).
 * With a `batch_id` (SPEC section 5, "Duplicate files in one upload are refused"), a second file of
 * the same name (case-insensitive) in the batch and folder is refused, while the same client file
 * (`client_key`) created again — a resume or a retry — gets its earlier upload back instead of a
 * new row (see {@link StartedUpload}). With `version_of` the upload is to become a new version of
 * that file (services/fileVersions.ts `versionTarget` checks it: a live file of this folder the
 * session may change, with the same extension).
 * @throws AppError 400 (name, type, size, count; a version target in another folder or of another
 *   extension), 413 (over 104857600 bytes), 404 (folder or version target not visible), 403
 *   (read-only member), 409 'duplicate_file'
 */
export async function startPendingUpload(
  services: Services,
  ctx: RequestContext,
  input: CreateUploadRequest,
): Promise<StartedUpload> {
  const name = input.name.trim();
  const declared = input.size;
  if (declared !== undefined && (!Number.isSafeInteger(declared) || declared < 0)) {
    throw badRequest('The file size must be a whole number of bytes.', 'invalid_size');
  }
  assertUploadable(name, declared ?? 0);
  const restrictions = services.config.uploads;
  if (declared !== undefined && declared < restrictions.min_file_size) {
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
  const versionOf = input.version_of
    ? (await versionTarget(services.db, ctx, input.version_of, input.folder_id, extension)).id
    : null;
  const batch: UploadBatch | null = input.batch_id
    ? { batchId: input.batch_id, clientKey: input.client_key ?? null, nameKey: nameKey(name) }
    : null;
  const earlierOf = (b: UploadBatch) =>
    findBatchUpload(services.db, ctx.databaseId, b.batchId, input.folder_id, b.nameKey);
  if (batch) {
    const earlier = await earlierOf(batch);
    if (earlier) return answerEarlierUpload(services, ctx, earlier, batch, name);
    // The same client file already recorded as a new version (its pending row is gone).
    const recorded =
      versionOf && batch.clientKey
        ? await findVersionByBatch(services.db, ctx.databaseId, batch.batchId, batch.clientKey)
        : undefined;
    if (recorded?.upload_id && recorded.created_by === ctx.userId) {
      const file = await getFile(services, ctx, recorded.file_id);
      return { kind: 'settled', answer: { id: recorded.upload_id, state: 'recorded', file } };
    }
  }
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
  const size = declared ?? UNDECLARED_SIZE;
  const inserted = await insertPendingUpload(services.db, {
    id,
    database_id: ctx.databaseId,
    folder_id: input.folder_id,
    name,
    name_key: nameKey(name),
    extension,
    size,
    content_type: contentType,
    storage_key: storageKey,
    status: 'pending',
    sha256: null,
    created_by: ctx.userId,
    created_at: at,
    updated_at: at,
    archived_at: null,
    upload_batch_id: batch?.batchId ?? null,
    upload_client_key: batch?.clientKey ?? null,
    upload_name_key: batch?.nameKey ?? null,
    upload_version_of: versionOf,
  });
  if (!inserted && batch) {
    // Another request of the batch inserted the same name first.
    const earlier = await earlierOf(batch);
    if (earlier) return answerEarlierUpload(services, ctx, earlier, batch, name);
    throw conflict(duplicateMessage(name), 'duplicate_file');
  }
  return { kind: 'new', pending: { id, storageKey, name, contentType, size, storeUploadId: null } };
}

/** What create-upload answers, and whether it made a new pending upload (201) or not (200). */
export interface CreateUploadOutcome<T> {
  created: boolean;
  response: T | SettledUploadResponse;
}

/**
 * Starts a single-PUT upload: {@link startPendingUpload}, then a presigned PUT valid for 15
 * minutes, bound to the key, the content type and the declared size (104857600 bytes when none
 * was declared). A file of the batch created again gets its earlier upload: signed again while
 * nothing is stored, else settled (nothing to send).
 * @throws AppError as {@link startPendingUpload}; 409 'duplicate_file' when the batch's earlier
 *   upload of the name declared another size
 */
export async function createUpload(
  services: Services,
  ctx: RequestContext,
  input: CreateUploadRequest,
): Promise<CreateUploadOutcome<CreateUploadResponse>> {
  const started = await startPendingUpload(services, ctx, input);
  if (started.kind === 'settled') return { created: false, response: started.answer };
  const { pending } = started;
  if (input.size !== undefined && pending.size !== UNDECLARED_SIZE && pending.size !== input.size) {
    throw conflict(duplicateMessage(pending.name), 'duplicate_file');
  }
  const presigned = await services.store.presignPut(pending.storageKey, {
    contentType: pending.contentType,
    maxBytes: pending.size === UNDECLARED_SIZE ? MAX_FILE_SIZE_BYTES : pending.size,
    size: pending.size === UNDECLARED_SIZE ? undefined : pending.size,
    expiresInMs: PRESIGNED_URL_TTL_MS,
    headers: { 'Content-Disposition': dispositionHeader(pending.name, 'attachment') },
  });
  return { created: started.kind === 'new', response: { id: pending.id, ...presigned } };
}

/** Where the upload of a storage key stands: see {@link uploadStateOf}. */
export type UploadKeyState = 'pending' | 'ready' | 'missing';

/**
 * Where the upload of a storage key stands (for a multipart step, the upload of id `uploadId`;
 * '' for a single PUT): 'pending' (the store accepts writes only then, so a stored file's bytes
 * can never be replaced), 'ready' (recorded) or 'missing' (discarded, cleaned up, or never made).
 */
export async function uploadStateOf(
  services: Services,
  storageKey: string,
  uploadId: string,
): Promise<UploadKeyState> {
  const row = await findByStorageKey(services.db, storageKey);
  if (!row || (uploadId !== '' && row.id !== uploadId)) {
    // An upload recorded as a version (its pending row is gone) or an older version's object.
    return (await isVersionKey(services.db, storageKey)) ? 'ready' : 'missing';
  }
  return row.status;
}

/**
 * Refuses a record: the pending row and its object go (only while the row is still pending, so a
 * file another record made ready is never touched).
 */
async function refuseRecord(
  services: Services,
  ctx: RequestContext,
  pending: FileRow,
  error: AppError,
): Promise<never> {
  if (await deletePendingUpload(services.db, ctx.databaseId, pending.id)) {
    const staging = services.store.stagingKey(pending.storage_key);
    if (staging !== pending.storage_key) await services.store.delete(staging);
    await services.store.delete(pending.storage_key);
  }
  throw error;
}

/**
 * Makes a pending upload a visible file once its object is stored whole: the object must exist and
 * have exactly the declared size, or, when none was declared, any size within the limits (at most
 * 104857600 bytes, at least the configured minimum), which the file then takes. The name is made
 * unique in its folder at this moment. When the client sent a sha256 the object's is compared with
 * it (computed now if the store has none yet) and kept on the row; otherwise the store's, if it
 * hashed the object on the way in, is kept, or the file is fingerprinted in the background after
 * this answer (see services/fingerprints.ts). Recording is idempotent: the row turns ready only
 * while still pending (one conditional update), so a second record, even a concurrent one, answers
 * the same file and writes no second event.
 * @param sha256 optional hex sha256 the client computed of the bytes it sent
 * @throws AppError 404 (no such pending upload of this user), 409 'upload_incomplete' (no object
 *   yet), 422 'size_mismatch' / 'checksum_mismatch', 400 'file_too_small' (object deleted, upload
 *   refused)
 */
export async function recordUpload(
  services: Services,
  ctx: RequestContext,
  id: string,
  sha256?: string,
): Promise<FileDto> {
  // One record of an upload at a time in this process: a second one waits and then finds the file
  // ready (or the upload refused), and never copies staged bytes over a recorded object.
  const running = recording.get(id);
  if (running) await running.catch(() => undefined);
  const run = recordUploadOnce(services, ctx, id, sha256);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  recording.set(id, settled);
  try {
    return await run;
  } finally {
    if (recording.get(id) === settled) recording.delete(id);
  }
}

/** The records running in this process, by upload id (see {@link recordUpload}). */
const recording = new Map<string, Promise<void>>();

async function recordUploadOnce(
  services: Services,
  ctx: RequestContext,
  id: string,
  sha256?: string,
): Promise<FileDto> {
  const pending = await findFile(services.db, ctx.databaseId, id);
  if (!pending) {
    // Recorded already as a new version of a file: the answer is that file.
    const version = await findVersionByUpload(services.db, ctx.databaseId, id);
    if (version && version.created_by === ctx.userId) {
      return getFile(services, ctx, version.file_id);
    }
    throw notFound();
  }
  if (pending.created_by !== ctx.userId) throw notFound();
  if (pending.status === 'ready') return getFile(services, ctx, id);
  const key = pending.storage_key;
  const stagingKey = services.store.stagingKey(key);
  // The staged upload, or (an earlier record copied it but did not finish) the object itself.
  const staged = await services.store.head(stagingKey);
  const object = staged ?? (stagingKey === key ? null : await services.store.head(key));
  if (!object) throw conflict(MESSAGES.uploadNotComplete, 'upload_incomplete');
  const declared = Number(pending.size);
  const failed = (code: string) =>
    new AppError(422, code, formatMessage(MESSAGES.uploadFailed, { file: pending.name }));
  if (
    object.size > MAX_FILE_SIZE_BYTES ||
    (declared !== UNDECLARED_SIZE && object.size !== declared)
  ) {
    return refuseRecord(services, ctx, pending, failed('size_mismatch'));
  }
  const minimum = services.config.uploads.min_file_size;
  if (declared === UNDECLARED_SIZE && object.size < minimum) {
    return refuseRecord(
      services,
      ctx,
      pending,
      badRequest(fileTooSmallMessage(pending.name, minimum), 'file_too_small'),
    );
  }
  const stored =
    object.sha256 ??
    (sha256 ? await services.store.checksum(staged ? stagingKey : key) : undefined) ??
    undefined;
  if (sha256 && stored && sha256.toLowerCase() !== stored) {
    return refuseRecord(services, ctx, pending, failed('checksum_mismatch'));
  }
  if (staged) {
    // Publish the checked bytes under the key no presigned URL names (S3: a server-side copy of
    // exactly the version checked; the local store: nothing to do).
    const committed = await services.store.commitUpload(key, staged, stored);
    if (!committed || committed.size !== object.size) {
      throw conflict(MESSAGES.uploadNotComplete, 'upload_incomplete');
    }
  }
  if (pending.upload_version_of)
    return recordAsVersion(services, ctx, pending, object.size, stored);
  const recorded = await inTransaction(services, async (trx) => {
    const folder = await accessibleFolder(trx, ctx, pending.folder_id, 'write');
    const names = new FolderNames(trx, ctx.databaseId, pending.folder_id);
    await names.want([pending.name]);
    const finalName = await names.claim(pending.name, true);
    const updatedAt = isoAt(services.clock);
    const madeReady = await markUploadReady(trx, ctx.databaseId, id, {
      sha256: stored ?? null,
      name: finalName,
      name_key: nameKey(finalName),
      size: object.size,
      updated_at: updatedAt,
    });
    // Another record of this upload made it ready first: it wrote the event.
    if (!madeReady) return false;
    await insertVersions(trx, [
      firstVersionOf(
        { ...pending, size: object.size, sha256: stored ?? null, created_at: updatedAt },
        {
          id: pending.id,
          batchId: pending.upload_batch_id,
          clientKey: pending.upload_client_key,
        },
      ),
    ]);
    await recordItemCreated(
      trx,
      services,
      ctx,
      { type: 'file', id, name: finalName },
      { id: pending.folder_id, name: folder?.name ?? ROOT_FOLDER_NAME },
      { number: 1, size: object.size, sha256: stored ?? null },
    );
    return true;
  });
  if (recorded) {
    services.metrics?.fileRecorded(object.size);
    // Document imaging: rendition, text and thumbnail, derived in the background.
    await enqueueRecordedFile(services, pending, stored ?? null);
  }
  if (recorded && !stored) {
    fingerprintLater(services, {
      databaseId: ctx.databaseId,
      id,
      storageKey: pending.storage_key,
    });
  }
  return getFile(services, ctx, id);
}

/**
 * The record of an upload made with `version_of` (see {@link recordUpload}; its object is checked
 * and committed): a new version of that file, which keeps its id and name
 * (services/fileVersions.ts `recordVersionUpload`). When the file changed meanwhile (moved,
 * archived, deleted, or the user lost write access) the upload is refused and its object deleted.
 * @returns the file, as it is now
 * @throws AppError 409 'version_target_changed', 403 'read_only'
 */
async function recordAsVersion(
  services: Services,
  ctx: RequestContext,
  pending: FileRow,
  size: number,
  sha256: string | undefined,
): Promise<FileDto> {
  let recorded: RecordedVersion | null;
  try {
    recorded = await inTransaction(services, (trx) =>
      recordVersionUpload(trx, services, ctx, pending, { size, sha256: sha256 ?? null }),
    );
  } catch (error) {
    if (error instanceof AppError && (error.status === 409 || error.status === 403)) {
      return refuseRecord(services, ctx, pending, error);
    }
    throw error;
  }
  if (recorded) {
    services.metrics?.fileRecorded(size);
    await afterNewVersion(services, recorded.file, {
      storageKey: pending.storage_key,
      sha256: sha256 ?? null,
    });
  }
  return getFile(services, ctx, pending.upload_version_of!);
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
  const [favorites, thumbnails] = await Promise.all([
    favoritesFor(services.db, ctx.databaseId, ctx.userId, [id]),
    sha256WithThumbnail(services.db, [file.sha256]),
  ]);
  return presentFile(file, { favorites, thumbnails });
}

/** How a file is being read: each records its own history event (SPEC section 3 download). */
export type ReadMode = 'download' | 'preview' | 'print';

/** What a route needs to stream a file. */
export interface FileStream {
  /**
   * Opens the bytes: all of them, or one range (HTTP Range, see routes/fileResponse.ts); called
   * once, after the read was recorded.
   */
  open: (range?: ByteRange) => Readable;
  /** Size of the whole body, in bytes. */
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
  /** The `Range` it asks for (none when an `If-Range` asks for the whole file). */
  range?: string;
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
  assertRangeSatisfiable(request.range, rendition ? rendition.size : object.size);
  if (!(await partOfRecordedPreview(services, ctx, id, served, request))) {
    await services.db
      .transaction()
      .execute((trx) =>
        recordItemRead(trx, services, ctx, { type: 'file', id, name: file.name }, served),
      );
  }
  if (rendition) {
    return {
      open: (range) => services.store.read(rendition.key, range),
      size: rendition.size,
      contentType: 'application/pdf',
      disposition: dispositionHeader(rendition.name, 'inline'),
    };
  }
  const inline = served !== 'download';
  return {
    open: (range) => services.store.read(file.storage_key, range),
    size: object.size,
    contentType: inline ? previewContentType(file.content_type) : file.content_type,
    disposition: dispositionHeader(file.name, inline ? 'inline' : 'attachment'),
  };
}
