/**
 * Liveness and readiness for load balancers and orchestrators (docs/operations.md "Monitoring"):
 *
 * - `GET /api/health` — the process answers (liveness): always 200 `{ status: 'ok' }` while it
 *   runs, also during a shutdown. Restart the instance when this fails.
 * - `GET /api/ready` — this instance should get traffic (readiness): 200 when the database
 *   answers a trivial query and the object store its probe ({@link ObjectStore.ready}), each
 *   within {@link READY_CHECK_TIMEOUT_MS}; 503 naming the part that failed (`database`,
 *   `object_store`: `failed` or `timeout`, never an error text, host or secret), and 503
 *   `shutting_down` from the moment a SIGTERM/SIGINT arrived (server/shutdown.ts).
 *
 * Both are public (no session, no secret in the answer) and logged only at debug level.
 */
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../repositories/health';
import type { Services } from '../services/context';
import type { ObjectStore } from '../storage/objectStore';

/** What the readiness check reads of the process's state; main.ts sets it on a signal. */
export interface ServerLifecycle {
  /** True once a shutdown began: readiness answers 503 and the listener closes. */
  shuttingDown: boolean;
}

/** Longest wait for one readiness check, in ms: a hung pool or mount is "timeout", not a hang. */
const READY_CHECK_TIMEOUT_MS = 3_000;

/** How one part of the readiness check went. */
export type CheckOutcome = 'ok' | 'failed' | 'timeout';

/** The answer of GET /api/ready. */
export interface ReadinessDto {
  status: 'ready' | 'not_ready' | 'shutting_down';
  /** Present when not ready (the error shape of every non-2xx answer). */
  message?: string;
  code?: string;
  checks: { database?: CheckOutcome; object_store?: CheckOutcome };
}

/** Runs a probe with a time limit; never throws. */
async function probe(
  run: () => Promise<void>,
  timeoutMs: number,
  onError: (error: unknown) => void,
): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = run().then(
    (): CheckOutcome => 'ok',
    (error: unknown): CheckOutcome => {
      onError(error);
      return 'failed';
    },
  );
  try {
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Registers GET /api/health and GET /api/ready.
 * @param deps the database and store to probe, and the lifecycle main.ts flips on a signal
 */
export function registerHealth(
  app: FastifyInstance,
  deps: Pick<Services, 'db'> & { store: ObjectStore; lifecycle: ServerLifecycle },
): void {
  app.get('/api/health', { schema: { hide: true } }, () => ({ status: 'ok' }));

  app.get('/api/ready', { schema: { hide: true } }, async (request, reply) => {
    if (deps.lifecycle.shuttingDown) {
      const body: ReadinessDto = {
        status: 'shutting_down',
        message: 'This instance is shutting down.',
        code: 'shutting_down',
        checks: {},
      };
      return reply.code(503).header('Connection', 'close').send(body);
    }
    const logFailure = (part: string) => (error: unknown) =>
      request.log.warn(
        { check: part, error: error instanceof Error ? error.message : String(error) },
        'readiness check failed',
      );
    const [database, objectStore] = await Promise.all([
      probe(() => pingDatabase(deps.db), READY_CHECK_TIMEOUT_MS, logFailure('database')),
      probe(() => deps.store.ready(), READY_CHECK_TIMEOUT_MS, logFailure('object_store')),
    ]);
    const checks = { database, object_store: objectStore };
    const failed = Object.entries(checks)
      .filter(([, outcome]) => outcome !== 'ok')
      .map(([part]) => part.replace('_', ' '));
    if (failed.length === 0) return { status: 'ready', checks } satisfies ReadinessDto;
    const body: ReadinessDto = {
      status: 'not_ready',
      message: `Not ready: the ${failed.join(' and the ')} did not answer.`,
      code: 'not_ready',
      checks,
    };
    return reply.code(503).send(body);
  });
}
