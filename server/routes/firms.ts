/**
 * The operator's firm routes (firm provisioning, docs/architecture.md "Firm provisioning"): list,
 * create, rename and describe, disable and enable firm databases, and their members' roles. Every
 * route is for operators only (403 `operator_only` for every other session, firm administrators
 * included; 404 for guests, as every route not open to them). Thin: schema → service
 * (services/firms.ts decides access and rules; it also checks what the schemas leave loose, so
 * that a bad name or role gets its own clear message).
 */
import type { FastifyInstance } from 'fastify';
import type {
  AddFirmMemberRequest,
  ChangeFirmRoleRequest,
  CreateFirmRequest,
  UpdateFirmRequest,
} from '@common/firms';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import {
  addFirmMember,
  changeFirmRole,
  createFirm,
  listFirmMembers,
  listFirms,
  removeFirmMember,
  setFirmDisabled,
  updateFirm,
  type FirmActor,
} from '../services/firms';
import { idParams } from './schemas';

// Loose on purpose (lengths are the service's, with their messages); bounded against abuse.
const text = { type: 'string', maxLength: 1000 } as const;
const nullableText = { type: ['string', 'null'], maxLength: 1000 } as const;
const role = { type: 'string', maxLength: 40 } as const;
const memberParams = {
  type: 'object',
  required: ['id', 'userId'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    userId: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

type IdParams = { id: string };
type MemberParams = { id: string; userId: string };

/** Registers the private/firms routes (behind a session). */
export function firmRoutes(app: FastifyInstance, services: Services): void {
  const actor = (request: Parameters<typeof ctxOf>[0]): FirmActor => ({
    kind: 'session',
    ctx: ctxOf(request),
  });

  app.get(
    '/api/rest/private/firms',
    {
      schema: {
        tags: ['firms'],
        description:
          'Every firm database (operators only), by name, with its description, disabled state ' +
          'and member count.',
      },
    },
    async (request) => {
      const items = await listFirms(services, actor(request));
      return { items, page: 1, page_size: items.length, total: items.length };
    },
  );

  app.post<{ Body: CreateFirmRequest }>(
    '/api/rest/private/firms',
    {
      schema: {
        tags: ['firms'],
        description: 'Creates an empty firm database (operators only).',
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: text, description: nullableText },
        },
      },
    },
    async (request, reply) => {
      const firm = await createFirm(services, actor(request), request.body);
      return reply.code(201).send(firm);
    },
  );

  app.patch<{ Params: IdParams; Body: UpdateFirmRequest }>(
    '/api/rest/private/firms/:id',
    {
      schema: {
        tags: ['firms'],
        description:
          "Renames a firm and/or sets its description ('' or null: none; such a firm is left " +
          "out of users' firm switchers). Operators only.",
        params: idParams,
        body: { type: 'object', properties: { name: text, description: nullableText } },
      },
    },
    async (request) => updateFirm(services, actor(request), request.params.id, request.body ?? {}),
  );

  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post<{ Params: IdParams }>(
      `/api/rest/private/firms/:id/${path}`,
      {
        schema: {
          tags: ['firms'],
          description: disabled
            ? 'Disables a firm (operators only): its sessions end and nobody can sign in to it.'
            : 'Enables a disabled firm again (operators only).',
          params: idParams,
        },
      },
      async (request) => {
        const { sessionsEnded: _ended, ...firm } = await setFirmDisabled(
          services,
          actor(request),
          request.params.id,
          disabled,
        );
        return firm;
      },
    );
  }

  app.get<{ Params: IdParams }>(
    '/api/rest/private/firms/:id/members',
    {
      schema: {
        tags: ['firms'],
        description: "A firm's members with their roles (operators only); guests are left out.",
        params: idParams,
      },
    },
    async (request) => {
      const items = await listFirmMembers(services, actor(request), request.params.id);
      return { items, page: 1, page_size: items.length, total: items.length };
    },
  );

  app.post<{ Params: IdParams; Body: AddFirmMemberRequest }>(
    '/api/rest/private/firms/:id/members',
    {
      schema: {
        tags: ['firms'],
        description:
          'Gives an existing user a role (admin, member, read_only) in a firm (operators only).',
        params: idParams,
        body: {
          type: 'object',
          required: ['username', 'role'],
          properties: { username: text, role },
        },
      },
    },
    async (request, reply) => {
      const member = await addFirmMember(
        services,
        actor(request),
        request.params.id,
        { username: request.body.username },
        request.body.role,
      );
      return reply.code(201).send(member);
    },
  );

  app.patch<{ Params: MemberParams; Body: ChangeFirmRoleRequest }>(
    '/api/rest/private/firms/:id/members/:userId',
    {
      schema: {
        tags: ['firms'],
        description: "Changes a member's role in a firm (operators only).",
        params: memberParams,
        body: { type: 'object', required: ['role'], properties: { role } },
      },
    },
    async (request) =>
      changeFirmRole(
        services,
        actor(request),
        request.params.id,
        { id: request.params.userId },
        request.body.role,
      ),
  );

  app.delete<{ Params: MemberParams }>(
    '/api/rest/private/firms/:id/members/:userId',
    {
      schema: {
        tags: ['firms'],
        description:
          'Removes a member from a firm (operators only); their sessions in it end at once.',
        params: memberParams,
      },
    },
    async (request, reply) => {
      await removeFirmMember(services, actor(request), request.params.id, {
        id: request.params.userId,
      });
      return reply.code(204).send();
    },
  );
}
