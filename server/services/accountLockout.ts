/**
 * Lockout after wrong passwords, per account and source (docs/architecture.md "Users and
 * lockout"). The password sign-ins (auth.ts authenticate and verifyCredentials) call
 * {@link applyLockout} after checking the password, for a username that exists. The source is the
 * client IP as the app sees it (`request.ip`, which honours TRUST_PROXY); '' when unknown.
 *
 * - LOGIN_MAX_FAILURES wrong passwords in a row from one source (default 5) lock that source out
 *   of the account for LOCKOUT_MINUTES (default 15; 0 = until an administrator unlocks it). The
 *   attempt that reaches the limit is answered as locked already.
 * - While a source is locked, its every attempt gets the same answer (401 `account_locked`),
 *   whether the password was right or wrong, and does not count or extend the lock. Other sources
 *   are not affected: the account's owner signing in from elsewhere gets in with the right
 *   password, so nobody can lock a user out from outside.
 * - A lock past its end is cleared by the next attempt from its source, which counts from zero.
 * - A right password (source not locked) clears that source's run and the account's count. A run
 *   without a lock is forgotten after {@link STALE_RUN_MS} (a day) without another wrong password.
 *   Each wrong password purges the account's stale runs and ended locks.
 * - There is no account-wide lock (it would let anyone lock the owner out again); guessing from
 *   many sources is bounded by LOGIN_RATE_LIMIT per IP, the per-source lock, and the password
 *   policy's strength score.
 * - `users.failed_login_count` counts the account's wrong passwords in a row from every source,
 *   and `users.locked_at` / `locked_until` say that some source is locked (the first lock's time,
 *   the newest lock's end): the administrators' view. The lock is recorded as a history event
 *   (user lock) in every firm database of the user; the unlock (of every source) by an
 *   administrator by users.ts, by the operator's CLI by server/cli/admin.ts.
 * Unknown usernames are not counted (no row to count on); LOGIN_RATE_LIMIT bounds guessing per IP.
 *
 * Several instances: the runs and locks are rows, every count is one atomic upsert, the lock is a
 * guarded update, and a right password clears only a run without a lock and then looks again, so
 * wrong passwords sent at once to several instances lock after exactly the limit and no attempt
 * that arrives after the lock is answered on its password.
 */
import { formatMessage, MESSAGES } from '@common/messages';
import { plural } from '@common/text';
import { AppError } from '../errors';
import type { UserRow } from '../db/schema';
import { displayName } from '../presenters';
import {
  addFailedLogin,
  addLoginFailure,
  allMembershipsOfUser,
  clearLockout,
  clearLoginSource,
  findLoginFailure,
  lockLoginSource,
  markUserLocked,
  purgeStaleLoginSources,
  resetFailedLogins,
} from '../repositories/users';
import type { RequestContext, Services } from './context';
import { recordUserLocked } from './historyEvents';

/**
 * A source's run of wrong passwords without a lock is forgotten after this long without another
 * one (ms), so that the table keeps only live runs; each wrong password purges the account's
 * stale rows.
 */
export const STALE_RUN_MS = 24 * 60 * 60_000;

/** Where a sign-in attempt came from. */
export interface AttemptClient {
  ip: string | null;
  userAgent: string | null;
}

/** Whether a lock (a source's, or the account's summary) is in force at `now` (epoch ms). */
export function isLocked(
  lock: { locked_at: string | null; locked_until: string | null },
  now: number,
): boolean {
  if (lock.locked_at === null) return false;
  return lock.locked_until === null || now < Date.parse(lock.locked_until);
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
 * Applies the lockout rules to one password attempt on an existing user from the attempt's source
 * (see the module comment). Call it after the password was checked and before anything else is
 * decided.
 * @param passwordOk whether the password matched
 * @param client where the attempt came from: its IP is the source
 * @throws AppError 401 `account_locked` when the source is (or just became) locked out of the
 *   account
 * @returns normally when the attempt may go on: a right password (the runs cleared) or a wrong
 *   one below the limit (counted; the caller answers invalid credentials)
 */
export async function applyLockout(
  services: Services,
  user: UserRow,
  passwordOk: boolean,
  client: AttemptClient,
): Promise<void> {
  const now = services.clock();
  const source = client.ip ?? '';
  const run = await findLoginFailure(services.db, user.id, source);
  if (run && run.locked_at !== null) {
    if (isLocked(run, now)) throw lockedError(run.locked_until, now);
    // This source's lock has ended: its next attempt counts from zero.
    await clearLoginSource(services.db, user.id, source, { onlyLockedAt: run.locked_at });
  }
  if (user.locked_at !== null && !isLocked(user, now)) {
    // Every lock of the account has ended (the summary ends with the newest lock).
    await clearLockout(services.db, user.id, { onlyLockedAt: user.locked_at });
  }
  if (passwordOk) {
    // Only a run without a lock is forgotten, and a lock that a parallel wrong attempt (on this
    // or another instance) set since `run` was read still refuses this attempt.
    await clearLoginSource(services.db, user.id, source, { onlyUnlocked: true });
    const after = await findLoginFailure(services.db, user.id, source);
    if (after && isLocked(after, now)) throw lockedError(after.locked_until, now);
    await resetFailedLogins(services.db, user.id);
    return;
  }
  const nowIso = new Date(now).toISOString();
  const staleBefore = new Date(now - STALE_RUN_MS).toISOString();
  await purgeStaleLoginSources(services.db, user.id, staleBefore, nowIso);
  await addFailedLogin(services.db, user.id);
  const count = await addLoginFailure(services.db, user.id, source, nowIso);
  const max = services.config.loginMaxFailures;
  if (count < max) return;
  const lockedUntil =
    services.config.lockoutMs > 0 ? new Date(now + services.config.lockoutMs).toISOString() : null;
  await services.db.transaction().execute(async (trx) => {
    const locked = await lockLoginSource(trx, user.id, source, nowIso, lockedUntil);
    if (!locked) return; // A parallel attempt locked it and recorded the event.
    await markUserLocked(trx, user.id, nowIso, lockedUntil);
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
