/**
 * The sha256 an uploader reports with an uploaded file (record-upload's optional `sha256`: the
 * server refuses the record when the stored object's checksum differs). Only a file sent by one
 * PUT is hashed; a multipart file's bytes are checked by the store part by part.
 */
import { usesMultipart, type UploadRestrictions } from '@common/uploads';

/** Hex sha256 of a blob, or null when it cannot be computed. */
export type Digest = (blob: Blob) => Promise<string | null>;

/**
 * Hex sha256 (64 lowercase hex digits) of a blob with Web Crypto, or null where there is no
 * `crypto.subtle` (it exists only in secure contexts). Rejects only if Web Crypto does.
 */
export async function webCryptoDigest(blob: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const hash = new Uint8Array(await subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The sha256 to report with an uploaded file: the digest of its bytes when it went by one PUT (a
 * Blob of at most `multipart_threshold` bytes), else null; null too when the digest fails. Never
 * rejects.
 * @param data the Uppy file's data (a File or Blob; anything else counts as no bytes)
 * @param restrictions the threshold in force
 * @param digest the hash function; {@link webCryptoDigest} in the browser
 */
export function uploadedSha256(
  data: unknown,
  restrictions: Pick<UploadRestrictions, 'multipart_threshold'>,
  digest: Digest,
): Promise<string | null> {
  const single = data instanceof Blob && !usesMultipart(data.size, restrictions);
  return single ? digest(data).catch(() => null) : Promise.resolve(null);
}
