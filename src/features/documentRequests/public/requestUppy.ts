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
 * There is no Golden Retriever here: a recipient's page reload starts the picked files over; nor
 * offline waiting: a broken connection fails the file like any error, for the recipient to retry.
 * The request plumbing it shares with the app's uploader comes from src/features/uploads/
 * (s3Requests.ts, multipartSigning.ts, settledUpload.ts, resendFile.ts and other small units).
 * Runs only in the browser (Uppy cannot load in Jest; the sagas are tested with a fake).
 */
import AwsS3 from '@uppy/aws-s3';
import Uppy, { type UppyFile } from '@uppy/core';
import type { RequestUploadStart } from '@common/documentRequests';
import { UPLOAD_STALL_TIMEOUT_MS } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { splitFileName } from '@common/names';
import {
  DEFAULT_UPLOAD_RESTRICTIONS,
  type SettledUploadResponse,
  type UploadRestrictions,
} from '@common/uploads';
import { errorMessage } from '@src/api/client';
import { newBatchId } from '@src/features/uploads/batchId';
import { MultipartSigner, type MultipartSigningApi } from '@src/features/uploads/multipartSigning';
import { ProgressThrottle } from '@src/features/uploads/progressThrottle';
import { resendFile } from '@src/features/uploads/resendFile';
import {
  s3PluginOptions,
  s3StepOf,
  signedAnswer,
  type PresignableRequest,
} from '@src/features/uploads/s3Requests';
import { SettledUpload, isSettled } from '@src/features/uploads/settledUpload';
import { createStallWatchdog } from '@src/features/uploads/stallWatchdog';
import { createUploadFields, localUppyFile } from '@src/features/uploads/uploadFileFields';
import { uploadedSha256, webCryptoDigest } from '@src/features/uploads/uploadDigest';
import { stallMessage, uploadErrorMessage } from '@src/features/uploads/uploadFailureMessages';
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

/** Minimum milliseconds between two progress events of one file. */
const PROGRESS_INTERVAL_MS = 250;

/** The multipart signing calls of one link (its token), as the shared signer takes them. */
function linkSigningApi(linkToken: string): MultipartSigningApi {
  return {
    signUploadParts: (uploadId, key, first, count) =>
      api.signRequestUploadParts(linkToken, uploadId, key, first, count),
    signListParts: (uploadId, key) => api.signRequestListParts(linkToken, uploadId, key),
    signCompleteMultipart: (uploadId, key) =>
      api.signRequestCompleteMultipart(linkToken, uploadId, key),
    abortMultipartUpload: (uploadId, key) =>
      api.abortRequestMultipartUpload(linkToken, uploadId, key),
  };
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
  const progressEvents = new ProgressThrottle(PROGRESS_INTERVAL_MS);
  const stalled = new Set<string>();
  const settled = new Map<string, string>();
  const multipart = new MultipartSigner();
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
    const message = stallMessage(UPLOAD_STALL_TIMEOUT_MS);
    if (!file.isPaused) uppy.pauseResume(id);
    stalled.add(id);
    emit({ type: 'failed', id, message });
  });

  const setUploadId = (id: string, uploadId: string) => {
    const file = fileById(id);
    if (file) uppy.setFileMeta(id, { ...file.meta, uploadId });
  };
  const startOf = (file: UploadFile): RequestUploadStart & { size: number } => ({
    item_id: file.meta.itemId,
    ...createUploadFields(file),
    batch_id: file.meta.batchId,
    client_key: file.id,
  });
  const settle = (file: UploadFile, reply: SettledUploadResponse): never => {
    setUploadId(file.id, reply.id);
    settled.set(file.id, reply.id);
    throw new SettledUpload(reply.id);
  };

  const signRequest = async (request: PresignableRequest) => {
    const step = s3StepOf(request);
    if (step.kind === 'put' || step.kind === 'create-multipart') {
      const file = fileById(step.fileId);
      if (!file) throw new Error('The file is no longer queued.');
      watchdog.arm(file.id);
      if (step.kind === 'put') {
        const { size: _size, ...start } = startOf(file);
        const reply = await api.createRequestUpload(file.meta.token, start);
        if (isSettled(reply)) return settle(file, reply);
        setUploadId(file.id, reply.id);
        return signedAnswer(reply);
      }
      const reply = await api.createRequestMultipartUpload(file.meta.token, startOf(file));
      if (isSettled(reply)) return settle(file, reply);
      setUploadId(file.id, reply.id);
      return signedAnswer(reply, reply.key);
    }
    const file = fileByUploadId(step.uploadId);
    const linkToken = file?.meta.token ?? token;
    if (file) watchdog.arm(file.id);
    const signed = await multipart.sign(step, linkSigningApi(linkToken), {
      size: file?.size ?? 0,
      partSize: restrictions.part_size,
    });
    return signedAnswer(signed);
  };

  uppy.use(
    AwsS3<RequestUploadMeta, RequestUploadBody>,
    s3PluginOptions<RequestUploadMeta, RequestUploadBody>(() => restrictions, signRequest),
  );

  uppy.on('upload-progress', (file, progress) => {
    if (!file || !fileById(file.id)) return;
    watchdog.arm(file.id);
    const bytesTotal = progress.bytesTotal ?? file.size ?? 0;
    if (!progressEvents.pass(file.id, progress.bytesUploaded, bytesTotal, Date.now())) return;
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
    uploadedSha256(current.data, restrictions, webCryptoDigest)
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
    if (uploadId) multipart.forgetUpload(uploadId);
    watchdog.clear(id);
    progressEvents.forget(id);
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
          const id = uppy.addFile(
            localUppyFile<RequestUploadMeta>(file, { token, itemId, extension, batchId }),
          );
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
      resendFile(uppy, file, stalled.delete(id), (fileId) => watchdog.arm(fileId));
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
