/**
 * buildApp(deps): the Fastify instance with every plugin and route. main.ts and the tests build the
 * app the same way; tests pass their own database, store, clock and config.
 */
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { PRODUCT_NAME } from '@common/constants';
import { registerClient } from './plugins/client';
import { registerCompression } from './plugins/compression';
import { registerErrorHandler } from './plugins/errors';
import { registerInputRules } from './plugins/inputs';
import { refuseChangesDuringMaintenance } from './plugins/maintenance';
import { documentRequestRoutes, publicRequestRoutes } from './routes/documentRequests';
import { requireSession } from './plugins/auth';
import { registerRateLimit } from './plugins/rateLimit';
import { registerSecurity } from './plugins/security';
import { publicAuthRoutes, sessionAuthRoutes } from './routes/auth';
import { fileVersionRoutes } from './routes/fileVersions';
import { fileRoutes } from './routes/files';
import { firmRoutes } from './routes/firms';
import { flagRoutes } from './routes/flags';
import { folderRoutes } from './routes/folders';
import { historyRoutes } from './routes/history';
import { integrationRoutes } from './routes/integrations';
import { listRoutes } from './routes/lists';
import { organiseRoutes } from './routes/organise';
import { permissionRoutes } from './routes/permissions';
import { initiatedRoutes, storageRoutes } from './routes/storage';
import { uploadRoutes } from './routes/uploads';
import { userRoutes } from './routes/users';
import { contactRoutes, publicContactRoutes } from './routes/contacts';
import { examinerExportRoutes } from './routes/examinerExports';
import { replayRoutes } from './routes/replay';
import { indexFieldRoutes } from './routes/indexFields';
import { imagingRoutes } from './routes/imaging';
import { outboxRoutes } from './routes/outbox';
import { recordsRoutes } from './routes/records';
import { searchRoutes } from './routes/search';
import { selectionRoutes } from './routes/selection';
import { publicSharingRoutes, sharingRoutes } from './routes/sharing';
import { discardRefusedUpload, uploadStateOf } from './services/files';
import type { Services } from './services/context';
import type { LocalObjectStore } from './storage/localObjectStore';
import { registerHealth, type ServerLifecycle } from './plugins/health';
import { AppMetrics, registerMetrics, type PoolStats } from './plugins/metrics';
import { registerRequestLog, requestIdGenerator, serializeRequest } from './plugins/requestLog';
import { presignedOrigins } from './storage/s3ObjectStore';

/** What buildApp needs. */
export interface AppDeps extends Services {
  /** The local store whose endpoints this app serves (absent with an S3 store). */
  localStore?: LocalObjectStore;
  /** Serve the built client from config.clientDir (default true). */
  serveClient?: boolean;
  /** Shutdown state read by GET /api/ready (main.ts sets it on a signal); default: running. */
  lifecycle?: ServerLifecycle;
  /** The PostgreSQL pool, for the pool metrics (absent on SQLite). */
  dbPool?: PoolStats;
  /** Where log lines go (default stdout; tests capture them). */
  logStream?: { write(line: string): void };
}

/** Builds the Fastify app (not listening yet). */
export async function buildApp(given: AppDeps): Promise<FastifyInstance> {
  const { config } = given;
  // Metrics only when the endpoint is on; each app its own registry.
  const metrics = config.metricsToken ? new AppMetrics(given.db, given.dbPool ?? null) : null;
  const deps: AppDeps = metrics ? { ...given, metrics } : given;
  const app = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    // One line per request instead of Fastify's two (plugins/requestLog.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator(config.trustProxy),
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
            serializers: { req: serializeRequest },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
  });
  app.decorateRequest('ctx', null);
  app.decorateRequest('sessionTiming', null);
  registerErrorHandler(app);
  registerRequestLog(app);
  registerMetrics(app, metrics, config.metricsToken);
  registerInputRules(app);
  await registerSecurity(app, config.s3 ? presignedOrigins(config.s3) : []);
  await app.register(cookie);
  await registerRateLimit(app, deps);
  // The client first: its files are compressed at build time, and only routes registered after
  // registerCompression are compressed on the fly.
  await registerClient(app, deps.serveClient === false ? null : config.clientDir);
  await registerCompression(app);
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
  registerHealth(app, { ...deps, lifecycle: deps.lifecycle ?? { shuttingDown: false } });

  publicAuthRoutes(app, deps);
  flagRoutes(app, deps);
  await integrationRoutes(app, deps);
  await publicSharingRoutes(app, deps);
  await publicContactRoutes(app, deps);
  publicRequestRoutes(app, deps);
  if (deps.localStore) {
    await storageRoutes(
      app,
      deps.localStore,
      (key) => discardRefusedUpload(deps, key),
      (key, uploadId) => uploadStateOf(deps, key, uploadId),
    );
  }
  await initiatedRoutes(app, config.sessionSecret, deps.clock, (key, uploadId) =>
    uploadStateOf(deps, key, uploadId),
  );

  await app.register(async (scope) => {
    scope.addHook('preHandler', requireSession(deps));
    scope.addHook('preHandler', refuseChangesDuringMaintenance(deps));
    sessionAuthRoutes(scope, deps);
    folderRoutes(scope, deps);
    fileRoutes(scope, deps);
    fileVersionRoutes(scope, deps);
    uploadRoutes(scope, deps);
    historyRoutes(scope, deps);
    listRoutes(scope, deps);
    organiseRoutes(scope, deps);
    userRoutes(scope, deps);
    firmRoutes(scope, deps);
    permissionRoutes(scope, deps);
    sharingRoutes(scope, deps);
    outboxRoutes(scope, deps);
    indexFieldRoutes(scope, deps);
    contactRoutes(scope, deps);
    searchRoutes(scope, deps);
    imagingRoutes(scope, deps);
    selectionRoutes(scope, deps);
    recordsRoutes(scope, deps);
    examinerExportRoutes(scope, deps);
    replayRoutes(scope, deps);
    documentRequestRoutes(scope, deps);
  });
  return app;
}
