/**
 * The small interface the upload sagas use to send files, so that tests can substitute it and
 * the store never sees a File or the Uppy instance (DESIGN.md section 5).
 */

/** One file to upload into a folder. */
export interface UploadRequest {
  file: File;
  /** Target folder id ('' for the root). */
  folderId: string;
}

/** What happened to one file given to {@link Uploader.add}. */
export type AddResult = { ok: true; id: string } | { ok: false; reason: string };

/** Events an uploader reports, each for one file id. */
export type UploaderEvent =
  /** Bytes were sent. */
  | { type: 'progress'; id: string; bytesUploaded: number; bytesTotal: number }
  /** The bytes are stored; `uploadId` is the server's pending-upload id to record. */
  | { type: 'uploaded'; id: string; uploadId: string }
  /** The upload failed; `message` says why. */
  | { type: 'failed'; id: string; message: string };

/** Sends files to the object store. */
export interface Uploader {
  /** Queues files without starting them; answers per file, in order. */
  add(requests: readonly UploadRequest[]): AddResult[];
  /** Starts every queued file. */
  start(): void;
  /** Cancels and forgets every queued or running file. */
  cancelAll(): void;
  /** Registers a listener for upload events; returns the function that removes it. */
  subscribe(listener: (event: UploaderEvent) => void): () => void;
}
