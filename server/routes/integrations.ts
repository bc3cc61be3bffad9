/**
 * Integration, integration user key and single-sign-on routes (SPEC section
 * 7 "Integrations", "Integration user keys", "Private users and auth"). Thin: the rules are in
 * server/services/integrations.ts and sso.ts.
 *
 * Open (no session; rate limited per IP by SSO_RATE_LIMIT): GET REST/private/auth/generate_token
 * (Authorization: Bearer <key>), POST /api/auth/login and POST REST/private/auth/login with a
 * token. Behind a session (administrators): the rest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  PARTNER_APP_ID_PATTERN,
  type CreateIntegrationKeyRequest,
  type IntegrationSwitchRequest,
  type TokenLoginRequest,
} from '@common/integrations';
import { refuseChangesDuringMaintenance } from '../plugins/maintenance';
import {
  SESSION_COOKIE,
  clientInfo,
  ctxOf,
  requireSession,
  setSessionCookie,
} from '../plugins/auth';
import type { Services } from '../services/context';
import {
  createKey,
  deleteUserKeys,
  listIntegrations,
  listKeys,
  rotateKey,
  setIntegrationEnabled,
} from '../services/integrations';
import { bearerKey, generateToken, loginWithToken } from '../services/sso';

const tags = ['integrations'];
const partnerAppId = { type: 'string', pattern: PARTNER_APP_ID_PATTERN } as const;
const partnerQuery = (required: boolean) =>
  ({
    type: 'object',
    required: required ? ['partner_app_id'] : [],
    properties: { partner_app_id: partnerAppId },
  }) as const;
const userIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const switchBody = {
  type: 'object',
  required: ['databaseId'],
  properties: { databaseId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const tokenBody = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

type PartnerQuery = { partner_app_id?: string };

/** Registers the open token routes and, in their own scope behind a session, the admin routes. */
export async function integrationRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const rateLimit = { max: services.config.ssoRateLimitPerMinute, timeWindow: 60_000 };

  app.get(
    '/api/rest/private/auth/generate_token',
    {
      config: { rateLimit },
      schema: {
        tags,
        security: [],
        description:
          "Called by a partner app with one of the firm's user keys (Authorization: Bearer " +
          '<key>): a single-use sign-in token for that user, valid SSO_TOKEN_TTL_SECONDS.',
      },
    },
    async (request, reply) => {
      const answer = await generateToken(
        services,
        bearerKey(request.headers.authorization),
        clientInfo(request),
      );
      void reply.header('Cache-Control', 'no-store');
      return answer;
    },
  );

  const tokenLogin = async (
    request: FastifyRequest<{ Body: TokenLoginRequest }>,
    reply: FastifyReply,
  ) => {
    const { token, user } = await loginWithToken(
      services,
      request.body.token,
      clientInfo(request),
      request.cookies[SESSION_COOKIE],
    );
    setSessionCookie(request, reply, token);
    return user;
  };
  for (const url of ['/api/auth/login', '/api/rest/private/auth/login']) {
    app.post<{ Body: TokenLoginRequest }>(
      url,
      { config: { rateLimit }, schema: { tags, security: [], body: tokenBody } },
      tokenLogin,
    );
  }

  await app.register(async (scope) => {
    scope.addHook('preHandler', requireSession(services));
    scope.addHook('preHandler', refuseChangesDuringMaintenance(services));

    scope.get('/api/rest/private/integrations', { schema: { tags } }, async (request) =>
      listIntegrations(services, ctxOf(request)),
    );

    for (const [path, enabled] of [
      ['enable', true],
      ['disable', false],
    ] as const) {
      scope.post<{ Body: IntegrationSwitchRequest }>(
        `/api/rest/private/integrations/${path}`,
        { schema: { tags, body: switchBody } },
        async (request) =>
          setIntegrationEnabled(services, ctxOf(request), request.body.databaseId, enabled),
      );
    }

    scope.get<{ Querystring: PartnerQuery }>(
      '/api/rest/private/integrations/userkey',
      { schema: { tags, querystring: partnerQuery(false) } },
      async (request) => listKeys(services, ctxOf(request), request.query.partner_app_id),
    );

    scope.post<{ Querystring: PartnerQuery; Body: CreateIntegrationKeyRequest | undefined }>(
      '/api/rest/private/integrations/userkey',
      {
        schema: {
          tags,
          description:
            'Creates a user key for a partner app; the answer is the only time it is shown.',
          querystring: partnerQuery(true),
          body: {
            type: ['object', 'null'],
            properties: { userId: { type: 'string', minLength: 1, maxLength: 64 } },
          },
        },
      },
      async (request, reply) => {
        const created = await createKey(
          services,
          ctxOf(request),
          request.query.partner_app_id!,
          request.body?.userId,
        );
        void reply.header('Cache-Control', 'no-store');
        return reply.code(201).send(created);
      },
    );

    scope.post<{ Params: { id: string }; Querystring: PartnerQuery }>(
      '/api/rest/private/integrations/users/:id',
      {
        schema: {
          tags,
          description:
            "Rotates the user's key for a partner app: the old key is refused from now on.",
          params: userIdParams,
          querystring: partnerQuery(true),
        },
      },
      async (request, reply) => {
        const rotated = await rotateKey(
          services,
          ctxOf(request),
          request.params.id,
          request.query.partner_app_id!,
        );
        void reply.header('Cache-Control', 'no-store');
        return rotated;
      },
    );

    scope.delete<{ Params: { id: string }; Querystring: PartnerQuery }>(
      '/api/rest/private/integrations/users/:id',
      { schema: { tags, params: userIdParams, querystring: partnerQuery(false) } },
      async (request, reply) => {
        await deleteUserKeys(
          services,
          ctxOf(request),
          request.params.id,
          request.query.partner_app_id,
        );
        return reply.code(204).send();
      },
    );
  });
}
