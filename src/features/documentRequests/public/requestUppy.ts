/**
 * The request link page's real uploader (requestUploader.ts's interface), built like the app's
 * (src/features/uploads/uppyClient.ts): Uppy 6 with @uppy/aws-s3 6, companion-less, every S3
 * request signed by the link's routes under /api/rest/public/requests/{token}/files through
 * `signRequest`. The object key @uppy/aws-s3 proposes is the Uppy file id, so the first request of
 * a file finds the file:
 * - up to the page's `restrictions.multipart_threshold`, one PUT: `{ method: 'PUT', key }` calls
 *   POST …/files (RequestUploadStart) and answers the presigned PUT and its headers;
 * - above it, multipart: `{ method: 'POST', key }` calls POST …/files/multipart and answers the
 *   presigned create request and the server's object key; parts are signed ten at a time
 *   (GET …/multipart/{uploadId}/parts), the listing, completion and abort by GET …/{uploadId},
 *   POST …/{uploadId}/complete and DELETE …/{uploadId}. A retry of a stopped multipart upload
 *   lists the stored parts (ListParts) and sends only the missing ones.
 * The server's pending-upload id is kept in the file's meta; on `upload-success` the uploader
 * reports `uploaded` and the saga records the file to its item. A file that makes no progress for
 * UPLOAD_STALL_TIMEOUT_MS is paused (its parts stay) and fails with the app's stall message.
 * There is no Golden Retriever here: a recipient's page reload starts the picked files over.
 * Runs only in the browser (Uppy cannot load in Jest; the sagas are tested with a fake).
 */
import AwsS3, { type AwsS3Options } from '@uppy/aws-s3';
import Uppy, { type UppyFile } from '@uppy/core';
import type { FileProgressNotStarted } from '@uppy/core/utils';
import type { RequestUploadStart } from '@common/documentRequests';
import { PRESIGNED_URL_TTL_MS, UPLOAD_STALL_TIMEOUT_MS } from '@common/constants';
import { contentTypeFor } from '@common/files';
import { MESSAGES, formatMessage } from '@common/messages';
import { splitFileName } from '@common/names';
import {
  DEFAULT_UPLOAD_RESTRICTIONS,
  usesMultipart,
  type CreateMultipartUploadResponse,
  type CreateUploadResponse,
  type PresignedRequestDto,
  type SettledUploadResponse,
  type UploadRestrictions,
} from '@common/uploads';
import { errorMessage } from '@src/api/client';
import { SignedPartCache } from '@src/features/uploads/signedParts';
import { createStallWatchdog } from '@src/features/uploads/stallWatchdog';
import * as api from './publicRequestApi';
import type {
  AddResult,
  RequestUploadRequest,
  RequestUploader,
  RequestUploaderEvent,
} from './requestUploader';

/** Meta stored on each Uppy file. */
type RequestUploadMeta = {
  /** The link the file is sent through. */
  token: string;
  /** The requested item's id. */
  itemId: string;
  extension: string;
  /** The batch (one pick) the file belongs to, sent with its Uppy id as `client_key`. */
  batchId: string;
  /** The server's pending-upload id (also the multipart upload id), once created. */
  uploadId?: string;
};
type RequestUploadBody = Record<string, never>;
type UploadFile = UppyFile<RequestUploadMeta, RequestUploadBody>;
type SignRequestFn = Extract<
  AwsS3Options<RequestUploadMeta, RequestUploadBody>,
  { signRequest: unknown }
>['signRequest'];
type PresignableRequest = Parameters<SignRequestFn>[0];

/** Parts signed per call of the parts route. */
const PARTS_PER_SIGNATURE = 10;
/** A signed part is used only while it has at least this long left, in ms. */
const SIGNED_PART_MARGIN_MS = 5 * 60_000;
/** Minimum milliseconds between two progress events of one file. */
const PROGRESS_INTERVAL_MS = 250;

/** Thrown by `signRequest` when create-upload answers that no bytes need be sent. */
class SettledUpload extends Error {
  constructor(readonly uploadId: string) {
    super('The file is already stored.');
  }
}

function isSettled(
  reply: CreateUploadResponse | CreateMultipartUploadResponse | SettledUploadResponse,
): reply is SettledUploadResponse {
  return 'state' in reply;
}

/** A new batch id (Web Crypto's UUID where there is one). */
function newBatchId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `b-${Date.now()}-${Math.random().toString(16).slice(2)}`
  );
}

/** Hex sha256 of a blob with Web Crypto (secure contexts only), or null. */
async function digest(blob: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const hash = new Uint8Array(await subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The message of a failed upload: the store's JSON `message` when it sent one, else the error's. */
function uploadErrorMessage(error: unknown): string {
  const body = (error as { body?: unknown } | null)?.body;
  if (typeof body === 'string' && body.trim().startsWith('{')) {
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    } catch {
      // Not JSON.
    }
  }
  return errorMessage(error);
}

/**
 * Makes the Uppy-based request uploader (see the module comment).
 * @param createUppy makes the Uppy instance (a fake in tests of this module)
 */
export function createRequestUppyUploader(
  createUppy: () => Uppy<RequestUploadMeta, RequestUploadBody> = () =>
    new Uppy<RequestUploadMeta, RequestUploadBody>({
      id: 'dossier-request-uploads',
      autoProceed: false,
      allowMultipleUploadBatches: true,
    }),
): RequestUploader {
  let token = '';
  let restrictions: UploadRestrictions = { ...DEFAULT_UPLOAD_RESTRICTIONS };
  const listeners = new Set<(event: RequestUploaderEvent) => void>();
  const lastProgressAt = new Map<string, number>();
  const stalled = new Set<string>();
  const settled = new Map<string, string>();
  const signedParts = new SignedPartCache(PRESIGNED_URL_TTL_MS, SIGNED_PART_MARGIN_MS);
  const emit = (event: RequestUploaderEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const uppy = createUppy();
  const fileById = (id: string) => uppy.getFile(id) as UploadFile | undefined;
  const fileByUploadId = (uploadId: string) =>
    (uppy.getFiles() as UploadFile[]).find((file) => file.meta.uploadId === uploadId);

  const watchdog = createStallWatchdog(UPLOAD_STALL_TIMEOUT_MS, (id) => {
    const file = fileById(id);
    if (!file || file.progress.uploadComplete) return;
    const message = formatMessage(MESSAGES.uploadStalled, {
      seconds: Math.round(UPLOAD_STALL_TIMEOUT_MS / 1000),
    });
    if (!file.isPaused) uppy.pauseResume(id);
    stalled.add(id);
    emit({ type: 'failed', id, message });
  });

  const setUploadId = (id: string, uploadId: string) => {
    const file = fileById(id);
    if (file) uppy.setFileMeta(id, { ...file.meta, uploadId });
  };
  const absolute = (url: string) => new URL(url, window.location.href).toString();
  const startOf = (file: UploadFile): RequestUploadStart & { size: number } => {
    const name = file.name.trim();
    const { extension } = splitFileName(name);
    return {
      item_id: file.meta.itemId,
      name,
      extension,
      content_type: contentTypeFor(extension),
      size: file.size ?? 0,
      batch_id: file.meta.batchId,
      client_key: file.id,
    };
  };
  const settle = (file: UploadFile, reply: SettledUploadResponse): never => {
    setUploadId(file.id, reply.id);
    settled.set(file.id, reply.id);
    throw new SettledUpload(reply.id);
  };

  /** One part's signed URL: signed ahead while fresh, else signed now with the next ones. */
  const signPart = async (
    linkToken: string,
    uploadId: string,
    key: string,
    partNumber: number,
    file: UploadFile | undefined,
  ): Promise<PresignedRequestDto> => {
    const ahead = signedParts.take(uploadId, partNumber, Date.now());
    if (ahead) return ahead;
    const size = file?.size ?? 0;
    const total = size > 0 ? Math.ceil(size / restrictions.part_size) : partNumber;
    const count = Math.max(1, Math.min(PARTS_PER_SIGNATURE, total - partNumber + 1));
    const parts = await api.signRequestUploadParts(linkToken, uploadId, key, partNumber, count);
    const own = parts.find((part) => part.part_number === partNumber);
    signedParts.keep(
      uploadId,
      parts.filter((part) => part !== own),
      Date.now(),
    );
    if (!own) throw new Error(`Part ${partNumber} could not be signed.`);
    return own;
  };

  const signRequest = async (request: PresignableRequest) => {
    if (!('uploadId' in request)) {
      if (request.method !== 'PUT' && request.method !== 'POST') {
        throw new Error(`Unexpected ${request.method} request without an upload.`);
      }
      const file = fileById(request.key);
      if (!file) throw new Error('The file is no longer queued.');
      watchdog.arm(file.id);
      if (request.method === 'PUT') {
        const { size: _size, ...start } = startOf(file);
        const reply = await api.createRequestUpload(file.meta.token, start);
        if (isSettled(reply)) return settle(file, reply);
        setUploadId(file.id, reply.id);
        return { url: absolute(reply.url), headers: reply.headers };
      }
      const reply = await api.createRequestMultipartUpload(file.meta.token, startOf(file));
      if (isSettled(reply)) return settle(file, reply);
      setUploadId(file.id, reply.id);
      return { url: absolute(reply.url), key: reply.key, headers: reply.headers };
    }
    const { uploadId, key } = request;
    const file = fileByUploadId(uploadId);
    const linkToken = file?.meta.token ?? token;
    if (file) watchdog.arm(file.id);
    let signed: PresignedRequestDto;
    if (request.method === 'PUT' && 'partNumber' in request) {
      signed = await signPart(linkToken, uploadId, key, request.partNumber, file);
    } else if (request.method === 'GET') {
      signed = await api.signRequestListParts(linkToken, uploadId, key);
    } else if (request.method === 'POST') {
      signed = await api.signRequestCompleteMultipart(linkToken, uploadId, key);
    } else {
      signed = await api.abortRequestMultipartUpload(linkToken, uploadId, key);
    }
    return { url: absolute(signed.url), headers: signed.headers };
  };

  uppy.use(AwsS3<RequestUploadMeta, RequestUploadBody>, {
    shouldUseMultipart: (file: UploadFile) => usesMultipart(file.size ?? 0, restrictions),
    getChunkSize: () => restrictions.part_size,
    generateObjectKey: (file: UploadFile) => file.id,
    signRequest,
  });

  uppy.on('upload-progress', (file, progress) => {
    if (!file || !fileById(file.id)) return;
    watchdog.arm(file.id);
    const bytesTotal = progress.bytesTotal ?? file.size ?? 0;
    const now = Date.now();
    if (
      now - (lastProgressAt.get(file.id) ?? 0) < PROGRESS_INTERVAL_MS &&
      progress.bytesUploaded < bytesTotal
    ) {
      return;
    }
    lastProgressAt.set(file.id, now);
    emit({ type: 'progress', id: file.id, bytesUploaded: progress.bytesUploaded, bytesTotal });
  });

  uppy.on('upload-success', (file) => {
    if (!file) return;
    watchdog.clear(file.id);
    const current = fileById(file.id);
    const uploadId = current?.meta.uploadId;
    if (!current || !uploadId) {
      if (current) emit({ type: 'failed', id: file.id, message: MESSAGES.uploadNotComplete });
      return;
    }
    const data = current.data;
    const small = data instanceof Blob && !usesMultipart(data.size, restrictions);
    (small ? digest(data).catch(() => null) : Promise.resolve(null))
      .then((sha256) => emit({ type: 'uploaded', id: file.id, uploadId, sha256 }))
      .catch(() => emit({ type: 'uploaded', id: file.id, uploadId, sha256: null }));
  });

  uppy.on('upload-error', (file, error) => {
    if (!file || !fileById(file.id)) return;
    watchdog.clear(file.id);
    // Uppy would retry a file that keeps its error on the next upload(): only the user retries.
    uppy.setFileState(file.id, { error: null });
    const settledId = settled.get(file.id);
    if (settledId !== undefined) {
      settled.delete(file.id);
      emit({ type: 'uploaded', id: file.id, uploadId: settledId, sha256: null });
      return;
    }
    if (stalled.has(file.id)) return;
    emit({ type: 'failed', id: file.id, message: uploadErrorMessage(error) });
  });

  const forget = (id: string) => {
    const uploadId = fileById(id)?.meta.uploadId;
    if (uploadId) signedParts.forgetUpload(uploadId);
    watchdog.clear(id);
    lastProgressAt.delete(id);
    stalled.delete(id);
    settled.delete(id);
  };

  return {
    configure(nextToken, next) {
      token = nextToken;
      restrictions = { ...next };
    },
    add(requests: readonly RequestUploadRequest[]): AddResult[] {
      const batchId = newBatchId();
      return requests.map(({ file, itemId }) => {
        try {
          const { extension } = splitFileName(file.name);
          const id = uppy.addFile({
            name: file.name,
            type: file.type || contentTypeFor(extension),
            data: file,
            source: 'Local',
            isRemote: false,
            meta: { token, itemId, extension, batchId },
          });
          return { ok: true, id };
        } catch (error) {
          return { ok: false, reason: errorMessage(error) };
        }
      });
    },
    start() {
      uppy.upload().catch((error: unknown) => {
        console.error('The upload could not start:', error);
      });
    },
    retry(id) {
      const file = fileById(id);
      if (!file) return;
      if (stalled.delete(id) && file.isPaused) {
        // The paused upload resumes: a multipart upload lists its stored parts and goes on.
        uppy.pauseResume(id);
        watchdog.arm(id);
        return;
      }
      if (file.progress.uploadComplete) {
        // Stored but refused at record: the bytes are sent again.
        const progress: FileProgressNotStarted = {
          bytesTotal: file.size,
          uploadComplete: false,
          uploadStarted: null,
          bytesUploaded: false,
          percentage: 0,
        };
        uppy.setFileState(id, { progress, s3Multipart: undefined });
      }
      watchdog.arm(id);
      uppy.retryUpload(id).catch((error: unknown) => {
        console.error('The upload could not be retried:', error);
      });
    },
    cancel(id) {
      forget(id);
      // Removing the file stops its upload (a multipart one is aborted on the server).
      if (fileById(id)) uppy.removeFile(id);
    },
    cancelAll() {
      for (const file of uppy.getFiles()) forget(file.id);
      uppy.cancelAll();
    },
    release(id) {
      forget(id);
      if (fileById(id)) uppy.removeFile(id);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
