/**
 * Resumable multipart uploads, discarding uploads and cleaning up abandoned ones (SPEC
 * sections 5, 7 "Upload flow" and 8). A multipart upload is a pending file row whose id is also
 * the store's multipart upload id; the server signs each S3-style step (create, part, list,
 * complete, abort) only for a pending upload of the session's own user in the session's firm
 * database, so a URL can never name another key. Uploads that never became files write no history
 * event.
 */
import type { FastifyBaseLogger } from 'fastify';
import { MAX_FILE_SIZE_BYTES, MULTIPART_MAX_PARTS, PRESIGNED_URL_TTL_MS } from '@common/constants';
import type {
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  PresignedPartDto,
  PresignedRequestDto,
} from '@common/uploads';
import type { UploadRestrictions } from '@common/uploads';
import { badRequest, conflict, notFound } from '../errors';
import { duplicateMessage } from '@common/files';
import { isoAt } from '../ids';
import type { FileRow } from '../db/schema';
import {
  deletePendingUpload,
  findFile,
  listStalePendingUploads,
  updateFile,
} from '../repositories/files';
import { fingerprintMissingFiles, type FingerprintSweepResult } from './fingerprints';
import { instanceName, runLeasedJob } from './jobLeases';
import type { RequestContext, Services } from './context';
import { startPendingUpload, type CreateUploadOutcome } from './files';

/** How often a running upload's row is touched at most, in milliseconds. */
const TOUCH_INTERVAL_MS = 60_000;

/** The restrictions of an upload, as served to the client (GET /api/rest/files/restrictions). */
export function uploadRestrictions(services: Services): UploadRestrictions {
  return { ...services.config.uploads };
}

/**
 * Starts a multipart upload: the checks and pending row of every upload, then the presigned
 * S3-style create request (POST, valid 15 minutes) for the object key the server chose. The
 * pending row's id is the multipart upload id. A file of the batch created again gets its earlier
 * upload (the store's create is idempotent for it; a resumed upload lists its stored parts), or,
 * when it is stored or recorded, the settled answer.
 * @throws AppError as startPendingUpload; 400 'invalid_size' for an empty file (it has no part);
 *   409 'duplicate_file' when the batch's earlier upload of the name declared another size
 */
export async function createMultipartUpload(
  services: Services,
  ctx: RequestContext,
  input: CreateMultipartUploadRequest,
): Promise<CreateUploadOutcome<CreateMultipartUploadResponse>> {
  if (input.size <= 0) {
    throw badRequest('An empty file is sent by a single upload.', 'invalid_size');
  }
  const started = await startPendingUpload(services, ctx, input);
  if (started.kind === 'settled') return { created: false, response: started.answer };
  const { pending } = started;
  if (pending.size !== input.size) {
    throw conflict(duplicateMessage(pending.name), 'duplicate_file');
  }
  const start = {
    uploadId: pending.id,
    contentType: pending.contentType,
    declaredSize: pending.size,
    partSize: partLimit(pending.size, services.config.uploads),
  };
  // The server starts the store's upload itself (S3 chooses its id) and keeps the store's id with
  // the pending upload; a resumed upload goes on with the one it has.
  if (!pending.storeUploadId) {
    const storeUploadId = await services.store.startMultipartUpload(pending.storageKey, start);
    await updateFile(services.db, ctx.databaseId, pending.id, { store_upload_id: storeUploadId });
  }
  const presigned = await services.store.presignMultipart(
    { op: 'create', key: pending.storageKey, ...start },
    PRESIGNED_URL_TTL_MS,
  );
  return {
    created: started.kind === 'new',
    response: { id: pending.id, key: pending.storageKey, ...presigned },
  };
}

/**
 * The pending upload `uploadId` of the session's user whose object key is `key`, touched (at most
 * once a minute) so that it counts as running and is not cleaned up.
 * @throws AppError 404 for anything else (another user's or firm's upload, a recorded file, a key
 *   that is not the upload's)
 */
async function ownPendingUpload(
  services: Services,
  ctx: RequestContext,
  uploadId: string,
  key: string,
): Promise<FileRow> {
  const row = await findFile(services.db, ctx.databaseId, uploadId);
  if (
    !row ||
    row.created_by !== ctx.userId ||
    row.status !== 'pending' ||
    row.storage_key !== key
  ) {
    throw notFound('The upload does not exist or was cancelled.', 'no_such_upload');
  }
  // Touching is a write: once a minute is enough for the count and the cleanup.
  if (services.clock() - Date.parse(row.updated_at) >= TOUCH_INTERVAL_MS) {
    await updateFile(services.db, ctx.databaseId, uploadId, { updated_at: isoAt(services.clock) });
  }
  return row;
}

/**
 * The part size of an upload of `size` bytes: the configured part size, or more when the file
 * would otherwise need more than 10000 parts. Every part but the last has exactly this size.
 */
function partLimit(size: number, restrictions: UploadRestrictions): number {
  return Math.max(restrictions.part_size, Math.ceil(size / MULTIPART_MAX_PARTS));
}

/** Most parts signed by one call of {@link signUploadParts}. */
export const MAX_PARTS_PER_SIGNATURE = 100;

/**
 * Signs the upload of parts `first` to `first + count - 1` (PUT, valid 15 minutes each) of at
 * most the part size. Signing several parts in one call saves the browser a round trip per part,
 * which counts on a slow connection.
 * @param first 1 up to the number of parts of the file (every part but the last has exactly the
 *   part size)
 * @param count 1 up to 100; parts past the end of the file are left out
 * @throws AppError 404 (not the user's pending upload or key), 400 'invalid_part_number'
 */
export async function signUploadParts(
  services: Services,
  ctx: RequestContext,
  uploadId: string,
  key: string,
  first: number,
  count: number,
): Promise<PresignedPartDto[]> {
  const row = await ownPendingUpload(services, ctx, uploadId, key);
  const size = Number(row.size);
  const partSize = partLimit(size, services.config.uploads);
  const maxParts = Math.max(1, Math.ceil(size / partSize));
  if (!Number.isInteger(first) || first < 1 || first > maxParts) {
    throw badRequest(`The part number must be between 1 and ${maxParts}.`, 'invalid_part_number');
  }
  if (!Number.isInteger(count) || count < 1 || count > MAX_PARTS_PER_SIGNATURE) {
    throw badRequest(
      `Between 1 and ${MAX_PARTS_PER_SIGNATURE} parts are signed at a time.`,
      'invalid_part_count',
    );
  }
  const parts: PresignedPartDto[] = [];
  for (let partNumber = first; partNumber < first + count && partNumber <= maxParts; partNumber++) {
    const signed = await services.store.presignMultipart(
      {
        op: 'part',
        key,
        uploadId,
        storeUploadId: storeUploadIdOf(row),
        partNumber,
        maxBytes: Math.min(size, partSize, MAX_FILE_SIZE_BYTES),
        size: Math.min(partSize, size - (partNumber - 1) * partSize),
      },
      PRESIGNED_URL_TTL_MS,
    );
    parts.push({ part_number: partNumber, ...signed });
  }
  return parts;
}

/**
 * Signs the upload of one part (PUT, valid 15 minutes); see {@link signUploadParts}.
 * @throws AppError 404 (not the user's pending upload or key), 400 'invalid_part_number'
 */
export async function signUploadPart(
  services: Services,
  ctx: RequestContext,
  uploadId: string,
  partNumber: number,
  key: string,
): Promise<PresignedRequestDto> {
  const [part] = await signUploadParts(services, ctx, uploadId, key, partNumber, 1);
  const { part_number: _number, ...signed } = part!;
  return signed;
}

/**
 * Signs the listing of the parts stored so far (GET, valid 15 minutes), which a resumed upload
 * reads to skip them.
 * @throws AppError 404 (not the user's pending upload or key)
 */
export async function signListParts(
  services: Services,
  ctx: RequestContext,
  uploadId: string,
  key: string,
): Promise<PresignedRequestDto> {
  const row = await ownPendingUpload(services, ctx, uploadId, key);
  return services.store.presignMultipart(
    { op: 'list', key, uploadId, storeUploadId: storeUploadIdOf(row) },
    PRESIGNED_URL_TTL_MS,
  );
}

/**
 * Signs the completion (POST, valid 15 minutes), bound to the declared size: the store refuses to
 * join parts that do not add up to it. The file becomes visible only when recorded afterwards.
 * @throws AppError 404 (not the user's pending upload or key)
 */
export async function signCompleteMultipart(
  services: Services,
  ctx: RequestContext,
  uploadId: string,
  key: string,
): Promise<PresignedRequestDto> {
  const row = await ownPendingUpload(services, ctx, uploadId, key);
  return services.store.presignMultipart(
    {
      op: 'complete',
      key,
      uploadId,
      storeUploadId: storeUploadIdOf(row),
      declaredSize: Number(row.size),
    },
    PRESIGNED_URL_TTL_MS,
  );
}

/**
 * The store's id of a pending multipart upload: the one kept when the server started it, else (a
 * row made before the store's id was kept, or a single upload) the row's own id.
 */
function storeUploadIdOf(row: Pick<FileRow, 'id' | 'store_upload_id'>): string {
  return row.store_upload_id ?? row.id;
}

/**
 * Drops a pending upload's row, parts and objects (the staged upload and anything already
 * committed under its key); no history event: it never became a file.
 */
async function dropPendingUpload(
  services: Services,
  row: Pick<FileRow, 'id' | 'database_id' | 'storage_key' | 'store_upload_id'>,
  before?: string,
): Promise<boolean> {
  const removed = await deletePendingUpload(services.db, row.database_id, row.id, before);
  if (!removed) return false;
  await services.store.abortMultipartUpload(row.storage_key, storeUploadIdOf(row));
  const staging = services.store.stagingKey(row.storage_key);
  if (staging !== row.storage_key) await services.store.delete(staging);
  await services.store.delete(row.storage_key);
  return true;
}

/**
 * Aborts a multipart upload: the pending row, the stored parts and any object go at once, and the
 * answer is the presigned S3-style abort (DELETE) the browser sends afterwards, which then finds
 * nothing left (it answers 204 all the same).
 * @throws AppError 404 (not the user's pending upload or key)
 */
export async function abortMultipartUpload(
  services: Services,
  ctx: RequestContext,
  uploadId: string,
  key: string,
): Promise<PresignedRequestDto> {
  const row = await ownPendingUpload(services, ctx, uploadId, key);
  // Signed before the row goes: the store's id is the row's.
  const signed = await services.store.presignMultipart(
    { op: 'abort', key, uploadId, storeUploadId: storeUploadIdOf(row) },
    PRESIGNED_URL_TTL_MS,
  );
  await dropPendingUpload(services, row);
  return signed;
}

/**
 * Discards a pending upload of the session's user (a cancelled file, or a single upload about to
 * be sent again): its row, parts and object go; no history event is written.
 * @throws AppError 404 when there is no such pending upload of this user
 */
export async function discardUpload(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<void> {
  const row = await findFile(services.db, ctx.databaseId, id);
  if (!row || row.created_by !== ctx.userId || row.status !== 'pending') {
    throw notFound('The upload does not exist or was cancelled.', 'no_such_upload');
  }
  await dropPendingUpload(services, row);
}

/** What one cleanup run removed. */
export interface UploadCleanupResult {
  /** Pending upload rows (with their parts and objects). */
  pendingUploads: number;
  /** Multipart uploads left in the store without a row. */
  multipartUploads: number;
  /** Temporary files of single uploads that broke off. */
  partialFiles: number;
}

/**
 * Removes what abandoned uploads left behind: pending rows untouched for
 * `config.uploadAbandonedAfterMs` (with their parts and any object), then multipart folders and
 * temporary files of the store untouched as long. Nothing became a file, so no history event is
 * written. Safe to run while uploads go on: a running upload touches its row at every signature.
 * @returns the counts removed
 */
export async function cleanUpAbandonedUploads(services: Services): Promise<UploadCleanupResult> {
  const cutoffMs = services.clock() - services.config.uploadAbandonedAfterMs;
  const cutoff = new Date(cutoffMs).toISOString();
  const result: UploadCleanupResult = { pendingUploads: 0, multipartUploads: 0, partialFiles: 0 };
  for (;;) {
    const stale = await listStalePendingUploads(services.db, cutoff, 200);
    if (stale.length === 0) break;
    let removedThisRound = 0;
    for (const row of stale) {
      if (await dropPendingUpload(services, row, cutoff)) removedThisRound += 1;
    }
    result.pendingUploads += removedThisRound;
    if (removedThisRound === 0 || stale.length < 200) break;
  }
  const store = await services.store.removeAbandonedUploads(cutoffMs);
  result.multipartUploads = store.multipart;
  result.partialFiles = store.partial;
  return result;
}

/** The name of the upload cleanup's lease in `job_leases`. */
export const UPLOAD_CLEANUP_JOB = 'upload-cleanup';

/** What one maintenance turn of an instance did. */
export interface UploadMaintenanceResult {
  /** What the cleanup removed. */
  removed: UploadCleanupResult;
  /** What the fingerprint sweep did (its cursor is kept with the lease). */
  swept: FingerprintSweepResult;
  /** Where the fingerprint sweep continues next time. */
  cursor: string;
}

/**
 * One maintenance turn: when this instance gets the upload cleanup's lease (see services/jobLeases.ts;
 * it lasts `leaseMs`), {@link cleanUpAbandonedUploads}, then a fingerprint sweep
 * ({@link fingerprintMissingFiles}: up to 200 files without a sha256, continuing where the last
 * turn of any instance stopped). Both are idempotent: a turn overlapping another instance's removes
 * and fingerprints nothing twice.
 * @param holder this instance's name (`instanceName()`)
 * @returns what was done, or null when another instance holds the lease
 * @throws when the database fails taking the lease or cleaning up
 */
export function runUploadMaintenance(
  services: Services,
  holder: string,
  leaseMs: number,
  log?: FastifyBaseLogger,
): Promise<UploadMaintenanceResult | null> {
  return runLeasedJob(services, UPLOAD_CLEANUP_JOB, holder, leaseMs, async ({ cursor }) => {
    const removed = await cleanUpAbandonedUploads(services);
    if (removed.pendingUploads + removed.multipartUploads + removed.partialFiles > 0) {
      log?.info({ removed }, 'removed abandoned uploads');
    }
    let swept: FingerprintSweepResult = { fingerprinted: 0, failed: 0, cursor };
    try {
      swept = await fingerprintMissingFiles(services, cursor);
      if (swept.fingerprinted + swept.failed > 0) log?.info({ swept }, 'fingerprinted files');
    } catch (error) {
      log?.error({ err: error }, 'fingerprint sweep failed');
    }
    return { removed, swept, cursor: swept.cursor };
  });
}

/**
 * Runs {@link runUploadMaintenance} every `config.uploadCleanupIntervalMs` (and once at start) on
 * this instance; of several instances on one database, the one holding the lease (taken for 90% of
 * the interval, so timer drift never skips a turn) does the work. A failed turn is logged and the
 * next one runs as planned. The timer does not keep the process alive.
 * @returns a function that stops the job
 */
export function startUploadCleanup(services: Services, log: FastifyBaseLogger): () => void {
  const interval = services.config.uploadCleanupIntervalMs;
  if (interval <= 0) return () => undefined;
  const holder = instanceName();
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    runUploadMaintenance(services, holder, Math.floor(interval * 0.9), log)
      .catch((error: unknown) => log.error({ err: error }, 'upload cleanup failed'))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(run, interval);
  timer.unref();
  const first = setTimeout(run, 1_000);
  first.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
}
