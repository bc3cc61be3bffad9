/**
 * Folder permissions, permissionables and teams (SPEC section 7 "Folder
 * permissions", "Private users and auth"). Administrators only (decided in the services). Thin:
 * schema → service.
 */
import type { FastifyInstance } from 'fastify';
import type { CreateFolderPermissionsRequest } from '@common/folderPermissions';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import {
  addMembers,
  createPermissions,
  createTeam,
  deleteFolderPermissions,
  deletePermission,
  deleteTeam,
  deleteUserPermissions,
  getPermission,
  getTeam,
  getTeams,
  listFolderPermissions,
  listPermissionables,
  removeMember,
  updateTeam,
} from '../services/permissions';
import { idParams } from './schemas';

const idString = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** Registers the folder permission, permissionable and team routes (inside the session scope). */
export function permissionRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Body: CreateFolderPermissionsRequest }>(
    '/api/rest/folder_permissions',
    {
      schema: {
        tags: ['folder_permissions'],
        body: {
          type: 'object',
          required: ['folder_id', 'permissionables'],
          properties: {
            folder_id: idString,
            permissionables: {
              type: 'array',
              items: {
                type: 'object',
                required: ['permissionable_id', 'permissionable_type'],
                properties: {
                  permissionable_id: idString,
                  permissionable_type: { type: 'string', enum: ['user', 'team'] },
                },
              },
            },
          },
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createPermissions(services, ctxOf(request), request.body)),
  );

  app.delete<{ Querystring: { user_id: string } }>(
    '/api/rest/folder_permissions/by_user',
    {
      schema: {
        tags: ['folder_permissions'],
        querystring: { type: 'object', required: ['user_id'], properties: { user_id: idString } },
      },
    },
    async (request, reply) => {
      await deleteUserPermissions(services, ctxOf(request), request.query.user_id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folder_permissions/:id',
    { schema: { tags: ['folder_permissions'], params: idParams } },
    (request) => getPermission(services, ctxOf(request), request.params.id),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/folder_permissions/:id',
    { schema: { tags: ['folder_permissions'], params: idParams } },
    async (request, reply) => {
      await deletePermission(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folders/:id/permissions',
    { schema: { tags: ['folder_permissions'], params: idParams } },
    (request) => listFolderPermissions(services, ctxOf(request), request.params.id),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/folders/:id/permissions',
    { schema: { tags: ['folder_permissions'], params: idParams } },
    async (request, reply) => {
      await deleteFolderPermissions(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get('/api/rest/private/permissionables', { schema: { tags: ['private'] } }, (request) =>
    listPermissionables(services, ctxOf(request)),
  );

  app.get('/api/rest/private/teams', { schema: { tags: ['private'] } }, (request) =>
    getTeams(services, ctxOf(request)),
  );

  app.post<{ Body: { name: string; member_ids?: string[] } }>(
    '/api/rest/private/teams',
    {
      schema: {
        tags: ['private'],
        body: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', maxLength: 1000 },
            member_ids: { type: 'array', maxItems: 1000, items: idString },
          },
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createTeam(services, ctxOf(request), request.body)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/private/teams/:id',
    { schema: { tags: ['private'], params: idParams } },
    (request) => getTeam(services, ctxOf(request), request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: { name: string } }>(
    '/api/rest/private/teams/:id',
    {
      schema: {
        tags: ['private'],
        params: idParams,
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 1000 } },
        },
      },
    },
    (request) => updateTeam(services, ctxOf(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/private/teams/:id',
    { schema: { tags: ['private'], params: idParams } },
    async (request, reply) => {
      await deleteTeam(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string }; Body: { user_ids: string[] } }>(
    '/api/rest/private/teams/:id/members',
    {
      schema: {
        tags: ['private'],
        params: idParams,
        body: {
          type: 'object',
          required: ['user_ids'],
          properties: { user_ids: { type: 'array', minItems: 1, maxItems: 1000, items: idString } },
        },
      },
    },
    (request) => addMembers(services, ctxOf(request), request.params.id, request.body.user_ids),
  );

  app.delete<{ Params: { id: string; user_id: string } }>(
    '/api/rest/private/teams/:id/members/:user_id',
    {
      schema: {
        tags: ['private'],
        params: {
          type: 'object',
          required: ['id', 'user_id'],
          properties: { id: idString, user_id: idString },
        },
      },
    },
    async (request, reply) => {
      await removeMember(services, ctxOf(request), request.params.id, request.params.user_id);
      return reply.code(204).send();
    },
  );
}
