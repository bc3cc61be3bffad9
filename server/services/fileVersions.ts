/**
 * File versions (docs/architecture.md "File versions"). A file keeps its id, name, favorites,
 * index values, contact links, shares and permissions through its versions; each version is an
 * immutable object of its own (`<database id>/<id>`, never overwritten), and the file row mirrors
 * the newest (storage key, size, sha256, type), so download, preview, share links, zips, search and
 * document imaging all serve the newest without knowing about versions.
 *
 * - A new version comes from an upload created with `version_of` (services/files.ts checks the
 *   target with {@link versionTarget} at create and again at record, {@link recordVersionUpload}).
 * - Restore copies an older version's object on the store's side (no re-upload) into a new
 *   version, so the versions before it stay as they were.
 * - An administrator may delete an older version ({@link assertVersionDeletable} is the one place
 *   that says whether a version may go).
 * Each change writes its history event (file add_version, restore_version, delete_version) in the
 * transaction that makes it. A file recorded without version rows (rows written by hand or by
 * tools) counts as having version 1, its row's object; the first new version writes that row.
 */
import { assertRangeSatisfiable } from './byteRanges';
import { assertDestroyable, todayOf } from './records/protection';
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { isInlinePreviewable, previewContentType } from '@common/files';
import {
  alreadyNewestMessage,
  otherExtensionMessage,
  targetChangedMessage,
  VERSION_MESSAGES,
  type FileVersionDto,
  type FileVersionsResponse,
  type RestoreVersionResponse,
  type UploadConflictsRequest,
  type UploadConflictsResponse,
} from '@common/versions';
import { dispositionHeader } from '../disposition';
import { AppError, badRequest, conflict, notFound } from '../errors';
import { isoAt, newId } from '../ids';
import { displayName } from '../presenters';
import type { FileRow } from '../db/schema';
import type { FileVersionRow } from '../db/schemaVersions';
import {
  deletePendingUpload,
  findFile,
  liveFilesNamed,
  type FileWithCreator,
} from '../repositories/files';
import {
  deleteVersionRow,
  findVersion,
  insertVersions,
  newestVersionNumber,
  versionsOf,
  type VersionWithCreator,
} from '../repositories/fileVersions';
import { findFolder } from '../repositories/folders';
import type { Executor } from '../repositories/types';
import { nameKey, splitFileName } from '@common/names';
import { accessibleFile, accessibleFolder, assertAdmin } from './access';
import type { RequestContext, Services } from './context';
import {
  partOfRecordedPreview,
  servedReadMode,
  type FileStream,
  type ReadMode,
  type ReadRequest,
} from './files';
import { fingerprintLater } from './fingerprints';
import { recordItemRead, recordVersionEvent, type ParentRef } from './historyEvents';
import { removeUnusedDerivatives } from './imaging/cleanup';
import { enqueueNewVersion } from './imaging/queue';
import { pdfRenditionOf } from './imaging/renditions';
import { inTransaction } from './transactions';

/** What a file's first version is made of: its row's object, creator and time. */
export type FirstVersionSource = Pick<
  FileRow,
  'id' | 'database_id' | 'storage_key' | 'size' | 'content_type' | 'created_by' | 'created_at'
> & { sha256?: string | null };

/**
 * The version 1 of a file: its row's object, creator and time (a new file, a copy, or a file
 * recorded without version rows). Insert it in the transaction that makes the file ready.
 * @param upload the pending upload the file was recorded from, if any
 */
export function firstVersionOf(
  file: FirstVersionSource,
  upload?: { id: string; batchId: string | null; clientKey: string | null },
): FileVersionRow {
  return {
    file_id: file.id,
    number: 1,
    database_id: file.database_id,
    storage_key: file.storage_key,
    size: Number(file.size),
    sha256: file.sha256 ?? null,
    content_type: file.content_type,
    created_by: file.created_by,
    created_at: file.created_at,
    restored_from: null,
    upload_id: upload?.id ?? null,
    upload_batch_id: upload?.batchId ?? null,
    upload_client_key: upload?.clientKey ?? null,
  };
}

/** Every version of a file, newest first (the implicit version 1 of a file without rows). */
async function versionRows(db: Executor, file: FileWithCreator): Promise<VersionWithCreator[]> {
  const rows = await versionsOf(db, file.database_id, file.id);
  if (rows.length > 0) return rows;
  return [
    {
      ...firstVersionOf(file),
      creator_first: file.creator_first,
      creator_last: file.creator_last,
    },
  ];
}

/** A version as JSON. */
function presentVersion(row: VersionWithCreator, newest: number): FileVersionDto {
  return {
    number: Number(row.number),
    size: Number(row.size),
    sha256: row.sha256 ?? null,
    content_type: row.content_type,
    created_by: row.created_by,
    created_by_name: displayName(row.creator_first, row.creator_last),
    created_at: row.created_at,
    restored_from: row.restored_from === null ? null : Number(row.restored_from),
    newest: Number(row.number) === newest,
  };
}

/** One version of a file (the implicit version 1 of a file without rows). */
async function versionOf(db: Executor, file: FileRow, number: number): Promise<FileVersionRow> {
  const row = await findVersion(db, file.database_id, file.id, number);
  if (row) return row;
  if (number === 1 && (await newestVersionNumber(db, file.database_id, file.id)) === 0) {
    return firstVersionOf(file);
  }
  throw notFound(VERSION_MESSAGES.versionNotFound, 'version_not_found');
}

/** The folder a file sits in, as events name it. */
async function parentOf(db: Executor, databaseId: string, folderId: string): Promise<ParentRef> {
  if (folderId === ROOT_FOLDER_ID) return { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME };
  const folder = await findFolder(db, databaseId, folderId);
  return { id: folderId, name: folder?.name ?? '' };
}

/**
 * GET REST/files/{id}/versions: every version of a file the session may read (archived files
 * included, as their other reads), newest first.
 * @throws AppError 404 when the file is not visible to the session
 */
export async function listFileVersions(
  services: Services,
  ctx: RequestContext,
  fileId: string,
): Promise<FileVersionsResponse> {
  const file = await accessibleFile(services.db, ctx, fileId, 'read', { allowArchived: true });
  const rows = await versionRows(services.db, file);
  const newest = Number(rows[0]!.number);
  return { items: rows.map((row) => presentVersion(row, newest)) };
}

/** The object and origin of a version being added. */
export interface NewVersionObject {
  storageKey: string;
  size: number;
  sha256: string | null;
  contentType: string;
  /** A restore: the number of the version copied. */
  restoredFrom?: number;
  /** An upload: the pending upload it was recorded from. */
  upload?: { id: string; batchId: string | null; clientKey: string | null };
}

/**
 * Adds a version to a file inside the caller's transaction and makes it the file's bytes (the
 * row's storage key, size, sha256 and type, and its update time). A file without version rows
 * gets its version 1 first. The number is one more than the newest: two transactions taking the
 * same number on PostgreSQL make the second commit fail its primary key, and `inTransaction` runs
 * it again.
 * @param file the file as read in this transaction
 * @returns the new version's number
 */
export async function appendVersion(
  trx: Executor,
  services: Pick<Services, 'clock'>,
  ctx: RequestContext,
  file: FileRow,
  object: NewVersionObject,
): Promise<number> {
  const newest = await newestVersionNumber(trx, ctx.databaseId, file.id);
  if (newest === 0) await insertVersions(trx, [firstVersionOf(file)]);
  const number = Math.max(newest, 1) + 1;
  const at = isoAt(services.clock);
  await insertVersions(trx, [
    {
      file_id: file.id,
      number,
      database_id: ctx.databaseId,
      storage_key: object.storageKey,
      size: object.size,
      sha256: object.sha256,
      content_type: object.contentType,
      created_by: ctx.userId,
      created_at: at,
      restored_from: object.restoredFrom ?? null,
      upload_id: object.upload?.id ?? null,
      upload_batch_id: object.upload?.batchId ?? null,
      upload_client_key: object.upload?.clientKey ?? null,
    },
  ]);
  await trx
    .updateTable('files')
    .set({
      storage_key: object.storageKey,
      size: object.size,
      sha256: object.sha256,
      content_type: object.contentType,
      updated_at: at,
    })
    .where('database_id', '=', ctx.databaseId)
    .where('id', '=', file.id)
    .execute();
  return number;
}

/**
 * The file an upload is to become a new version of, as the client named it (`version_of`): never
 * trusted, it must be a live, recorded file of the session's firm that the session may see and
 * change, in the folder the upload goes to, with the upload's extension (its content type stays
 * the file's).
 * @param folderId the upload's folder
 * @param extension the upload's extension (lowercased)
 * @throws AppError 404 (not the firm's, not visible, archived, pending or gone), 403 (read-only
 *   member), 400 'version_other_folder' / 'version_other_extension'
 */
export async function versionTarget(
  db: Executor,
  ctx: RequestContext,
  fileId: string,
  folderId: string,
  extension: string,
): Promise<FileWithCreator> {
  const file = await accessibleFile(db, ctx, fileId, 'write');
  if (file.folder_id !== folderId) {
    throw badRequest(VERSION_MESSAGES.otherFolder, 'version_other_folder');
  }
  if (file.extension !== extension) {
    throw badRequest(otherExtensionMessage(file.name, file.extension), 'version_other_extension');
  }
  return file;
}

/** What recording an upload as a new version did. */
export interface RecordedVersion {
  file: FileRow;
  number: number;
}

/**
 * Records a stored upload as a new version of the file it names (`upload_version_of`), inside the
 * record's transaction: the target is checked again (it may have been moved, archived, deleted or
 * made read-only meanwhile), the pending row goes (only while still pending: of two records one
 * does it), the version is appended and file add_version is written.
 * @returns the version, or null when another record of this upload got there first
 * @throws AppError 409 'version_target_changed' when the target is no longer a live file of the
 *   upload's folder with its extension; 403 for a member who became read-only
 */
export async function recordVersionUpload(
  trx: Executor,
  services: Pick<Services, 'clock' | 'dialect'>,
  ctx: RequestContext,
  pending: FileRow,
  object: { size: number; sha256: string | null },
): Promise<RecordedVersion | null> {
  const targetId = pending.upload_version_of!;
  let target: FileWithCreator;
  try {
    target = await versionTarget(trx, ctx, targetId, pending.folder_id, pending.extension);
  } catch (error) {
    if (error instanceof AppError && error.status === 403) throw error;
    const named = await findFile(trx, ctx.databaseId, targetId);
    throw conflict(targetChangedMessage(named?.name ?? pending.name), 'version_target_changed');
  }
  if (!(await deletePendingUpload(trx, ctx.databaseId, pending.id))) return null;
  const number = await appendVersion(trx, services, ctx, target, {
    storageKey: pending.storage_key,
    size: object.size,
    sha256: object.sha256,
    contentType: pending.content_type,
    upload: {
      id: pending.id,
      batchId: pending.upload_batch_id,
      clientKey: pending.upload_client_key,
    },
  });
  await recordVersionEvent(
    trx,
    services,
    ctx,
    'add_version',
    { id: target.id, name: target.name },
    await parentOf(trx, ctx.databaseId, target.folder_id),
    { number, size: object.size, sha256: object.sha256, content_type: pending.content_type },
  );
  return { file: target, number };
}

/**
 * What happens after a version is committed: document imaging derives from the new bytes (its
 * job is queued again, so preview, thumbnail and content search follow the newest), and bytes
 * without a sha256 yet are fingerprinted in the background.
 */
export async function afterNewVersion(
  services: Services,
  file: Pick<FileRow, 'database_id' | 'id' | 'extension' | 'content_type'>,
  object: { storageKey: string; sha256: string | null },
): Promise<void> {
  await enqueueNewVersion(services, file, object.sha256);
  if (!object.sha256) {
    fingerprintLater(services, {
      databaseId: file.database_id,
      id: file.id,
      storageKey: object.storageKey,
    });
  }
}

/**
 * POST REST/files/{id}/versions/{n}/restore: makes an older version the newest by copying its
 * object on the store's side (no bytes pass through the app) into a new version, which history
 * records as file restore_version ("restored version 1 of file "a.pdf" as version 3"). The
 * versions in between stay. The copy is removed again when the transaction fails.
 * @throws AppError 404 (file not visible, archived, or no such version), 403 (read-only member),
 *   409 'version_is_newest'
 */
export async function restoreFileVersion(
  services: Services,
  ctx: RequestContext,
  fileId: string,
  number: number,
): Promise<RestoreVersionResponse> {
  const file = await accessibleFile(services.db, ctx, fileId, 'write');
  const source = await versionOf(services.db, file, number);
  if (Number(source.number) === (await newestOf(services.db, file))) {
    throw conflict(alreadyNewestMessage(number), 'version_is_newest');
  }
  const storageKey = `${ctx.databaseId}/${newId()}`;
  await services.store.copyObject(source.storage_key, storageKey);
  let added: { file: FileRow; number: number };
  try {
    added = await inTransaction(services, async (trx) => {
      const live = await accessibleFile(trx, ctx, fileId, 'write');
      const from = await versionOf(trx, live, number);
      const created = await appendVersion(trx, services, ctx, live, {
        storageKey,
        size: Number(from.size),
        sha256: from.sha256,
        contentType: from.content_type,
        restoredFrom: number,
      });
      await recordVersionEvent(
        trx,
        services,
        ctx,
        'restore_version',
        { id: live.id, name: live.name },
        await parentOf(trx, ctx.databaseId, live.folder_id),
        {
          number: created,
          size: Number(from.size),
          sha256: from.sha256,
          content_type: from.content_type,
          restored_from: number,
        },
      );
      return { file: live, number: created };
    });
  } catch (error) {
    await services.store.delete(storageKey).catch(() => undefined);
    throw error;
  }
  await afterNewVersion(services, added.file, { storageKey, sha256: source.sha256 });
  const refreshed = await accessibleFile(services.db, ctx, fileId, 'read');
  const version = (await versionRows(services.db, refreshed)).find(
    (row) => Number(row.number) === added.number,
  );
  if (!version) throw notFound(VERSION_MESSAGES.versionNotFound, 'version_not_found');
  return { file_id: fileId, version: presentVersion(version, added.number) };
}

/** The number of a file's newest version (1 for a file without version rows). */
async function newestOf(db: Executor, file: FileRow): Promise<number> {
  return Math.max(1, await newestVersionNumber(db, file.database_id, file.id));
}

/**
 * Whether a version may be deleted, refusing when not: only an administrator deletes, never the
 * newest version (it is the file's bytes), and no version of a file a legal hold or a retention
 * schedule protects (records/protection.ts). The one place that decides it.
 * @param newest the number of the file's newest version
 * @param today the UTC day `YYYY-MM-DD` retention ends are compared with
 * @throws AppError 403 'admin_only', 409 'version_is_newest', 'under_legal_hold' or
 *   'under_retention' (naming the hold or the schedule and the day it ends)
 */
export async function assertVersionDeletable(
  db: Executor,
  ctx: RequestContext,
  file: FileRow,
  version: { number: number },
  newest: number,
  today: string,
): Promise<void> {
  assertAdmin(ctx);
  if (version.number === newest) {
    throw conflict(VERSION_MESSAGES.newestNotDeletable, 'version_is_newest');
  }
  await assertDestroyable(db, ctx.databaseId, { fileIds: [file.id] }, today);
}

/**
 * DELETE REST/files/{id}/versions/{n}: an administrator deletes an older version for good (its
 * row in the transaction that writes file delete_version, its object after the commit, and the
 * derivatives of its bytes when nothing else holds them). The newest version stays.
 * @throws AppError 404 (file not visible or archived, or no such version), 403 'admin_only',
 *   409 'version_is_newest'
 */
export async function deleteFileVersion(
  services: Services,
  ctx: RequestContext,
  fileId: string,
  number: number,
): Promise<void> {
  const removed = await inTransaction(services, async (trx) => {
    const file = await accessibleFile(trx, ctx, fileId, 'write');
    const version = await versionOf(trx, file, number);
    const newest = await newestOf(trx, file);
    await assertVersionDeletable(trx, ctx, file, { number }, newest, todayOf(services.clock));
    if (!(await deleteVersionRow(trx, ctx.databaseId, fileId, number))) {
      throw notFound(VERSION_MESSAGES.versionNotFound, 'version_not_found');
    }
    await recordVersionEvent(
      trx,
      services,
      ctx,
      'delete_version',
      { id: file.id, name: file.name },
      await parentOf(trx, ctx.databaseId, file.folder_id),
      {
        number,
        size: Number(version.size),
        sha256: version.sha256,
        content_type: version.content_type,
      },
    );
    return version;
  });
  await services.store.delete(removed.storage_key).catch(() => undefined);
  // A failure is left to the start-up sweep of derivatives nothing holds.
  if (removed.sha256) await removeUnusedDerivatives(services, [removed.sha256]).catch(() => 0);
}

/**
 * GET REST/files/{id}/versions/{n}/download and /preview: opens one version of a file the
 * session may read, recorded as the file's download or preview naming the version (in its own
 * transaction, before the bytes flow), served as `openFile` serves the newest: a preview is inline
 * only for what browsers show safely, else that version's PDF rendition once imaging derived one
 * for its bytes, else an attachment recorded as a download.
 * @throws AppError 404 (file not visible, no such version, or its object missing)
 */
export async function openFileVersion(
  services: Services,
  ctx: RequestContext,
  fileId: string,
  number: number,
  mode: Exclude<ReadMode, 'print'>,
  request: ReadRequest = {},
): Promise<FileStream> {
  const file = await accessibleFile(services.db, ctx, fileId, 'read', { allowArchived: true });
  const version = await versionOf(services.db, file, number);
  const rendition =
    mode === 'preview' && !isInlinePreviewable(version.content_type)
      ? await pdfRenditionOf(services, { name: file.name, sha256: version.sha256 })
      : null;
  const served = rendition ? mode : servedReadMode(mode, version.content_type);
  const object = await services.store.head(version.storage_key);
  if (!object) throw notFound('The file content is missing.', 'object_missing');
  assertRangeSatisfiable(request.range, rendition ? rendition.size : object.size);
  if (!(await partOfRecordedPreview(services, ctx, fileId, served, request))) {
    await services.db
      .transaction()
      .execute((trx) =>
        recordItemRead(
          trx,
          services,
          ctx,
          { type: 'file', id: file.id, name: file.name },
          served,
          undefined,
          number,
        ),
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
  const { base, extension } = splitFileName(file.name);
  // "report (version 2).pdf": a download of an older version is told apart from the file.
  const name = extension
    ? `${base} (version ${number}).${extension}`
    : `${base} (version ${number})`;
  return {
    open: (range) => services.store.read(version.storage_key, range),
    size: object.size,
    contentType: inline ? previewContentType(version.content_type) : version.content_type,
    disposition: dispositionHeader(name, inline ? 'inline' : 'attachment'),
  };
}

/**
 * POST REST/files/conflicts: which of the names about to be uploaded into a folder a live file
 * there already has (case-insensitive, SPEC section 5), with that file's id, so that the client
 * can ask "upload as a new version or keep both" before sending anything. Names of folders are
 * not answered (a folder has no versions: such an upload keeps both).
 * @throws AppError 404 (folder not visible), 403 (read-only member: they cannot upload)
 */
export async function uploadConflicts(
  services: Services,
  ctx: RequestContext,
  input: UploadConflictsRequest,
): Promise<UploadConflictsResponse> {
  await accessibleFolder(services.db, ctx, input.folder_id, 'write');
  const keys = [...new Set(input.names.map((name) => nameKey(name.trim())))];
  const files = await liveFilesNamed(services.db, ctx.databaseId, input.folder_id, keys);
  const byKey = new Map(files.map((f) => [f.name_key, f]));
  const items: UploadConflictsResponse['items'] = [];
  for (const name of input.names) {
    const file = byKey.get(nameKey(name.trim()));
    if (file) items.push({ name, file_id: file.id, file_name: file.name });
  }
  return { items };
}
