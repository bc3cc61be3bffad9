/**
 * The uploads module's non-serializable side (DESIGN.md section 5): the Uppy instance, the File
 * objects between "picked" and "added", and the {@link Uploader} the sagas use. Kept thin: Uppy
 * does the sending, this module only signs, watches and reports. It runs for real only in the
 * browser (Uppy cannot load in Jest); e2e/uploads.spec.ts drives it in Chromium.
 *
 * Sending (Uppy 6 with @uppy/aws-s3 6, companion-less): @uppy/aws-s3 asks `signRequest` for every
 * S3 request it makes. The object key it proposes is the Uppy file id (`generateObjectKey`), so the
 * first request of a file finds the file:
 * - a file up to the multipart threshold goes by one PUT: `{ method: 'PUT', key }` calls
 *   create-upload (POST /api/rest/files) and answers the presigned PUT and its headers;
 * - a larger file goes by multipart: `{ method: 'POST', key }` calls POST /api/rest/files/multipart
 *   and answers the presigned create request plus the server's object key, which @uppy/aws-s3
 *   uses from then on; parts, the part listing, the completion and the abort are signed by
 *   GET /api/rest/files/multipart/{uploadId}/{partNumber}, GET …/{uploadId}, POST
 *   …/{uploadId}/complete and DELETE …/{uploadId}.
 * The server's pending-upload id (which is also the multipart upload id) is kept in the file's meta
 * (`uploadId`); on `upload-success` the uploader reports `uploaded` and the saga records the file.
 *
 * Failures (SPEC section 8):
 * - stall: no progress for UPLOAD_STALL_TIMEOUT_MS pauses the file (its stored parts stay) and
 *   reports "Upload stalled for {seconds} seconds, aborting.";
 * - offline: Uppy reports `is-offline`; a file whose request broke off because of it is not failed
 *   but waits, and every waiting file resumes on `back-online` (a multipart file from its stored
 *   parts); stall watching is suspended meanwhile;
 * - any other error fails the file. Failed files stay in Uppy (with Uppy's error cleared, so that a
 *   later batch does not retry them unasked) until the user retries or cancels them; the error,
 *   the response and the file are collected in failedUploads.ts.
 *
 * Reload (Uppy's Golden Retriever): file state goes to IndexedDB, and the file bytes too (up to
 * 104857600 bytes each, 1 GiB in all). After a reload the files are found again and reported as
 * `restored`; `resumeRestored()` (called by the saga once the session is known) resumes them, a
 * multipart file from the parts already stored (ListParts).
 *
 * What it shares with the request link page's uploader (documentRequests/public/requestUppy.ts)
 * are small units of this folder: s3Requests.ts (the plugin's options and what each request it
 * asks to sign means), multipartSigning.ts (parts signed ten at a time, ahead), settledUpload.ts,
 * batchId.ts, uploadFileFields.ts, progressThrottle.ts, resendFile.ts, uploadDigest.ts and
 * uploadFailureMessages.ts.
 */
import AwsS3 from '@uppy/aws-s3';
import Uppy, { type UppyFile } from '@uppy/core';
import GoldenRetriever, { type GoldenRetrieverOptions } from '@uppy/golden-retriever';
import { MAX_FILE_SIZE_BYTES, UPLOAD_STALL_TIMEOUT_MS } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { splitFileName } from '@common/names';
import { newBatchId } from './batchId';
import { MultipartSigner, type MultipartSigningApi } from './multipartSigning';
import { ProgressThrottle } from './progressThrottle';
import { resendFile } from './resendFile';
import { restoredStateOf } from './restoredUpload';
import { s3PluginOptions, s3StepOf, signedAnswer, type PresignableRequest } from './s3Requests';
import { SettledUpload, isSettled } from './settledUpload';
import { createStallWatchdog } from './stallWatchdog';
import { createUploadFields, localUppyFile } from './uploadFileFields';
import { uploadedSha256, webCryptoDigest, type Digest } from './uploadDigest';
import { stallMessage, uploadErrorMessage } from './uploadFailureMessages';
import type {
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  CreateUploadRequest,
  CreateUploadResponse,
  PresignedRequestDto,
  SettledUploadResponse,
} from '@common/uploads';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import { ApiError, errorMessage } from '@src/api/client';
import { collectFailedUpload, forgetFailedUpload } from './failedUploads';
import { currentUploader, setUploader } from './uploaderRegistry';
import type { AddResult, RestoredUpload, UploadRequest, Uploader, UploaderEvent } from './uploader';
import * as uploadsApi from './uploadsApi';
import { createUploadIdStore, defaultUploadIdStorage, type UploadIdStorage } from './uploadIdStore';
import {
  indexedDbState,
  localStorageState,
  restoreSettled,
  type SavedState,
} from './restoreSettled';

/** Meta stored on each Uppy file (and kept across a reload by Golden Retriever). */
export type UploadMeta = {
  /** Target folder id ('' for the root). */
  folderId: string;
  /** Lowercased extension (SPEC section 3: "Upload metadata: extension and folderId"). */
  extension: string;
  /** The server's pending-upload id (also the multipart upload id), once created. */
  uploadId?: string;
  /**
   * The batch (one call of `add`, i.e. one pick of files) the file belongs to: sent with
   * create-upload with the Uppy file id, so that the server refuses a duplicate name in one batch
   * and answers a file of the batch created again (a resume after a reload or a navigation, a
   * retry) with its earlier upload instead of a second file. Kept across a reload with the meta.
   */
  batchId?: string;
  /** The message of the file's failure while it waits for a retry. */
  failure?: string;
  /**
   * The file this upload is a new version of (sent as create-upload's `version_of`); absent for a
   * new file. Kept across a reload with the meta.
   */
  versionOf?: string;
};

/** Uppy's response body type for this uploader (unused). */
export type UploadBody = Record<string, never>;

type UploadFile = UppyFile<UploadMeta, UploadBody>;

/** The server calls the uploader makes (replaceable in tests): the multipart steps' and these. */
export interface UploaderApi extends MultipartSigningApi {
  createUpload(body: CreateUploadRequest): Promise<CreateUploadResponse | SettledUploadResponse>;
  createMultipartUpload(
    body: CreateMultipartUploadRequest,
  ): Promise<CreateMultipartUploadResponse | SettledUploadResponse>;
  discardUpload(id: string): Promise<void>;
}

/** Dependencies of {@link createUppyUploader}, replaceable in tests. */
export interface UppyUploaderOptions {
  /** The server calls; uploadsApi.ts by default. */
  api?: Partial<UploaderApi>;
  /** Milliseconds without progress before a file is stopped; UPLOAD_STALL_TIMEOUT_MS by default. */
  stallTimeoutMs?: number;
  /** Minimum milliseconds between two progress events of one file; 250 by default. */
  progressIntervalMs?: number;
  /** Makes the Uppy instance; tests pass a fake. */
  createUppy?: () => Uppy<UploadMeta, UploadBody>;
  /** Hex sha256 of a blob, or null when it cannot be computed; Web Crypto by default. */
  digest?: Digest;
  /** Whether the browser is online; navigator.onLine by default. */
  isOnline?: () => boolean;
  /** Where pending upload ids are kept at once (uploadIdStore.ts); localStorage by default. */
  uploadIdStorage?: UploadIdStorage | null;
}

/**
 * Milliseconds a recorded file's upload id is kept after the file leaves the queue: Golden
 * Retriever saves the queue's state at most 500 ms after a change, so a reload until then still
 * finds the file.
 */
const RECORDED_ID_KEPT_MS = 5_000;

/** Largest total of file bytes Golden Retriever keeps in IndexedDB for a reload. */
const RESTORE_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

/** Makes the real Uppy instance: no auto start, several batches, the size limit of SPEC 9. */
function createDefaultUppy(): Uppy<UploadMeta, UploadBody> {
  const uppy = new Uppy<UploadMeta, UploadBody>({
    id: 'dossier-uploads',
    autoProceed: false,
    allowMultipleUploadBatches: true,
    restrictions: { maxFileSize: MAX_FILE_SIZE_BYTES },
  });
  // Golden Retriever's IndexedDB store takes its size limits through `indexedDB` (its type lists
  // only name and version; the options are passed on to the store as they are).
  const indexedDB = {
    maxFileSize: MAX_FILE_SIZE_BYTES,
    maxTotalSize: RESTORE_MAX_TOTAL_BYTES,
  } as unknown as GoldenRetrieverOptions['indexedDB'];
  uppy.use(GoldenRetriever, { expires: 24 * 3_600_000, indexedDB });
  return uppy;
}

/** The browser's localStorage, or null where there is none or it may not be read. */
function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The state Golden Retriever saved for an Uppy id: in IndexedDB, or in localStorage where the
 * browser has no IndexedDB (as the plugin itself chooses).
 */
function savedUploadState(uppyId: string): Promise<SavedState | null> | SavedState | null {
  if (typeof indexedDB !== 'undefined') return indexedDbState(uppyId, indexedDB);
  return localStorageState(browserStorage(), uppyId);
}

/**
 * Whether an error means the connection broke (no reply at all), as opposed to a refusal: the
 * store client's S3NetworkError, Uppy's NetworkError, or an API call that reached no server.
 */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0;
  const named = error as { name?: unknown; isNetworkError?: unknown } | null;
  return (
    named?.name === 'S3NetworkError' ||
    named?.name === 'NetworkError' ||
    named?.isNetworkError === true ||
    error instanceof TypeError
  );
}

/** The response part of a store error (status and body), for the failure collection. */
function responseOf(error: unknown): unknown {
  const failed = error as { status?: unknown; body?: unknown } | null;
  if (failed && (failed.status !== undefined || failed.body !== undefined)) {
    return { status: failed.status ?? null, body: failed.body ?? null };
  }
  return null;
}

/**
 * Makes the Uppy-based uploader (see the module comment): one Uppy instance with @uppy/aws-s3
 * (single PUT up to the multipart threshold, resumable multipart above) and Golden Retriever, a
 * stall watchdog, offline handling, retry and cancel per file, and throttled progress events.
 */
export function createUppyUploader(options: UppyUploaderOptions = {}): Uploader {
  const api: UploaderApi = { ...uploadsApi, ...options.api };
  const stallTimeoutMs = options.stallTimeoutMs ?? UPLOAD_STALL_TIMEOUT_MS;
  const progressIntervalMs = options.progressIntervalMs ?? 250;
  const digest = options.digest ?? webCryptoDigest;
  const isOnline =
    options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  let restrictions: UploadRestrictions = { ...DEFAULT_UPLOAD_RESTRICTIONS };
  const listeners = new Set<(event: UploaderEvent) => void>();
  const progressEvents = new ProgressThrottle(progressIntervalMs);
  /** Files stopped by the stall watchdog: they are paused in Uppy and resume on retry. */
  const stalled = new Set<string>();
  /** Files whose request broke off while offline: retried when the browser is online again. */
  const waiting = new Set<string>();
  /** Files found again after a reload, resumed by resumeRestored(). */
  const restoredToResume = new Set<string>();
  /** Ghost files (no bytes after a reload) given their bytes again by add(): started by start(). */
  const rehydrated = new Set<string>();
  /** Files whose create-upload answered settled: recorded when their upload stops. */
  const settled = new Map<string, string>();
  /** Signs the multipart steps; keeps the part URLs signed ahead, each used once. */
  const multipart = new MultipartSigner();
  let offline = false;
  const uploadIds = createUploadIdStore(
    options.uploadIdStorage === undefined ? defaultUploadIdStorage() : options.uploadIdStorage,
  );

  const emit = (event: UploaderEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const uppy = (options.createUppy ?? createDefaultUppy)();
  // Right after Golden Retriever is installed, before its restore can end (restoreSettled.ts).
  let restore: Promise<void> | null =
    typeof uppy.getPlugin === 'function' ? restoreSettled(uppy, savedUploadState) : null;
  void restore?.then(() => {
    restore = null;
  });
  const fileById = (id: string) => uppy.getFile(id) as UploadFile | undefined;
  const fileByUploadId = (uploadId: string) =>
    (uppy.getFiles() as UploadFile[]).find((file) => file.meta.uploadId === uploadId);

  /** Reports a failure, collects it (error, response, file) and keeps the file for a retry. */
  const fail = (id: string, error: unknown, message: string) => {
    clearStall(id);
    const file = fileById(id);
    collectFailedUpload(id, {
      error,
      response: responseOf(error),
      file: file?.data instanceof File ? file.data : null,
    });
    if (file) uppy.setFileMeta(id, { ...file.meta, failure: message });
    emit({ type: 'failed', id, message });
  };

  /** A file without progress for stallTimeoutMs is paused and reported as stalled. */
  const watchdog = createStallWatchdog(stallTimeoutMs, (id) => {
    const file = fileById(id);
    if (!file || offline || file.progress.uploadComplete) return;
    const message = stallMessage(stallTimeoutMs);
    // Pausing aborts the request in flight but keeps the multipart upload and its parts.
    if (!file.isPaused) uppy.pauseResume(id);
    stalled.add(id);
    fail(id, new Error(message), message);
  });
  const clearStall = (id: string) => watchdog.clear(id);
  const armStall = (id: string) => watchdog.arm(id);

  /** Discards a pending upload the server holds; a missing one is fine. */
  const discard = (uploadId: string | undefined) => {
    if (!uploadId) return;
    api.discardUpload(uploadId).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 404)) {
        console.warn('The cancelled upload could not be discarded:', error);
      }
    });
  };

  /** Keeps the server's pending-upload id in the file's meta. */
  const setUploadId = (id: string, uploadId: string) => {
    const file = fileById(id);
    if (!file) return;
    uppy.setFileMeta(id, { ...file.meta, uploadId });
    uploadIds.set(id, uploadId);
  };

  const createRequestFor = (file: UploadFile): CreateMultipartUploadRequest => {
    const request: CreateMultipartUploadRequest = {
      folder_id: file.meta.folderId,
      ...createUploadFields(file),
    };
    const versioned = file.meta.versionOf
      ? { ...request, version_of: file.meta.versionOf }
      : request;
    return file.meta.batchId
      ? { ...versioned, batch_id: file.meta.batchId, client_key: file.id }
      : versioned;
  };

  /** Stops a file's upload whose bytes need not be sent: it is recorded once Uppy lets go. */
  const settle = (file: UploadFile, reply: SettledUploadResponse): never => {
    setUploadId(file.id, reply.id);
    settled.set(file.id, reply.id);
    throw new SettledUpload(reply.id);
  };

  const signRequest = async (request: PresignableRequest) => {
    const step = s3StepOf(request);
    if (step.kind === 'put' || step.kind === 'create-multipart') {
      // The first request of a file: a single PUT or the creation of a multipart upload.
      const file = fileById(step.fileId);
      if (!file) throw new Error('The file is no longer queued.');
      armStall(file.id);
      // A file of a batch sent again gets its earlier upload back from the server; a file without
      // one (saved by an older version) replaces its earlier pending upload.
      if (!file.meta.batchId) discard(file.meta.uploadId);
      if (step.kind === 'put') {
        const reply = await api.createUpload(createRequestFor(file));
        if (isSettled(reply)) return settle(file, reply);
        setUploadId(file.id, reply.id);
        return signedAnswer(reply);
      }
      const reply = await api.createMultipartUpload(createRequestFor(file));
      if (isSettled(reply)) return settle(file, reply);
      setUploadId(file.id, reply.id);
      return signedAnswer(reply, reply.key);
    }
    const file = fileByUploadId(step.uploadId);
    if (file && step.kind !== 'abort') armStall(file.id);
    let signed: PresignedRequestDto;
    try {
      signed = await multipart.sign(step, api, {
        size: file?.size ?? 0,
        partSize: restrictions.part_size,
      });
    } catch (error) {
      if (
        request.method !== 'DELETE' &&
        file &&
        error instanceof ApiError &&
        error.status === 404
      ) {
        await askAgain(file);
      }
      throw error;
    }
    return signedAnswer(signed);
  };

  /**
   * A multipart upload the server no longer has pending (404): recorded meanwhile (e.g. just
   * before a navigation, with the saved state not knowing it), or discarded. The file of a batch
   * asks create-upload again: settled, it is recorded; otherwise it starts over with the upload the
   * server answers at its next try (its stored multipart state is dropped).
   */
  const askAgain = async (file: UploadFile): Promise<void> => {
    if (!file.meta.batchId) return;
    const reply = await api.createMultipartUpload(createRequestFor(file));
    if (isSettled(reply)) settle(file, reply);
    setUploadId(file.id, reply.id);
    uppy.setFileState(file.id, { s3Multipart: undefined });
  };

  uppy.use(
    AwsS3<UploadMeta, UploadBody>,
    s3PluginOptions<UploadMeta, UploadBody>(() => restrictions, signRequest),
  );

  uppy.on('upload-progress', (file, progress) => {
    if (!file || !fileById(file.id)) return;
    armStall(file.id);
    const bytesTotal = progress.bytesTotal ?? file.size ?? 0;
    if (!progressEvents.pass(file.id, progress.bytesUploaded, bytesTotal, Date.now())) return;
    emit({ type: 'progress', id: file.id, bytesUploaded: progress.bytesUploaded, bytesTotal });
  });

  uppy.on('upload-success', (file) => {
    if (!file) return;
    clearStall(file.id);
    const current = fileById(file.id);
    const uploadId = current?.meta.uploadId;
    if (!current || !uploadId) {
      if (current) fail(file.id, new Error(MESSAGES.uploadNotComplete), MESSAGES.uploadNotComplete);
      return;
    }
    uploadedSha256(current.data, restrictions, digest)
      .then((sha256) => emit({ type: 'uploaded', id: file.id, uploadId, sha256 }))
      .catch(() => emit({ type: 'uploaded', id: file.id, uploadId, sha256: null }));
  });

  uppy.on('upload-error', (file, error) => {
    if (!file || !fileById(file.id)) return;
    clearStall(file.id);
    // Uppy keeps the error on the file, and its next upload() would retry it unasked: the file
    // is retried only when the user asks (or the connection returns).
    uppy.setFileState(file.id, { error: null });
    const settledId = settled.get(file.id);
    if (settledId !== undefined) {
      // Stored or recorded already: recording it answers the file.
      settled.delete(file.id);
      emit({ type: 'uploaded', id: file.id, uploadId: settledId, sha256: null });
      return;
    }
    if (stalled.has(file.id)) return;
    if (offline || !isOnline() || (isConnectionError(error) && !isOnline())) {
      waiting.add(file.id);
      emit({ type: 'waiting', id: file.id });
      return;
    }
    fail(file.id, error, uploadErrorMessage(error));
  });

  uppy.on('is-offline', () => {
    if (offline) return;
    offline = true;
    watchdog.suspend();
    emit({ type: 'offline' });
  });

  uppy.on('back-online', () => {
    offline = false;
    watchdog.resume();
    emit({ type: 'online' });
    for (const id of [...waiting]) {
      waiting.delete(id);
      retryFile(id);
    }
  });

  uppy.on('restored', () => {
    const files: RestoredUpload[] = [];
    const restored = uppy.getFiles() as UploadFile[];
    for (const file of restored) {
      // The saved state may predate the upload id (uploadIdStore.ts); the id kept at once is used.
      const uploadId = file.meta.uploadId ?? uploadIds.get(file.id);
      if (uploadId && !file.meta.uploadId) setUploadId(file.id, uploadId);
      const base = {
        id: file.id,
        name: file.name,
        size: file.size ?? 0,
        folderId: file.meta.folderId ?? '',
        bytesUploaded: file.progress.bytesUploaded || 0,
        uploadId: uploadId ?? null,
      };
      const { resume, ...state } = restoredStateOf({
        uploadComplete: Boolean(file.progress.uploadComplete),
        bytesLost: Boolean(file.isGhost) || !file.data,
        uploadId: uploadId ?? null,
        failure: file.meta.failure ?? null,
      });
      if (resume) restoredToResume.add(file.id);
      files.push({ ...base, ...state });
    }
    uploadIds.keepOnly(restored.map((file) => file.id));
    // The uploads of the earlier page are not run again as such: each file resumes on its own.
    uppy.setState({ currentUploads: {}, recoveredState: null });
    if (files.length > 0) emit({ type: 'restored', files });
  });

  /** Sends a file again the way its state requires. */
  function retryFile(id: string): void {
    const file = fileById(id);
    if (!file) return;
    forgetFailedUpload(id);
    const { failure: _failure, ...meta } = file.meta;
    uppy.setFileMeta(id, meta);
    resendFile(uppy, file, stalled.delete(id), armStall);
  }

  /** Forgets everything the uploader keeps about a file. */
  const forget = (id: string) => {
    const uploadId = fileById(id)?.meta.uploadId;
    if (uploadId) multipart.forgetUpload(uploadId);
    clearStall(id);
    progressEvents.forget(id);
    stalled.delete(id);
    waiting.delete(id);
    restoredToResume.delete(id);
    rehydrated.delete(id);
    settled.delete(id);
    forgetFailedUpload(id);
  };

  return {
    restoring: () => restore,
    configure(next) {
      restrictions = { ...next };
    },
    add(requests: readonly UploadRequest[]): AddResult[] {
      const batchId = newBatchId();
      return requests.map(({ file, folderId, versionOf }) => {
        try {
          const extension = splitFileName(file.name).extension;
          const before = uppy.getFiles() as UploadFile[];
          const ghosts = before.filter((known) => known.isGhost);
          const id = uppy.addFile(
            localUppyFile<UploadMeta>(
              file,
              versionOf
                ? { folderId, extension, batchId, versionOf }
                : { folderId, extension, batchId },
            ),
          );
          // A ghost given its bytes again stays in its batch, so it finds its earlier upload.
          const ghostBatch = ghosts.find((known) => known.id === id)?.meta.batchId;
          const added = fileById(id);
          if (ghostBatch && added) uppy.setFileMeta(id, { ...added.meta, batchId: ghostBatch });
          // A ghost of a reload got its bytes back: it resumes from where it stopped.
          if (ghosts.some((known) => known.id === id)) rehydrated.add(id);
          return { ok: true, id };
        } catch (error) {
          return { ok: false, reason: errorMessage(error) };
        }
      });
    },
    start() {
      for (const id of [...rehydrated]) {
        rehydrated.delete(id);
        retryFile(id);
      }
      uppy.upload().catch((error: unknown) => {
        console.error('The upload could not start:', error);
      });
    },
    retry(id) {
      waiting.delete(id);
      retryFile(id);
    },
    cancel(id) {
      const uploadId = fileById(id)?.meta.uploadId;
      forget(id);
      uploadIds.remove(id);
      // Removing the file stops its uploader (which aborts a multipart upload on the server).
      if (fileById(id)) uppy.removeFile(id);
      discard(uploadId);
    },
    cancelAll() {
      const pending = (uppy.getFiles() as UploadFile[]).map((file) => file.meta.uploadId);
      for (const file of uppy.getFiles()) {
        forget(file.id);
        uploadIds.remove(file.id);
      }
      progressEvents.clear();
      uppy.cancelAll();
      for (const uploadId of pending) discard(uploadId);
    },
    release(id) {
      forget(id);
      if (fileById(id)) uppy.removeFile(id);
      uploadIds.removeLater(id, RECORDED_ID_KEPT_MS);
    },
    resumeRestored() {
      for (const id of [...restoredToResume]) {
        restoredToResume.delete(id);
        retryFile(id);
      }
    },
    fileOf(id) {
      const data = fileById(id)?.data;
      return data instanceof File ? data : null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The uploader of the app, created on first use. */
export function getUploader(): Uploader {
  const existing = currentUploader();
  if (existing) return existing;
  const created = createUppyUploader();
  setUploader(created);
  return created;
}

export { setUploader } from './uploaderRegistry';
export { uploadErrorMessage } from './uploadFailureMessages';
export { stageFiles, takeStagedFiles } from './stagedFiles';
