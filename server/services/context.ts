/**
 * What every service call receives: who is acting, in which firm database, from where; and the
 * dependencies the services share.
 */
import type { Kysely } from 'kysely';
import type { Role } from '@common/session';
import type { Config } from '../config';
import type { DB } from '../db/schema';
import type { Clock } from '../ids';
import type { ObjectStore } from '../storage/objectStore';

/** The acting session, resolved by the auth plugin. Never built from client-sent ids. */
export interface RequestContext {
  userId: string;
  /** Display name at the time of the request ("First Last"), kept on history events. */
  userName: string;
  databaseId: string;
  role: Role;
  sessionId: string;
  ip: string | null;
  userAgent: string | null;
}

/** What services count for the metrics endpoint (server/plugins/metrics.ts). */
export interface ServiceMetrics {
  /** A pending upload became a file of `bytes` bytes. */
  fileRecorded(bytes: number): void;
}

/** Shared service dependencies, built once by buildApp. */
export interface Services {
  db: Kysely<DB>;
  dialect: 'sqlite' | 'postgres';
  store: ObjectStore;
  clock: Clock;
  config: Config;
  /** Counters of the metrics endpoint; absent when metrics are off (METRICS_TOKEN unset). */
  metrics?: ServiceMetrics;
}
