/**
 * Users administration of a firm database (SPEC sections 2, 6 and 7
 * "Private users and auth"; docs/architecture.md "Users and lockout"). Every call but
 * {@link listUserDatabases} is for administrators of the session's firm (assertAdmin); a user id
 * that is not a member of that firm answers 404, as if it did not exist.
 *
 * Rules:
 * - A firm keeps at least one active administrator: demoting or disabling the last one is refused
 *   (409 `last_admin`), and nobody disables themselves (409 `disable_self`).
 * - Users are global (one sign-in for all their firms) while roles and the disabled state are per
 *   firm. An administrator changes a member's username, e-mail or password only when they are an
 *   administrator of every firm the member belongs to (403 `shared_user` otherwise), so that no
 *   firm's administrator can take over an account that opens another firm.
 * - A password set by an administrator ends the member's sessions (all of them, or all but the
 *   acting one when administrators change their own); disabling ends the member's sessions in
 *   this firm at once.
 * - Each change is one transaction that changes the rows and records a `user` history event.
 */
import { isValidEmail } from '@common/email';
import { MESSAGES } from '@common/messages';
import { passwordProblem } from '@common/passwordPolicy';
import type { Page } from '@common/api';
import type { DatabaseDto, Role } from '@common/session';
import type {
  CreateUserRequest,
  DatabaseUserDto,
  UpdateUserRequest,
  UserTeamDto,
} from '@common/users';
import { nameKey } from '@common/names';
import { switchableDatabases } from '@common/session';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { hashPassword } from '../passwords';
import { displayName } from '../presenters';
import { teamsOfUser } from '../repositories/teams';
import type { Executor } from '../repositories/types';
import {
  activeAdminIds,
  allMembershipsOfUser,
  clearLockout,
  clearLoginSourcesOfUser,
  countDatabaseUsers,
  databaseNames,
  deleteSessionsOfUserIn,
  findDatabaseUser,
  findUserByUsernameKey,
  insertMembership,
  insertUser,
  listDatabaseUsers,
  membershipsOfUser,
  updateMembership,
  updateUser,
  type DatabaseUserRow,
} from '../repositories/users';
import { assertAdmin } from './access';
import { endSessionsOfUser } from './auth';
import type { RequestContext, Services } from './context';
import {
  recordUserCreated,
  recordUserDisabled,
  recordUserEnabled,
  recordUserRoleChanged,
  recordUserUnlocked,
  recordUserUpdated,
} from './historyEvents';
import { isLocked } from './accountLockout';

/** Default and largest page of GET private/users. */
export const USERS_PAGE_SIZE = 100;
export const USERS_MAX_PAGE_SIZE = 500;

/** Longest username, first or last name, e-mail accepted. */
const MAX_FIELD = 200;

/**
 * The admin area's view of a member at `now` (epoch ms): `locked` is true only while the lock
 * lasts; an expired lock shows as not locked.
 */
export function presentDatabaseUser(row: DatabaseUserRow, now: number): DatabaseUserDto {
  const locked = isLocked(row, now);
  const disabledAt = row.membership_disabled_at ?? row.disabled_at;
  return {
    id: row.id,
    userId: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    username: row.username,
    email: row.email,
    role: row.role as Role,
    sso: row.sso === 1,
    disabled: disabledAt !== null,
    disabled_at: disabledAt,
    locked,
    locked_at: locked ? row.locked_at : null,
    locked_until: locked ? row.locked_until : null,
    failed_logins: locked || row.locked_at === null ? row.failed_login_count : 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The member `userId` of the session's firm. @throws AppError 404 when not its member */
async function memberOf(db: Executor, ctx: RequestContext, userId: string) {
  const row = await findDatabaseUser(db, ctx.databaseId, userId);
  if (!row) throw notFound();
  return row;
}

/** Name of a member for history events. */
function refOf(row: DatabaseUserRow): { id: string; name: string } {
  return { id: row.id, name: displayName(row.first_name, row.last_name) || row.username };
}

/** Whether an error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/**
 * Checks and trims a text field.
 * @throws AppError 400 when required and blank, or longer than MAX_FIELD
 */
function text(value: string, label: string, required = true): string {
  const trimmed = value.trim();
  if (required && trimmed === '') throw badRequest(`${label} is required.`, 'invalid_field');
  if (trimmed.length > MAX_FIELD) throw badRequest(MESSAGES.nameTooLong, 'invalid_field');
  return trimmed;
}

/** A username: trimmed, 1–200 characters, no spaces or control characters inside. */
function username(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw badRequest(MESSAGES.usernameRequired, 'invalid_username');
  // eslint-disable-next-line no-control-regex
  if (trimmed.length > MAX_FIELD || /[\s\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest('A username cannot contain spaces or control characters.', 'invalid_username');
  }
  return trimmed;
}

/** An e-mail address (SPEC section 5 format) or null for blank. */
function email(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') return null;
  if (trimmed.length > MAX_FIELD || !isValidEmail(trimmed)) {
    throw badRequest(MESSAGES.invalidEmail, 'invalid_email');
  }
  return trimmed;
}

/**
 * Checks a password against the policy (common/passwordPolicy.ts) with the account's details as
 * the strength checker's user dictionary: username, names, e-mail and the names of its firms.
 * @throws AppError 400 `weak_password` with the policy's message
 */
export async function assertPasswordPolicy(
  services: Pick<Services, 'db' | 'config'>,
  password: string,
  account: {
    username: string;
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    databaseIds: readonly string[];
  },
): Promise<void> {
  const firms = await databaseNames(services.db, account.databaseIds);
  const problem = await passwordProblem(password, {
    username: account.username,
    userInputs: [account.firstName, account.lastName, account.email, ...firms],
    minLength: services.config.passwordMinLength,
  });
  if (problem) throw badRequest(problem, 'weak_password');
}

/**
 * Refuses a change of a member's sign-in details (username, e-mail, password) unless the acting
 * administrator is an active administrator of every firm the member belongs to, or is the member.
 * @throws AppError 403 `shared_user`
 */
async function assertMayChangeCredentials(
  db: Executor,
  ctx: RequestContext,
  userId: string,
): Promise<void> {
  if (userId === ctx.userId) return;
  const theirs = await allMembershipsOfUser(db, userId);
  const mine = new Map(
    (await membershipsOfUser(db, ctx.userId)).map((m) => [m.id, m.role] as const),
  );
  if (theirs.some((m) => mine.get(m.database_id) !== 'admin')) {
    throw forbidden(MESSAGES.sharedUserCredentials, 'shared_user');
  }
}

/**
 * Refuses to leave the session's firm without an active administrator when `userId` stops being
 * one (a demotion or a disable). Call inside the transaction that makes the change.
 * @throws AppError 409 `last_admin`
 */
async function assertAnotherAdmin(
  trx: Executor,
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<void> {
  const admins = await activeAdminIds(trx, ctx.databaseId, services.dialect);
  if (admins.includes(userId) && admins.length <= 1) {
    throw conflict(MESSAGES.lastAdmin, 'last_admin');
  }
}

/**
 * GET /api/rest/private/users: one page of the firm's members (disabled ones included), by last
 * and first name; `query` keeps those whose username, names or e-mail contain every word of it.
 * @param options.page from 1; options.pageSize 1–500 (default 100)
 * @throws AppError 403 for a non-administrator
 */
export async function listUsers(
  services: Services,
  ctx: RequestContext,
  options: { query?: string; page?: number; pageSize?: number },
): Promise<Page<DatabaseUserDto>> {
  assertAdmin(ctx);
  const page = Math.max(1, options.page ?? 1);
  const pageSize = Math.min(USERS_MAX_PAGE_SIZE, Math.max(1, options.pageSize ?? USERS_PAGE_SIZE));
  const query = (options.query ?? '').slice(0, MAX_FIELD);
  const [rows, total] = await Promise.all([
    listDatabaseUsers(services.db, ctx.databaseId, {
      query,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    }),
    countDatabaseUsers(services.db, ctx.databaseId, query),
  ]);
  const now = services.clock();
  return {
    items: rows.map((row) => presentDatabaseUser(row, now)),
    page,
    page_size: pageSize,
    total,
  };
}

/**
 * GET /api/rest/private/users/{id}: one member (for the member dialogs).
 * @throws AppError 403 for a non-administrator, 404 when not a member of the firm
 */
export async function getUser(
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  return presentDatabaseUser(await memberOf(services.db, ctx, userId), services.clock());
}

/**
 * POST /api/rest/private/users: a new user and member of the session's firm with a role (default
 * member) and a password that meets the policy.
 * @throws AppError 403 for a non-administrator, 400 for a field or the password policy, 409
 *   `username_taken` when the username is used by any user
 */
export async function createUser(
  services: Services,
  ctx: RequestContext,
  input: CreateUserRequest,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  const name = username(input.username);
  const firstName = text(input.firstName, 'First name');
  const lastName = text(input.lastName, 'Last name');
  const mail = email(input.email);
  const role: Role = input.role ?? 'member';
  await assertPasswordPolicy(services, input.password, {
    username: name,
    firstName,
    lastName,
    email: mail,
    databaseIds: [ctx.databaseId],
  });
  if (await findUserByUsernameKey(services.db, nameKey(name))) {
    throw conflict(MESSAGES.usernameTaken, 'username_taken');
  }
  const passwordHash = await hashPassword(input.password);
  const id = newId();
  const now = new Date(services.clock()).toISOString();
  try {
    await services.db.transaction().execute(async (trx) => {
      await insertUser(trx, {
        id,
        username: name,
        username_key: nameKey(name),
        email: mail,
        first_name: firstName,
        last_name: lastName,
        password_hash: passwordHash,
        sso: 0,
        disabled_at: null,
        created_at: now,
        updated_at: now,
      });
      await insertMembership(trx, {
        id: newId(),
        user_id: id,
        database_id: ctx.databaseId,
        role,
        created_at: now,
      });
      await recordUserCreated(
        trx,
        services,
        ctx,
        { id, name: displayName(firstName, lastName) },
        role,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MESSAGES.usernameTaken, 'username_taken');
    throw error;
  }
  return getUser(services, ctx, id);
}

/**
 * PATCH /api/rest/private/users/{id}: changes the given profile fields (username, names, e-mail).
 * Nothing changes, and no event is recorded, when every value is already the same.
 * @throws AppError 403 for a non-administrator or `shared_user` (username, e-mail), 404 when not a
 *   member, 400 for a field, 409 `username_taken`
 */
export async function updateUserProfile(
  services: Services,
  ctx: RequestContext,
  userId: string,
  input: UpdateUserRequest,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  const row = await memberOf(services.db, ctx, userId);
  const patch: {
    username?: string;
    username_key?: string;
    first_name?: string;
    last_name?: string;
    email?: string | null;
  } = {};
  const fields: string[] = [];
  if (input.username !== undefined) {
    const next = username(input.username);
    if (next !== row.username) {
      patch.username = next;
      patch.username_key = nameKey(next);
      fields.push('username');
    }
  }
  if (input.firstName !== undefined) {
    const next = text(input.firstName, 'First name');
    if (next !== row.first_name) {
      patch.first_name = next;
      fields.push('firstName');
    }
  }
  if (input.lastName !== undefined) {
    const next = text(input.lastName, 'Last name');
    if (next !== row.last_name) {
      patch.last_name = next;
      fields.push('lastName');
    }
  }
  if (input.email !== undefined) {
    const next = email(input.email);
    if (next !== row.email) {
      patch.email = next;
      fields.push('email');
    }
  }
  if (fields.length === 0) return presentDatabaseUser(row, services.clock());
  if (patch.username !== undefined || patch.email !== undefined) {
    await assertMayChangeCredentials(services.db, ctx, userId);
  }
  if (patch.username_key !== undefined && patch.username_key !== row.username_key) {
    const other = await findUserByUsernameKey(services.db, patch.username_key);
    if (other && other.id !== userId) throw conflict(MESSAGES.usernameTaken, 'username_taken');
  }
  const now = new Date(services.clock()).toISOString();
  try {
    await services.db.transaction().execute(async (trx) => {
      await updateUser(trx, userId, { ...patch, updated_at: now });
      const ref = {
        id: userId,
        name:
          displayName(patch.first_name ?? row.first_name, patch.last_name ?? row.last_name) ||
          (patch.username ?? row.username),
      };
      await recordUserUpdated(trx, services, ctx, ref, fields);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MESSAGES.usernameTaken, 'username_taken');
    throw error;
  }
  return getUser(services, ctx, userId);
}

/**
 * PATCH /api/rest/private/users/role/{id}: the member's role in the session's firm. The same role
 * again changes nothing and records nothing.
 * @throws AppError 403 for a non-administrator, 404 when not a member, 409 `last_admin` when it
 *   would leave the firm without an active administrator
 */
export async function changeUserRole(
  services: Services,
  ctx: RequestContext,
  userId: string,
  role: Role,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  const row = await memberOf(services.db, ctx, userId);
  const prev = row.role as Role;
  if (prev === role) return presentDatabaseUser(row, services.clock());
  await services.db.transaction().execute(async (trx) => {
    if (prev === 'admin') await assertAnotherAdmin(trx, services, ctx, userId);
    await updateMembership(trx, ctx.databaseId, userId, { role });
    await recordUserRoleChanged(trx, services, ctx, refOf(row), prev, role);
  });
  return getUser(services, ctx, userId);
}

/**
 * PATCH /api/rest/private/users/{id}/update_password: sets a new password that meets the policy
 * and ends the member's other sessions (all of them when it is someone else's password; all but
 * the acting session for an administrator's own). The password is never recorded or answered.
 * @returns the member and how many sessions were ended
 * @throws AppError 403 for a non-administrator or `shared_user`, 404 when not a member, 400
 *   `weak_password` with the policy's message
 */
export async function setUserPassword(
  services: Services,
  ctx: RequestContext,
  userId: string,
  password: string,
): Promise<DatabaseUserDto & { sessions_ended: number }> {
  assertAdmin(ctx);
  const row = await memberOf(services.db, ctx, userId);
  await assertPasswordPolicy(services, password, {
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    databaseIds: (await allMembershipsOfUser(services.db, userId)).map((m) => m.database_id),
  });
  await assertMayChangeCredentials(services.db, ctx, userId);
  const passwordHash = await hashPassword(password);
  const now = new Date(services.clock()).toISOString();
  const ended = await services.db.transaction().execute(async (trx) => {
    await updateUser(trx, userId, { password_hash: passwordHash, updated_at: now });
    const count = await endSessionsOfUser(
      trx,
      userId,
      userId === ctx.userId ? { except: ctx.sessionId } : {},
    );
    await recordUserUpdated(trx, services, ctx, refOf(row), ['password']);
    return count;
  });
  return { ...(await getUser(services, ctx, userId)), sessions_ended: ended };
}

/**
 * POST /api/rest/private/users/{id}/unlock: ends the member's locks (of every source) and clears
 * their wrong passwords. Records `user unlock` when the account was locked (an expired lock included);
 * unlocking an account that is not locked changes nothing else and records nothing.
 * @throws AppError 403 for a non-administrator, 404 when not a member
 */
export async function unlockUser(
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  const row = await memberOf(services.db, ctx, userId);
  if (row.locked_at === null && row.failed_login_count === 0) {
    return presentDatabaseUser(row, services.clock());
  }
  await services.db.transaction().execute(async (trx) => {
    await clearLockout(trx, userId);
    await clearLoginSourcesOfUser(trx, userId);
    if (row.locked_at !== null) await recordUserUnlocked(trx, services, ctx, refOf(row));
  });
  return getUser(services, ctx, userId);
}

/**
 * POST /api/rest/private/users/{id}/disable: the member can no longer sign in to (or switch to)
 * this firm, and their sessions in it end at once. Other firms of the same user are not touched.
 * Disabling a disabled member changes nothing.
 * @throws AppError 403 for a non-administrator, 404 when not a member, 409 `disable_self` or
 *   `last_admin`
 */
export async function disableUser(
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  if (userId === ctx.userId) {
    await memberOf(services.db, ctx, userId);
    throw conflict(MESSAGES.disableSelf, 'disable_self');
  }
  const row = await memberOf(services.db, ctx, userId);
  if (row.membership_disabled_at !== null) return presentDatabaseUser(row, services.clock());
  const now = new Date(services.clock()).toISOString();
  await services.db.transaction().execute(async (trx) => {
    if (row.role === 'admin') await assertAnotherAdmin(trx, services, ctx, userId);
    await updateMembership(trx, ctx.databaseId, userId, {
      disabled_at: now,
      disabled_by: ctx.userId,
    });
    await deleteSessionsOfUserIn(trx, userId, ctx.databaseId);
    await recordUserDisabled(trx, services, ctx, refOf(row));
  });
  return getUser(services, ctx, userId);
}

/**
 * POST /api/rest/private/users/{id}/enable: the member may sign in to this firm again. Enabling an
 * enabled member changes nothing.
 * @throws AppError 403 for a non-administrator, 404 when not a member
 */
export async function enableUser(
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<DatabaseUserDto> {
  assertAdmin(ctx);
  const row = await memberOf(services.db, ctx, userId);
  if (row.membership_disabled_at === null) return presentDatabaseUser(row, services.clock());
  await services.db.transaction().execute(async (trx) => {
    await updateMembership(trx, ctx.databaseId, userId, { disabled_at: null, disabled_by: null });
    await recordUserEnabled(trx, services, ctx, refOf(row));
  });
  return getUser(services, ctx, userId);
}

/**
 * GET /api/rest/private/users/{id}/teams: the member's teams in the session's firm, by name.
 * @throws AppError 403 for a non-administrator, 404 when not a member
 */
export async function userTeams(
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<UserTeamDto[]> {
  assertAdmin(ctx);
  await memberOf(services.db, ctx, userId);
  const teams = await teamsOfUser(services.db, ctx.databaseId, userId);
  return teams.map((t) => ({ id: t.id, name: t.name }));
}

/**
 * GET /api/rest/private/databases: the session user's firm databases (not those that disabled
 * them) that have a description, de-duplicated by description (SPEC section 3 "Database"): of
 * databases sharing a description the current one is kept, else the first by name. Descriptions
 * are compared trimmed; a blank one counts as none. Any signed-in user may call it.
 */
export async function listUserDatabases(
  services: Services,
  ctx: RequestContext,
): Promise<Page<DatabaseDto>> {
  const memberships = await membershipsOfUser(services.db, ctx.userId);
  const items = switchableDatabases(memberships, ctx.databaseId).map((m) => ({
    id: m.id,
    name: m.name,
    description: m.description,
    role: m.role as Role,
  }));
  return { items, page: 1, page_size: items.length, total: items.length };
}
