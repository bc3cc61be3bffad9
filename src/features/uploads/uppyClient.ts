/**
 * The uploads module's non-serializable side (DESIGN.md section 5): the Uppy instance, the File
 * objects between "picked" and "added", and the {@link Uploader} the sagas use.
 *
 * Uppy 6 with @uppy/aws-s3 sends each file with one presigned PUT (`shouldUseMultipart: false`).
 * @uppy/aws-s3 v6 has no `getUploadParameters`; it asks `signRequest({ method: 'PUT', key })` for
 * the address. The object key is the Uppy file id (`generateObjectKey`), so `signRequest` finds
 * the file, calls create-upload (POST /api/rest/files), stores the server's upload id in the
 * file's meta (`uploadId`) and returns the presigned `url` and the `headers` to send
 * (Content-Type, Content-Disposition). On `upload-success` the uploader reports `uploaded` with
 * that id and the saga records the file.
 */
import AwsS3, { type AwsS3Options } from '@uppy/aws-s3';
import Uppy, { type UppyFile } from '@uppy/core';
import { MAX_FILE_SIZE_BYTES, UPLOAD_STALL_TIMEOUT_MS } from '../../../common/constants';
import { contentTypeFor } from '../../../common/files';
import { MESSAGES, formatMessage } from '../../../common/messages';
import { splitFileName } from '../../../common/names';
import type { CreateUploadRequest, CreateUploadResponse } from '../../../common/types';
import { errorMessage } from '../../api/client';
import type { PickedFile } from './pickedFiles';
import type { AddResult, UploadRequest, Uploader, UploaderEvent } from './uploader';
import { createUpload } from './uploadsApi';

/** Meta stored on each Uppy file. */
export type UploadMeta = {
  /** Target folder id ('' for the root). */
  folderId: string;
  /** Lowercased extension (SPEC section 3: "Upload metadata: extension and folderId"). */
  extension: string;
  /** The server's pending-upload id, set when the presigned address is obtained. */
  uploadId?: string;
};

type SignRequestFn = Extract<
  AwsS3Options<UploadMeta, UploadBody>,
  { signRequest: unknown }
>['signRequest'];
type PresignableRequest = Parameters<SignRequestFn>[0];

/** Dependencies of {@link createUppyUploader}, replaceable in tests. */
export interface UppyUploaderOptions {
  /** Create-upload call; POST /api/rest/files by default. */
  createUpload?: (body: CreateUploadRequest) => Promise<CreateUploadResponse>;
  /** Milliseconds without progress before a file is aborted; UPLOAD_STALL_TIMEOUT_MS by default. */
  stallTimeoutMs?: number;
  /** Minimum milliseconds between two progress events of one file; 250 by default. */
  progressIntervalMs?: number;
  /** Makes the Uppy instance; tests pass a fake. */
  createUppy?: () => Uppy<UploadMeta, UploadBody>;
}

/** Uppy's response body type for this uploader (unused). */
export type UploadBody = Record<string, never>;

/** Makes the real Uppy instance: no auto start, several batches, the size limit of SPEC 9. */
function createDefaultUppy(): Uppy<UploadMeta, UploadBody> {
  return new Uppy<UploadMeta, UploadBody>({
    autoProceed: false,
    allowMultipleUploadBatches: true,
    restrictions: { maxFileSize: MAX_FILE_SIZE_BYTES },
  });
}

/**
 * The message of a failed upload: the store's JSON `message` when the PUT's reply carries one
 * (the local object store answers like the API), else the error's own text.
 */
export function uploadErrorMessage(error: unknown): string {
  const body = (error as { body?: unknown } | null)?.body;
  if (typeof body === 'string' && body.trim().startsWith('{')) {
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    } catch {
      // Not JSON: fall back to the error's text.
    }
  }
  return errorMessage(error);
}

/**
 * Makes the Uppy-based uploader: one Uppy instance with the AwsS3 plugin in simple-PUT mode,
 * the size restriction of SPEC section 9, a stall watchdog (SPEC section 8: "Upload stalled for
 * {seconds} seconds, aborting.") and throttled progress events.
 */
export function createUppyUploader(options: UppyUploaderOptions = {}): Uploader {
  const create = options.createUpload ?? createUpload;
  const stallTimeoutMs = options.stallTimeoutMs ?? UPLOAD_STALL_TIMEOUT_MS;
  const progressIntervalMs = options.progressIntervalMs ?? 250;
  const listeners = new Set<(event: UploaderEvent) => void>();
  const stallTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const lastProgressAt = new Map<string, number>();

  const emit = (event: UploaderEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const uppy = (options.createUppy ?? createDefaultUppy)();

  const clearStall = (id: string) => {
    const timer = stallTimers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    stallTimers.delete(id);
  };

  const forget = (id: string) => {
    clearStall(id);
    lastProgressAt.delete(id);
    if (uppy.getFile(id)) uppy.removeFile(id);
  };

  const armStall = (id: string) => {
    clearStall(id);
    stallTimers.set(
      id,
      setTimeout(() => {
        stallTimers.delete(id);
        if (!uppy.getFile(id)) return;
        const seconds = Math.round(stallTimeoutMs / 1000);
        emit({ type: 'failed', id, message: formatMessage(MESSAGES.uploadStalled, { seconds }) });
        forget(id);
      }, stallTimeoutMs),
    );
  };

  const signRequest = async (request: PresignableRequest) => {
    if (request.method !== 'PUT' || 'uploadId' in request) {
      throw new Error('Multipart uploads are not enabled.');
    }
    const file = uppy.getFile(request.key) as UppyFile<UploadMeta, UploadBody> | undefined;
    if (!file) throw new Error('The file is no longer queued.');
    armStall(file.id);
    const name = file.name.trim();
    const { extension } = splitFileName(name);
    const reply = await create({
      folder_id: file.meta.folderId,
      name,
      extension,
      content_type: contentTypeFor(extension),
      size: file.size ?? 0,
    });
    if (uppy.getFile(file.id)) uppy.setFileMeta(file.id, { ...file.meta, uploadId: reply.id });
    // The store may answer a same-origin path; @uppy/aws-s3 parses the address with `new URL`,
    // which needs it absolute.
    return { url: new URL(reply.url, window.location.href).toString(), headers: reply.headers };
  };

  uppy.use(AwsS3<UploadMeta, UploadBody>, {
    shouldUseMultipart: false,
    generateObjectKey: (file: UppyFile<UploadMeta, UploadBody>) => file.id,
    signRequest,
  });

  uppy.on('upload-progress', (file, progress) => {
    if (!file) return;
    armStall(file.id);
    const bytesTotal = progress.bytesTotal ?? file.size ?? 0;
    const now = Date.now();
    const last = lastProgressAt.get(file.id) ?? 0;
    if (now - last < progressIntervalMs && progress.bytesUploaded < bytesTotal) return;
    lastProgressAt.set(file.id, now);
    emit({ type: 'progress', id: file.id, bytesUploaded: progress.bytesUploaded, bytesTotal });
  });

  uppy.on('upload-success', (file) => {
    if (!file) return;
    const uploadId = uppy.getFile(file.id)?.meta.uploadId;
    clearStall(file.id);
    if (uploadId) emit({ type: 'uploaded', id: file.id, uploadId });
    else emit({ type: 'failed', id: file.id, message: MESSAGES.uploadNotComplete });
  });

  uppy.on('upload-error', (file, error) => {
    if (!file) return;
    clearStall(file.id);
    emit({ type: 'failed', id: file.id, message: uploadErrorMessage(error) });
  });

  uppy.on('complete', (result) => {
    for (const file of [...(result.successful ?? []), ...(result.failed ?? [])]) forget(file.id);
  });

  return {
    add(requests: readonly UploadRequest[]): AddResult[] {
      return requests.map(({ file, folderId }) => {
        try {
          const id = uppy.addFile({
            name: file.name,
            type: file.type || contentTypeFor(splitFileName(file.name).extension),
            data: file,
            source: 'Local',
            isRemote: false,
            meta: { folderId, extension: splitFileName(file.name).extension },
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
    cancelAll() {
      for (const id of [...stallTimers.keys()]) clearStall(id);
      lastProgressAt.clear();
      uppy.cancelAll();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

let uploader: Uploader | null = null;

/** The uploader of the app, created on first use. */
export function getUploader(): Uploader {
  uploader ??= createUppyUploader();
  return uploader;
}

/** Replaces the uploader (tests substitute a fake); null makes the next use create a new one. */
export function setUploader(next: Uploader | null): void {
  uploader = next;
}

const staged = new Map<string, PickedFile[]>();
let batchCounter = 0;

/**
 * Keeps picked files until the upload saga takes them, so that only the batch id travels in the
 * `uploads/filesPicked` action.
 * @returns the batch id
 */
export function stageFiles(files: readonly PickedFile[]): string {
  batchCounter += 1;
  const batchId = `batch-${batchCounter}`;
  staged.set(batchId, [...files]);
  return batchId;
}

/** Takes (and forgets) a staged batch; an unknown id gives an empty list. */
export function takeStagedFiles(batchId: string): PickedFile[] {
  const files = staged.get(batchId) ?? [];
  staged.delete(batchId);
  return files;
}
