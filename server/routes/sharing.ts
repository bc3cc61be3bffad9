/**
 * Share links, invitations, guest sign-up and sign-in, shared lists (SPEC section 7
 * "Shares"). Thin: schema → one service. Every route answers 404 while the `sharing` feature flag
 * is off (an onRequest hook, before the session is even read). The routes a guest session may use
 * carry `config: { guest: true }` (plugins/auth.ts answers guests 404 everywhere else).
 */
import { UNCOMPRESSED } from '../plugins/compression';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  AcceptShareRequest,
  CreateShareLinkRequest,
  InviteRequest,
  SharedSigninRequest,
  SharedSignupRequest,
  ShareEntityType,
} from '@common/sharing';
import { notFound } from '../errors';
import { SESSION_COOKIE, clientInfo, ctxOf, setSessionCookie } from '../plugins/auth';
import type { Services } from '../services/context';
import { acceptShare, invitationInfo, sharedSignin, sharedSignup } from '../services/guestAccess';
import {
  cancelInvitation,
  createShareLink,
  inviteToShareLink,
  listShareLinks,
  removeShare,
  reissueShareLink,
  revokeShareLink,
  type MailOutcome,
} from '../services/shareLinks';
import { sharedOverview } from '../services/sharePresenters';
import {
  listSharedEntities,
  openSharedFile,
  sharedBreadcrumbs,
  sharedFileRendition,
} from '../services/sharingAccess';
import { sharedFileThumbnail } from '../services/imaging/thumbnails';
import { readRequestOf, sendFile, sendThumbnail } from './fileResponse';
import { idParams } from './schemas';

const idString = { type: 'string', minLength: 1, maxLength: 64 } as const;
const tokenString = { type: 'string', minLength: 1, maxLength: 200 } as const;
const emailList = {
  type: 'array',
  maxItems: 200,
  items: { type: 'string', maxLength: 320 },
} as const;
const entityType = { type: 'string', enum: ['file', 'folder'] } as const;

/** onRequest hook: 404 for every share route while the `sharing` flag is off. */
function sharingEnabled(services: Services) {
  return async function sharingFlag(): Promise<void> {
    if (!services.config.featureFlags.sharing) throw notFound();
  };
}

/** Logs the invitation e-mails that could not be sent and answers the `mail_failed` flag. */
function mailFlag(request: FastifyRequest, outcome: MailOutcome): { mail_failed?: true } {
  for (const error of outcome.mailErrors) {
    request.log.error({ err: error }, 'invitation e-mail not sent');
  }
  return outcome.mailFailed ? { mail_failed: true } : {};
}

/** Routes reachable without a session (registered outside requireSession). */
export async function publicSharingRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const onRequest = sharingEnabled(services);
  const rateLimit = { max: services.config.loginRateLimitPerMinute, timeWindow: 60_000 };

  app.get<{ Params: { token: string } }>(
    '/api/rest/shared/invitation/:token',
    {
      onRequest,
      config: { rateLimit },
      schema: {
        tags: ['shares'],
        description:
          'What the invitation page shows before sign-in (token = invitation or link token). ' +
          '404 unknown or revoked, 410 expired.',
        params: { type: 'object', required: ['token'], properties: { token: tokenString } },
      },
    },
    async (request) => invitationInfo(services, request.params.token),
  );

  app.post<{ Body: SharedSignupRequest }>(
    '/api/rest/shared/signup',
    {
      onRequest,
      config: { rateLimit },
      schema: {
        tags: ['shares'],
        body: {
          type: 'object',
          required: ['first_name', 'last_name', 'email', 'password', 'shareId'],
          properties: {
            first_name: { type: 'string', minLength: 1, maxLength: 100 },
            last_name: { type: 'string', minLength: 1, maxLength: 100 },
            email: { type: 'string', minLength: 1, maxLength: 320 },
            password: { type: 'string', minLength: 1, maxLength: 1024 },
            shareId: tokenString,
            link_password: { type: 'string', maxLength: 1024 },
          },
        },
      },
    },
    async (request, reply) => {
      const answer = await sharedSignup(services, request.body, clientInfo(request));
      return reply.code(202).send(answer);
    },
  );

  app.post<{ Body: SharedSigninRequest }>(
    '/api/rest/shared/signin',
    {
      onRequest,
      config: { rateLimit },
      schema: {
        tags: ['shares'],
        body: {
          type: 'object',
          required: ['email', 'password', 'inviteId'],
          properties: {
            email: { type: 'string', minLength: 1, maxLength: 320 },
            password: { type: 'string', minLength: 1, maxLength: 1024 },
            inviteId: tokenString,
            link_password: { type: 'string', maxLength: 1024 },
          },
        },
      },
    },
    async (request, reply) => {
      const { token, landing } = await sharedSignin(
        services,
        request.body,
        clientInfo(request),
        request.cookies[SESSION_COOKIE],
      );
      setSessionCookie(request, reply, token);
      return { landing };
    },
  );
}

/** Routes behind requireSession. */
export function sharingRoutes(app: FastifyInstance, services: Services): void {
  const onRequest = sharingEnabled(services);
  const guest = { guest: true };

  // ---- links (internal users) ---------------------------------------------------------------
  app.post<{ Body: CreateShareLinkRequest }>(
    '/api/rest/shared/links',
    {
      onRequest,
      schema: {
        tags: ['shares'],
        body: {
          type: 'object',
          required: ['entity_type', 'entity_id', 'emails'],
          properties: {
            entity_type: entityType,
            entity_id: idString,
            emails: emailList,
            message: { type: 'string', maxLength: 2000 },
            expires_at: { type: 'string', maxLength: 40 },
            password: { type: 'string', maxLength: 1024 },
            allow_download: { type: 'boolean' },
          },
        },
      },
    },
    async (request, reply) => {
      const { link, url, ...mail } = await createShareLink(services, ctxOf(request), request.body);
      return reply.code(201).send({ link, url, ...mailFlag(request, mail) });
    },
  );

  app.get<{ Querystring: { entity_type: ShareEntityType; entity_id: string } }>(
    '/api/rest/shared/links',
    {
      onRequest,
      schema: {
        tags: ['shares'],
        querystring: {
          type: 'object',
          required: ['entity_type', 'entity_id'],
          properties: { entity_type: entityType, entity_id: idString },
        },
      },
    },
    async (request) =>
      listShareLinks(services, ctxOf(request), request.query.entity_type, request.query.entity_id),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/shared/links/:id',
    { onRequest, schema: { tags: ['shares'], params: idParams } },
    async (request, reply) => {
      await revokeShareLink(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/rest/shared/links/:id/reissue',
    { onRequest, schema: { tags: ['shares'], params: idParams } },
    async (request) => reissueShareLink(services, ctxOf(request), request.params.id),
  );

  app.post<{ Params: { id: string }; Body: InviteRequest }>(
    '/api/rest/shared/links/:id/invite',
    {
      onRequest,
      schema: {
        tags: ['shares'],
        params: idParams,
        body: { type: 'object', required: ['emails'], properties: { emails: emailList } },
      },
    },
    async (request) => {
      const { link, ...mail } = await inviteToShareLink(
        services,
        ctxOf(request),
        request.params.id,
        request.body.emails,
      );
      return { link, ...mailFlag(request, mail) };
    },
  );

  app.delete<{ Params: { id: string; invitationId: string } }>(
    '/api/rest/shared/links/:id/invitations/:invitationId',
    {
      onRequest,
      schema: {
        tags: ['shares'],
        params: {
          type: 'object',
          required: ['id', 'invitationId'],
          properties: { id: idString, invitationId: idString },
        },
      },
    },
    async (request, reply) => {
      await cancelInvitation(
        services,
        ctxOf(request),
        request.params.id,
        request.params.invitationId,
      );
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string }; Body: AcceptShareRequest }>(
    '/api/rest/shared/links/:id/accept',
    {
      onRequest,
      config: guest,
      schema: {
        tags: ['shares'],
        params: idParams,
        body: {
          type: 'object',
          required: ['token'],
          properties: { token: tokenString, password: { type: 'string', maxLength: 1024 } },
        },
      },
    },
    async (request) =>
      acceptShare(
        services,
        ctxOf(request),
        request.params.id,
        request.body.token,
        request.body.password,
      ),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/shared/entities/:id',
    { onRequest, schema: { tags: ['shares'], params: idParams } },
    async (request, reply) => {
      await removeShare(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  // ---- what is shared (guests and internal users) -------------------------------------------
  const folderQuery = {
    type: 'object',
    properties: { folder_id: { type: 'string', maxLength: 64 } },
  } as const;

  app.get<{ Querystring: { folder_id?: string } }>(
    '/api/rest/shared/entities',
    { onRequest, config: guest, schema: { tags: ['shares'], querystring: folderQuery } },
    async (request) => listSharedEntities(services, ctxOf(request), request.query.folder_id),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/shared/folders/:id/breadcrumbs',
    { onRequest, config: guest, schema: { tags: ['shares'], params: idParams } },
    async (request) => sharedBreadcrumbs(services, ctxOf(request), request.params.id),
  );

  for (const mode of ['preview', 'download'] as const) {
    app.get<{ Params: { id: string } }>(
      `/api/rest/shared/files/:id/${mode}`,
      { ...UNCOMPRESSED, onRequest, config: guest, schema: { tags: ['shares'], params: idParams } },
      async (request, reply) =>
        sendFile(
          reply,
          await openSharedFile(
            services,
            ctxOf(request),
            request.params.id,
            mode,
            readRequestOf(request),
          ),
        ),
    );
  }

  app.get<{ Params: { id: string } }>(
    '/api/rest/shared/files/:id/rendition',
    {
      onRequest,
      config: guest,
      schema: {
        tags: ['shares'],
        description:
          'Where document imaging is with a shared file and what it derived (see GET ' +
          'files/{id}/rendition); once `pdf` is true, the preview of a file no browser shows ' +
          'safely serves its PDF rendition, also through a link without download.',
        params: idParams,
      },
    },
    async (request) => sharedFileRendition(services, ctxOf(request), request.params.id),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/shared/files/:id/thumbnail',
    {
      ...UNCOMPRESSED,
      onRequest,
      config: guest,
      schema: {
        tags: ['shares'],
        description:
          'The first-page thumbnail of a shared file (see GET files/{id}/thumbnail); 404 ' +
          '`no_thumbnail` until there is one.',
        params: idParams,
      },
    },
    async (request, reply) =>
      sendThumbnail(
        request,
        reply,
        services.store,
        await sharedFileThumbnail(services, ctxOf(request), request.params.id),
      ),
  );

  // ---- internal lists -----------------------------------------------------------------------
  app.get(
    '/api/rest/entities/shared',
    { onRequest, schema: { tags: ['shares'] } },
    async (request) => sharedOverview(services, ctxOf(request)),
  );

  app.get<{ Querystring: { folder_id?: string } }>(
    '/api/rest/shared_entities',
    { onRequest, schema: { tags: ['shares'], querystring: folderQuery } },
    async (request) => listSharedEntities(services, ctxOf(request), request.query.folder_id),
  );
}
