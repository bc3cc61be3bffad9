/**
 * State shared by every app instance on one database (migration 0024; docs/architecture.md
 * "Several instances"): rate-limit counters and the leases of periodic jobs. Every change is one
 * statement (an upsert, or an update guarded by its WHERE), so two instances acting at once both
 * count, and only one of them takes a lease.
 */
import { sql } from 'kysely';
import type { JobLeaseRow } from '../db/schemaInstances';
import type { Executor } from './types';

/** A rate-limit counter after a request was counted. */
export interface RateLimitCount {
  /** Requests in the current window, this one included. */
  hits: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
}

/**
 * Counts one request under `key`, atomically: a new key or a window that has ended starts a new
 * window of `windowMs` at 1, otherwise the window's count grows by one.
 * @param now epoch ms
 * @param windowMs the window's length in ms
 * @returns the count and the window's end after this request
 */
export async function countRateLimitHit(
  db: Executor,
  key: string,
  now: number,
  windowMs: number,
): Promise<RateLimitCount> {
  const ended = sql<boolean>`rate_limits.reset_at <= ${now}`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${ended} then 1 else rate_limits.hits + 1 end`,
        reset_at: sql<number>`case when ${ended} then excluded.reset_at else rate_limits.reset_at end`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
}

/**
 * The counter of `key` without counting (a window that has ended reads as none).
 * @param now epoch ms
 */
export async function readRateLimit(
  db: Executor,
  key: string,
  now: number,
): Promise<RateLimitCount | null> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['hits', 'reset_at'])
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || Number(row.reset_at) <= now) return null;
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
}

/**
 * Removes the counters whose window ended before `now` (epoch ms).
 * @returns how many were removed
 */
export async function purgeRateLimits(db: Executor, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('reset_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Takes the lease of job `name` for `holder` until `until`, when nobody holds it, its lease ended
 * by `now`, or `holder` holds it already (then it is extended). One statement: of two instances
 * asking at once, one gets it.
 * @param now ISO UTC
 * @param until ISO UTC end of the lease
 * @returns the lease row when taken (with the job's cursor), null when another instance holds it
 */
export async function takeJobLease(
  db: Executor,
  name: string,
  holder: string,
  now: string,
  until: string,
): Promise<JobLeaseRow | null> {
  const row = await db
    .insertInto('job_leases')
    .values({ name, holder, lease_until: until, cursor: '', updated_at: now })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({
          holder: sql<string>`excluded.holder`,
          lease_until: sql<string>`excluded.lease_until`,
          updated_at: sql<string>`excluded.updated_at`,
        })
        .where((eb) =>
          eb.or([
            eb('job_leases.lease_until', '<=', now),
            eb('job_leases.holder', '=', sql<string>`excluded.holder`),
          ]),
        ),
    )
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Keeps where job `name`'s sweep continues, while `holder` still holds its lease.
 * @returns false when the lease is no longer the holder's (nothing kept)
 */
export async function saveJobCursor(
  db: Executor,
  name: string,
  holder: string,
  cursor: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('job_leases')
    .set({ cursor, updated_at: now })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A job's lease as stored, if it was ever taken (tests and operators). */
export function findJobLease(db: Executor, name: string): Promise<JobLeaseRow | undefined> {
  return db.selectFrom('job_leases').selectAll().where('name', '=', name).executeTakeFirst();
}
