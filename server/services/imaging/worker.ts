/**
 * The document-imaging worker (docs/architecture.md "Document imaging"): claims due jobs from the
 * queue (server/repositories/jobs.ts) and runs up to `config.imagingConcurrency` of them at once.
 * The work itself runs in child processes (runner.ts), so the event loop only waits. A running
 * job's lease is renewed while it runs; when the process stops, its leases run out and another
 * worker (or this one after a restart) takes the jobs again. A failed attempt is retried after
 * {@link retryDelayMs}; a {@link PermanentJobError} or the last allowed attempt gives up, keeping
 * the reason.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isoAt, newId } from '@server/ids';
import {
  claimJobs,
  completeJob,
  failAbandonedJobs,
  failAttempt,
  renewLease,
} from '@server/repositories/jobs';
import type { JobRow } from '@server/db/schemaImaging';
import type { Services } from '../context';
import { onJobsAdded, retryDelayMs } from './queue';

/** How long a claimed job stays the worker's without a renewal, in ms. */
export const LEASE_MS = 60_000;
/** How often a running job's lease is renewed, in ms. */
export const LEASE_RENEW_MS = 20_000;
/** How often an idle worker looks for due jobs (retries come due without a wake-up), in ms. */
export const POLL_MS = 5_000;

/** The reason kept on a job abandoned by its worker too many times. */
export const ABANDONED_REASON = 'the worker stopped while running the job, on every attempt';

/** A failure that no retry can fix (unreadable input, a missing tool): the job gives up at once. */
export class PermanentJobError extends Error {}

/**
 * Runs one job. `signal` aborts when the worker stops (the handler kills its child process).
 * @returns the file's sha256 when the handler learnt it, else null
 * @throws PermanentJobError to give up, any other error to retry
 */
export type JobHandler = (job: JobRow, signal: AbortSignal) => Promise<string | null>;

/** A running worker. */
export interface ImagingWorker {
  /** This worker's id (kept in the jobs it holds). */
  readonly id: string;
  /** Looks for due jobs now instead of at the next poll. */
  wake(): void;
  /** Resolves when no job runs and none was due at the last look (tests). */
  idle(): Promise<void>;
  /**
   * Stops claiming and resolves once no job runs: running jobs get up to `graceMs` to finish
   * (graceful shutdown, SHUTDOWN_TIMEOUT_MS), then the rest are aborted (their tools killed; the
   * jobs are taken again after their lease, not counted as failed).
   * @param graceMs how long running jobs may still run, in ms (default 0: abort at once)
   */
  stop(graceMs?: number): Promise<void>;
  /** Stops claiming and aborts every running job now, without waiting (a second signal). */
  abort(): void;
}

/** Worker options (tests shorten the poll and lease). */
export interface WorkerOptions {
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  renewMs?: number;
}

/**
 * Starts a worker running `handler` on claimed jobs.
 * @returns the worker; with a concurrency of 0 it claims nothing
 */
export function startImagingWorker(
  services: Services,
  log: FastifyBaseLogger,
  handler: JobHandler,
  options: WorkerOptions = {},
): ImagingWorker {
  const id = `${process.pid}-${newId()}`;
  const concurrency = options.concurrency ?? services.config.imagingConcurrency;
  const pollMs = options.pollMs ?? POLL_MS;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const renewMs = options.renewMs ?? LEASE_RENEW_MS;
  const maxAttempts = services.config.imagingMaxAttempts;
  const running = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  let stopped = false;
  let looking: Promise<void> | null = null;
  let again = false;
  let idleWaiters: (() => void)[] = [];
  let timer: NodeJS.Timeout | null = null;

  const leaseEnd = () => new Date(services.clock() + leaseMs).toISOString();

  const settleIdle = () => {
    if (running.size > 0 || looking || again) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const runJob = async (job: JobRow, abort: AbortController) => {
    const renew = setInterval(() => {
      void renewLease(services.db, job.id, id, leaseEnd(), isoAt(services.clock)).catch(
        () => undefined,
      );
    }, renewMs);
    renew.unref();
    try {
      const sha256 = await handler(job, abort.signal);
      await completeJob(services.db, job.id, id, isoAt(services.clock), sha256);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (abort.signal.aborted) {
        // Not the job's fault: the lease runs out and the next worker takes it again.
        return;
      }
      const giveUp = error instanceof PermanentJobError || job.attempts >= maxAttempts;
      const retryAt = giveUp
        ? null
        : new Date(services.clock() + retryDelayMs(job.attempts)).toISOString();
      log.warn({ job: job.id, file: job.file_id, error: message, retryAt }, 'imaging job failed');
      await failAttempt(services.db, job.id, id, {
        error: message,
        now: isoAt(services.clock),
        retryAt,
      }).catch((failure: unknown) => log.error({ err: failure }, 'imaging job not updated'));
    } finally {
      clearInterval(renew);
    }
  };

  const lookOnce = async () => {
    const now = isoAt(services.clock);
    await failAbandonedJobs(services.db, now, maxAttempts, ABANDONED_REASON);
    const jobs = await claimJobs(services.db, {
      dialect: services.dialect,
      workerId: id,
      now,
      leaseUntil: leaseEnd(),
      limit: concurrency - running.size,
    });
    for (const job of jobs) {
      const abort = new AbortController();
      const promise = runJob(job, abort).finally(() => {
        running.delete(job.id);
        if (!stopped) look();
        settleIdle();
      });
      running.set(job.id, { promise, abort });
    }
  };

  const look = () => {
    if (stopped || concurrency <= 0) return;
    if (looking) {
      again = true;
      return;
    }
    again = false;
    looking = lookOnce()
      .catch((error: unknown) => log.error({ err: error }, 'imaging queue unavailable'))
      .finally(() => {
        looking = null;
        if (again && running.size < concurrency) look();
        else {
          again = false;
          settleIdle();
        }
      });
  };

  const stopListening = onJobsAdded(look);
  const stopClaiming = () => {
    stopped = true;
    stopListening();
    if (timer) clearInterval(timer);
  };
  if (concurrency > 0) {
    timer = setInterval(look, pollMs);
    timer.unref();
    look();
  }

  return {
    id,
    wake: look,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      }),
    stop: async (graceMs = 0) => {
      stopClaiming();
      // A claim under way still adds its jobs: wait for it, so that they are aborted too.
      await looking;
      const ended = Promise.all([...running.values()].map((job) => job.promise));
      if (graceMs > 0 && running.size > 0) {
        let wait: NodeJS.Timeout | undefined;
        await Promise.race([
          ended,
          new Promise<void>((resolve) => {
            wait = setTimeout(resolve, graceMs);
          }),
        ]);
        clearTimeout(wait);
      }
      for (const job of running.values()) job.abort.abort();
      await Promise.all([...running.values()].map((job) => job.promise));
      settleIdle();
    },
    abort: () => {
      stopClaiming();
      for (const job of running.values()) job.abort.abort();
    },
  };
}
