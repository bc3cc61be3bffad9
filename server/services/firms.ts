/**
 * Firm provisioning (docs/architecture.md "Firm provisioning"; SPEC sections 1 and 3: users
 * belong to several firm databases, each with a description). An operator creates firm databases,
 * renames them, sets their description, disables and re-enables them, and gives existing users a
 * role in them (admin, member, read_only), changes or removes it — from the operator's page and
 * API (an operator's session) or from the command line (`npm run admin -- firm …`).
 *
 * Rules:
 * - Only operators (users.is_operator, granted from the command line) act here: 403
 *   `operator_only` for every other session, firm administrators included.
 * - Firm names are unique case-insensitively (409 `firm_name_taken`; a unique index on
 *   `databases.name_key` backs the check); names and descriptions are trimmed, a blank
 *   description is none (such a firm is left out of users' firm switchers, SPEC section 3).
 * - A disabled firm keeps its data; membershipsOfUser and roleIn leave it out, so it leaves the
 *   firm switchers and sign-in, and every session in it is deleted at once (the next request is
 *   401).
 * - A firm keeps its last active administrator (409 `last_admin`), as in the admin area.
 * - Every change records one event in the affected firm's history, in the change's transaction:
 *   `database` create/rename/update/disable/enable, `user` create (added with a role), update
 *   (role change) and delete (removed from the firm). The acting user is the operator, or
 *   {@link CLI_OPERATOR_NAME} (no user id) with the user agent `dossier-cli` from the command line.
 */
import {
  FIRM_MESSAGES,
  firmDescriptionProblem,
  firmNameProblem,
  isFirmRole,
  normalizedDescription,
  type FirmDto,
  type FirmMemberDto,
  type FirmRole,
} from '@common/firms';
import { formatMessage, MESSAGES } from '@common/messages';
import { nameKey } from '@common/names';
import type { Role } from '@common/session';
import type { UserRow } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { displayName } from '../presenters';
import {
  deleteMembership,
  deleteSessionsInFirm,
  deleteTeamMembershipsIn,
  findFirmById,
  findFirmsByNameKey,
  findMembership,
  firmMembersOf,
  insertFirm,
  isOperator,
  listFirms as listFirmRows,
  lockFirm,
  operatorUsernames,
  setOperator,
  updateFirm as updateFirmRow,
  type FirmRow,
} from '../repositories/firms';
import type { Executor } from '../repositories/types';
import {
  activeAdminIds,
  deleteSessionsOfUserIn,
  findUserById,
  findUserByUsernameKey,
  insertMembership,
  updateMembership,
} from '../repositories/users';
import type { RequestContext, Services } from './context';
import {
  recordFirmCreated,
  recordFirmDescribed,
  recordFirmDisabled,
  recordFirmEnabled,
  recordFirmRenamed,
  recordUserCreated,
  recordUserRemoved,
  recordUserRoleChanged,
} from './historyEvents';
import { CLI_USER_AGENT } from './operatorAccounts';
import { isUniqueViolation } from './users';

/** What firm provisioning needs of the services (no object store: the CLI has none). */
export type FirmServices = Pick<Services, 'db' | 'dialect' | 'clock'>;

/** The acting user's name on events recorded from the command line (there is no session). */
export const CLI_OPERATOR_NAME = 'Operator (command line)';

/** Who acts: an operator's session (the page and API), or the command line. */
export type FirmActor = { kind: 'session'; ctx: RequestContext } | { kind: 'cli' };

/** A user named by id (the API) or by username (the command line). */
export type UserLookup = { id: string } | { username: string };

/**
 * Refuses an actor that is not an operator. The flag is read on every call, so a revoked
 * operator is refused at their next request.
 * @throws AppError 403 `operator_only`
 */
export async function assertOperator(services: FirmServices, actor: FirmActor): Promise<void> {
  if (actor.kind === 'cli') return;
  if (!(await isOperator(services.db, actor.ctx.userId))) {
    throw forbidden(FIRM_MESSAGES.operatorOnly, 'operator_only');
  }
}

/** The history context of an event in `firmId`'s history for this actor. */
function eventContext(actor: FirmActor, firmId: string): RequestContext {
  if (actor.kind === 'session') return { ...actor.ctx, databaseId: firmId };
  return {
    userId: '',
    userName: CLI_OPERATOR_NAME,
    databaseId: firmId,
    role: 'admin',
    sessionId: '',
    ip: null,
    userAgent: CLI_USER_AGENT,
  };
}

function firmDto(row: FirmRow): FirmDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    disabled: row.disabled_at !== null,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    memberCount: row.member_count,
  };
}

/**
 * A firm named by id, or (from the command line only) by its name, case-insensitively.
 * @throws AppError 404 `firm_not_found`
 */
export async function findFirm(db: Executor, ref: string, actor: FirmActor): Promise<FirmRow> {
  const trimmed = ref.trim();
  const byId = await findFirmById(db, trimmed);
  if (byId) return byId;
  const [byName] =
    actor.kind === 'cli' ? await findFirmsByNameKey(db, nameKey(trimmed)) : [undefined];
  if (byName) return byName;
  throw notFound(formatMessage(FIRM_MESSAGES.firmNotFound, { firm: trimmed }), 'firm_not_found');
}

/**
 * A user by id or username (case-insensitive, spaces around ignored).
 * @throws AppError 404 `user_not_found`
 */
async function findUser(db: Executor, lookup: UserLookup): Promise<UserRow> {
  const user =
    'id' in lookup
      ? await findUserById(db, lookup.id)
      : await findUserByUsernameKey(db, nameKey(lookup.username.trim()));
  if (!user) {
    const username = 'id' in lookup ? lookup.id : lookup.username.trim();
    throw notFound(formatMessage(FIRM_MESSAGES.userNotFound, { username }), 'user_not_found');
  }
  return user;
}

/** @throws AppError 400 `invalid_role` for anything but admin, member or read_only */
function checkedRole(role: unknown): FirmRole {
  if (!isFirmRole(role)) {
    throw badRequest(
      formatMessage(FIRM_MESSAGES.invalidRole, { role: String(role) }),
      'invalid_role',
    );
  }
  return role;
}

/** @throws AppError 400 `invalid_firm_name` */
function checkedName(name: unknown): string {
  const problem = typeof name === 'string' ? firmNameProblem(name) : FIRM_MESSAGES.nameRequired;
  if (problem) throw badRequest(problem, 'invalid_firm_name');
  return (name as string).trim();
}

/** @throws AppError 400 `invalid_firm_description` */
function checkedDescription(description: unknown): string | null {
  if (description === null || description === undefined) return null;
  if (typeof description !== 'string') {
    throw badRequest(FIRM_MESSAGES.descriptionTooLong, 'invalid_firm_description');
  }
  const problem = firmDescriptionProblem(description);
  if (problem) throw badRequest(problem, 'invalid_firm_description');
  return normalizedDescription(description);
}

/**
 * Refuses a name another firm has (case-insensitively); `exceptId` is the firm being renamed.
 * @throws AppError 409 `firm_name_taken`
 */
async function assertNameFree(db: Executor, name: string, exceptId?: string): Promise<void> {
  const clashes = await findFirmsByNameKey(db, nameKey(name));
  if (clashes.some((firm) => firm.id !== exceptId)) {
    throw conflict(formatMessage(FIRM_MESSAGES.nameTaken, { name }), 'firm_name_taken');
  }
}

/** Turns a unique-index violation on the name key (a parallel create or rename) into 409. */
async function nameRace<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(formatMessage(FIRM_MESSAGES.nameTaken, { name }), 'firm_name_taken');
    }
    throw error;
  }
}

/** Reads a firm again after a change (inside its transaction). */
async function reread(trx: Executor, id: string): Promise<FirmDto> {
  const row = await findFirmById(trx, id);
  if (!row) throw notFound();
  return firmDto(row);
}

/**
 * GET REST/private/firms (and `firm list`): every firm, disabled ones included, by name.
 * @throws AppError 403 `operator_only`
 */
export async function listFirms(services: FirmServices, actor: FirmActor): Promise<FirmDto[]> {
  await assertOperator(services, actor);
  return (await listFirmRows(services.db)).map(firmDto);
}

/**
 * POST REST/private/firms (and `firm create <name> [description]`): a new, empty firm database.
 * Records `database create` in its own history.
 * @returns the new firm (no members yet: add an administrator next)
 * @throws AppError 403 `operator_only`, 400 `invalid_firm_name` / `invalid_firm_description`,
 *   409 `firm_name_taken`
 */
export async function createFirm(
  services: FirmServices,
  actor: FirmActor,
  input: { name: unknown; description?: unknown },
): Promise<FirmDto> {
  await assertOperator(services, actor);
  const name = checkedName(input.name);
  const description = checkedDescription(input.description);
  const id = newId();
  const now = new Date(services.clock()).toISOString();
  return nameRace(name, () =>
    services.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, name);
      await insertFirm(trx, { id, name, name_key: nameKey(name), description, created_at: now });
      await recordFirmCreated(trx, services, eventContext(actor, id), { id, name }, description);
      return reread(trx, id);
    }),
  );
}

/**
 * PATCH REST/private/firms/{id} (and `firm rename` / `firm describe`): a new name and/or a new
 * description ('' or null: none), in one transaction; each field that really changes records its
 * event (`database rename`, `database update`). Nothing changed records nothing.
 * @param firmRef the firm's id, or from the command line its name
 * @throws AppError 403 `operator_only`, 404 `firm_not_found`, 400 `invalid_firm_name` /
 *   `invalid_firm_description`, 409 `firm_name_taken`
 */
export async function updateFirm(
  services: FirmServices,
  actor: FirmActor,
  firmRef: string,
  input: { name?: unknown; description?: unknown },
): Promise<FirmDto> {
  await assertOperator(services, actor);
  const name = input.name === undefined ? undefined : checkedName(input.name);
  const description =
    input.description === undefined ? undefined : checkedDescription(input.description);
  const target = await findFirm(services.db, firmRef, actor);
  return nameRace(name ?? target.name, () =>
    services.db.transaction().execute(async (trx) => {
      await lockFirm(trx, target.id, services.dialect);
      const firm = await findFirmById(trx, target.id);
      if (!firm) throw notFound();
      const ctx = eventContext(actor, firm.id);
      let currentName = firm.name;
      if (name !== undefined && name !== firm.name) {
        await assertNameFree(trx, name, firm.id);
        await updateFirmRow(trx, firm.id, { name, name_key: nameKey(name) });
        currentName = name;
        await recordFirmRenamed(trx, services, ctx, { id: firm.id, name }, firm.name);
      }
      if (description !== undefined && description !== firm.description) {
        await updateFirmRow(trx, firm.id, { description });
        await recordFirmDescribed(
          trx,
          services,
          ctx,
          { id: firm.id, name: currentName },
          firm.description,
          description,
        );
      }
      return reread(trx, firm.id);
    }),
  );
}

/**
 * POST REST/private/firms/{id}/disable and /enable (and `firm disable` / `firm enable`). Disabling
 * deletes every session in the firm in the same transaction (their next request is 401) and the
 * firm leaves its users' firm switchers and sign-in; its data is kept. Records `database disable`
 * or `database enable`.
 * @throws AppError 403 `operator_only`, 404 `firm_not_found`, 409 `firm_disabled` (already
 *   disabled) or `firm_enabled` (not disabled)
 */
export async function setFirmDisabled(
  services: FirmServices,
  actor: FirmActor,
  firmRef: string,
  disabled: boolean,
): Promise<FirmDto & { sessionsEnded: number }> {
  await assertOperator(services, actor);
  const target = await findFirm(services.db, firmRef, actor);
  return services.db.transaction().execute(async (trx) => {
    await lockFirm(trx, target.id, services.dialect);
    const firm = await findFirmById(trx, target.id);
    if (!firm) throw notFound();
    const ref = { id: firm.id, name: firm.name };
    const ctx = eventContext(actor, firm.id);
    let sessionsEnded = 0;
    if (disabled) {
      if (firm.disabled_at !== null) {
        throw conflict(
          formatMessage(FIRM_MESSAGES.alreadyDisabled, { firm: firm.name }),
          'firm_disabled',
        );
      }
      await updateFirmRow(trx, firm.id, {
        disabled_at: new Date(services.clock()).toISOString(),
      });
      sessionsEnded = await deleteSessionsInFirm(trx, firm.id);
      await recordFirmDisabled(trx, services, ctx, ref);
    } else {
      if (firm.disabled_at === null) {
        throw conflict(
          formatMessage(FIRM_MESSAGES.alreadyEnabled, { firm: firm.name }),
          'firm_enabled',
        );
      }
      await updateFirmRow(trx, firm.id, { disabled_at: null });
      await recordFirmEnabled(trx, services, ctx, ref);
    }
    return { ...(await reread(trx, firm.id)), sessionsEnded };
  });
}

function memberDto(row: Awaited<ReturnType<typeof firmMembersOf>>[number]): FirmMemberDto {
  return {
    userId: row.user_id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role as Role,
    disabled: row.disabled_at !== null,
  };
}

/**
 * GET REST/private/firms/{id}/members (and `firm members <firm>`): the firm's members, not its
 * guests, by last and first name.
 * @throws AppError 403 `operator_only`, 404 `firm_not_found`
 */
export async function listFirmMembers(
  services: FirmServices,
  actor: FirmActor,
  firmRef: string,
): Promise<FirmMemberDto[]> {
  await assertOperator(services, actor);
  const firm = await findFirm(services.db, firmRef, actor);
  return (await firmMembersOf(services.db, firm.id)).map(memberDto);
}

async function memberAnswer(trx: Executor, firmId: string, userId: string): Promise<FirmMemberDto> {
  const row = (await firmMembersOf(trx, firmId)).find((m) => m.user_id === userId);
  if (!row) throw notFound();
  return memberDto(row);
}

function userRef(user: UserRow): { id: string; name: string } {
  return { id: user.id, name: displayName(user.first_name, user.last_name) || user.username };
}

/**
 * Refuses a change that would leave the firm without an active administrator (the rule of the
 * admin area, services/users.ts). Call inside the change's transaction.
 * @throws AppError 409 `last_admin`
 */
async function assertAnotherAdmin(
  trx: Executor,
  services: FirmServices,
  firmId: string,
  userId: string,
): Promise<void> {
  const admins = await activeAdminIds(trx, firmId, services.dialect);
  if (admins.includes(userId) && admins.length <= 1) {
    throw conflict(MESSAGES.lastAdmin, 'last_admin');
  }
}

/**
 * POST REST/private/firms/{id}/members (and `firm add-user <firm> <username> <role>`): gives an
 * existing user a role in the firm. A guest of the firm (sharing) becomes a member. Records
 * `user create` with the role.
 * @throws AppError 403 `operator_only`, 404 `firm_not_found` / `user_not_found`, 400
 *   `invalid_role`, 409 `already_member`
 */
export async function addFirmMember(
  services: FirmServices,
  actor: FirmActor,
  firmRef: string,
  lookup: UserLookup,
  role: unknown,
): Promise<FirmMemberDto> {
  await assertOperator(services, actor);
  const checked = checkedRole(role);
  const firm = await findFirm(services.db, firmRef, actor);
  const user = await findUser(services.db, lookup);
  const now = new Date(services.clock()).toISOString();
  return services.db.transaction().execute(async (trx) => {
    await lockFirm(trx, firm.id, services.dialect);
    const existing = await findMembership(trx, firm.id, user.id);
    if (existing && existing.role !== 'guest') {
      throw conflict(
        formatMessage(FIRM_MESSAGES.alreadyMember, {
          username: user.username,
          firm: firm.name,
          role: existing.role,
        }),
        'already_member',
      );
    }
    if (existing) {
      await updateMembership(trx, firm.id, user.id, {
        role: checked,
        disabled_at: null,
        disabled_by: null,
      });
    } else {
      await insertMembership(trx, {
        id: newId(),
        user_id: user.id,
        database_id: firm.id,
        role: checked,
        created_at: now,
      });
    }
    await recordUserCreated(trx, services, eventContext(actor, firm.id), userRef(user), checked);
    return memberAnswer(trx, firm.id, user.id);
  });
}

/** The member's membership, or 404 `not_member` (guests are not members). */
async function membershipOf(trx: Executor, firm: FirmRow, user: UserRow) {
  const membership = await findMembership(trx, firm.id, user.id);
  if (!membership || membership.role === 'guest') {
    throw notFound(
      formatMessage(FIRM_MESSAGES.notMember, { username: user.username, firm: firm.name }),
      'not_member',
    );
  }
  return membership;
}

/**
 * PATCH REST/private/firms/{id}/members/{userId} (and `firm set-role <firm> <username> <role>`):
 * changes a member's role; the new role applies from their next request. The same role changes
 * nothing and records nothing; a change records `user update` (role prev → next).
 * @throws AppError 403 `operator_only`, 404 `firm_not_found` / `user_not_found` / `not_member`,
 *   400 `invalid_role`, 409 `last_admin`
 */
export async function changeFirmRole(
  services: FirmServices,
  actor: FirmActor,
  firmRef: string,
  lookup: UserLookup,
  role: unknown,
): Promise<FirmMemberDto> {
  await assertOperator(services, actor);
  const checked = checkedRole(role);
  const firm = await findFirm(services.db, firmRef, actor);
  const user = await findUser(services.db, lookup);
  return services.db.transaction().execute(async (trx) => {
    await lockFirm(trx, firm.id, services.dialect);
    const membership = await membershipOf(trx, firm, user);
    if (membership.role !== checked) {
      if (checked !== 'admin') await assertAnotherAdmin(trx, services, firm.id, user.id);
      await updateMembership(trx, firm.id, user.id, { role: checked });
      await recordUserRoleChanged(
        trx,
        services,
        eventContext(actor, firm.id),
        userRef(user),
        membership.role as Role,
        checked,
      );
    }
    return memberAnswer(trx, firm.id, user.id);
  });
}

/**
 * DELETE REST/private/firms/{id}/members/{userId} (and `firm remove-user <firm> <username>`):
 * removes a member from the firm: the membership and the member's places in the firm's teams go,
 * their sessions in the firm end at once, and `user delete` is recorded. Their files, folders and
 * history stay.
 * @throws AppError 403 `operator_only`, 404 `firm_not_found` / `user_not_found` / `not_member`,
 *   409 `last_admin`
 */
export async function removeFirmMember(
  services: FirmServices,
  actor: FirmActor,
  firmRef: string,
  lookup: UserLookup,
): Promise<{ sessionsEnded: number }> {
  await assertOperator(services, actor);
  const firm = await findFirm(services.db, firmRef, actor);
  const user = await findUser(services.db, lookup);
  return services.db.transaction().execute(async (trx) => {
    await lockFirm(trx, firm.id, services.dialect);
    await membershipOf(trx, firm, user);
    await assertAnotherAdmin(trx, services, firm.id, user.id);
    await deleteTeamMembershipsIn(trx, firm.id, user.id);
    await deleteMembership(trx, firm.id, user.id);
    const sessionsEnded = await deleteSessionsOfUserIn(trx, user.id, firm.id);
    await recordUserRemoved(trx, services, eventContext(actor, firm.id), userRef(user));
    return { sessionsEnded };
  });
}

/**
 * `operator grant|revoke <username>` (command line only, so that no web session can make an
 * operator): sets or clears the user's operator flag.
 * @returns the user's username as stored, and whether the flag changed
 * @throws AppError 404 `user_not_found`
 */
export async function setUserOperator(
  services: FirmServices,
  username: string,
  operator: boolean,
): Promise<{ username: string; changed: boolean }> {
  const user = await findUser(services.db, { username });
  const changed = (user.is_operator === 1) !== operator;
  if (changed) await setOperator(services.db, user.id, operator);
  return { username: user.username, changed };
}

/** `operator list`: the operators' usernames. */
export function listOperators(services: FirmServices): Promise<string[]> {
  return operatorUsernames(services.db);
}
