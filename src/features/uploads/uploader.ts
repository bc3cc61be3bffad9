/**
 * The small interface the upload sagas use to send files, so that tests can substitute it and
 * the store never sees a File, a Blob or the Uppy instance (DESIGN.md section 5).
 */
import type { UploadRestrictions } from '@common/uploads';

/** One file to upload into a folder. */
export interface UploadRequest {
  file: File;
  /** Target folder id ('' for the root). */
  folderId: string;
  /** Upload the bytes as a new version of this file (its id) instead of a new file. */
  versionOf?: string;
}

/** What happened to one file given to {@link Uploader.add}. */
export type AddResult = { ok: true; id: string } | { ok: false; reason: string };

/** Where a file restored after a page reload stands. */
export type RestoredState =
  /** Its bytes are being sent (it resumes once {@link Uploader.resumeRestored} is called). */
  | 'uploading'
  /**
   * Its bytes are stored, or may be (a reload right after it finished, see uppyClient.ts): it
   * still has to be recorded with `uploadId`.
   */
  | 'uploaded'
  /** It had failed (or its bytes could not be kept): the user retries or cancels it. */
  | 'failed';

/** A file the uploader found again after a page reload (Uppy's Golden Retriever). */
export interface RestoredUpload {
  id: string;
  name: string;
  /** Size in bytes. */
  size: number;
  folderId: string;
  bytesUploaded: number;
  state: RestoredState;
  /** The server's pending-upload id, when one was created. */
  uploadId: string | null;
  /**
   * Why it failed (state 'failed'); for state 'uploaded', what to show if the server refuses its
   * record (else the server's message); otherwise null.
   */
  message: string | null;
}

/** Events an uploader reports. */
export type UploaderEvent =
  /** Bytes were sent (after a resume, `bytesUploaded` starts at the parts already stored). */
  | { type: 'progress'; id: string; bytesUploaded: number; bytesTotal: number }
  /**
   * The bytes are stored; `uploadId` is the server's pending-upload id to record, `sha256` the
   * checksum the uploader computed of the bytes (small files only), or null.
   */
  | { type: 'uploaded'; id: string; uploadId: string; sha256: string | null }
  /** The upload failed; `message` says why (the stall message, the server's message…). */
  | { type: 'failed'; id: string; message: string }
  /** The connection dropped while this file was sent; it resumes when the browser is online. */
  | { type: 'waiting'; id: string }
  /** The browser went offline. */
  | { type: 'offline' }
  /** The browser is online again (waiting files resume). */
  | { type: 'online' }
  /** Files of an earlier page were found again after a reload. */
  | { type: 'restored'; files: RestoredUpload[] };

/** Sends files to the object store. */
export interface Uploader {
  /**
   * The restore of the uploads a reload left, while it runs (resolves when it ends), else null.
   * Files added meanwhile could be lost: the sagas hand none over until it ends.
   */
  restoring(): Promise<void> | null;
  /** Applies the server's restrictions: multipart threshold and part size. */
  configure(restrictions: UploadRestrictions): void;
  /** Queues files without starting them; answers per file, in order. */
  add(requests: readonly UploadRequest[]): AddResult[];
  /** Starts every queued file. */
  start(): void;
  /** Sends a failed file again; a multipart upload resumes from its stored parts. */
  retry(id: string): void;
  /** Cancels one file: stops it and discards what the server holds of it. */
  cancel(id: string): void;
  /** Cancels and forgets every queued, running or failed file. */
  cancelAll(): void;
  /** Forgets a file once it is recorded. */
  release(id: string): void;
  /** Resumes the files reported by a 'restored' event (once the session is known). */
  resumeRestored(): void;
  /** The File being uploaded under `id`, if the uploader still holds it. */
  fileOf(id: string): File | null;
  /** Registers a listener for upload events; returns the function that removes it. */
  subscribe(listener: (event: UploaderEvent) => void): () => void;
}
