/**
 * Document request routes (common/documentRequests.ts lists them): the advisor's, behind the
 * session, and the recipient's public ones, which carry the link token and, for a
 * password-protected request, the unlock grant in REQUEST_ACCESS_HEADER. The recipient's routes
 * are rate limited per address.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  REQUEST_ACCESS_HEADER,
  REQUEST_DESCRIPTION_MAX,
  REQUEST_ITEM_NAME_MAX,
  REQUEST_MAX_ITEMS,
  REQUEST_MAX_RECIPIENTS,
  REQUEST_MESSAGE_MAX,
  REQUEST_REASON_MAX,
  type CreateDocumentRequestRequest,
  type RequestTemplateInput,
  type RequestUploadStart,
} from '@common/documentRequests';
import { clientInfo, ctxOf } from '../plugins/auth';
import type { Services } from '../services/context';
import {
  recordRequestUpload,
  requestMultipartStep,
  requestPage,
  startRequestUpload,
  unlockRequest,
  type MultipartStep,
} from '../services/documentRequests/recipient';
import {
  cancelRequest,
  createRequest,
  getRequest,
  listRequests,
  remindNow,
} from '../services/documentRequests/requests';
import { acceptItem, rejectItem } from '../services/documentRequests/review';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  updateTemplate,
} from '../services/documentRequests/templates';
import { idParams } from './schemas';

const shortText = (max: number) => ({ type: 'string', maxLength: max }) as const;
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

const itemSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: shortText(REQUEST_ITEM_NAME_MAX),
    description: shortText(REQUEST_DESCRIPTION_MAX),
    index_values: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['index_field_id', 'value'],
        additionalProperties: false,
        properties: { index_field_id: id, value: shortText(1000) },
      },
    },
  },
} as const;

const itemsSchema = { type: 'array', maxItems: REQUEST_MAX_ITEMS, items: itemSchema } as const;

const templateBody = {
  type: 'object',
  required: ['name', 'items'],
  additionalProperties: false,
  properties: {
    name: shortText(REQUEST_ITEM_NAME_MAX),
    message: shortText(REQUEST_MESSAGE_MAX),
    items: itemsSchema,
  },
} as const;

const itemParams = {
  type: 'object',
  required: ['id', 'itemId'],
  properties: { id, itemId: id },
} as const;

/** Registers the advisor's routes (behind requireSession). */
export function documentRequestRoutes(app: FastifyInstance, services: Services): void {
  const tags = ['document requests'];

  app.get<{ Querystring: { status: 'open' | 'closed' } }>(
    '/api/rest/requests',
    {
      schema: {
        tags,
        querystring: {
          type: 'object',
          properties: { status: { type: 'string', enum: ['open', 'closed'], default: 'open' } },
        },
      },
    },
    (request) => listRequests(services, ctxOf(request), request.query.status),
  );

  app.post<{ Body: CreateDocumentRequestRequest }>(
    '/api/rest/requests',
    {
      schema: {
        tags,
        body: {
          type: 'object',
          required: ['folder_id', 'items', 'due_date', 'recipients'],
          additionalProperties: false,
          properties: {
            folder_id: id,
            title: shortText(REQUEST_ITEM_NAME_MAX),
            items: itemsSchema,
            message: shortText(REQUEST_MESSAGE_MAX),
            due_date: { type: 'string', maxLength: 10 },
            recipients: {
              type: 'array',
              maxItems: REQUEST_MAX_RECIPIENTS * 2,
              items: shortText(320),
            },
            password: { type: 'string', maxLength: 1024 },
            subfolder: { type: 'boolean' },
            reminder_days_before: { type: ['integer', 'null'], minimum: 0, maximum: 365 },
            template_id: id,
          },
        },
      },
    },
    async (request, reply) => {
      const answer = await createRequest(services, ctxOf(request), request.body);
      return reply.code(201).send(answer);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/requests/:id',
    { schema: { tags, params: idParams } },
    (request) => getRequest(services, ctxOf(request), request.params.id),
  );

  app.post<{ Params: { id: string; itemId: string } }>(
    '/api/rest/requests/:id/items/:itemId/accept',
    { schema: { tags, params: itemParams } },
    (request) => acceptItem(services, ctxOf(request), request.params.id, request.params.itemId),
  );

  app.post<{ Params: { id: string; itemId: string }; Body: { reason: string } }>(
    '/api/rest/requests/:id/items/:itemId/reject',
    {
      schema: {
        tags,
        params: itemParams,
        body: {
          type: 'object',
          required: ['reason'],
          properties: { reason: shortText(REQUEST_REASON_MAX) },
        },
      },
    },
    (request) =>
      rejectItem(
        services,
        ctxOf(request),
        request.params.id,
        request.params.itemId,
        request.body.reason,
      ),
  );

  app.post<{ Params: { id: string } }>(
    '/api/rest/requests/:id/remind',
    { schema: { tags, params: idParams } },
    (request) => remindNow(services, ctxOf(request), request.params.id),
  );

  app.post<{ Params: { id: string } }>(
    '/api/rest/requests/:id/cancel',
    { schema: { tags, params: idParams } },
    (request) => cancelRequest(services, ctxOf(request), request.params.id),
  );

  app.get('/api/rest/request_templates', { schema: { tags } }, (request) =>
    listTemplates(services, ctxOf(request)),
  );

  app.post<{ Body: RequestTemplateInput }>(
    '/api/rest/private/request_templates',
    { schema: { tags, body: templateBody } },
    async (request, reply) =>
      reply.code(201).send(await createTemplate(services, ctxOf(request), request.body)),
  );

  app.patch<{ Params: { id: string }; Body: RequestTemplateInput }>(
    '/api/rest/private/request_templates/:id',
    { schema: { tags, params: idParams, body: templateBody } },
    (request) => updateTemplate(services, ctxOf(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/rest/private/request_templates/:id',
    { schema: { tags, params: idParams } },
    async (request, reply) => {
      await deleteTemplate(services, ctxOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

/** The unlock grant a recipient's request carries, if any. */
function accessOf(request: FastifyRequest): string | undefined {
  const value = request.headers[REQUEST_ACCESS_HEADER];
  return typeof value === 'string' && value.length <= 128 ? value : undefined;
}

const tokenParams = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 20, maxLength: 128 } },
} as const;

const uploadParams = {
  type: 'object',
  required: ['token', 'uploadId'],
  properties: { token: tokenParams.properties.token, uploadId: id },
} as const;

const keyQuery = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

const startBody = (sizeRequired: boolean) =>
  ({
    type: 'object',
    required: ['item_id', 'name', 'extension', 'content_type', ...(sizeRequired ? ['size'] : [])],
    additionalProperties: false,
    properties: {
      item_id: id,
      name: shortText(1000),
      extension: shortText(255),
      content_type: shortText(255),
      size: { type: 'integer', minimum: 0 },
      batch_id: { type: 'string', minLength: 1, maxLength: 64 },
      client_key: { type: 'string', minLength: 1, maxLength: 2048 },
    },
  }) as const;

/**
 * Registers the recipient's public routes (outside requireSession): the page, the unlock, and
 * the app's upload steps for the link's items. The unlock has the sign-in limit per address; the
 * page and the upload steps 600 a minute (a multipart upload signs its parts 100 at a time).
 */
export function publicRequestRoutes(app: FastifyInstance, services: Services): void {
  const tags = ['document requests'];
  const strict = {
    rateLimit: { max: services.config.loginRateLimitPerMinute, timeWindow: 60_000 },
  };
  const steps = { rateLimit: { max: 600, timeWindow: 60_000 } };
  const base = '/api/rest/public/requests/:token';
  type TokenParams = { token: string };
  type UploadParams = { token: string; uploadId: string };

  app.get<{ Params: TokenParams }>(
    base,
    { config: steps, schema: { tags, params: tokenParams } },
    (request) => requestPage(services, request.params.token, accessOf(request)),
  );

  app.post<{ Params: TokenParams; Body: { password: string } }>(
    `${base}/unlock`,
    {
      config: strict,
      schema: {
        tags,
        params: tokenParams,
        body: {
          type: 'object',
          required: ['password'],
          properties: { password: { type: 'string', maxLength: 1024 } },
        },
      },
    },
    (request) => unlockRequest(services, request.params.token, request.body.password),
  );

  for (const multipart of [false, true]) {
    app.post<{ Params: TokenParams; Body: RequestUploadStart }>(
      `${base}/files${multipart ? '/multipart' : ''}`,
      { config: steps, schema: { tags, params: tokenParams, body: startBody(multipart) } },
      async (request, reply) => {
        const outcome = await startRequestUpload(
          services,
          request.params.token,
          accessOf(request),
          request.body,
          multipart,
          clientInfo(request),
        );
        return reply.code(outcome.created ? 201 : 200).send(outcome.response);
      },
    );
  }

  app.post<{ Params: TokenParams; Body: { id: string; sha256?: string } }>(
    `${base}/files/record`,
    {
      config: steps,
      schema: {
        tags,
        params: tokenParams,
        body: {
          type: 'object',
          required: ['id'],
          properties: { id, sha256: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' } },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await recordRequestUpload(
            services,
            request.params.token,
            accessOf(request),
            request.body.id,
            request.body.sha256,
            clientInfo(request),
          ),
        ),
  );

  const step = (request: FastifyRequest<{ Params: UploadParams }>, s: MultipartStep) =>
    requestMultipartStep(
      services,
      request.params.token,
      accessOf(request),
      request.params.uploadId,
      s,
      clientInfo(request),
    );

  app.get<{ Params: UploadParams; Querystring: { key: string; first: number; count: number } }>(
    `${base}/files/multipart/:uploadId/parts`,
    {
      config: steps,
      schema: {
        tags,
        params: uploadParams,
        querystring: {
          type: 'object',
          required: ['key', 'first', 'count'],
          properties: {
            key: keyQuery.properties.key,
            first: { type: 'integer', minimum: 1, maximum: 10000 },
            count: { type: 'integer', minimum: 1, maximum: 100 },
          },
        },
      },
    },
    (request) => step(request, { op: 'parts', ...request.query }),
  );

  app.get<{ Params: UploadParams & { partNumber: number }; Querystring: { key: string } }>(
    `${base}/files/multipart/:uploadId/:partNumber`,
    {
      config: steps,
      schema: {
        tags,
        params: {
          type: 'object',
          required: ['token', 'uploadId', 'partNumber'],
          properties: {
            ...uploadParams.properties,
            partNumber: { type: 'integer', minimum: 1, maximum: 10000 },
          },
        },
        querystring: keyQuery,
      },
    },
    (request) =>
      step(request, { op: 'part', key: request.query.key, partNumber: request.params.partNumber }),
  );

  app.get<{ Params: UploadParams; Querystring: { key: string } }>(
    `${base}/files/multipart/:uploadId`,
    { config: steps, schema: { tags, params: uploadParams, querystring: keyQuery } },
    (request) => step(request, { op: 'list', key: request.query.key }),
  );

  app.post<{ Params: UploadParams; Body: { key: string } }>(
    `${base}/files/multipart/:uploadId/complete`,
    { config: steps, schema: { tags, params: uploadParams, body: keyQuery } },
    (request) => step(request, { op: 'complete', key: request.body.key }),
  );

  app.delete<{ Params: UploadParams; Querystring: { key: string } }>(
    `${base}/files/multipart/:uploadId`,
    { config: steps, schema: { tags, params: uploadParams, querystring: keyQuery } },
    (request) => step(request, { op: 'abort', key: request.query.key }),
  );
}
