/**
 * Where file bytes live. Bytes never pass through the database: the browser sends them to presigned
 * URLs of the store (DESIGN.md sections 2 and 4), either as one PUT or, for large files, as an
 * S3-style multipart upload (create, upload parts, list parts, complete, abort) that can resume
 * from the parts already stored. Keys are server-generated, never user file names.
 *
 * Two stores implement it: LocalObjectStore (files under DATA_DIR, the default) and S3ObjectStore
 * (an S3-compatible service, OBJECT_STORE=s3). An upload of the object `key` lands at
 * {@link ObjectStore.stagingKey}`(key)`; recording it ({@link ObjectStore.commitUpload}) makes it
 * the object `key`, which no presigned URL can write.
 */
import type { Readable } from 'node:stream';

/** HTTP methods of presigned store requests. */
export type StoreMethod = 'PUT' | 'GET' | 'POST' | 'DELETE';

/** A presigned request: the address, its method and the headers it must carry. */
export interface PresignedRequest {
  url: string;
  method: StoreMethod;
  headers: Record<string, string>;
}

/** What a presigned single upload answers (kept for the create-upload response shape). */
export interface PresignedPut extends PresignedRequest {
  method: 'PUT';
}

/** Options of a presigned PUT. */
export interface PresignPutOptions {
  /** The only Content-Type the PUT may carry. */
  contentType: string;
  /** The largest body accepted, in bytes. */
  maxBytes: number;
  /** How long the URL stays valid, in milliseconds. */
  expiresInMs: number;
  /** Extra headers the client should send (e.g. Content-Disposition). */
  headers?: Record<string, string>;
  /**
   * The exact size of the body in bytes, when the client declared one: an S3 store signs it as the
   * request's Content-Length, so another size is refused by the store itself.
   */
  size?: number;
}

/** What a multipart upload is started with (see {@link ObjectStore.startMultipartUpload}). */
export interface MultipartStart {
  /** The server's id of the upload (the pending file's id), which the browser sees. */
  uploadId: string;
  contentType: string;
  /** The exact size in bytes of the object once complete. */
  declaredSize: number;
  /** The size of every part but the last, in bytes. */
  partSize: number;
}

/**
 * One step of a multipart upload the server signs for the browser. `uploadId` is the server's id
 * of the upload (the pending upload's id, what the browser names it by); `storeUploadId` is the
 * store's own id of it, answered by {@link ObjectStore.startMultipartUpload} (the same id for the
 * local store; chosen by the service for S3). A signature can only ever name an upload the server
 * made.
 */
export type MultipartRequest =
  /**
   * POST: starts the upload; the object will have exactly `declaredSize` bytes, sent in parts of
   * `partSize` bytes (the last one smaller).
   */
  | {
      op: 'create';
      key: string;
      uploadId: string;
      contentType: string;
      declaredSize: number;
      partSize: number;
    }
  /**
   * PUT: stores part `partNumber` (1-10000) of at most `maxBytes` bytes; `size` is its exact size
   * (the part size, or what is left for the last part), which an S3 store signs as Content-Length.
   */
  | {
      op: 'part';
      key: string;
      uploadId: string;
      storeUploadId: string;
      partNumber: number;
      maxBytes: number;
      size: number;
    }
  /** GET: lists the parts stored so far (to resume). */
  | { op: 'list'; key: string; uploadId: string; storeUploadId: string }
  /** POST: joins the listed parts into the object, which must have `declaredSize` bytes. */
  | { op: 'complete'; key: string; uploadId: string; storeUploadId: string; declaredSize: number }
  /** DELETE: drops the upload and its parts. */
  | { op: 'abort'; key: string; uploadId: string; storeUploadId: string };

/**
 * A byte range of an object, both ends inclusive and within the object (an HTTP Range request's
 * `bytes=start-end` once resolved against the size; an S3 store sends it as its Range GET).
 */
export interface ByteRange {
  /** The first byte, from 0. */
  start: number;
  /** The last byte (inclusive), at most size − 1. */
  end: number;
}

/** Facts about a stored object. */
export interface ObjectInfo {
  /** Size in bytes. */
  size: number;
  /** Hex sha256 of the content, where the store computed one. */
  sha256?: string;
  /** A token of this version of the object (S3's ETag), where the store has one. */
  version?: string;
}

/** What an upload stored: the object's facts and the entity tag answered to the client. */
export interface StoredObject extends ObjectInfo {
  /** The ETag: the sha256 when it was computed on the way in, else a token of this version. */
  etag: string;
}

/** What {@link ObjectStore.removeAbandonedUploads} removed. */
export interface AbandonedUploadsRemoved {
  /** Multipart uploads (with all their parts). */
  multipart: number;
  /** Temporary files of single uploads that broke off (S3: staged uploads never recorded). */
  partial: number;
}

/** The object store contract; LocalObjectStore is the embedded default, S3ObjectStore the other. */
export interface ObjectStore {
  /**
   * Where the upload of the object `key` lands: every presigned URL of `key` writes there, never
   * to `key` itself. The local store answers `key` (its routes refuse writes once the upload is
   * recorded); an S3 store a separate staging key.
   */
  stagingKey(key: string): string;
  /**
   * A URL the browser can PUT the upload of `key` to (its staging key), bound to method, content
   * type, size (exact with `options.size`) and expiry.
   */
  presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut>;
  /**
   * Starts a multipart upload of `key` (idempotent for the same upload id in the local store).
   * @returns the store's id of the upload, to be kept with the pending upload and passed back as
   *   `storeUploadId` (the local store answers `start.uploadId`; S3 its own UploadId)
   */
  startMultipartUpload(key: string, start: MultipartStart): Promise<string>;
  /**
   * A URL for one multipart step of the upload of `key`, bound to the operation, key, upload id,
   * part number, content type, size and expiry.
   * @param expiresInMs how long the URL stays valid, in milliseconds
   */
  presignMultipart(request: MultipartRequest, expiresInMs: number): Promise<PresignedRequest>;
  /**
   * Drops a multipart upload of `key` and its parts; an unknown upload is not an error.
   * @param storeUploadId the store's id of the upload
   */
  abortMultipartUpload(key: string, storeUploadId: string): Promise<void>;
  /**
   * Makes the bytes uploaded for `key` (at its staging key, as the caller checked them) the object
   * `key`, keeping `sha256` with it when given, and removes the staged copy. Nothing for the local
   * store (the upload is already the object); an S3 store copies on the server, only while the
   * staged object is still the version `staged` describes.
   * @returns the object's facts, or null when the staged object is gone or changed meanwhile
   */
  commitUpload(key: string, staged: ObjectInfo, sha256?: string): Promise<ObjectInfo | null>;
  /**
   * Removes multipart uploads and temporary files untouched since `before` (epoch ms).
   * @returns how many of each were removed
   */
  removeAbandonedUploads(before: number): Promise<AbandonedUploadsRemoved>;
  /** Size (and checksum, where already known) of an object, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /**
   * The object's hex sha256, computed by reading it when not yet known (and then kept with it).
   * @returns null when there is no object
   */
  checksum(key: string): Promise<string | null>;
  /**
   * Stores a stream as the object `key` (replacing any), written whole or not at all. Used for
   * what the server derives itself (document imaging's renditions).
   * @param maxBytes refuse past this many bytes
   * @throws StoreRefused('too_large') past the limit, StoreRefused('aborted') when the body broke
   */
  write(key: string, body: Readable, maxBytes: number): Promise<StoredObject>;
  /**
   * A stream of the object's bytes, or of one range of them (an S3 store: a GET with `Range`).
   * @param range the bytes to read, resolved against the object's size; the whole object if absent
   * @throws when the object is missing (the stream errors)
   */
  read(key: string, range?: ByteRange): Readable;
  /** Removes an object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Copies an object (and its checksum) to a new key; readers never see a half-written copy.
   * Used by folder copy and a file's "Make a copy".
   * @throws when the source object is missing or the copy fails (nothing is left at `toKey`)
   */
  copyObject(fromKey: string, toKey: string): Promise<void>;
  /**
   * A cheap probe for the readiness check (GET /api/ready): resolves when the store can take
   * reads and writes now, rejects otherwise. The local store checks that its folders under
   * DATA_DIR are there and writable (no file is written); an S3 store sends a HeadBucket for its
   * bucket. Never called per request: readiness probes run every few seconds.
   * @throws an Error saying what failed (its message is logged, never answered to the client)
   */
  ready(): Promise<void>;
}
