// Replay through the API on both databases: a folder as it was after each change, the timeline
// window, access, and the case file.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { childrenAt, copyState, stepSubtree, type ReplayState } from '@common/replay';
import type { ReplayViewDto } from '@common/replayViews';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFolder, type Actor } from './organiseHelpers';
import { newestEventId, replayView, uploadFile } from './replayHelpers';

/** The state at the view's moment, stepped on the client's way. */
function stateOf(view: ReplayViewDto): ReplayState {
  const state = copyState(view.base);
  for (const entry of view.entries.slice(0, view.position + 1)) {
    stepSubtree(state, view.folder_id, entry.event, entry.enters);
  }
  return state;
}

function names(state: ReplayState, parentId: string, archived = false): string[] {
  return childrenAt(state, parentId, { archived }).map((i) => i.name);
}

describeEachDatabase('replay', (kind) => {
  let server: TestServer;
  let admin: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('a folder as it was', () => {
    it('answers the state after each change, and steps between them', async () => {
      const smith = await makeFolder(server, admin, 'Smith family');
      const t0 = await newestEventId(server, admin.databaseId);
      const tax = await makeFolder(server, admin, 'Tax', smith.id);
      const file = await uploadFile(server, admin, smith.id, 'Statement.pdf');
      const t1 = await newestEventId(server, admin.databaseId);
      expect(
        (await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, { name: 'Q1.pdf' }))
          .statusCode,
      ).toBe(200);
      expect(
        (await call(server, admin, 'PATCH', `/api/rest/files/${file.id}`, { parent_id: tax.id }))
          .statusCode,
      ).toBe(200);
      const t2 = await newestEventId(server, admin.databaseId);
      expect(
        (await call(server, admin, 'POST', `/api/rest/folders/${tax.id}/archive`)).statusCode,
      ).toBe(200);
      const t3 = await newestEventId(server, admin.databaseId);

      const at0 = stateOf(await replayView(server, admin, smith.id, { event: t0 }));
      expect(names(at0, smith.id)).toEqual([]);
      const at1 = stateOf(await replayView(server, admin, smith.id, { event: t1 }));
      expect(names(at1, smith.id)).toEqual(['Tax', 'Statement.pdf']);
      const at2 = stateOf(await replayView(server, admin, smith.id, { event: t2 }));
      expect(names(at2, smith.id)).toEqual(['Tax']);
      expect(names(at2, tax.id)).toEqual(['Q1.pdf']);
      const view3 = await replayView(server, admin, smith.id, { event: t3 });
      const at3 = stateOf(view3);
      expect(names(at3, smith.id)).toEqual([]);
      expect(names(at3, smith.id, true)).toEqual(['Tax']);
      expect(at3.items[file.id]?.archivedRootId).toBe(tax.id);
      // The window holds every change of the folder, the moment the last one.
      expect(view3.entries.map((e) => e.event.action)).toEqual([
        'create',
        'create',
        'create',
        'rename',
        'move',
        'archive',
      ]);
      expect(view3.position).toBe(5);
      expect(view3.has_later).toBe(false);
    });
  });
});
