/**
 * Graceful shutdown on SIGTERM/SIGINT (docs/operations.md "Graceful shutdown"):
 *
 * 1. readiness answers 503 `shutting_down` (the load balancer stops sending new requests);
 * 2. the listener closes: no new connection is accepted, idle keep-alive connections close, and a
 *    new request on a busy keep-alive connection is answered 503 (Fastify's close);
 * 3. in-flight requests (an upload streaming into the local store, a record, a zip download)
 *    and running document-imaging jobs may finish, and the background work of the process
 *    (fingerprints) drains — all within SHUTDOWN_TIMEOUT_MS;
 * 4. past the limit the remaining connections are cut and the imaging tools killed (their jobs
 *    are taken again after their lease by another instance or the next start);
 * 5. the WAL checkpointer stops, the database closes, and the process exits: 0 when everything
 *    finished in time, 1 when the limit cut something off.
 *
 * A second signal while this runs exits at once (code 1), killing the imaging tools first.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ServerLifecycle } from './plugins/health';

/** What a shutdown stops, in order. */
export interface ShutdownPlan {
  lifecycle: ServerLifecycle;
  log: FastifyBaseLogger;
  /** SHUTDOWN_TIMEOUT_MS: how long in-flight work may take, in ms. */
  timeoutMs: number;
  /** Closes the listener; resolves once every in-flight request has been answered. */
  closeServer(): Promise<void>;
  /** Cuts the connections still open (past the limit). */
  cutConnections(): void;
  /**
   * Background work that may finish within the limit; each gets the limit in ms and must end by
   * itself soon after it (imaging: aborts what still runs then).
   */
  drain: ((graceMs: number) => Promise<void>)[];
  /** Stops what runs without a deadline (second signal: kill the imaging tools). */
  abortNow(): void;
  /** Releases the database and the like once work ended (or the limit passed). */
  release(): Promise<void>;
  /** Ends the process (tests pass their own). */
  exit(code: number): void;
}

/**
 * Ends the process once the logger has written out what it buffered (pino writes asynchronously:
 * a plain `process.exit` loses the last lines), or after a second at most.
 * @param code the exit code
 */
export function flushLogAndExit(log: FastifyBaseLogger, code: number): void {
  const flush = (log as { flush?: (done: () => void) => void }).flush;
  setTimeout(() => process.exit(code), 1_000);
  if (typeof flush === 'function') flush.call(log, () => process.exit(code));
  else process.exit(code);
}

/** Resolves true after `ms`, unless cancelled; the timer never holds the process open. */
function deadline(ms: number): { passed: Promise<boolean>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
    timer.unref();
  });
  return { passed, cancel: () => clearTimeout(timer) };
}

/**
 * The signal handler of a plan: the first call shuts down gracefully, a second exits at once.
 * @returns the handler; it resolves when the first shutdown has called `exit`
 */
export function shutdownHandler(plan: ShutdownPlan): (signal: string) => Promise<void> {
  let running = false;
  return async (signal) => {
    if (running) {
      plan.log.warn({ signal }, 'second signal: exiting at once');
      plan.abortNow();
      plan.exit(1);
      return;
    }
    running = true;
    // What the shutdown waits for may hold no reference on the event loop (the WAL checkpointer's
    // worker, the limit's own timer): once the connections are cut, Node would end the process by
    // itself, with code 0, before the steps below decide the code. This timer holds the loop open
    // until `exit` is called.
    const holdOpen = setInterval(() => undefined, 60_000);
    plan.lifecycle.shuttingDown = true;
    plan.log.info({ signal, timeoutMs: plan.timeoutMs }, 'shutting down');
    const limit = deadline(plan.timeoutMs);
    const work = Promise.allSettled([
      plan.closeServer(),
      ...plan.drain.map((drain) => drain(plan.timeoutMs)),
    ]).then((results) => {
      for (const result of results) {
        if (result.status === 'rejected') {
          plan.log.error({ err: result.reason as unknown }, 'shutdown step failed');
        }
      }
      return false;
    });
    const timedOut = await Promise.race([work, limit.passed]);
    limit.cancel();
    if (timedOut) {
      plan.log.warn({ timeoutMs: plan.timeoutMs }, 'shutdown limit reached: cutting off the rest');
      plan.cutConnections();
      plan.abortNow();
    }
    try {
      await plan.release();
    } catch (error) {
      plan.log.error({ err: error }, 'shutdown release failed');
    }
    plan.log.info({ timedOut }, 'stopped');
    clearInterval(holdOpen);
    plan.exit(timedOut ? 1 : 0);
  };
}
