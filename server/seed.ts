/**
 * First-start seed: the firm database "Demo Advisory" and an administrator. Runs only when there
 * are no users. The admin's password is DOSSIER_ADMIN_PASSWORD, or a generated one that is returned
 * (main.ts prints it once) and never stored in clear.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nameKey } from '@common/names';
import type { Role } from '@common/session';
import type { DB } from './db/schema';
import { newId, isoAt, type Clock } from './ids';
import { hashPassword } from './passwords';
import { countUsers, insertDatabase, insertMembership, insertUser } from './repositories/users';

/** Name and description of the seeded firm database. */
const DEMO_DATABASE_NAME = 'Demo Advisory';

/** What the seed created; `generatedPassword` is set only when one was generated. */
export interface SeedResult {
  seeded: boolean;
  username: string;
  generatedPassword?: string;
}

/**
 * Seeds an empty database.
 * @param admin the admin's username and (optional) password
 */
export async function seed(
  db: Kysely<DB>,
  admin: { username: string; password: string | undefined },
  clock: Clock,
): Promise<SeedResult> {
  if ((await countUsers(db)) > 0) return { seeded: false, username: admin.username };
  const generatedPassword = admin.password ? undefined : randomBytes(12).toString('base64url');
  const password = admin.password ?? generatedPassword!;
  const now = isoAt(clock);
  const databaseId = newId();
  const userId = newId();
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await insertDatabase(trx, {
      id: databaseId,
      name: DEMO_DATABASE_NAME,
      name_key: nameKey(DEMO_DATABASE_NAME),
      description: DEMO_DATABASE_NAME,
      created_at: now,
    });
    await insertUser(trx, {
      id: userId,
      username: admin.username,
      username_key: nameKey(admin.username),
      email: null,
      first_name: 'Demo',
      last_name: 'Administrator',
      password_hash: passwordHash,
      sso: 0,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
    const role: Role = 'admin';
    await insertMembership(trx, {
      id: newId(),
      user_id: userId,
      database_id: databaseId,
      role,
      created_at: now,
    });
  });
  return {
    seeded: true,
    username: admin.username,
    ...(generatedPassword ? { generatedPassword } : {}),
  };
}
