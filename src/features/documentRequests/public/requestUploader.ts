/**
 * The small interface the request page's sagas send files through, so that the store never sees a
 * File or the Uppy instance (DESIGN.md section 5) and tests substitute a fake: the real one is
 * requestUppy.ts, loaded as its own chunk on first use. Picked files wait here, outside the store,
 * between the page's file input and the saga (only a batch id travels in the action).
 */
import type { UploadRestrictions } from '@common/uploads';
import type { AddResult, UploaderEvent } from '@src/features/uploads/uploader';

export type { AddResult };

/** One file to upload to a requested item. */
export interface RequestUploadRequest {
  file: File;
  /** The requested item's id. */
  itemId: string;
}

/** Events the request uploader reports (the app uploader's, without offline and restore). */
export type RequestUploaderEvent = Extract<
  UploaderEvent,
  { type: 'progress' } | { type: 'uploaded' } | { type: 'failed' }
>;

/** Sends the files of one request link to the object store. */
export interface RequestUploader {
  /** Applies the link (token) whose routes sign the uploads and the page's restrictions. */
  configure(token: string, restrictions: UploadRestrictions): void;
  /** Queues files without starting them; answers per file, in order. */
  add(requests: readonly RequestUploadRequest[]): AddResult[];
  /** Starts every queued file. */
  start(): void;
  /** Sends a failed file again; a multipart upload resumes from its stored parts. */
  retry(id: string): void;
  /** Cancels one file (a multipart upload is aborted on the server). */
  cancel(id: string): void;
  /** Cancels and forgets every file. */
  cancelAll(): void;
  /** Forgets a file once it is recorded. */
  release(id: string): void;
  /** Registers a listener for upload events; returns the function that removes it. */
  subscribe(listener: (event: RequestUploaderEvent) => void): () => void;
}

let uploader: RequestUploader | null = null;

/** Replaces the request uploader (tests put in a fake); null makes the next use load Uppy's. */
export function setRequestUploader(next: RequestUploader | null): void {
  uploader = next;
}

/** The request uploader in use: the one set, else Uppy's (requestUppy.ts) loaded on first use. */
export function loadRequestUploader(): RequestUploader | Promise<RequestUploader> {
  if (uploader) return uploader;
  return import('./requestUppy').then((module) => {
    uploader ??= module.createRequestUppyUploader();
    return uploader;
  });
}

const staged = new Map<string, File[]>();
let batchCounter = 0;

/**
 * Keeps picked files until the saga takes them.
 * @returns the batch id to put in `publicRequest/filesPicked`
 */
export function stageRequestFiles(files: readonly File[]): string {
  batchCounter += 1;
  const batchId = `request-batch-${batchCounter}`;
  staged.set(batchId, [...files]);
  return batchId;
}

/** Takes (and forgets) a staged batch; an unknown id gives an empty list. */
export function takeStagedRequestFiles(batchId: string): File[] {
  const files = staged.get(batchId) ?? [];
  staged.delete(batchId);
  return files;
}
