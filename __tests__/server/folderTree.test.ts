/**
 * The folder tree version (migration 0017) and the in-memory folder tree (services/folderTree.ts),
 * on SQLite and PostgreSQL: every change a copy holds raises the firm's version exactly when it
 * commits, a rolled-back change raises nothing, concurrent changes of one firm all commit, and a
 * copy answers paths and hidden subtrees as the database does.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { newId } from '@server/ids';
import { folderTreeVersion } from '@server/repositories/folderTree';
import { hiddenRootIds } from '@server/repositories/permissions';
import { FolderTreeCache, hiddenIn, hiddenRootsIn, pathOf } from '@server/services/folderTree';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFolder, newActor, type Actor } from './organiseHelpers';

describeEachDatabase('folder tree', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'tree-member', 'member', admin.databaseId);
  });
  afterAll(async () => {
    await server.close();
  });

  const version = () => folderTreeVersion(server.services.db, admin.databaseId);

  /** Runs a change and answers by how much it raised the firm's version. */
  async function raises(change: () => Promise<unknown>): Promise<number> {
    const before = await version();
    await change();
    return (await version()) - before;
  }

  it('raises the version with every change a copy holds, once per transaction', async () => {
    let folder = { id: '' };
    expect(await raises(async () => (folder = await makeFolder(server, admin, 'Tree one')))).toBe(
      1,
    );
    const child = await makeFolder(server, admin, 'Tree child', folder.id);
    const renamed = () =>
      call(server, admin, 'PATCH', `/api/rest/folders/${child.id}`, { name: 'Tree renamed' });
    expect(await raises(renamed)).toBe(1);
    const other = await makeFolder(server, admin, 'Tree two');
    const move = () =>
      call(server, admin, 'POST', '/api/rest/bulk/move', {
        items: [{ type: 'folder', id: child.id }],
        folder_id: other.id,
      });
    expect(await raises(move)).toBe(1);
    // Archiving changes neither a path nor a permission.
    expect(
      await raises(() => call(server, admin, 'POST', `/api/rest/folders/${other.id}/archive`)),
    ).toBe(0);
    expect(
      await raises(() => call(server, admin, 'POST', `/api/rest/folders/${other.id}/restore`)),
    ).toBe(0);
    const team = (
      await call(server, admin, 'POST', '/api/rest/private/teams', { name: 'Tree team' })
    ).json<{ id: string }>();
    const join = () =>
      call(server, admin, 'POST', `/api/rest/private/teams/${team.id}/members`, {
        user_ids: [member.userId],
      });
    expect(await raises(join)).toBe(1);
    const permit = () =>
      call(server, admin, 'POST', '/api/rest/folder_permissions', {
        folder_id: folder.id,
        permissionables: [
          { permissionable_id: team.id, permissionable_type: 'team' },
          { permissionable_id: admin.userId, permissionable_type: 'user' },
        ],
      });
    // Two permission rows in one transaction: raised once on PostgreSQL, per row on SQLite.
    expect(await raises(permit)).toBe(kind === 'postgres' ? 1 : 2);
    expect(
      await raises(() => call(server, admin, 'DELETE', `/api/rest/private/teams/${team.id}`)),
    ).toBeGreaterThanOrEqual(1);
    // A change rolled back raises nothing.
    const rolledBack = await raises(() =>
      server.services.db
        .transaction()
        .execute(async (trx) => {
          await sql`update folders set name = 'Never' where id = ${folder.id}`.execute(trx);
          throw new Error('roll back');
        })
        .catch(() => undefined),
    );
    expect(rolledBack).toBe(0);
  });

  it('lets concurrent changes of one firm all commit and counts each of them', async () => {
    const parent = await makeFolder(server, admin, 'Tree concurrent');
    const before = await version();
    const { db } = server.services;
    const now = new Date().toISOString();
    // Ten transactions that each create a folder and rename another, at once.
    const targets = await Promise.all(
      Array.from({ length: 10 }, (_, i) => makeFolder(server, admin, `Tree c${i}`, parent.id)),
    );
    const afterCreates = await version();
    expect(afterCreates - before).toBe(10);
    await Promise.all(
      targets.map((target, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('folders')
            .values({
              id: newId(),
              database_id: admin.databaseId,
              parent_id: parent.id,
              name: `Tree n${i}`,
              name_key: `tree n${i}`,
              created_by: admin.userId,
              created_at: now,
              updated_at: now,
              archived_at: null,
              archived_root_id: null,
            })
            .execute();
          await trx
            .updateTable('folders')
            .set({ name: `Tree r${i}`, name_key: `tree r${i}` })
            .where('id', '=', target.id)
            .execute();
        }),
      ),
    );
    // One per transaction on PostgreSQL; one per changed row on SQLite.
    expect((await version()) - afterCreates).toBe(kind === 'postgres' ? 10 : 20);
  });

  it('answers paths and hidden subtrees as the database does', async () => {
    const top = await makeFolder(server, admin, 'Tree top');
    const locked = await makeFolder(server, admin, 'Tree locked', top.id);
    const inner = await makeFolder(server, admin, 'Tree inner', locked.id);
    const permitted = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: locked.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permitted.statusCode).toBe(201);
    const cache = new FolderTreeCache();
    const tree = (await cache.tree(server.services.db, admin.databaseId, await version()))!;
    expect(pathOf(tree, inner.id)!.map((p) => p.name)).toEqual([
      'Root',
      'Tree top',
      'Tree locked',
      'Tree inner',
    ]);
    expect(pathOf(tree, '')!.map((p) => p.name)).toEqual(['Root']);
    expect(pathOf(tree, 'no-such-folder')).toBeNull();
    const roots = hiddenRootsIn(tree, member.userId);
    expect([...roots].sort()).toEqual(
      (await hiddenRootIds(server.services.db, admin.databaseId, member.userId)).sort(),
    );
    expect(hiddenIn(tree, inner.id, roots)).toBe(true);
    expect(hiddenIn(tree, top.id, roots)).toBe(false);
    expect(hiddenIn(tree, '', roots)).toBe(false);
    expect(hiddenRootsIn(tree, admin.userId).has(locked.id)).toBe(false);
    // The same version answers the same copy; a newer one reads the tree again.
    expect(await cache.tree(server.services.db, admin.databaseId, tree.version)).toBe(tree);
    await makeFolder(server, admin, 'Tree later', top.id);
    const newer = (await cache.tree(server.services.db, admin.databaseId, await version()))!;
    expect(newer).not.toBe(tree);
    expect([...newer.folders.values()].some((f) => f.name === 'Tree later')).toBe(true);
  });

  it('keeps at most its total of folders over all firms, dropping the least recently used', async () => {
    const other = await newActor(server, 'tree-other-firm', 'admin');
    await makeFolder(server, other, 'Other firm folder');
    const { db } = server.services;
    const ours = (await new FolderTreeCache().tree(db, admin.databaseId, 0))!.folders.size;
    const theirs = (await new FolderTreeCache().tree(db, other.databaseId, 0))!.folders.size;
    expect(ours).toBeGreaterThan(theirs);
    const cache = new FolderTreeCache(10_000, ours + theirs - 1);
    const first = await cache.tree(db, admin.databaseId, 0);
    expect(cache.heldFolders).toBe(ours);
    await cache.tree(db, other.databaseId, 0);
    // Both would pass the total: the older copy is dropped, and read anew when asked again.
    expect(cache.heldFolders).toBe(theirs);
    const again = await cache.tree(db, admin.databaseId, 0);
    expect(again).not.toBe(first);
    expect(cache.heldFolders).toBe(ours);
  });
});
