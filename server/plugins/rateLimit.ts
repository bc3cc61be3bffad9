/**
 * Rate limits shared by every app instance on one database (docs/architecture.md "Several
 * instances"). @fastify/rate-limit keeps its counters in process memory by default, so N instances
 * behind a load balancer would each allow the limit: N times the limit in all. Its counters are
 * kept in the `rate_limits` table instead (migration 0024, repositories/instances.ts), which every
 * deployment has, SQLite and PostgreSQL alike; each counted request is one upsert. Routes set their
 * own limits with `config.rateLimit` (sign-in, the public sharing routes, the token endpoints);
 * nothing is limited globally.
 */
import rateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { countRateLimitHit, purgeRateLimits, readRateLimit } from '../repositories/instances';
import type { Services } from '../services/context';

/** How often an instance removes ended counters, at most (ms of the services' clock). */
const RATE_LIMIT_PURGE_MS = 60_000;

/** What @fastify/rate-limit answers a store's `incr` and `read` with: count and ms left. */
type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/**
 * The store class @fastify/rate-limit instantiates (it calls `new Store(options)`), bound to the
 * services' database and clock. `child` gives each route its own counters by prefixing the key
 * with the route's method and URL, as the plugin's own stores do.
 * @param services database (`rate_limits`) and clock (epoch ms)
 * @returns a store constructor for the plugin's `store` option
 */
function databaseRateLimitStore(
  services: Pick<Services, 'db' | 'clock'>,
): FastifyRateLimitStoreCtor {
  const purge = { last: -Infinity };

  /** Removes ended counters now and then, after the request was counted (never waits for it). */
  const purgeNowAndThen = (now: number) => {
    if (now - purge.last < RATE_LIMIT_PURGE_MS) return;
    purge.last = now;
    // A failed purge is retried at the next one; the counters stay correct meanwhile.
    purgeRateLimits(services.db, now).catch(() => undefined);
  };

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = services.clock();
      countRateLimitHit(services.db, this.prefix + key, now, timeWindow).then(
        (count) => {
          callback(null, { current: count.hits, ttl: Math.max(0, count.resetAt - now) });
          purgeNowAndThen(now);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** The counter without counting (the plugin's `{ increment: false }`). */
    read(key: string, callback: Callback): void {
      const now = services.clock();
      readRateLimit(services.db, this.prefix + key, now).then(
        (count) =>
          callback(
            null,
            count ? { current: count.hits, ttl: count.resetAt - now } : { current: 0, ttl: 0 },
          ),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: RouteOptions & { path: string; prefix: string }): FastifyRateLimitStore {
      // The plugin passes the route's merged limit options, the route itself as `routeInfo`.
      const route = (routeOptions as { routeInfo?: Partial<RouteOptions> }).routeInfo ?? {};
      const method = [route.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore({}, `${this.prefix}${method} ${route.url ?? ''}|`);
    }
  }
  return DatabaseRateLimitStore;
}

/**
 * Registers @fastify/rate-limit with the database store: only routes with `config.rateLimit`
 * are limited, per client IP (`request.ip`, which honours TRUST_PROXY).
 */
export async function registerRateLimit(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(services) });
}
