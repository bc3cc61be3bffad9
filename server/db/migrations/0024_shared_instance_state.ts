/**
 * State that several app instances on one database must share (docs/architecture.md "Several
 * instances"):
 *
 * - `rate_limits`: the request counters of @fastify/rate-limit (server/rateLimitStore.ts), one
 *   row per route and client key, counting `hits` until `reset_at` (epoch ms). A request adds one
 *   with a single upsert, so two instances counting the same client add up.
 * - `job_leases`: one row per periodic job (upload cleanup with the fingerprint sweep): the
 *   instance that holds it (`holder`) until `lease_until` (ISO UTC) runs the job; the others skip
 *   their turn. `cursor` is where the job's sweep continues, whichever instance runs it next.
 */
import type { Kysely, Migration } from 'kysely';

export const sharedInstanceState: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limits_reset').on('rate_limits').column('reset_at').execute();
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'text', (c) => c.notNull())
      .addColumn('cursor', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('job_leases').execute();
    await db.schema.dropTable('rate_limits').execute();
  },
};
