/**
 * Auth routes (SPEC section 7 "Auth", "Private users and auth", "History and events"):
 * sign-in, current user, switch database, extend the session, user events and sign-out.
 */
import type { FastifyInstance } from 'fastify';
import type { AuthenticateRequest, SwitchDatabaseRequest } from '@common/session';
import {
  SESSION_COOKIE,
  clearSessionCookie,
  clientInfo,
  ctxOf,
  setSessionCookie,
  timingOf,
} from '../plugins/auth';
import {
  authenticate,
  currentUser,
  extendSession,
  logout,
  recordLogin,
  recordLogout,
  switchDatabase,
} from '../services/auth';
import type { Services } from '../services/context';

/** Routes open to anyone: sign-in (rate limited per IP). */
export function publicAuthRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Body: AuthenticateRequest }>(
    '/api/rest/private/users/authenticate',
    {
      config: { rateLimit: { max: services.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['auth'],
        body: {
          type: 'object',
          required: ['username', 'password'],
          properties: {
            username: { type: 'string', minLength: 1, maxLength: 200 },
            password: { type: 'string', minLength: 1, maxLength: 1024 },
          },
        },
      },
    },
    async (request, reply) => {
      const { token, user } = await authenticate(
        services,
        request.body.username,
        request.body.password,
        clientInfo(request),
        request.cookies[SESSION_COOKIE],
      );
      setSessionCookie(request, reply, token);
      return user;
    },
  );
}

/** Routes behind a session. */
export function sessionAuthRoutes(app: FastifyInstance, services: Services): void {
  app.get('/api/auth/current-user', { schema: { tags: ['auth'] } }, async (request) => {
    const ctx = ctxOf(request);
    return currentUser(services, ctx.userId, ctx.databaseId, timingOf(request));
  });

  app.post(
    '/api/auth/extend-session',
    {
      schema: {
        tags: ['auth'],
        description:
          'Resets the idle clock of the session (Extend, or the keep-alive of an active client) ' +
          'and answers its new end. The absolute lifetime is not extended.',
      },
    },
    async (request) => extendSession(services, ctxOf(request), timingOf(request)),
  );

  app.post<{ Body: SwitchDatabaseRequest }>(
    '/api/auth/switch-database',
    {
      schema: {
        tags: ['auth'],
        body: {
          type: 'object',
          required: ['currentDatabaseId'],
          properties: { currentDatabaseId: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request) =>
      switchDatabase(services, ctxOf(request), request.body.currentDatabaseId, timingOf(request)),
  );

  app.get(
    '/api/rest/private/user_event/login',
    { schema: { tags: ['auth'] } },
    async (request, reply) => {
      await recordLogin(services, ctxOf(request));
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/rest/private/user_event/logout',
    { schema: { tags: ['auth'] } },
    async (request, reply) => {
      await recordLogout(services, ctxOf(request));
      return reply.code(204).send();
    },
  );

  app.post('/api/auth/logout', { schema: { tags: ['auth'] } }, async (request, reply) => {
    await logout(services, ctxOf(request));
    clearSessionCookie(reply);
    return reply.code(204).send();
  });
}
