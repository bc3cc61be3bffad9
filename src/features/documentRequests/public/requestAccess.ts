/**
 * The unlock grants of password-protected request links, kept in sessionStorage per link token
 * (never in the store or in actions): the tab keeps a grant until it closes or the grant expires
 * (REQUEST_ACCESS_TTL_MS), and each later call of that link sends it in REQUEST_ACCESS_HEADER.
 */
import type { UnlockRequestResponse } from '@common/documentRequests';

/** The sessionStorage key prefix of a link's grant. */
export const REQUEST_ACCESS_KEY_PREFIX = 'dossier.requestAccess.';

/** The browser's sessionStorage, or null where there is none or it may not be used. */
function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The grant kept for a link, while it has not expired (an expired one is forgotten).
 * @param token the link token
 * @returns the value to send in REQUEST_ACCESS_HEADER, or null
 */
export function readRequestAccess(token: string): string | null {
  const store = storage();
  if (!store) return null;
  try {
    const text = store.getItem(REQUEST_ACCESS_KEY_PREFIX + token);
    if (!text) return null;
    const saved = JSON.parse(text) as Partial<UnlockRequestResponse>;
    const expiresAt = saved.expires_at ? Date.parse(saved.expires_at) : NaN;
    if (
      typeof saved.access !== 'string' ||
      (Number.isFinite(expiresAt) && expiresAt <= Date.now())
    ) {
      store.removeItem(REQUEST_ACCESS_KEY_PREFIX + token);
      return null;
    }
    return saved.access;
  } catch {
    return null;
  }
}

/** Keeps the grant an unlock answered for a link. */
export function saveRequestAccess(token: string, grant: UnlockRequestResponse): void {
  try {
    storage()?.setItem(
      REQUEST_ACCESS_KEY_PREFIX + token,
      JSON.stringify({ access: grant.access, expires_at: grant.expires_at }),
    );
  } catch {
    // Storage full or refused: the page works for this load, the next one asks again.
  }
}

/** Forgets a link's grant (the server no longer takes it). */
export function forgetRequestAccess(token: string): void {
  try {
    storage()?.removeItem(REQUEST_ACCESS_KEY_PREFIX + token);
  } catch {
    // Nothing kept.
  }
}
