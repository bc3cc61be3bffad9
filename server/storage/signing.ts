/**
 * HMAC-SHA256 signatures for presigned object-store URLs. A signature binds the operation, the
 * method, the object key, the multipart upload id, part number and part size (when there are), the
 * expiry
 * (epoch ms), the content type and the maximum size, so changing any of them in the URL or the
 * request invalidates it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The operations of the local store's S3-style API: a single PUT of a whole object, and the
 * multipart steps (create, upload one part, list the stored parts, complete, abort).
 */
export type SignedOperation = 'put' | 'create' | 'part' | 'list' | 'complete' | 'abort';

/** The signed facts of one presigned request. */
export interface SignedParams {
  op: SignedOperation;
  method: 'PUT' | 'GET' | 'POST' | 'DELETE';
  key: string;
  /** The multipart upload id; '' for a single PUT. */
  uploadId: string;
  /** The part number (1-10000) of a part upload; 0 otherwise. */
  partNumber: number;
  /** The size of every part but the last of a multipart upload being created; 0 otherwise. */
  partSize: number;
  /** Expiry, epoch milliseconds. */
  expires: number;
  /** The only Content-Type the request may carry; '' when any is accepted. */
  contentType: string;
  /** Largest body in bytes (for create: the declared size of the whole object). */
  maxBytes: number;
}

function canonical(p: SignedParams): string {
  return [
    p.op,
    p.method,
    p.key,
    p.uploadId,
    String(p.partNumber),
    String(p.partSize),
    String(p.expires),
    p.contentType,
    String(p.maxBytes),
  ].join('\n');
}

/** The hex HMAC of the params under the secret. */
export function sign(secret: string, params: SignedParams): string {
  return createHmac('sha256', secret).update(canonical(params)).digest('hex');
}

/** True when `signature` is the HMAC of the params (constant-time comparison). */
export function verifySignature(secret: string, params: SignedParams, signature: string): boolean {
  const expected = Buffer.from(sign(secret, params), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
