/**
 * Session cookie handling: reads the cookie, resolves it to a RequestContext on `request.ctx`, and
 * refuses requests without a valid session with 401. Routes behind `requireSession` can rely on
 * `request.ctx` being set.
 *
 * Guests (docs/roles.md): a session whose role in its firm is 'guest' reaches only the
 * routes flagged `config: { guest: true }` (the share routes) and the session routes of
 * {@link GUEST_SESSION_ROUTES}; every other route answers it 404, as if it did not exist.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, unauthorized } from '../errors';
import { resolveSession, type ClientInfo, type SessionTiming } from '../services/auth';
import type { RequestContext, Services } from '../services/context';

/** Name of the session cookie (HttpOnly, SameSite=Lax, Secure over https). */
export const SESSION_COOKIE = 'dossier_session';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is open to guest sessions (sharing); others answer guests 404. */
    guest?: boolean;
  }
  interface FastifyRequest {
    /** The acting session; set by requireSession. */
    ctx: RequestContext | null;
    /** The session's lengths and clock; set by requireSession. */
    sessionTiming: SessionTiming | null;
  }
}

/** Where the request came from (IP honours TRUST_PROXY; user agent capped at 512 characters). */
export function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: agent ? agent.slice(0, 512) : null };
}

/** Sets the session cookie for a token. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

/** Clears the session cookie. */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/**
 * Session routes registered elsewhere (routes/auth.ts) that a guest session may use besides the
 * share routes flagged `guest: true`: the current user, keeping the session alive, the login and
 * logout events and signing out. Keys are "METHOD url" as registered.
 */
export const GUEST_SESSION_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/auth/current-user',
  'POST /api/auth/extend-session',
  'POST /api/auth/logout',
  'GET /api/rest/private/user_event/login',
  'GET /api/rest/private/user_event/logout',
]);

/** Whether the route of a request is open to guest sessions. */
function openToGuests(request: FastifyRequest): boolean {
  const options = request.routeOptions;
  if (options.config?.guest === true) return true;
  return GUEST_SESSION_ROUTES.has(`${request.method} ${options.url ?? ''}`);
}

/**
 * A preHandler that resolves the session or answers 401 (and clears a stale cookie); a guest
 * session on a route not open to guests gets 404.
 * @throws AppError 401 when there is no valid session; 404 for a guest off the share routes
 */
export function requireSession(services: Services) {
  return async function requireSessionHook(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    const resolved = await resolveSession(services, token, clientInfo(request));
    if (!resolved) {
      if (token) clearSessionCookie(reply);
      throw unauthorized();
    }
    if (resolved.ctx.role === 'guest' && !openToGuests(request)) throw notFound();
    request.ctx = resolved.ctx;
    request.sessionTiming = resolved.timing;
  };
}

/** The session timing of a request behind requireSession. @throws AppError 401 when missing. */
export function timingOf(request: FastifyRequest): SessionTiming {
  if (!request.sessionTiming) throw unauthorized();
  return request.sessionTiming;
}

/** The context of a request behind requireSession. @throws AppError 401 when missing. */
export function ctxOf(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw unauthorized();
  return request.ctx;
}
