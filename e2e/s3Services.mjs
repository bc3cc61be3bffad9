#!/usr/bin/env node
/**
 * The S3 side of the `s3` Playwright project: a single-node Swift (scripts/swift.mjs) on
 * E2E_SWIFT_PORT (backends on E2E_SWIFT_BACKEND_PORT..+2) in E2E_SWIFT_DIR, and in front of it a
 * CORS-adding reverse proxy on E2E_S3_PROXY_PORT for the app's origin E2E_S3_APP_ORIGIN: Swift's
 * S3 API answers no CORS headers, and browsers send presigned uploads cross-origin. The proxy keeps
 * the Host header, so SigV4 signatures made for the proxy's address verify at Swift. Runs until
 * SIGTERM/SIGINT, then stops Swift. Playwright waits for the proxy's /healthcheck.
 */
import http from 'node:http';
import { startSwift, stopSwift } from '../scripts/swift.mjs';

const swiftPort = Number(process.env.E2E_SWIFT_PORT);
const proxyPort = Number(process.env.E2E_S3_PROXY_PORT);
const allowed = new Set((process.env.E2E_S3_APP_ORIGIN ?? '').split(',').filter(Boolean));
const dir = process.env.E2E_SWIFT_DIR;

const { endpoint } = await startSwift({
  dir,
  port: swiftPort,
  backendPort: Number(process.env.E2E_SWIFT_BACKEND_PORT),
  bucket: process.env.S3_BUCKET ?? 'dossier',
  // In this process's group: however Playwright stops it, Swift stops too.
  detached: false,
});

const server = http.createServer((req, res) => {
  const origin = req.headers.origin;
  const cors =
    origin && allowed.has(origin)
      ? {
          'access-control-allow-origin': origin,
          'access-control-expose-headers': 'etag, x-amz-request-id',
          vary: 'Origin',
        }
      : {};
  if (req.method === 'OPTIONS' && origin) {
    res.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET, HEAD, PUT, POST, DELETE',
      'access-control-allow-headers': req.headers['access-control-request-headers'] || '*',
      'access-control-max-age': '600',
    });
    res.end();
    return;
  }
  const upstream = http.request(
    { host: '127.0.0.1', port: swiftPort, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      const headers = { ...answer.headers };
      for (const name of Object.keys(headers)) {
        if (name.startsWith('access-control-')) delete headers[name];
      }
      res.writeHead(answer.statusCode ?? 502, { ...headers, ...cors });
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(String(error));
  });
  req.pipe(upstream);
});
server.listen(proxyPort, '127.0.0.1', () => {
  console.log(`Swift at ${endpoint}, CORS proxy at http://127.0.0.1:${proxyPort}`);
});

const stop = () => {
  server.close();
  stopSwift(dir);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
