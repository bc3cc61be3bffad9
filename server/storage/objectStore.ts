/**
 * Where file bytes live. Bytes never pass through the database: the browser sends them to presigned
 * URLs of the store (DESIGN.md sections 2 and 4), either as one PUT or, for large files, as an
 * S3-style multipart upload (create, upload parts, list parts, complete, abort) that can resume
 * from the parts already stored. Keys are server-generated, never user file names.
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
}

/**
 * One step of a multipart upload the server signs for the browser. `uploadId` is chosen by the
 * server (the pending upload's id), so a signature can only ever name an upload the server made.
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
  /** PUT: stores part `partNumber` (1-10000) of at most `maxBytes` bytes. */
  | { op: 'part'; key: string; uploadId: string; partNumber: number; maxBytes: number }
  /** GET: lists the parts stored so far (to resume). */
  | { op: 'list'; key: string; uploadId: string }
  /** POST: joins the listed parts into the object, which must have `declaredSize` bytes. */
  | { op: 'complete'; key: string; uploadId: string; declaredSize: number }
  /** DELETE: drops the upload and its parts. */
  | { op: 'abort'; key: string; uploadId: string };

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
  /** Temporary files of single uploads that broke off. */
  partial: number;
}

/** The object store contract; LocalObjectStore is the embedded default. */
export interface ObjectStore {
  /** A URL the browser can PUT one object to, bound to key, method, content type and size. */
  presignPut(key: string, options: PresignPutOptions): PresignedPut;
  /**
   * A URL for one multipart step, bound to the operation, key, upload id, part number, content
   * type, size and expiry.
   * @param expiresInMs how long the URL stays valid, in milliseconds
   */
  presignMultipart(request: MultipartRequest, expiresInMs: number): PresignedRequest;
  /** Drops a multipart upload and its parts; an unknown upload is not an error. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
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
}
