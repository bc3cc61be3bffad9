/**
 * The tables that several app instances on one database share instead of keeping per process
 * (migration 0024; docs/architecture.md "Several instances").
 */
import type { Selectable } from 'kysely';

/** One rate-limit counter: a route and a client key (usually the IP). */
export interface RateLimitsTable {
  /** `<method> <route url>|<client key>`. */
  key: string;
  /** Requests counted in the current window. */
  hits: number;
  /** When the current window ends (epoch ms); bigint, read back as a number or a string. */
  reset_at: number | string;
}

/** Who runs a periodic job until when. */
export interface JobLeasesTable {
  /** The job's name (e.g. `upload-cleanup`). */
  name: string;
  /** The instance holding the lease (host, process id and a random part). */
  holder: string;
  /** ISO UTC end of the lease: after it any instance may take it. */
  lease_until: string;
  /** Where the job's sweep continues ('' from the start). */
  cursor: string;
  /** ISO UTC time of the last change. */
  updated_at: string;
}

/** The shared-state tables, merged into DB (server/db/schema.ts). */
export interface InstanceTables {
  rate_limits: RateLimitsTable;
  job_leases: JobLeasesTable;
}

export type JobLeaseRow = Selectable<JobLeasesTable>;
