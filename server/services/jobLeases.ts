/**
 * Periodic jobs run by one app instance at a time (docs/architecture.md "Several instances").
 * Every instance runs the same timers; at each turn an instance asks for the job's lease (a row of
 * `job_leases`, taken with one conditional upsert, repositories/instances.ts) and runs the job only
 * when it got it. The lease lasts about one interval, so of N instances the job runs about once
 * per interval in all, whichever instance is up; an instance that stops mid-run leaves a lease that
 * simply runs out. The jobs stay idempotent (conditional deletes, updates "where still null"), so
 * a run that outlasts its lease and overlaps the next one does no harm, only work twice.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { saveJobCursor, takeJobLease } from '../repositories/instances';
import type { Services } from './context';

/** This process's name in `job_leases.holder`: host, process id and a random part. */
export function instanceName(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** What a leased run is given and may hand back. */
export interface LeasedJobRun {
  /** Where the job's sweep continues ('' from the start), whichever instance ran it last. */
  cursor: string;
}

/** What a leased job answers: where its sweep continues next time. */
export interface LeasedJobResult {
  cursor: string;
}

/**
 * Runs `job` when this instance gets its lease, and keeps the cursor it answers.
 * @param name the job's name (one row of job_leases)
 * @param holder this instance's name ({@link instanceName})
 * @param leaseMs how long the lease lasts from now, in ms (about the job's interval)
 * @returns the job's result, or null when another instance holds the lease (nothing ran)
 * @throws what the job throws (its lease stays: the next turn after it ends runs it again)
 */
export async function runLeasedJob<T extends LeasedJobResult>(
  services: Pick<Services, 'db' | 'clock'>,
  name: string,
  holder: string,
  leaseMs: number,
  job: (run: LeasedJobRun) => Promise<T>,
): Promise<T | null> {
  const now = services.clock();
  const lease = await takeJobLease(
    services.db,
    name,
    holder,
    new Date(now).toISOString(),
    new Date(now + leaseMs).toISOString(),
  );
  if (!lease) return null;
  const result = await job({ cursor: lease.cursor });
  await saveJobCursor(
    services.db,
    name,
    holder,
    result.cursor,
    new Date(services.clock()).toISOString(),
  );
  return result;
}
