/**
 * Sign-in, sessions, the current user, switching firm databases and sign-out (issue 2; SPEC
 * sections 2, 6 and 7 "Auth"). The cookie carries a random 256-bit token; the database keeps only
 * its sha256, so a leaked table does not open sessions.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_MINUTES, SSO_SESSION_MINUTES } from '../../common/constants';
import { MESSAGES } from '../../common/messages';
import type { CurrentUserDto, Role } from '../../common/types';
import { nameKey } from '../../common/names';
import { notFound, unauthorized } from '../errors';
import { verifyPassword } from '../passwords';
import { displayName } from '../presenters';
import { deleteSession, findSession, insertSession, updateSession } from '../repositories/sessions';
import {
  findUserById,
  findUserByUsernameKey,
  membershipsOfUser,
  roleIn,
} from '../repositories/users';
import type { RequestContext, Services } from './context';
import { recordEvent } from './history';

/** Where a request came from, kept on sessions and history events. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Minimum interval between last-seen writes for one session, in milliseconds. */
const TOUCH_INTERVAL_MS = 15_000;

/** The session id stored for a cookie token. */
export function sessionIdFor(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Builds the current-user answer for a user in a database. */
export async function currentUser(
  services: Services,
  userId: string,
  currentDatabaseId: string,
  idleMinutes: number,
): Promise<CurrentUserDto> {
  const user = await findUserById(services.db, userId);
  if (!user) throw unauthorized();
  const databases = await membershipsOfUser(services.db, userId);
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
    sessionMinutes: idleMinutes,
  };
}

/**
 * Checks a username and password and opens a new session (a fresh id every time: no fixation).
 * A wrong password, an unknown user and a disabled user get the same answer.
 * @returns the cookie token (to set, never stored) and the current user
 * @throws AppError 401 'invalid_credentials'
 */
export async function authenticate(
  services: Services,
  username: string,
  password: string,
  client: ClientInfo,
): Promise<{ token: string; user: CurrentUserDto }> {
  const user = await findUserByUsernameKey(services.db, nameKey(username.trim()));
  const passwordOk = await verifyPassword(password, user?.password_hash);
  const memberships = user ? await membershipsOfUser(services.db, user.id) : [];
  const first = memberships[0];
  if (!user || !passwordOk || user.disabled_at !== null || !first) {
    throw unauthorized(MESSAGES.invalidCredentials, 'invalid_credentials');
  }
  const token = randomBytes(32).toString('base64url');
  const now = services.clock();
  const idleMinutes = user.sso === 1 ? SSO_SESSION_MINUTES : SESSION_MINUTES;
  await insertSession(services.db, {
    id: sessionIdFor(token),
    user_id: user.id,
    database_id: first.id,
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: new Date(now + services.config.sessionMaxAgeMs).toISOString(),
    idle_minutes: idleMinutes,
    ip: client.ip,
    user_agent: client.userAgent,
    login_recorded: 0,
    logout_recorded: 0,
  });
  return { token, user: await currentUser(services, user.id, first.id, idleMinutes) };
}

/**
 * Resolves a cookie token to a request context, ending sessions that are past their idle limit or
 * absolute lifetime, whose user was disabled, or whose membership was removed.
 * @returns the context and the session's idle length, or null when there is no valid session
 */
export async function resolveSession(
  services: Services,
  token: string | undefined,
  client: ClientInfo,
): Promise<{ ctx: RequestContext; idleMinutes: number } | null> {
  if (!token) return null;
  const id = sessionIdFor(token);
  const session = await findSession(services.db, id);
  if (!session) return null;
  const now = services.clock();
  const idleLimit = Date.parse(session.last_seen_at) + session.idle_minutes * 60_000;
  if (now > Date.parse(session.expires_at) || now > idleLimit) {
    await deleteSession(services.db, id);
    return null;
  }
  const user = await findUserById(services.db, session.user_id);
  const role = user ? await roleIn(services.db, user.id, session.database_id) : undefined;
  if (!user || user.disabled_at !== null || !role) {
    await deleteSession(services.db, id);
    return null;
  }
  if (now - Date.parse(session.last_seen_at) > TOUCH_INTERVAL_MS) {
    await updateSession(services.db, id, { last_seen_at: new Date(now).toISOString() });
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
    idleMinutes: session.idle_minutes,
  };
}

/**
 * Makes another of the user's firm databases the current one.
 * @throws AppError 404 when the user is not a member of that database
 */
export async function switchDatabase(
  services: Services,
  ctx: RequestContext,
  databaseId: string,
  idleMinutes: number,
): Promise<CurrentUserDto> {
  const role = await roleIn(services.db, ctx.userId, databaseId);
  if (!role) throw notFound();
  await updateSession(services.db, ctx.sessionId, { database_id: databaseId });
  return currentUser(services, ctx.userId, databaseId, idleMinutes);
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
