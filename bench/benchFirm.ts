/**
 * The firm the history and replay benchmarks generate events for: the seeded demo firm with more
 * members, so events are spread over several users.
 */
import type { Kysely } from 'kysely';
import type { DB } from '@server/db/schema';
import { systemClock } from '@server/ids';
import { hashPassword } from '@server/passwords';
import { seed } from '@server/seed';
import { historyIdAt } from '@server/services/historyChain';

/** The seeded administrator's display name. */
export const BENCH_ADMIN_NAME = 'Demo Administrator';

/** A benchmark's firm: its database id, its administrator, and every member with their name. */
export interface BenchFirm {
  databaseId: string;
  adminId: string;
  users: { id: string; name: string }[];
}

/**
 * Seeds the demo firm (administrator `admin` with `password`) and adds `members` members named
 * "Advisor 01", "Advisor 02", … with the same password. The administrator is `users[0]`.
 */
export async function seedBenchFirm(
  db: Kysely<DB>,
  password: string,
  members: number,
): Promise<BenchFirm> {
  await seed(db, { username: 'admin', password }, systemClock);
  const admin = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id as id', 'memberships.database_id as databaseId'])
    .where('users.username_key', '=', 'admin')
    .executeTakeFirstOrThrow();
  const users = [{ id: admin.id, name: BENCH_ADMIN_NAME }];
  const hash = await hashPassword(password);
  const now = new Date().toISOString();
  for (let i = 1; i <= members; i += 1) {
    const id = historyIdAt(Date.UTC(2019, 0, 1) + i);
    const number = String(i).padStart(2, '0');
    await db
      .insertInto('users')
      .values({
        id,
        username: `advisor${i}`,
        username_key: `advisor${i}`,
        email: null,
        first_name: 'Advisor',
        last_name: number,
        password_hash: hash,
        sso: 0,
        disabled_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('memberships')
      .values({
        id: historyIdAt(Date.UTC(2019, 1, 1) + i),
        user_id: id,
        database_id: admin.databaseId,
        role: 'member',
        created_at: now,
      })
      .execute();
    users.push({ id, name: `Advisor ${number}` });
  }
  return { databaseId: admin.databaseId, adminId: admin.id, users };
}
