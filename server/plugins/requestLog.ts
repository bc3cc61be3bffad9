/**
 * One log line per request, written when the answer has been sent (Fastify's own two lines per
 * request are turned off in buildApp): `{ reqId, method, route, status, ms, user }` with the
 * message `request`. It never holds a secret: `route` is the route pattern as registered
 * (`/api/rest/shared/invitation/:token`, `/api/storage/objects/*`), never the raw URL, so share
 * tokens, presigned signatures and query strings stay out; no header, cookie or body is logged.
 * `user` is the signed-in user's id (absent without a session).
 *
 * Levels: `info` for every request but the probes; `debug` for GET /api/health, /api/ready and
 * /metrics, which orchestrators and Prometheus call every few seconds.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from './metrics';

/** Routes logged at debug level only. */
const QUIET_ROUTES = new Set(['/api/health', '/api/ready', '/metrics']);

/** A request id a reverse proxy may pass in X-Request-Id: short, plain characters only. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's `genReqId`: the proxy's X-Request-Id when TRUST_PROXY is on and the header is plain,
 * else 12 random hex characters (unique across instances, unlike Fastify's per-process counter).
 * @param trustProxy TRUST_PROXY
 */
export function requestIdGenerator(trustProxy: boolean): (request: { headers: object }) => string {
  return (request) => {
    const forwarded = (request.headers as Record<string, unknown>)['x-request-id'];
    if (trustProxy && typeof forwarded === 'string' && FORWARDED_ID.test(forwarded)) {
      return forwarded;
    }
    return randomBytes(6).toString('hex');
  };
}

/**
 * What the log's `req` serializer writes (Fastify's own lines, e.g. a request that timed out):
 * method and path; a query string is replaced by `?[redacted]` (presigned URLs carry signatures,
 * sign-in links tokens).
 */
export function serializeRequest(request: { method: string; url: string }): {
  method: string;
  url: string;
} {
  const [pathOnly = '', query] = request.url.split('?', 2);
  return { method: request.method, url: query === undefined ? pathOnly : `${pathOnly}?[redacted]` };
}

/** The fields of a request's log line (exported for the tests' expectations). */
export function requestLine(
  request: FastifyRequest,
  statusCode: number,
  ms: number,
): Record<string, string | number> {
  const line: Record<string, string | number> = {
    method: request.method,
    route: request.routeOptions.url ?? UNMATCHED_ROUTE,
    status: statusCode,
    ms: Math.round(ms * 10) / 10,
  };
  if (request.ctx?.userId) line.user = request.ctx.userId;
  return line;
}

/** Installs the per-request line and echoes the request id in `X-Request-Id`. */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const line = requestLine(request, reply.statusCode, reply.elapsedTime);
    if (QUIET_ROUTES.has(String(line.route))) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
    done();
  });
}
