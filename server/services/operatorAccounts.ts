/**
 * The operator's account rescue (`npm run admin`, server/cli/admin.ts; docs/architecture.md
 * "Users and lockout"): for an operator who has lost the administrator account, outside any
 * session. The rules are the admin area's (users.ts): the same password policy, the user's
 * sessions ended on a new password, locks of every source cleared, and a `user` history event in
 * each firm of the user, in the transaction of the change. With no acting session, the events'
 * user is the target user and their user agent {@link CLI_USER_AGENT}.
 */
import { randomBytes } from 'node:crypto';
import { nameKey } from '@common/names';
import type { UserRow } from '../db/schema';
import { AppError } from '../errors';
import { hashPassword } from '../passwords';
import { displayName } from '../presenters';
import type { Executor } from '../repositories/types';
import {
  allMembershipsOfUser,
  clearLockout,
  clearLoginSourcesOfUser,
  findUserByUsernameKey,
  updateUser,
} from '../repositories/users';
import { endSessionsOfUser } from './auth';
import type { RequestContext, Services } from './context';
import { recordUserUnlocked, recordUserUpdated } from './historyEvents';
import { assertPasswordPolicy } from './users';

/** What the rescue needs of the services (no object store). */
export type OperatorServices = Pick<Services, 'db' | 'dialect' | 'clock' | 'config'>;

/** The user agent of history events recorded by the CLI. */
export const CLI_USER_AGENT = 'dossier-cli';

/** Random bytes of a generated password: 18 bytes are 24 base64url characters (144 bits). */
const GENERATED_PASSWORD_BYTES = 18;

/** A new random password for a reset (24 characters; passes the password policy). */
export function generatePassword(): string {
  return randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url');
}

/**
 * The user of a username (case-insensitive, spaces around ignored).
 * @throws AppError 404 `user_not_found`
 */
async function userNamed(services: OperatorServices, username: string): Promise<UserRow> {
  const user = await findUserByUsernameKey(services.db, nameKey(username.trim()));
  if (!user) throw new AppError(404, 'user_not_found', `No user "${username.trim()}".`);
  return user;
}

/** Records one event per firm of the user, as the user, from the CLI. */
async function recordInEachFirm(
  trx: Executor,
  user: UserRow,
  record: (ctx: RequestContext, ref: { id: string; name: string }) => Promise<string>,
): Promise<void> {
  const name = displayName(user.first_name, user.last_name) || user.username;
  for (const membership of await allMembershipsOfUser(trx, user.id)) {
    const ctx: RequestContext = {
      userId: user.id,
      userName: name,
      databaseId: membership.database_id,
      role: membership.role as RequestContext['role'],
      sessionId: '',
      ip: null,
      userAgent: CLI_USER_AGENT,
    };
    await record(ctx, { id: user.id, name });
  }
}

/**
 * `unlock <username>`: ends every lock of the user (every source) and clears their wrong
 * passwords; records `user unlock` in each of their firms when the account was locked.
 * @returns whether the account was locked
 * @throws AppError 404 `user_not_found`
 */
export async function operatorUnlock(
  services: OperatorServices,
  username: string,
): Promise<{ username: string; wasLocked: boolean }> {
  const user = await userNamed(services, username);
  const wasLocked = user.locked_at !== null;
  await services.db.transaction().execute(async (trx) => {
    await clearLockout(trx, user.id);
    await clearLoginSourcesOfUser(trx, user.id);
    if (wasLocked) {
      await recordInEachFirm(trx, user, (ctx, ref) => recordUserUnlocked(trx, services, ctx, ref));
    }
  });
  return { username: user.username, wasLocked };
}

/**
 * `reset-password <username>`: sets a password that meets the policy (the user's details as the
 * strength checker's dictionary), ends all the user's sessions, clears their locks, and records
 * `user update` (`password`, never its value) in each of their firms.
 * @returns how many sessions were ended
 * @throws AppError 404 `user_not_found`, 400 `weak_password` with the policy's message
 */
export async function operatorResetPassword(
  services: OperatorServices,
  username: string,
  password: string,
): Promise<{ username: string; sessionsEnded: number }> {
  const user = await userNamed(services, username);
  const memberships = await allMembershipsOfUser(services.db, user.id);
  await assertPasswordPolicy(services, password, {
    username: user.username,
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    databaseIds: memberships.map((m) => m.database_id),
  });
  const passwordHash = await hashPassword(password);
  const now = new Date(services.clock()).toISOString();
  const sessionsEnded = await services.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { password_hash: passwordHash, updated_at: now });
    const ended = await endSessionsOfUser(trx, user.id);
    await clearLockout(trx, user.id);
    await clearLoginSourcesOfUser(trx, user.id);
    await recordInEachFirm(trx, user, (ctx, ref) =>
      recordUserUpdated(trx, services, ctx, ref, ['password']),
    );
    return ended;
  });
  return { username: user.username, sessionsEnded };
}
