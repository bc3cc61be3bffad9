/**
 * Prometheus metrics (prom-client) at GET /metrics, for operators (docs/operations.md
 * "Monitoring"). Each app has its own Registry (never prom-client's global one), so tests that
 * build several apps never share counters.
 *
 * Exposed: `http_request_duration_seconds` (histogram by method, route pattern and status class,
 * e.g. `GET /api/rest/folders/:id` `2xx`; never the raw URL, which would carry ids and presigned
 * signatures), `dossier_imaging_jobs` (document-imaging jobs of every firm not done, by state:
 * queued, running, failed; read from the jobs table at each scrape), `dossier_upload_bytes_total`
 * and `dossier_uploads_total` (files recorded by this instance), `dossier_db_pool_connections`
 * (PostgreSQL pool: total, idle, waiting; absent on SQLite, which has one connection) and
 * prom-client's default process metrics (CPU, memory, event-loop lag, GC, handles).
 *
 * Protection: the endpoint exists only when METRICS_TOKEN is set, and then requires
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without the variable it answers 404 and
 * nothing is collected.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError, notFound } from '../errors';
import { countOpenJobsByState, type OpenJobState } from '../repositories/jobs';
import type { Services, ServiceMetrics } from '../services/context';

/** The counts of a connection pool (node-postgres's `pg.Pool` has them). */
export interface PoolStats {
  /** Connections open, idle or in use. */
  readonly totalCount: number;
  /** Connections open and unused. */
  readonly idleCount: number;
  /** Queries waiting for a connection. */
  readonly waitingCount: number;
}

/** Upper bounds of the request-duration buckets, in seconds (uploads of 100 MB take seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The route label of a request no route matched (the raw URL is never a label). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** One app's metrics and their registry. */
export class AppMetrics implements ServiceMetrics {
  /** The registry GET /metrics renders. */
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly uploadBytes: Counter;
  private readonly uploads: Counter;

  /**
   * @param db the database whose jobs table gives the imaging queue's depth
   * @param pool the PostgreSQL pool, or null (SQLite)
   */
  constructor(db: Services['db'], pool: PoolStats | null) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.uploadBytes = new Counter({
      name: 'dossier_upload_bytes_total',
      help: 'Bytes of the files recorded (uploads made visible) by this instance.',
      registers,
    });
    this.uploads = new Counter({
      name: 'dossier_uploads_total',
      help: 'Files recorded (uploads made visible) by this instance.',
      registers,
    });
    new Gauge({
      name: 'dossier_imaging_jobs',
      help: 'Document-imaging jobs of every firm that are not done, by state.',
      labelNames: ['state'],
      registers,
      async collect() {
        // Read at each scrape; a failing database leaves the last values (readiness reports it).
        const counts = await countOpenJobsByState(db).catch(() => null);
        if (!counts) return;
        for (const state of Object.keys(counts) as OpenJobState[]) {
          this.set({ state }, counts[state]);
        }
      },
    });
    if (pool) {
      new Gauge({
        name: 'dossier_db_pool_connections',
        help: 'PostgreSQL pool: connections open (total), unused (idle), queries waiting (waiting).',
        labelNames: ['state'],
        registers,
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
  }

  /** Counts a recorded file of `bytes` bytes. */
  fileRecorded(bytes: number): void {
    this.uploads.inc();
    this.uploadBytes.inc(bytes);
  }

  /**
   * Records one answered request.
   * @param route the route pattern as registered, or null when none matched
   * @param statusCode the HTTP status sent
   * @param ms time from request to response, in milliseconds
   */
  observeRequest(method: string, route: string | null, statusCode: number, ms: number): void {
    this.requestDuration.observe(
      {
        method,
        route: route ?? UNMATCHED_ROUTE,
        status_class: `${Math.floor(statusCode / 100)}xx`,
      },
      ms / 1000,
    );
  }
}

/** The sha256 of a text (tokens are compared as digests: equal length, constant time). */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Registers GET /metrics and the hook that times every request.
 * @param metrics the app's metrics, or null when METRICS_TOKEN is unset (the route answers 404)
 * @param token METRICS_TOKEN
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: AppMetrics | null,
  token: string | null,
): void {
  if (metrics) {
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? null,
        reply.statusCode,
        reply.elapsedTime,
      );
      done();
    });
  }
  const expected = token ? digest(token) : null;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metrics || !expected) throw notFound();
    const header = request.headers.authorization ?? '';
    const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!given || !timingSafeEqual(digest(given), expected)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError(401, 'unauthorized', 'The metrics token is missing or wrong.');
    }
    const body = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
