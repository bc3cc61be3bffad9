/**
 * Account lockout after wrong passwords (issue 8 item 3; docs/architecture.md "Users and
 * lockout"). The password sign-in (auth.ts authenticate) calls {@link applyLockout} after checking
 * the password, for a username that exists:
 *
 * - LOGIN_MAX_FAILURES wrong passwords in a row (default 5) lock the account for LOCKOUT_MINUTES
 *   (default 15; 0 = until an administrator unlocks it). The attempt that reaches the limit is
 *   answered as locked already.
 * - While locked, every attempt gets the same answer (401 `account_locked`), whether the password
 *   was right or wrong, and does not count or extend the lock.
 * - A lock past its end is cleared by the next attempt, which then counts from zero.
 * - A right password (not locked) clears the run of wrong ones.
 * - The lock is recorded as a history event (user lock) in every firm database of the user; the
 *   unlock by an administrator is recorded by users.ts.
 * Unknown usernames are not counted (no row to count on); LOGIN_RATE_LIMIT bounds guessing per IP.
 */
import { formatMessage, MESSAGES } from '../../common/messages';
import { plural } from '../../common/text';
import { AppError } from '../errors';
import type { UserRow } from '../db/schema';
import { displayName } from '../presenters';
import {
  addFailedLogin,
  allMembershipsOfUser,
  clearLockout,
  lockUser,
} from '../repositories/users';
import type { RequestContext, Services } from './context';
import { recordUserLocked } from './historyEvents';

/** Where a sign-in attempt came from. */
export interface AttemptClient {
  ip: string | null;
  userAgent: string | null;
}

/** Whether a user row is locked at `now` (epoch ms). */
export function isLocked(user: Pick<UserRow, 'locked_at' | 'locked_until'>, now: number): boolean {
  if (user.locked_at === null) return false;
  return user.locked_until === null || now < Date.parse(user.locked_until);
}

/**
 * The answer to an attempt on a locked account: 401 `account_locked`, naming the time left (whole
 * minutes, rounded up) or, for a lock without end, the administrator.
 * @param lockedUntil ISO UTC end of the lock, or null until an administrator unlocks it
 */
export function lockedError(lockedUntil: string | null, now: number): AppError {
  if (lockedUntil === null) {
    return new AppError(401, 'account_locked', MESSAGES.accountLockedUntilUnlocked);
  }
  const minutes = Math.max(1, Math.ceil((Date.parse(lockedUntil) - now) / 60_000));
  const message = formatMessage(MESSAGES.accountLocked, {
    time: `${minutes} ${plural(minutes, 'minute')}`,
  });
  return new AppError(401, 'account_locked', message);
}

/**
 * Applies the lockout rules to one password attempt on an existing user (see the module comment).
 * Call it after the password was checked and before anything else is decided.
 * @param passwordOk whether the password matched
 * @throws AppError 401 `account_locked` when the account is (or just became) locked
 * @returns normally when the attempt may go on: a right password (the run of wrong ones cleared)
 *   or a wrong one below the limit (counted; the caller answers invalid credentials)
 */
export async function applyLockout(
  services: Services,
  user: UserRow,
  passwordOk: boolean,
  client: AttemptClient,
): Promise<void> {
  const now = services.clock();
  let failures = user.failed_login_count;
  if (user.locked_at !== null) {
    if (isLocked(user, now)) throw lockedError(user.locked_until, now);
    // The lock has ended: the next attempt counts from zero.
    await clearLockout(services.db, user.id, { onlyLockedAt: user.locked_at });
    failures = 0;
  }
  if (passwordOk) {
    if (failures > 0) await clearLockout(services.db, user.id);
    return;
  }
  const count = await addFailedLogin(services.db, user.id);
  const max = services.config.loginMaxFailures;
  if (count < max) return;
  const lockedUntil =
    services.config.lockoutMs > 0 ? new Date(now + services.config.lockoutMs).toISOString() : null;
  await services.db.transaction().execute(async (trx) => {
    const locked = await lockUser(trx, user.id, new Date(now).toISOString(), lockedUntil);
    if (!locked) return; // A parallel attempt locked it and recorded the event.
    const memberships = await allMembershipsOfUser(trx, user.id);
    for (const membership of memberships) {
      const ctx: RequestContext = {
        userId: user.id,
        userName: displayName(user.first_name, user.last_name),
        databaseId: membership.database_id,
        role: membership.role as RequestContext['role'],
        sessionId: '',
        ip: client.ip,
        userAgent: client.userAgent,
      };
      await recordUserLocked(trx, services, ctx, count, lockedUntil);
    }
  });
  throw lockedError(lockedUntil, now);
}
