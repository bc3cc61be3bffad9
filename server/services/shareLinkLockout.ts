/**
 * Share-link password lockout (SPEC section 7 "Shares"; docs/architecture.md "Sharing"): what locks
 * a password-protected share link after wrong passwords. Account lockout is accountLockout.ts.
 */
import { SHARING_MESSAGES } from '@common/sharing';
import { AppError, forbidden } from '../errors';
import { verifyPassword } from '../passwords';
import { addPasswordFailure, clearPasswordFailures } from '../repositories/passwordLockout';
import type { ShareLinkWithCreator } from '../repositories/shares';
import type { Services } from './context';

/**
 * Checks a link's password (links without one pass). Wrong passwords in a row are counted; the
 * one reaching SHARE_PASSWORD_MAX_FAILURES locks the link for SHARE_PASSWORD_LOCK_MINUTES, and
 * while locked every attempt is refused, right or wrong. A right password clears the count.
 * Counting, locking and clearing are each one guarded update (repositories/passwordLockout.ts), so
 * attempts sent at once to several instances lock after exactly the limit, and an attempt that
 * finds the link locked when it counts is refused as locked, whatever its password.
 * @throws AppError 403 `wrong_link_password`; 429 `link_locked`
 */
export async function checkLinkPassword(
  services: Services,
  link: ShareLinkWithCreator,
  password: string | undefined,
): Promise<void> {
  if (link.password_hash === null) return;
  const now = services.clock();
  const nowIso = new Date(now).toISOString();
  const locked = () => new AppError(429, 'link_locked', SHARING_MESSAGES.linkLocked);
  if (link.locked_until !== null && Date.parse(link.locked_until) > now) throw locked();
  const wrong = () => forbidden(SHARING_MESSAGES.wrongLinkPassword, 'wrong_link_password');
  if (!password) throw wrong();
  if (await verifyPassword(password, link.password_hash)) {
    if (!(await clearPasswordFailures(services.db, 'share_links', link.id, nowIso))) throw locked();
    return;
  }
  const counted = await addPasswordFailure(
    services.db,
    'share_links',
    link.id,
    nowIso,
    services.config.sharePasswordMaxFailures,
    new Date(now + services.config.sharePasswordLockMs).toISOString(),
  );
  if (counted.locked) throw locked();
  throw wrong();
}
