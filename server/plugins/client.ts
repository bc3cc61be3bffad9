/**
 * Serves the built client (dist/client) from the API's port, with an SPA fallback: a GET for any
 * non-API path that is not a file answers index.html, so a reload of a client route works.
 * Hashed assets are cached for a year; index.html is always revalidated. The build writes a
 * Brotli and a gzip copy beside each text asset (scripts/vite/precompress.ts): a request whose
 * `Accept-Encoding` allows one gets it with `Content-Encoding`, any other the file itself, and
 * every answer says `Vary: Accept-Encoding` so a cache keeps them apart.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';

/**
 * Registers the static files and the not-found handler (API 404s keep the JSON error shape).
 * @param clientDir the built client, or null to serve the API only
 */
export async function registerClient(
  app: FastifyInstance,
  clientDir: string | null,
): Promise<void> {
  const hasClient = clientDir !== null && existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Our setHeaders decides caching: immutable hashed assets, revalidated everything else.
      cacheControl: false,
      setHeaders(res, filePath) {
        res.setHeader('Vary', 'Accept-Encoding');
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('Cache-Control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || url.startsWith('/api/') || !hasClient) throw notFound();
    if (path.extname(url) !== '' && !url.endsWith('.html')) throw notFound();
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
