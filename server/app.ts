/**
 * buildApp(deps): the Fastify instance with every plugin and route. main.ts and the tests build the
 * app the same way; tests pass their own database, store, clock and config.
 */
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { PRODUCT_NAME } from '../common/constants';
import { registerClient } from './plugins/client';
import { registerErrorHandler } from './plugins/errors';
import { registerInputRules } from './plugins/inputs';
import { refuseChangesDuringMaintenance } from './plugins/maintenance';
import { requireSession } from './plugins/auth';
import { registerSecurity } from './plugins/security';
import { publicAuthRoutes, sessionAuthRoutes } from './routes/auth';
import { fileRoutes } from './routes/files';
import { flagRoutes } from './routes/flags';
import { folderRoutes } from './routes/folders';
import { historyRoutes } from './routes/history';
import { integrationRoutes } from './routes/integrations';
import { listRoutes } from './routes/lists';
import { organiseRoutes } from './routes/organise';
import { permissionRoutes } from './routes/permissions';
import { storageRoutes } from './routes/storage';
import { uploadRoutes } from './routes/uploads';
import { userRoutes } from './routes/users';
import { contactRoutes, publicContactRoutes } from './routes/contacts';
import { indexFieldRoutes } from './routes/indexFields';
import { imagingRoutes } from './routes/imaging';
import { outboxRoutes } from './routes/outbox';
import { searchRoutes } from './routes/search';
import { selectionRoutes } from './routes/selection';
import { publicSharingRoutes, sharingRoutes } from './routes/sharing';
import { discardRefusedUpload, uploadStateOf } from './services/files';
import type { Services } from './services/context';
import type { LocalObjectStore } from './storage/localObjectStore';

/** What buildApp needs. */
export interface AppDeps extends Services {
  /** The local store whose PUT endpoint this app serves (absent with an external S3 store). */
  localStore?: LocalObjectStore;
  /** Serve the built client from config.clientDir (default true). */
  serveClient?: boolean;
}

/** Query strings of presigned URLs carry signatures: they never reach the log. */
function redactUrl(url: string): string {
  return url.startsWith('/api/storage/') ? url.split('?')[0] + '?[redacted]' : url;
}

/** Builds the Fastify app (not listening yet). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
            ],
            serializers: {
              req: (req: { method: string; url: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
              }),
            },
          },
  });
  app.decorateRequest('ctx', null);
  app.decorateRequest('sessionTiming', null);
  registerErrorHandler(app);
  registerInputRules(app);
  await registerSecurity(app);
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: `${PRODUCT_NAME} API`, version: '0.1.0' },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'dossier_session' } },
      },
      security: [{ session: [] }],
    },
  });

  app.get('/api/docs', { schema: { hide: true } }, () => app.swagger());
  app.get('/api/health', { schema: { hide: true } }, () => ({ status: 'ok' }));

  publicAuthRoutes(app, deps);
  flagRoutes(app, deps);
  await integrationRoutes(app, deps);
  await publicSharingRoutes(app, deps);
  await publicContactRoutes(app, deps);
  if (deps.localStore) {
    await storageRoutes(
      app,
      deps.localStore,
      (key) => discardRefusedUpload(deps, key),
      (key, uploadId) => uploadStateOf(deps, key, uploadId),
    );
  }

  await app.register(async (scope) => {
    scope.addHook('preHandler', requireSession(deps));
    scope.addHook('preHandler', refuseChangesDuringMaintenance(deps));
    sessionAuthRoutes(scope, deps);
    folderRoutes(scope, deps);
    fileRoutes(scope, deps);
    uploadRoutes(scope, deps);
    historyRoutes(scope, deps);
    listRoutes(scope, deps);
    organiseRoutes(scope, deps);
    userRoutes(scope, deps);
    permissionRoutes(scope, deps);
    sharingRoutes(scope, deps);
    outboxRoutes(scope, deps);
    indexFieldRoutes(scope, deps);
    contactRoutes(scope, deps);
    searchRoutes(scope, deps);
    imagingRoutes(scope, deps);
    selectionRoutes(scope, deps);
  });

  await registerClient(app, deps.serveClient === false ? null : config.clientDir);
  return app;
}
