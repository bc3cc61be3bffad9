/**
 * Request links (docs/architecture.md "Document requests"): each recipient's link carries a
 * 256-bit token, the HMAC-SHA256 under the server's secret of a random nonce kept with the
 * recipient. The table keeps the nonce and the token's sha256 (the lookup key), never the token:
 * reading the database alone gives no link, while a reminder can e-mail the same link again.
 * Unlock grants of password-protected requests are random tokens of which only the sha256 is kept.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { REQUEST_PAGE_PATH } from '@common/documentRequests';
import type { Services } from '../context';
import { tokenHash } from '../shareTokens';

/** A new nonce for a recipient's link: 16 random bytes, base64url. */
export function newLinkNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** The link token of a nonce under the server's secret (base64url, 43 characters). */
export function linkToken(services: Pick<Services, 'config'>, nonce: string): string {
  return createHmac('sha256', services.config.sessionSecret)
    .update(`document-request:${nonce}`)
    .digest('base64url');
}

/** The public address of a recipient's request page. */
export function requestUrl(services: Pick<Services, 'config'>, nonce: string): string {
  return `${services.config.publicUrl}${REQUEST_PAGE_PATH}/${linkToken(services, nonce)}`;
}

/** A new unlock grant: the token to answer and the sha256 to keep. */
export function newAccessGrant(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

export { tokenHash };
