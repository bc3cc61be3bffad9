/**
 * Folder permissions, teams and permissionables, on SQLite and
 * PostgreSQL: administrators only, another firm's ids 404, create_many skipping present ones,
 * delete by id, delete all for a folder, delete by user, and the folder_permission history events
 * with the spec's attributes (permissions, folder_name, user_id, folders).
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { FolderPermissionDto, PermissionableDto } from '@common/folderPermissions';
import type { HistoryEventDto, HistoryPageDto } from '@common/history';
import type { TeamDto } from '@common/users';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, makeFolder, newActor, type Actor } from './organiseHelpers';

describeEachDatabase('folder permissions and teams', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let reader: Actor;
  let stranger: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'perm-member', 'member', admin.databaseId);
    reader = await newActor(server, 'perm-reader', 'read_only', admin.databaseId);
    stranger = await newActor(server, 'perm-stranger', 'admin');
  });
  afterAll(async () => {
    await server.close();
  });

  const send = (
    actor: Actor,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { cookie: actor.cookie },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  const permissionEvents = async (): Promise<HistoryEventDto[]> => {
    const response = await send(admin, 'POST', '/api/rest/history?page_size=50', {});
    expect(response.statusCode).toBe(200);
    return response
      .json<HistoryPageDto>()
      .items.filter((e) => e.entity_type === 'folder_permission');
  };

  it('lists the firm members and teams as permissionables, for administrators only', async () => {
    const created = await send(admin, 'POST', '/api/rest/private/teams', {
      name: 'Tax team',
      member_ids: [member.userId],
    });
    expect(created.statusCode).toBe(201);
    const team = created.json<TeamDto>();
    expect(team).toMatchObject({ name: 'Tax team', member_ids: [member.userId] });
    const response = await send(admin, 'GET', '/api/rest/private/permissionables');
    expect(response.statusCode).toBe(200);
    const list = response.json<PermissionableDto[]>();
    expect(list).toContainEqual({
      permissionable_id: member.userId,
      permissionable_type: 'user',
      name: 'perm-member Tester',
    });
    expect(list).toContainEqual({
      permissionable_id: team.id,
      permissionable_type: 'team',
      name: 'Tax team',
    });
    expect(list.some((p) => p.permissionable_id === stranger.userId)).toBe(false);
    for (const actor of [member, reader]) {
      const refused = await send(actor, 'GET', '/api/rest/private/permissionables');
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ code: string }>().code).toBe('admin_only');
    }
  });

  it('manages teams: unique names, rename, members, another firm 404', async () => {
    const created = await send(admin, 'POST', '/api/rest/private/teams', { name: 'Audit' });
    const team = created.json<TeamDto>();
    expect(
      (await send(admin, 'POST', '/api/rest/private/teams', { name: 'audit' })).statusCode,
    ).toBe(409);
    expect((await send(admin, 'POST', '/api/rest/private/teams', { name: '  ' })).statusCode).toBe(
      400,
    );
    const renamed = await send(admin, 'PATCH', `/api/rest/private/teams/${team.id}`, {
      name: 'Audit 2',
    });
    expect(renamed.json<TeamDto>().name).toBe('Audit 2');
    const added = await send(admin, 'POST', `/api/rest/private/teams/${team.id}/members`, {
      user_ids: [member.userId, reader.userId],
    });
    expect(added.json<TeamDto>().member_ids.sort()).toEqual([member.userId, reader.userId].sort());
    // A user of another firm cannot join.
    const outsider = await send(admin, 'POST', `/api/rest/private/teams/${team.id}/members`, {
      user_ids: [stranger.userId],
    });
    expect(outsider.statusCode).toBe(404);
    expect(
      (await send(admin, 'DELETE', `/api/rest/private/teams/${team.id}/members/${reader.userId}`))
        .statusCode,
    ).toBe(204);
    expect(
      (await send(admin, 'GET', `/api/rest/private/teams/${team.id}`)).json<TeamDto>().member_ids,
    ).toEqual([member.userId]);
    expect((await send(stranger, 'GET', `/api/rest/private/teams/${team.id}`)).statusCode).toBe(
      404,
    );
    expect((await send(member, 'GET', '/api/rest/private/teams')).statusCode).toBe(403);
    expect((await send(admin, 'DELETE', `/api/rest/private/teams/${team.id}`)).statusCode).toBe(
      204,
    );
    expect((await send(admin, 'GET', `/api/rest/private/teams/${team.id}`)).statusCode).toBe(404);
  });

  it('creates many, skips present ones, reads, deletes by id and records create_many / delete', async () => {
    const folder = await makeFolder(server, admin, 'Partners only');
    const created = await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: folder.id,
      permissionables: [
        { permissionable_id: member.userId, permissionable_type: 'user' },
        { permissionable_id: reader.userId, permissionable_type: 'user' },
      ],
    });
    expect(created.statusCode).toBe(201);
    const list = created.json<FolderPermissionDto[]>();
    expect(list.map((p) => p.permissionable_id).sort()).toEqual(
      [member.userId, reader.userId].sort(),
    );
    const [added] = await permissionEvents();
    expect(added).toMatchObject({ action: 'create_many', entity_id: folder.id });
    expect(added!.attributes).toMatchObject({
      folder_name: 'Partners only',
      folders: [{ id: folder.id, name: 'Partners only' }],
      permissions: expect.arrayContaining([
        {
          permissionable_id: member.userId,
          permissionable_type: 'user',
          name: 'perm-member Tester',
        },
      ]),
    });
    // Again with one present and nothing new: no second event, same list.
    const again = await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: folder.id,
      permissionables: [{ permissionable_id: member.userId, permissionable_type: 'user' }],
    });
    expect(again.json<FolderPermissionDto[]>()).toHaveLength(2);
    expect(await permissionEvents()).toHaveLength(1);
    const one = list.find((p) => p.permissionable_id === reader.userId)!;
    const read = await send(admin, 'GET', `/api/rest/folder_permissions/${one.id}`);
    expect(read.json<FolderPermissionDto>()).toMatchObject({ id: one.id, folder_id: folder.id });
    expect((await send(stranger, 'GET', `/api/rest/folder_permissions/${one.id}`)).statusCode).toBe(
      404,
    );
    expect((await send(member, 'GET', `/api/rest/folder_permissions/${one.id}`)).statusCode).toBe(
      403,
    );
    expect((await send(admin, 'DELETE', `/api/rest/folder_permissions/${one.id}`)).statusCode).toBe(
      204,
    );
    expect((await send(admin, 'GET', `/api/rest/folder_permissions/${one.id}`)).statusCode).toBe(
      404,
    );
    const [removed] = await permissionEvents();
    expect(removed).toMatchObject({ action: 'delete', entity_id: one.id });
    expect(removed!.attributes).toMatchObject({
      user_id: reader.userId,
      folder_name: 'Partners only',
      permissions: [{ permissionable_id: reader.userId, permissionable_type: 'user' }],
    });
    const remaining = await send(admin, 'GET', `/api/rest/folders/${folder.id}/permissions`);
    expect(remaining.json<FolderPermissionDto[]>().map((p) => p.permissionable_id)).toEqual([
      member.userId,
    ]);
  });

  it('refuses permissionables and folders of another firm with 404, and non-admins with 403', async () => {
    const folder = await makeFolder(server, admin, 'Refusals');
    const foreign = await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: folder.id,
      permissionables: [{ permissionable_id: stranger.userId, permissionable_type: 'user' }],
    });
    expect(foreign.statusCode).toBe(404);
    const strangerFolder = await makeFolder(server, stranger, 'Theirs');
    const otherFolder = await send(admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: strangerFolder.id,
      permissionables: [{ permissionable_id: member.userId, permissionable_type: 'user' }],
    });
    expect(otherFolder.statusCode).toBe(404);
    const byMember = await send(member, 'POST', '/api/rest/folder_permissions', {
      folder_id: folder.id,
      permissionables: [{ permissionable_id: member.userId, permissionable_type: 'user' }],
    });
    expect(byMember.statusCode).toBe(403);
    expect((await send(admin, 'GET', `/api/rest/folders/${folder.id}/permissions`)).json()).toEqual(
      [],
    );
  });

  it('deletes all of a folder and all of a user with delete_many events', async () => {
    const a = await makeFolder(server, admin, 'Folder A');
    const b = await makeFolder(server, admin, 'Folder B');
    for (const folder of [a, b]) {
      await send(admin, 'POST', '/api/rest/folder_permissions', {
        folder_id: folder.id,
        permissionables: [
          { permissionable_id: member.userId, permissionable_type: 'user' },
          { permissionable_id: admin.userId, permissionable_type: 'user' },
        ],
      });
    }
    expect((await send(admin, 'DELETE', `/api/rest/folders/${a.id}/permissions`)).statusCode).toBe(
      204,
    );
    expect((await send(admin, 'GET', `/api/rest/folders/${a.id}/permissions`)).json()).toEqual([]);
    const [all] = await permissionEvents();
    expect(all).toMatchObject({ action: 'delete_many', entity_id: a.id });
    expect(all!.attributes).toMatchObject({
      folder_name: 'Folder A',
      folders: [{ id: a.id, name: 'Folder A' }],
    });
    expect(all!.attributes.permissions).toHaveLength(2);

    const byUser = await send(
      admin,
      'DELETE',
      `/api/rest/folder_permissions/by_user?user_id=${member.userId}`,
    );
    expect(byUser.statusCode).toBe(204);
    const left = (await send(admin, 'GET', `/api/rest/folders/${b.id}/permissions`)).json<
      FolderPermissionDto[]
    >();
    expect(left.map((p) => p.permissionable_id)).toEqual([admin.userId]);
    const [userEvent] = await permissionEvents();
    expect(userEvent).toMatchObject({ action: 'delete_many', entity_id: member.userId });
    expect(userEvent!.attributes).toMatchObject({ user_id: member.userId });
    expect(userEvent!.attributes.folders).toEqual(
      expect.arrayContaining([{ id: b.id, name: 'Folder B' }]),
    );
    expect(
      (
        await send(
          admin,
          'DELETE',
          `/api/rest/folder_permissions/by_user?user_id=${stranger.userId}`,
        )
      ).statusCode,
    ).toBe(404);
  });
});
