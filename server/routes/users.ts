/**
 * Users administration routes (SPEC section 7 "Private users and auth"): the firm's
 * members, their profile, role, password, lock, disabled state and teams, and the session user's
 * firm databases. Thin: schema → service (services/users.ts decides access and rules).
 */
import type { FastifyInstance } from 'fastify';
import { PASSWORD_MAX_LENGTH } from '@common/constants';
import type {
  CreateUserRequest,
  UpdatePasswordRequest,
  UpdateUserRequest,
  UpdateUserRoleRequest,
} from '@common/users';
import { ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import {
  changeUserRole,
  createUser,
  disableUser,
  enableUser,
  listUserDatabases,
  listUsers,
  setUserPassword,
  unlockUser,
  updateUserProfile,
  USERS_MAX_PAGE_SIZE,
  USERS_PAGE_SIZE,
  userTeams,
} from '../services/users';
import { idParams, pagingQuery } from './schemas';

const role = { type: 'string', enum: ['admin', 'member', 'read_only'] } as const;
const field = { type: 'string', maxLength: 200 } as const;
const password = { type: 'string', maxLength: PASSWORD_MAX_LENGTH * 4 } as const;

type IdParams = { id: string };

/** Registers the private/users and private/databases routes (behind a session). */
export function userRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: { query?: string; page: number; page_size: number } }>(
    '/api/rest/private/users',
    {
      schema: {
        tags: ['users'],
        description:
          "The firm's members (administrators only), by last and first name; `query` keeps those " +
          'whose username, names or e-mail contain every word of it.',
        querystring: {
          type: 'object',
          properties: {
            query: field,
            page: pagingQuery.page,
            page_size: {
              type: 'integer',
              minimum: 1,
              maximum: USERS_MAX_PAGE_SIZE,
              default: USERS_PAGE_SIZE,
            },
          },
        },
      },
    },
    async (request) =>
      listUsers(services, ctxOf(request), {
        query: request.query.query,
        page: request.query.page,
        pageSize: request.query.page_size,
      }),
  );

  app.post<{ Body: CreateUserRequest }>(
    '/api/rest/private/users',
    {
      schema: {
        tags: ['users'],
        body: {
          type: 'object',
          required: ['username', 'firstName', 'lastName', 'password'],
          properties: {
            username: field,
            firstName: field,
            lastName: field,
            email: { type: ['string', 'null'], maxLength: 200 },
            password,
            role,
          },
        },
      },
    },
    async (request, reply) => {
      const user = await createUser(services, ctxOf(request), request.body);
      return reply.code(201).send(user);
    },
  );

  app.patch<{ Params: IdParams; Body: UpdateUserRequest }>(
    '/api/rest/private/users/:id',
    {
      schema: {
        tags: ['users'],
        params: idParams,
        body: {
          type: 'object',
          properties: {
            username: field,
            firstName: field,
            lastName: field,
            email: { type: ['string', 'null'], maxLength: 200 },
          },
        },
      },
    },
    async (request) =>
      updateUserProfile(services, ctxOf(request), request.params.id, request.body ?? {}),
  );

  app.patch<{ Params: IdParams; Body: UpdateUserRoleRequest }>(
    '/api/rest/private/users/role/:id',
    {
      schema: {
        tags: ['users'],
        params: idParams,
        body: { type: 'object', required: ['role'], properties: { role } },
      },
    },
    async (request) =>
      changeUserRole(services, ctxOf(request), request.params.id, request.body.role),
  );

  app.patch<{ Params: IdParams; Body: UpdatePasswordRequest }>(
    '/api/rest/private/users/:id/update_password',
    {
      schema: {
        tags: ['users'],
        description:
          "Sets the member's password (the password policy applies) and ends their other sessions.",
        params: idParams,
        body: { type: 'object', required: ['password'], properties: { password } },
      },
    },
    async (request) =>
      setUserPassword(services, ctxOf(request), request.params.id, request.body.password),
  );

  app.post<{ Params: IdParams }>(
    '/api/rest/private/users/:id/unlock',
    { schema: { tags: ['users'], params: idParams } },
    async (request) => unlockUser(services, ctxOf(request), request.params.id),
  );

  app.post<{ Params: IdParams }>(
    '/api/rest/private/users/:id/disable',
    {
      schema: {
        tags: ['users'],
        description: 'The member can no longer sign in to this firm; their sessions in it end.',
        params: idParams,
      },
    },
    async (request) => disableUser(services, ctxOf(request), request.params.id),
  );

  app.post<{ Params: IdParams }>(
    '/api/rest/private/users/:id/enable',
    { schema: { tags: ['users'], params: idParams } },
    async (request) => enableUser(services, ctxOf(request), request.params.id),
  );

  app.get<{ Params: IdParams }>(
    '/api/rest/private/users/:id/teams',
    { schema: { tags: ['users'], params: idParams } },
    async (request) => userTeams(services, ctxOf(request), request.params.id),
  );

  app.get(
    '/api/rest/private/databases',
    {
      schema: {
        tags: ['users'],
        description:
          "The session user's firm databases that have a description, de-duplicated by description.",
      },
    },
    async (request) => listUserDatabases(services, ctxOf(request)),
  );
}
