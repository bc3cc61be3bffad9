/** The database probe of the readiness check (GET /api/ready). */
import { sql } from 'kysely';
import type { Executor } from './types';

/**
 * Runs `select 1`: a round trip that needs a connection (PostgreSQL: one from the pool) and
 * touches no table.
 * @throws the driver's error when the database does not answer
 */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
