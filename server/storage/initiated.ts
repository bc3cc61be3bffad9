/**
 * The app's answer to the create step of an S3 store's multipart upload. @uppy/aws-s3 POSTs the
 * create step itself and reads the upload's id from the XML answer, while with S3 the server has
 * already started the upload (S3 chose its UploadId, kept with the pending upload). So the create
 * step is a URL of the app, `/api/storage/initiated/<key>?uploadId&expires&sig` (HMAC-SHA256 with
 * the app's secret, signing.ts), answered with the pending upload's id, by which the browser then
 * names the upload.
 */
import { sign, verifySignature, type SignedParams } from './signing';
import { StoreRefused } from './localObjectStore';

/** URL path prefix of the create step's app URL. */
export const INITIATED_PREFIX = '/api/storage/initiated/';

function paramsOf(key: string, uploadId: string, expires: number): SignedParams {
  return {
    op: 'create',
    method: 'POST',
    key,
    uploadId,
    partNumber: 0,
    partSize: 0,
    expires,
    contentType: '',
    maxBytes: 0,
  };
}

/**
 * The signed create-step URL (relative to the app) of the upload `uploadId` of `key`.
 * @param expires expiry, epoch ms
 */
export function initiatedUrl(
  secret: string,
  key: string,
  uploadId: string,
  expires: number,
): string {
  const query = new URLSearchParams({
    uploadId,
    expires: String(expires),
    sig: sign(secret, paramsOf(key, uploadId, expires)),
  });
  return `${INITIATED_PREFIX}${key}?${query.toString()}`;
}

/**
 * Checks a create-step URL's signature and expiry.
 * @param key the object key of the path
 * @param query the URL query (uploadId, expires, sig)
 * @param now epoch ms
 * @returns the upload id the URL names
 * @throws StoreRefused('bad_signature' | 'expired')
 */
export function verifyInitiated(
  secret: string,
  key: string,
  query: Record<string, string | undefined>,
  now: number,
): string {
  const uploadId = query.uploadId ?? '';
  const expires = Number(query.expires);
  if (!uploadId || !Number.isFinite(expires)) throw new StoreRefused('bad_signature');
  if (!verifySignature(secret, paramsOf(key, uploadId, expires), query.sig ?? '')) {
    throw new StoreRefused('bad_signature');
  }
  if (expires < now) throw new StoreRefused('expired');
  return uploadId;
}
