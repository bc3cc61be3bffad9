/**
 * Sign-in, sessions, the current user, switching firm databases and sign-out (SPEC
 * sections 2, 6 and 7 "Auth"). The cookie carries a random 256-bit token; the database keeps only
 * its sha256, so a leaked table does not open sessions.
 *
 * Expiry (docs/architecture.md "Sessions"): a session ends after its idle limit (30
 * minutes, 480 for partner single-sign-on users) counted from `last_seen_at`, or at `expires_at`
 * (its absolute lifetime). Only sign-in and POST /api/auth/extend-session (the user's Extend and
 * the client's keep-alive while its user is active) move `last_seen_at`: other requests, which may
 * be made by a page left open, never keep an idle session alive.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_MINUTES, SSO_SESSION_MINUTES } from '@common/constants';
import { MESSAGES } from '@common/messages';
import type { CurrentUserDto, ExtendSessionResponse, Role } from '@common/session';
import { nameKey } from '@common/names';
import { notFound, unauthorized } from '../errors';
import { verifyPassword } from '../passwords';
import { displayName } from '../presenters';
import {
  deleteSession,
  deleteSessionsExpiredBefore,
  deleteSessionsOfUser,
  markLogoutRecorded,
  findSession,
  insertSession,
  updateSession,
} from '../repositories/sessions';
import type { Executor } from '../repositories/types';
import type { SessionRow, UserRow } from '../db/schema';
import {
  findUserById,
  findUserByUsernameKey,
  membershipsOfUser,
  roleIn,
} from '../repositories/users';
import type { RequestContext, Services } from './context';
import { preferencesOf } from './preferences';
import { recordEvent } from './history';
import { applyLockout } from './accountLockout';

/** Where a request came from, kept on sessions and history events. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The timing of one session, read when its request was resolved. Times are epoch ms. */
export interface SessionTiming {
  /** Nominal idle length in minutes: 30, or 480 for partner single-sign-on users. */
  idleMinutes: number;
  /** The idle limit enforced, in ms (idleMinutes, or the test-only SESSION_IDLE_SECONDS). */
  idleMs: number;
  /** Last activity the server knows of: sign-in or the last extend-session. */
  lastSeenAt: number;
  /** Absolute end of the session. */
  expiresAt: number;
}

/**
 * The idle limit in ms of a session of `idleMinutes`: the test-only SESSION_IDLE_SECONDS when set,
 * otherwise the minutes.
 */
export function idleLimitMs(services: Services, idleMinutes: number): number {
  const override = services.config.sessionIdleSeconds;
  return override !== null ? override * 1000 : idleMinutes * 60_000;
}

/** The session id stored for a cookie token. */
export function sessionIdFor(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Builds the current-user answer for a user in a database, with the session's length and the
 * idle time it has left (GET /api/auth/current-user tells the client its session length).
 * @throws AppError 401 when the user no longer exists
 */
export async function currentUser(
  services: Services,
  userId: string,
  currentDatabaseId: string,
  timing: SessionTiming,
): Promise<CurrentUserDto> {
  const user = await findUserById(services.db, userId);
  if (!user) throw unauthorized();
  const [databases, preferences] = await Promise.all([
    membershipsOfUser(services.db, userId),
    preferencesOf(services, userId),
  ]);
  return {
    userId: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    username: user.username,
    email: user.email,
    sso: user.sso === 1,
    databases: databases.map((d) => ({
      id: d.id,
      name: d.name,
      description: d.description,
      role: d.role as Role,
    })),
    currentDatabaseId,
    sessionMinutes: timing.idleMinutes,
    sessionIdleSeconds: Math.round(timing.idleMs / 1000),
    sessionIdleRemainingMs: Math.max(0, timing.lastSeenAt + timing.idleMs - services.clock()),
    preferences,
    operator: user.is_operator === 1,
  };
}

/**
 * Checks a username and password and opens a new session (a fresh id every time: no fixation).
 * A wrong password, an unknown user and a disabled user get the same answer. A session the
 * browser still presented is ended (the new one replaces it), and sessions past their absolute
 * lifetime are purged. A partner single-sign-on user (users.sso = 1) gets 480 idle minutes and
 * SSO_SESSION_MAX_AGE_HOURS; everyone else 30 minutes and SESSION_MAX_AGE_HOURS.
 * Lockout (lockout.ts): wrong passwords in a row lock the account; a locked account gets
 * the same answer whether the password was right or wrong.
 * @param replacedToken the session cookie the request carried, if any
 * @returns the cookie token (to set, never stored) and the current user
 * @throws AppError 401 'invalid_credentials', or 401 'account_locked'
 */
export async function authenticate(
  services: Services,
  username: string,
  password: string,
  client: ClientInfo,
  replacedToken?: string,
): Promise<{ token: string; user: CurrentUserDto }> {
  const user = await findUserByUsernameKey(services.db, nameKey(username.trim()));
  const passwordOk = await verifyPassword(password, user?.password_hash);
  if (user) await applyLockout(services, user, passwordOk, client);
  const memberships = user ? await membershipsOfUser(services.db, user.id) : [];
  // A user who is a member of some firm and a guest of another starts in a firm of their own.
  const first = memberships.find((m) => m.role !== 'guest') ?? memberships[0];
  if (!user || !passwordOk || user.disabled_at !== null || !first) {
    throw unauthorized(MESSAGES.invalidCredentials, 'invalid_credentials');
  }
  return openSession(services, user, first.id, client, replacedToken);
}

/**
 * Checks a user's password for a sign-in that opens its session elsewhere (the share flow's
 * POST /api/rest/shared/signin), with the same lockout and the same answers as the
 * password sign-in: an unknown user, a wrong password and a disabled user all get 401
 * `invalid_credentials`; a locked account 401 `account_locked`. Memberships are not required (the
 * caller adds the guest membership).
 * @param user the user the caller found for the typed address, or undefined
 * @returns the user row, verified
 */
export async function verifyCredentials(
  services: Services,
  user: UserRow | undefined,
  password: string,
  client: ClientInfo,
): Promise<UserRow> {
  const passwordOk = await verifyPassword(password, user?.password_hash);
  if (user) await applyLockout(services, user, passwordOk, client);
  if (!user || !passwordOk || user.disabled_at !== null) {
    throw unauthorized(MESSAGES.invalidCredentials, 'invalid_credentials');
  }
  return user;
}

/**
 * Ends a session that reached its idle limit or lifetime. Its logout event (user logout, as its
 * user, unless the client recorded it already) is recorded in the same transaction, before the
 * session row goes: the client's timeout logout finds the session already ended (401), so the
 * server records it. A disabled user or a removed membership records nothing.
 */
async function endTimedOutSession(
  services: Services,
  session: SessionRow,
  client: ClientInfo,
): Promise<void> {
  const user = await findUserById(services.db, session.user_id);
  const role = user ? await roleIn(services.db, user.id, session.database_id) : undefined;
  await services.db.transaction().execute(async (trx) => {
    if (user && user.disabled_at === null && role && (await markLogoutRecorded(trx, session.id))) {
      const ctx: RequestContext = {
        userId: user.id,
        userName: displayName(user.first_name, user.last_name),
        databaseId: session.database_id,
        role: role as Role,
        sessionId: session.id,
        ip: client.ip,
        userAgent: client.userAgent,
      };
      await recordEvent(trx, services, ctx, {
        entityType: 'user',
        entityId: user.id,
        action: 'logout',
        attributes: { name: ctx.userName },
      });
    }
    await deleteSession(trx, session.id);
  });
}

/**
 * Resolves a cookie token to a request context, ending sessions that reached their idle limit or
 * absolute lifetime, whose user was disabled, or whose membership was removed. Resolving does not
 * count as activity (see the module comment).
 * @returns the context and the session's timing, or null when there is no valid session
 */
export async function resolveSession(
  services: Services,
  token: string | undefined,
  client: ClientInfo,
): Promise<{ ctx: RequestContext; timing: SessionTiming } | null> {
  if (!token) return null;
  const id = sessionIdFor(token);
  const session = await findSession(services.db, id);
  if (!session) return null;
  const now = services.clock();
  const timing: SessionTiming = {
    idleMinutes: session.idle_minutes,
    idleMs: idleLimitMs(services, session.idle_minutes),
    lastSeenAt: Date.parse(session.last_seen_at),
    expiresAt: Date.parse(session.expires_at),
  };
  if (now >= timing.expiresAt || now >= timing.lastSeenAt + timing.idleMs) {
    await endTimedOutSession(services, session, client);
    return null;
  }
  const user = await findUserById(services.db, session.user_id);
  const role = user ? await roleIn(services.db, user.id, session.database_id) : undefined;
  if (!user || user.disabled_at !== null || !role) {
    await deleteSession(services.db, id);
    return null;
  }
  return {
    ctx: {
      userId: user.id,
      userName: displayName(user.first_name, user.last_name),
      databaseId: session.database_id,
      role: role as Role,
      sessionId: id,
      ip: client.ip,
      userAgent: client.userAgent,
    },
    timing,
  };
}

/**
 * Resets the session's idle clock (POST /api/auth/extend-session: the user's Extend, or the
 * client's keep-alive while its user is active). The absolute lifetime is never extended.
 * @param timing the session's timing as resolved for this request
 * @returns the new end of the session and its lengths
 */
export async function extendSession(
  services: Services,
  ctx: RequestContext,
  timing: SessionTiming,
): Promise<ExtendSessionResponse> {
  const now = services.clock();
  await updateSession(services.db, ctx.sessionId, { last_seen_at: new Date(now).toISOString() });
  return {
    expires_at: new Date(Math.min(now + timing.idleMs, timing.expiresAt)).toISOString(),
    session_minutes: timing.idleMinutes,
    idle_seconds: Math.round(timing.idleMs / 1000),
  };
}

/**
 * Ends every session of a user at once: for a password change (keeping the session that made it)
 * or a disabled user (the admin features call this). Requests with an ended session get
 * 401 and the client shows the sign-in page.
 * @param db the database or an open transaction
 * @param options.except id (token hash, RequestContext.sessionId) of a session to keep
 * @returns how many sessions were ended
 */
export function endSessionsOfUser(
  db: Executor,
  userId: string,
  options: { except?: string } = {},
): Promise<number> {
  return deleteSessionsOfUser(db, userId, options.except);
}

/**
 * Makes another of the user's firm databases the current one.
 * @throws AppError 404 when the user is not a member of that database
 */
export async function switchDatabase(
  services: Services,
  ctx: RequestContext,
  databaseId: string,
  timing: SessionTiming,
): Promise<CurrentUserDto> {
  const role = await roleIn(services.db, ctx.userId, databaseId);
  if (!role) throw notFound();
  await updateSession(services.db, ctx.sessionId, { database_id: databaseId });
  return currentUser(services, ctx.userId, databaseId, timing);
}

/** Records the user's login event, once per session (GET REST/private/user_event/login). */
export async function recordLogin(services: Services, ctx: RequestContext): Promise<void> {
  await recordUserEventOnce(services, ctx, 'login');
}

/** Records the user's logout event, once per session (GET REST/private/user_event/logout). */
export async function recordLogout(services: Services, ctx: RequestContext): Promise<void> {
  await recordUserEventOnce(services, ctx, 'logout');
}

async function recordUserEventOnce(
  services: Services,
  ctx: RequestContext,
  action: 'login' | 'logout',
): Promise<void> {
  const column = action === 'login' ? 'login_recorded' : 'logout_recorded';
  await services.db.transaction().execute(async (trx) => {
    // The guarded update makes the event once-only even under concurrent calls.
    const result = await trx
      .updateTable('sessions')
      .set({ [column]: 1 })
      .where('id', '=', ctx.sessionId)
      .where(column, '=', 0)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return;
    await recordEvent(trx, services, ctx, {
      entityType: 'user',
      entityId: ctx.userId,
      action,
      attributes: { name: ctx.userName },
    });
  });
}

/** Ends the session on the server, recording the logout event if the client did not. */
export async function logout(services: Services, ctx: RequestContext): Promise<void> {
  await recordLogout(services, ctx);
  await deleteSession(services.db, ctx.sessionId);
}

/**
 * Opens a new session for a user already verified by other means (the single-sign-on token
 * sign-in of server/services/sso.ts), exactly as a password sign-in does: a fresh random cookie
 * token whose sha256 is the session id, the session a still-presented cookie carried ended, sessions
 * past their absolute lifetime purged. A partner single-sign-on user (users.sso = 1) gets 480 idle
 * minutes and SSO_SESSION_MAX_AGE_HOURS; everyone else 30 minutes and SESSION_MAX_AGE_HOURS.
 * @param user the user row as it stands after the caller's changes (e.g. its sso flag set)
 * @param databaseId the firm database the session starts in (the user must be a member)
 * @param replacedToken the session cookie the request carried, if any
 * @returns the cookie token (to set, never stored) and the current user
 */
export async function openSession(
  services: Services,
  user: Pick<UserRow, 'id' | 'sso'>,
  databaseId: string,
  client: ClientInfo,
  replacedToken?: string,
): Promise<{ token: string; user: CurrentUserDto }> {
  const token = randomBytes(32).toString('base64url');
  const now = services.clock();
  const sso = user.sso === 1;
  const idleMinutes = sso ? SSO_SESSION_MINUTES : SESSION_MINUTES;
  const expiresAt =
    now + (sso ? services.config.ssoSessionMaxAgeMs : services.config.sessionMaxAgeMs);
  if (replacedToken) await deleteSession(services.db, sessionIdFor(replacedToken));
  await deleteSessionsExpiredBefore(services.db, new Date(now).toISOString());
  await insertSession(services.db, {
    id: sessionIdFor(token),
    user_id: user.id,
    database_id: databaseId,
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: new Date(expiresAt).toISOString(),
    idle_minutes: idleMinutes,
    ip: client.ip,
    user_agent: client.userAgent,
    login_recorded: 0,
    logout_recorded: 0,
  });
  const timing: SessionTiming = {
    idleMinutes,
    idleMs: idleLimitMs(services, idleMinutes),
    lastSeenAt: now,
    expiresAt,
  };
  return { token, user: await currentUser(services, user.id, databaseId, timing) };
}
