/**
 * The durable job queue of document imaging (table `jobs`, migration 0020; docs/architecture.md
 * "Document imaging"). Every statement that moves a job between states is one statement, so the
 * queue stays consistent without a surrounding transaction:
 * - the claim takes due queued jobs and running jobs whose lease ran out. On PostgreSQL it locks
 *   the rows it takes and skips rows another instance is taking (`for update skip locked`), so
 *   several app instances share the queue and never take the same job; on SQLite the statement is
 *   the single writer's, which no other claim can interleave with;
 * - finishing, retrying and giving up apply only while the worker still holds the job (its id in
 *   `locked_by`): a worker whose lease ran out and whose job was taken over changes nothing.
 * Times are ISO 8601 UTC text of fixed width, so text order is time order on both databases.
 */
import { sql } from 'kysely';
import type { JobKind, JobRow, JobState } from '../db/schemaImaging';
import type { Executor } from './types';

/** A job to add. */
export interface NewJob {
  id: string;
  kind: JobKind;
  databaseId: string;
  fileId: string;
  sha256: string | null;
  /** ISO now. */
  now: string;
}

/**
 * Adds jobs; a file that already has a job of the kind keeps it (whatever its state).
 * @returns nothing; a file deleted meanwhile fails the foreign key and throws
 */
export async function enqueueJobs(db: Executor, jobs: readonly NewJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .insertInto('jobs')
    .values(
      jobs.map((job) => ({
        id: job.id,
        kind: job.kind,
        database_id: job.databaseId,
        file_id: job.fileId,
        sha256: job.sha256,
        state: 'queued' as const,
        attempts: 0,
        run_after: job.now,
        locked_by: null,
        lease_until: null,
        last_error: null,
        created_at: job.now,
        updated_at: job.now,
      })),
    )
    .onConflict((oc) => oc.columns(['kind', 'file_id']).doNothing())
    .execute();
}

/**
 * Puts a file's job of a kind back to queued for new bytes (a new version): due now, no attempts,
 * no holder (a worker still running it for the older bytes then changes nothing when it ends),
 * with the new bytes' sha256.
 * @returns whether the file had such a job
 */
export async function requeueFileJob(
  db: Executor,
  kind: JobKind,
  fileId: string,
  sha256: string | null,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: 'queued',
      sha256,
      attempts: 0,
      run_after: now,
      locked_by: null,
      lease_until: null,
      last_error: null,
      updated_at: now,
    })
    .where('kind', '=', kind)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a claim needs. */
export interface ClaimRequest {
  dialect: 'sqlite' | 'postgres';
  /** The claiming worker's id (kept in locked_by). */
  workerId: string;
  /** ISO now. */
  now: string;
  /** ISO end of the lease the claimed jobs get. */
  leaseUntil: string;
  /** Most jobs to take. */
  limit: number;
}

/**
 * Takes up to `limit` due jobs for a worker: queued ones whose run_after has come (oldest first)
 * and running ones whose lease ended before now (their worker stopped). Each taken job is
 * 'running', held by the worker until `leaseUntil`, with one more attempt counted.
 * @returns the taken jobs as they are now
 */
export async function claimJobs(db: Executor, request: ClaimRequest): Promise<JobRow[]> {
  if (request.limit <= 0) return [];
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', request.now)]),
        eb.and([eb('state', '=', 'running'), eb('lease_until', '<', request.now)]),
      ]),
    )
    .orderBy('run_after')
    .orderBy('id')
    .limit(request.limit);
  if (request.dialect === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('jobs')
    .set({
      state: 'running',
      locked_by: request.workerId,
      lease_until: request.leaseUntil,
      attempts: sql<number>`attempts + 1`,
      updated_at: request.now,
    })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

/**
 * Gives up running jobs whose lease ended before `now` after `maxAttempts` attempts (their worker
 * stopped or hung each time), keeping `reason`.
 * @returns how many gave up
 */
export async function failAbandonedJobs(
  db: Executor,
  now: string,
  maxAttempts: number,
  reason: string,
): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: 'failed',
      locked_by: null,
      lease_until: null,
      last_error: reason,
      updated_at: now,
    })
    .where('state', '=', 'running')
    .where('lease_until', '<', now)
    .where('attempts', '>=', maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Extends a running job's lease, while the worker still holds it.
 * @returns false when the job is no longer the worker's (taken over, or its file deleted)
 */
export async function renewLease(
  db: Executor,
  id: string,
  workerId: string,
  leaseUntil: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: leaseUntil, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks the worker's running job done (sha256: the file's, when the job learnt it).
 * @returns false when the job is no longer the worker's
 */
export async function completeJob(
  db: Executor,
  id: string,
  workerId: string,
  now: string,
  sha256: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: 'done',
      locked_by: null,
      lease_until: null,
      last_error: null,
      updated_at: now,
      ...(sha256 ? { sha256 } : {}),
    })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How a failed attempt ends. */
export interface AttemptFailure {
  /** Why, kept in last_error. */
  error: string;
  /** ISO now. */
  now: string;
  /** ISO time of the next attempt, or null to give up ('failed'). */
  retryAt: string | null;
}

/**
 * Ends the worker's running job after a failed attempt: back to 'queued' until `retryAt`, or
 * 'failed' when there is none; the reason is kept either way.
 * @returns false when the job is no longer the worker's
 */
export async function failAttempt(
  db: Executor,
  id: string,
  workerId: string,
  failure: AttemptFailure,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: failure.retryAt === null ? 'failed' : 'queued',
      run_after: failure.retryAt ?? failure.now,
      locked_by: null,
      lease_until: null,
      last_error: failure.error,
      updated_at: failure.now,
    })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Puts failed jobs whose last error starts with `errorPrefix` back in the queue with their
 * attempts reset (a tool that was missing has been installed).
 * @returns how many were queued again
 */
export async function requeueFailedJobs(
  db: Executor,
  errorPrefix: string,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'queued', attempts: 0, run_after: now, updated_at: now })
    .where('state', '=', 'failed')
    .where(
      sql<boolean>`last_error like ${`${errorPrefix.replace(/[%_\\]/g, '\\$&')}%`} escape '\\'`,
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A firm's job by id, if any (another firm's job is none). */
export function findJob(db: Executor, databaseId: string, id: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', id)
    .where('database_id', '=', databaseId)
    .executeTakeFirst();
}

/**
 * Puts one failed job back in the queue, due at once, with its attempts reset (an administrator's
 * retry). Its last error stays until the next attempt ends. One statement: a job no longer
 * 'failed' is left alone.
 * @returns false when the job is not (or no longer) failed
 */
export async function requeueFailedJob(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'queued', attempts: 0, run_after: now, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The job of a kind for a file, if any. */
export function findJobForFile(
  db: Executor,
  kind: JobKind,
  fileId: string,
): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('kind', '=', kind)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
}

/** A firm's jobs per state (every state present, 0 when none). */
export async function countJobsByState(
  db: Executor,
  databaseId: string,
): Promise<Record<JobState, number>> {
  const rows = await db
    .selectFrom('jobs')
    .where('database_id', '=', databaseId)
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const counts: Record<JobState, number> = { queued: 0, running: 0, done: 0, failed: 0 };
  for (const row of rows) counts[row.state] = Number(row.n);
  return counts;
}

/** The states of jobs not done: the queue's depth. */
export type OpenJobState = Exclude<JobState, 'done'>;

/**
 * Jobs of every firm that are not done, per state (every state present, 0 when none): the queue
 * depth the metrics endpoint exposes. Done jobs are not counted: they grow with the files.
 */
export async function countOpenJobsByState(db: Executor): Promise<Record<OpenJobState, number>> {
  // Naming the firms lets the database read (firm, state) ranges of jobs_firm_state instead of
  // every done job (SQLite, 1,000,000 jobs, 0.1% open: 72 ms for a plain group by, 0.5 ms this way).
  const rows = await db
    .selectFrom('jobs')
    .where('database_id', 'in', db.selectFrom('databases').select('id'))
    .where('state', 'in', ['queued', 'running', 'failed'])
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const counts: Record<OpenJobState, number> = { queued: 0, running: 0, failed: 0 };
  for (const row of rows) if (row.state !== 'done') counts[row.state] = Number(row.n);
  return counts;
}

/** A failed job with its file's name. */
export type FailedJobRow = JobRow & { file_name: string };

/** A firm's most recently failed jobs (newest first) with their files' names, for the status page. */
export function listFailedJobs(
  db: Executor,
  databaseId: string,
  limit: number,
): Promise<FailedJobRow[]> {
  return db
    .selectFrom('jobs')
    .innerJoin('files', 'files.id', 'jobs.file_id')
    .selectAll('jobs')
    .select('files.name as file_name')
    .where('jobs.database_id', '=', databaseId)
    .where('jobs.state', '=', 'failed')
    .orderBy('jobs.updated_at', 'desc')
    .limit(limit)
    .execute();
}

/** A ready file without a job of the kind, as the backfill reads it. */
export interface FileWithoutJob {
  id: string;
  database_id: string;
  sha256: string | null;
  extension: string;
  content_type: string;
}

/**
 * Ready files (archived included) without a job of `kind`, in id order after `cursor`.
 * @param cursor '' to start from the first file
 */
export function listFilesWithoutJob(
  db: Executor,
  kind: JobKind,
  cursor: string,
  limit: number,
): Promise<FileWithoutJob[]> {
  return db
    .selectFrom('files')
    .select(['id', 'database_id', 'sha256', 'extension', 'content_type'])
    .where('status', '=', 'ready')
    .where('id', '>', cursor)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('jobs')
            .select('jobs.id')
            .whereRef('jobs.file_id', '=', 'files.id')
            .where('jobs.kind', '=', kind),
        ),
      ),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
}
