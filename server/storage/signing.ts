/**
 * HMAC-SHA256 signatures for presigned object-store URLs. A signature binds the method, the object
 * key, the expiry (epoch ms), the content type and the maximum size, so changing any of them in
 * the URL or the request invalidates it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signed facts of one presigned request. */
export interface SignedParams {
  method: 'PUT' | 'GET';
  key: string;
  /** Expiry, epoch milliseconds. */
  expires: number;
  contentType: string;
  /** Largest body in bytes. */
  maxBytes: number;
}

function canonical(p: SignedParams): string {
  return [p.method, p.key, String(p.expires), p.contentType, String(p.maxBytes)].join('\n');
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
