/**
 * Rules every request meets before any route handler (docs/architecture.md, "Requests and
 * sessions"):
 *
 * - No NUL character (U+0000) anywhere in a request's inputs — path parameters, query string,
 *   header values and the parsed body (string values and object keys, nested at any depth). Text
 *   columns of PostgreSQL cannot hold it, and the spec's names and fields have no use for it, so it
 *   is refused in this one place with 400 `validation_error` (the shape of the schema validation
 *   errors) before validation, the session check or any query runs.
 * - No infinite number in a request's validated inputs: the schema validator turns a query value
 *   such as `1e309` or `Infinity` into an infinite number and then skips its minimum and maximum,
 *   so a preHandler refuses one with 400 `validation_error` before the session check or a service
 *   sees it.
 * - Every `/api/*` answer, errors included, carries `Cache-Control: no-store` unless its route set
 *   its own (file responses send `private, no-store`): answers hold private data.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '@common/messages';
import { AppError } from '../errors';

const NUL = '\u0000';

/** 400 `validation_error`: the request carries a NUL character. */
const nulRefused = () => new AppError(400, 'validation_error', MESSAGES.nulCharacter);

/** 400 `validation_error`: a number of the request is infinite (or not a number). */
const nonFiniteRefused = () => new AppError(400, 'validation_error', MESSAGES.nonFiniteNumber);

/**
 * Whether any leaf value (or object key) of a parsed value, at any depth, matches. Iterative, so a
 * deeply nested body cannot exhaust the stack.
 */
function someLeaf(value: unknown, matches: (leaf: unknown) => boolean): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        if (matches(key)) return true;
        pending.push((item as Record<string, unknown>)[key]);
      }
    } else if (matches(item)) {
      return true;
    }
  }
  return false;
}

/**
 * Whether a parsed value holds a NUL in any string or object key, at any depth.
 * @param value a parsed JSON value, query object, params object or string
 */
export function containsNul(value: unknown): boolean {
  return someLeaf(value, (leaf) => typeof leaf === 'string' && leaf.includes(NUL));
}

/**
 * Whether a validated value holds a number that is not finite (Infinity, -Infinity, NaN).
 * @param value a validated query, params or body
 */
export function containsNonFinite(value: unknown): boolean {
  return someLeaf(value, (leaf) => typeof leaf === 'number' && !Number.isFinite(leaf));
}

/** Whether any input of a request (params, query, headers, body) holds a NUL. */
function requestContainsNul(request: FastifyRequest): boolean {
  return (
    containsNul(request.params) ||
    containsNul(request.query) ||
    containsNul(request.headers) ||
    containsNul(request.body)
  );
}

/**
 * Installs the NUL guard (a preValidation hook), the finite-number guard (a preHandler: root hooks
 * run before the session check of the scopes) and the Cache-Control default (an onSend hook) on
 * the root instance. Call it before any route or scope is registered so every route inherits them.
 */
export function registerInputRules(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (requestContainsNul(request)) throw nulRefused();
  });
  app.addHook('preHandler', async (request) => {
    if (
      containsNonFinite(request.query) ||
      containsNonFinite(request.params) ||
      containsNonFinite(request.body)
    ) {
      throw nonFiniteRefused();
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) {
      void reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}
