/**
 * Folder permissions, teams and permissionables (SPEC sections 1, 6 and 7
 * "Folder permissions", "Private users and auth"). Administrators only. Each change and its
 * history event (folder_permission create_many / delete / delete_many) share one transaction.
 * Visibility itself is decided in server/services/access.ts.
 */
import type {
  CreateFolderPermissionsRequest,
  FolderPermissionDto,
  PermissionableDto,
  PermissionableType,
} from '@common/folderPermissions';
import type { TeamDto } from '@common/users';
import { badRequest, conflict, notFound } from '../errors';
import { isoAt, newId } from '../ids';
import { findFolder } from '../repositories/folders';
import {
  deletePermissions,
  deleteTeamPermissions,
  findPermission,
  folderPermissions,
  insertPermissions,
  permissionables,
  permissionsOfUser,
  type FolderPermissionWithName,
} from '../repositories/permissions';
import {
  addTeamMembers,
  deleteTeam as deleteTeamRow,
  findTeam,
  findTeamByNameKey,
  firmMemberIds,
  insertTeam,
  listTeams,
  membersOfTeams,
  removeTeamMember,
  renameTeam,
} from '../repositories/teams';
import type { Executor } from '../repositories/types';
import { findFoldersByIds } from '../repositories/folders';
import { assertAdmin } from './access';
import type { RequestContext, Services } from './context';
import {
  recordPermissionRemoved,
  recordPermissionsAdded,
  recordPermissionsRemovedMany,
} from './historyEvents';

/** Most permissionables one create_many call may name. */
export const MAX_PERMISSIONABLES_PER_CALL = 500;
/** Longest team name, in characters. */
export const MAX_TEAM_NAME_LENGTH = 100;
/** Message for a team name already used in the firm. */
export const TEAM_NAME_TAKEN_MESSAGE = 'A team with this name already exists.';
/** Message for an empty or too long team name. */
export const TEAM_NAME_INVALID_MESSAGE = `A team name must have 1 to ${MAX_TEAM_NAME_LENGTH} characters.`;

function toDto(p: FolderPermissionWithName): FolderPermissionDto {
  return {
    id: p.id,
    folder_id: p.folder_id,
    permissionable_id: p.permissionable_id,
    permissionable_type: p.permissionable_type,
    name: p.name ?? '',
    created_at: p.created_at,
  };
}

async function folderOf(db: Executor, ctx: RequestContext, folderId: string) {
  const folder = await findFolder(db, ctx.databaseId, folderId);
  if (!folder) throw notFound();
  return folder;
}

/**
 * Checks that every permissionable is a member or a team of the session's firm.
 * @throws AppError 404 when one is not (another firm's ids are not revealed)
 */
async function assertPermissionables(
  db: Executor,
  ctx: RequestContext,
  list: { permissionable_id: string; permissionable_type: PermissionableType }[],
): Promise<void> {
  const userIds = list
    .filter((p) => p.permissionable_type === 'user')
    .map((p) => p.permissionable_id);
  const teamIds = list
    .filter((p) => p.permissionable_type === 'team')
    .map((p) => p.permissionable_id);
  const members = await firmMemberIds(db, ctx.databaseId, userIds);
  if (userIds.some((id) => !members.has(id))) throw notFound();
  for (const id of new Set(teamIds)) {
    if (!(await findTeam(db, ctx.databaseId, id))) throw notFound();
  }
}

/**
 * POST REST/folder_permissions (create_many): allows users and teams on a folder, which becomes
 * restricted. Those already allowed are skipped; one create_many event names the new ones.
 * @returns the folder's permissions after the change
 * @throws AppError 403 for non-administrators, 404 for a folder or permissionable outside the
 *   firm, 400 for an empty or too long list
 */
export async function createPermissions(
  services: Services,
  ctx: RequestContext,
  input: CreateFolderPermissionsRequest,
): Promise<FolderPermissionDto[]> {
  assertAdmin(ctx);
  if (
    input.permissionables.length === 0 ||
    input.permissionables.length > MAX_PERMISSIONABLES_PER_CALL
  ) {
    throw badRequest(
      `Give 1 to ${MAX_PERMISSIONABLES_PER_CALL} users or teams.`,
      'invalid_permissionables',
    );
  }
  return services.db.transaction().execute(async (trx) => {
    const folder = await folderOf(trx, ctx, input.folder_id);
    await assertPermissionables(trx, ctx, input.permissionables);
    const existing = await folderPermissions(trx, ctx.databaseId, folder.id);
    const have = new Set(existing.map((p) => `${p.permissionable_type}:${p.permissionable_id}`));
    const now = isoAt(services.clock);
    const rows = [];
    for (const p of input.permissionables) {
      const key = `${p.permissionable_type}:${p.permissionable_id}`;
      if (have.has(key)) continue;
      have.add(key);
      rows.push({
        id: newId(),
        database_id: ctx.databaseId,
        folder_id: folder.id,
        permissionable_id: p.permissionable_id,
        permissionable_type: p.permissionable_type,
        created_by: ctx.userId,
        created_at: now,
      });
    }
    await insertPermissions(trx, rows);
    const after = await folderPermissions(trx, ctx.databaseId, folder.id);
    if (rows.length > 0) {
      const added = new Set(rows.map((r) => r.id));
      await recordPermissionsAdded(
        trx,
        services,
        ctx,
        { id: folder.id, name: folder.name },
        after
          .filter((p) => added.has(p.id))
          .map((p) => ({
            permissionable_id: p.permissionable_id,
            permissionable_type: p.permissionable_type,
            ...(p.name ? { name: p.name } : {}),
          })),
      );
    }
    return after.map(toDto);
  });
}

/**
 * GET REST/folder_permissions/{id}.
 * @throws AppError 403 for non-administrators, 404 when not in the firm
 */
export async function getPermission(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<FolderPermissionDto> {
  assertAdmin(ctx);
  const permission = await findPermission(services.db, ctx.databaseId, id);
  if (!permission) throw notFound();
  return toDto(permission);
}

/**
 * GET REST/folders/{id}/permissions: the users and teams allowed on a folder ([] = not restricted).
 * @throws AppError 403 for non-administrators, 404 for a folder outside the firm
 */
export async function listFolderPermissions(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<FolderPermissionDto[]> {
  assertAdmin(ctx);
  await folderOf(services.db, ctx, folderId);
  return (await folderPermissions(services.db, ctx.databaseId, folderId)).map(toDto);
}

function ref(p: FolderPermissionWithName) {
  return {
    permissionable_id: p.permissionable_id,
    permissionable_type: p.permissionable_type,
    ...(p.name ? { name: p.name } : {}),
  };
}

/**
 * DELETE REST/folder_permissions/{id}: one permission, with a folder_permission delete event.
 * @throws AppError 403 for non-administrators, 404 when not in the firm
 */
export async function deletePermission(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<void> {
  assertAdmin(ctx);
  await services.db.transaction().execute(async (trx) => {
    const permission = await findPermission(trx, ctx.databaseId, id);
    if (!permission) throw notFound();
    const folder = await folderOf(trx, ctx, permission.folder_id);
    await deletePermissions(trx, ctx.databaseId, [id]);
    await recordPermissionRemoved(
      trx,
      services,
      ctx,
      { id },
      { id: folder.id, name: folder.name },
      ref(permission),
    );
  });
}

/**
 * DELETE REST/folders/{id}/permissions: every permission of a folder (it is no longer
 * restricted), with one delete_many event; nothing is recorded when there were none.
 * @throws AppError 403 for non-administrators, 404 for a folder outside the firm
 */
export async function deleteFolderPermissions(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<void> {
  assertAdmin(ctx);
  await services.db.transaction().execute(async (trx) => {
    const folder = await folderOf(trx, ctx, folderId);
    const rows = await folderPermissions(trx, ctx.databaseId, folder.id);
    if (rows.length === 0) return;
    await deletePermissions(
      trx,
      ctx.databaseId,
      rows.map((r) => r.id),
    );
    await recordPermissionsRemovedMany(
      trx,
      services,
      ctx,
      { folder: { id: folder.id, name: folder.name } },
      rows.map(ref),
    );
  });
}

/**
 * DELETE REST/folder_permissions/by_user?user_id: every permission naming this user (not those of
 * the user's teams), with one delete_many event listing the folders.
 * @throws AppError 403 for non-administrators, 404 for a user who is not a member of the firm
 */
export async function deleteUserPermissions(
  services: Services,
  ctx: RequestContext,
  userId: string,
): Promise<void> {
  assertAdmin(ctx);
  await services.db.transaction().execute(async (trx) => {
    const members = await firmMemberIds(trx, ctx.databaseId, [userId]);
    if (!members.has(userId)) throw notFound();
    const rows = await permissionsOfUser(trx, ctx.databaseId, userId);
    if (rows.length === 0) return;
    const folders = await findFoldersByIds(
      trx,
      ctx.databaseId,
      rows.map((r) => r.folder_id),
    );
    await deletePermissions(
      trx,
      ctx.databaseId,
      rows.map((r) => r.id),
    );
    await recordPermissionsRemovedMany(
      trx,
      services,
      ctx,
      { userId, folders: folders.map((f) => ({ id: f.id, name: f.name })) },
      rows.map(ref),
    );
  });
}

/**
 * GET REST/private/permissionables: the firm's members and teams.
 * @throws AppError 403 for non-administrators
 */
export async function listPermissionables(
  services: Services,
  ctx: RequestContext,
): Promise<PermissionableDto[]> {
  assertAdmin(ctx);
  const rows = await permissionables(services.db, ctx.databaseId);
  return rows.map((r) => ({ permissionable_id: r.id, permissionable_type: r.type, name: r.name }));
}

// ---- Teams ----------------------------------------------------------------------------------

function checkTeamName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_TEAM_NAME_LENGTH) {
    throw badRequest(TEAM_NAME_INVALID_MESSAGE, 'invalid_team_name');
  }
  return trimmed;
}

async function teamDtos(
  db: Executor,
  teams: { id: string; name: string; created_at: string; updated_at: string }[],
): Promise<TeamDto[]> {
  const members = await membersOfTeams(
    db,
    teams.map((t) => t.id),
  );
  return teams.map((t) => ({
    id: t.id,
    name: t.name,
    member_ids: members.get(t.id) ?? [],
    created_at: t.created_at,
    updated_at: t.updated_at,
  }));
}

async function teamOf(db: Executor, ctx: RequestContext, id: string) {
  const team = await findTeam(db, ctx.databaseId, id);
  if (!team) throw notFound();
  return team;
}

async function assertMembers(db: Executor, ctx: RequestContext, userIds: string[]): Promise<void> {
  const members = await firmMemberIds(db, ctx.databaseId, userIds);
  if (userIds.some((id) => !members.has(id))) throw notFound();
}

/** GET REST/private/teams: the firm's teams with their members. @throws AppError 403 */
export async function getTeams(services: Services, ctx: RequestContext): Promise<TeamDto[]> {
  assertAdmin(ctx);
  return teamDtos(services.db, await listTeams(services.db, ctx.databaseId));
}

/** GET REST/private/teams/{id}. @throws AppError 403, 404 outside the firm */
export async function getTeam(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<TeamDto> {
  assertAdmin(ctx);
  const [dto] = await teamDtos(services.db, [await teamOf(services.db, ctx, id)]);
  return dto!;
}

/**
 * POST REST/private/teams: a new team, optionally with members of the firm.
 * @throws AppError 403, 400 invalid name, 409 name taken, 404 a user outside the firm
 */
export async function createTeam(
  services: Services,
  ctx: RequestContext,
  input: { name: string; member_ids?: string[] },
): Promise<TeamDto> {
  assertAdmin(ctx);
  const name = checkTeamName(input.name);
  const memberIds = [...new Set(input.member_ids ?? [])];
  const id = newId();
  await services.db.transaction().execute(async (trx) => {
    if (await findTeamByNameKey(trx, ctx.databaseId, name.toLowerCase())) {
      throw conflict(TEAM_NAME_TAKEN_MESSAGE, 'team_name_taken');
    }
    await assertMembers(trx, ctx, memberIds);
    const now = isoAt(services.clock);
    await insertTeam(trx, {
      id,
      database_id: ctx.databaseId,
      name,
      name_key: name.toLowerCase(),
      created_by: ctx.userId,
      created_at: now,
      updated_at: now,
    });
    await addTeamMembers(trx, id, memberIds, now);
  });
  return getTeam(services, ctx, id);
}

/**
 * PATCH REST/private/teams/{id}: renames a team.
 * @throws AppError 403, 404, 400 invalid name, 409 name taken
 */
export async function updateTeam(
  services: Services,
  ctx: RequestContext,
  id: string,
  input: { name: string },
): Promise<TeamDto> {
  assertAdmin(ctx);
  const name = checkTeamName(input.name);
  await services.db.transaction().execute(async (trx) => {
    await teamOf(trx, ctx, id);
    const other = await findTeamByNameKey(trx, ctx.databaseId, name.toLowerCase());
    if (other && other.id !== id) throw conflict(TEAM_NAME_TAKEN_MESSAGE, 'team_name_taken');
    await renameTeam(trx, ctx.databaseId, id, name, name.toLowerCase(), isoAt(services.clock));
  });
  return getTeam(services, ctx, id);
}

/**
 * DELETE REST/private/teams/{id}: the team, its memberships and the folder permissions naming it
 * (a folder left without permissions is no longer restricted).
 * @throws AppError 403, 404
 */
export async function deleteTeam(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<void> {
  assertAdmin(ctx);
  await services.db.transaction().execute(async (trx) => {
    await teamOf(trx, ctx, id);
    await deleteTeamPermissions(trx, ctx.databaseId, id);
    await deleteTeamRow(trx, ctx.databaseId, id);
  });
}

/**
 * POST REST/private/teams/{id}/members: adds members of the firm to a team (present ones kept).
 * @throws AppError 403, 404 team or user outside the firm
 */
export async function addMembers(
  services: Services,
  ctx: RequestContext,
  id: string,
  userIds: string[],
): Promise<TeamDto> {
  assertAdmin(ctx);
  await services.db.transaction().execute(async (trx) => {
    await teamOf(trx, ctx, id);
    const wanted = [...new Set(userIds)];
    await assertMembers(trx, ctx, wanted);
    const present = new Set((await membersOfTeams(trx, [id])).get(id) ?? []);
    await addTeamMembers(
      trx,
      id,
      wanted.filter((u) => !present.has(u)),
      isoAt(services.clock),
    );
  });
  return getTeam(services, ctx, id);
}

/**
 * DELETE REST/private/teams/{id}/members/{userId}: removes a member from a team.
 * @throws AppError 403, 404 team outside the firm or user not in the team
 */
export async function removeMember(
  services: Services,
  ctx: RequestContext,
  id: string,
  userId: string,
): Promise<void> {
  assertAdmin(ctx);
  await services.db.transaction().execute(async (trx) => {
    await teamOf(trx, ctx, id);
    if (!(await removeTeamMember(trx, id, userId))) throw notFound();
  });
}
