/**
 * Every route of the app's OpenAPI document (@fastify/swagger, `app.swagger()` after ready), for
 * tests that walk all routes by themselves (the NUL rule in inputs.test.ts, fuzz.test.ts): a route
 * added with a schema is covered without touching these tests. Routes registered with
 * `schema: { hide: true }` (the docs, health and the presigned store endpoints) are not listed.
 */
import type { FastifyInstance } from 'fastify';

/** A JSON schema as @fastify/swagger writes it into the document (the parts the tests read). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  nullable?: boolean;
}

/** One parameter of an operation. */
export interface ApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

/** One operation: a method on a path of the document. */
export interface ApiOperation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The document's path, e.g. "/api/rest/folders/{id}". */
  path: string;
  /** "METHOD path", for messages. */
  name: string;
  pathParams: ApiParameter[];
  queryParams: ApiParameter[];
  /** The JSON body's schema, when the route declares one. */
  body?: JsonSchema;
}

interface OperationObject {
  parameters?: ApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/**
 * The operations of the app's OpenAPI document, in document order.
 * @param app a ready app (buildApp, then `ready()`)
 */
export function apiOperations(app: FastifyInstance): ApiOperation[] {
  const document = app.swagger() as unknown as {
    paths: Record<string, Record<string, OperationObject>>;
  };
  const operations: ApiOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const upper = method.toUpperCase() as ApiOperation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: upper,
        path,
        name: `${upper} ${path}`,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: operation.requestBody?.content['application/json']?.schema,
      });
    }
  }
  return operations;
}

/**
 * The URL of an operation with its path parameters (each URI-encoded) and a query string.
 * @param values a value per path parameter; a missing one becomes "x"
 * @param query query parameters, appended URI-encoded in order
 */
export function operationUrl(
  operation: ApiOperation,
  values: Record<string, string> = {},
  query: [string, string][] = [],
): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(values[name] ?? 'x'),
  );
  const search = query
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return search ? `${path}?${search}` : path;
}
