/**
 * Security headers (helmet: CSP without inline scripts, nosniff, frame-ancestors 'none') and the
 * CSRF guard: a state-changing request that a browser marks as coming from another site is refused.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '@common/messages';
import { forbidden } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when a browser says the request came from another origin: the Origin header names another
 * host, or Sec-Fetch-Site says cross-site. Requests without either (curl, server-to-server) carry no
 * ambient browser credentials of a victim and pass.
 */
function isCrossOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin && origin !== 'null') {
    try {
      return new URL(origin).host !== request.headers.host;
    } catch {
      return true;
    }
  }
  if (origin === 'null') return true;
  return request.headers['sec-fetch-site'] === 'cross-site';
}

/**
 * Registers the headers and the CSRF hook on an app.
 * @param uploadOrigins origins the browser sends file bytes to besides the app itself (an S3
 *   store's presigned URLs), allowed by the CSP's connect-src
 */
export async function registerSecurity(
  app: FastifyInstance,
  uploadOrigins: string[] = [],
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its CSS-in-JS into <style> elements; scripts stay 'self' only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...uploadOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method) && isCrossOrigin(request)) {
      throw forbidden(MESSAGES.forbiddenOrigin, 'cross_origin');
    }
  });
}
