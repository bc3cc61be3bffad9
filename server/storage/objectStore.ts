/**
 * Where file bytes live. Bytes never pass through the database: the browser PUTs them to a presigned
 * URL of the store (DESIGN.md sections 2 and 4). Keys are server-generated, never user file names.
 */
import type { Readable } from 'node:stream';

/** What a presigned upload answers: the address and the headers the PUT must carry. */
export interface PresignedPut {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
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

/** Facts about a stored object. */
export interface ObjectInfo {
  /** Size in bytes. */
  size: number;
  /** Hex sha256 of the content, where the store computed one. */
  sha256?: string;
}

/** The object store contract; LocalObjectStore is the embedded default. */
export interface ObjectStore {
  /** A URL the browser can PUT one object to, bound to key, method, content type and size. */
  presignPut(key: string, options: PresignPutOptions): PresignedPut;
  /** Size (and checksum) of an object, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /** A stream of the object's bytes. @throws when the object is missing. */
  read(key: string): Readable;
  /** Removes an object; a missing object is not an error. */
  delete(key: string): Promise<void>;
}
