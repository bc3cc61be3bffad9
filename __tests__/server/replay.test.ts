// Replay through the API on both databases: a folder as it was after each change, the timeline
// window, items created or destroyed after the moment, legacy events, access, the case file and
// snapshots.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT_FOLDER_NAME } from '@common/constants';
import type { HistoryEventDto } from '@common/history';
import { childrenAt, type ReplayState } from '@common/replay';
import {
  REPLAY_MESSAGES,
  REPLAY_ROOT_ID,
  REPLAY_WINDOW_EVENTS,
  type CaseFileDto,
  type ReplayViewDto,
} from '@common/replayViews';
import {
  REPLAY_SNAPSHOT_FORMAT,
  snapshotBefore,
  snapshotsSettled,
} from '@server/services/replay/engine';
import { CASE_FILE_COLUMNS } from '@server/services/replay/caseFile';
import { addUser, describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { appendEvents, parseCsv } from './historyHelpers';
import { adminActor, call, makeFolder, newActor, type Actor } from './organiseHelpers';
import {
  captureListing,
  newestEventId,
  projectListing,
  replayView,
  stateOf,
  uploadFile,
} from './replayHelpers';
import { createLink, guestCookie } from './sharingHelpers';

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

  /** Moves the app's clock on, so the next events have a later time. */
  const later = (ms = 60_000) => {
    server.clock.now += ms;
    return new Date(server.clock.now).toISOString();
  };

  /** The newest history event of the firm, as stored. */
  const newestEvent = async (databaseId = admin.databaseId) => {
    const row = await server.services.db
      .selectFrom('history_events')
      .select(['id', 'entity_type', 'action', 'attributes', 'created_at'])
      .where('database_id', '=', databaseId)
      .orderBy('chain_seq', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return { ...row, attributes: JSON.parse(row.attributes) as HistoryEventDto['attributes'] };
  };

  const get = (actor: Actor | { cookie: string }, url: string) =>
    server.app.inject({ method: 'GET', url, headers: { cookie: actor.cookie } });

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

    it('leaves out what was created after the moment, by event and by time', async () => {
      later();
      const folder = await makeFolder(server, admin, 'Jones');
      const early = await uploadFile(server, admin, folder.id, 'Early.txt');
      const moment = await newestEventId(server, admin.databaseId);
      const asOf = later(30_000);
      later(30_000);
      const late = await uploadFile(server, admin, folder.id, 'Late.txt');
      const sub = await makeFolder(server, admin, 'Later folder', folder.id);

      for (const query of [{ event: moment }, { as_of: asOf }]) {
        const view = await replayView(server, admin, folder.id, query);
        expect(view.moment.event_id).toBe(moment);
        const state = stateOf(view);
        expect(names(state, folder.id)).toEqual(['Early.txt']);
        expect(state.items[early.id]).toBeDefined();
        expect(state.items[late.id]).toBeUndefined();
        expect(state.items[sub.id]).toBeUndefined();
        // The later events are in the window, after the moment.
        expect(view.has_later).toBe(false);
        expect(view.entries.slice(view.position + 1).map((e) => e.event.entity_id)).toEqual([
          late.id,
          sub.id,
        ]);
      }
      // Now: both.
      expect(names(stateOf(await replayView(server, admin, folder.id)), folder.id)).toEqual([
        'Later folder',
        'Early.txt',
        'Late.txt',
      ]);
    });

    it('shows an item destroyed after the moment, marked as destroyed since', async () => {
      const folder = await makeFolder(server, admin, 'Brown');
      const doomed = await uploadFile(server, admin, folder.id, 'Doomed.txt');
      const kept = await uploadFile(server, admin, folder.id, 'Kept.txt');
      const moment = await newestEventId(server, admin.databaseId);
      later();
      expect(
        (await call(server, admin, 'POST', `/api/rest/files/${doomed.id}/archive`)).statusCode,
      ).toBe(200);
      const destroyed = await call(server, admin, 'POST', '/api/rest/bulk/destroy', {
        items: [{ type: 'file', id: doomed.id }],
      });
      expect(destroyed.statusCode).toBe(200);
      const destroyEvent = await newestEvent();
      expect(destroyEvent.action).toBe('delete');

      const view = await replayView(server, admin, folder.id, { event: moment });
      const state = stateOf(view);
      expect(names(state, folder.id)).toEqual(['Doomed.txt', 'Kept.txt']);
      expect(state.items[doomed.id]?.destroyedAt).toBeNull();
      expect(view.destroyed_since).toEqual({ [doomed.id]: destroyEvent.created_at });
      // Now it is a tombstone, still marked.
      const now = await replayView(server, admin, folder.id);
      const nowState = stateOf(now);
      expect(nowState.items[doomed.id]?.destroyedAt).toBe(destroyEvent.created_at);
      expect(names(nowState, folder.id, true)).toEqual(['Kept.txt']);
      expect(now.destroyed_since[doomed.id]).toBe(destroyEvent.created_at);
      expect(now.destroyed_since[kept.id]).toBeUndefined();
      // The replay of now is the listing of now (the tombstone left out).
      expect(projectListing(nowState, admin.userId)).toEqual(
        await captureListing(server, admin.databaseId, folder.id, admin.userId),
      );
    });

    it('shows a legacy event as such and guesses nothing from it', async () => {
      const folder = await makeFolder(server, admin, 'Migrated');
      const file = await uploadFile(server, admin, folder.id, 'Old.pdf');
      const before = await newestEventId(server, admin.databaseId);
      const [legacyId] = await appendEvents(server.services.db, admin.databaseId, [
        {
          entity_type: 'file',
          entity_id: file.id,
          item_id: file.id,
          action: 'rename',
          user_id: admin.userId,
          user_name: 'Admin',
          // A shape replay could read, but the entry is a migrated description: not guessed.
          attributes: {
            name: 'Guessed.pdf',
            next: { name: 'Guessed.pdf' },
            migrated: { description: 'Renamed file Old.pdf to Guessed.pdf (old system)' },
          },
          at: server.clock.now,
        },
      ]);
      const view = await replayView(server, admin, folder.id, { event: legacyId });
      expect(view.entries[view.position]?.event.id).toBe(legacyId);
      const state = stateOf(view);
      expect(state.legacy).toContain(legacyId);
      expect(state.items[file.id]?.name).toBe('Old.pdf');
      const previous = stateOf(await replayView(server, admin, folder.id, { event: before }));
      expect(previous.legacy).not.toContain(legacyId);
      expect(state.items).toEqual(previous.items);
    });

    it('names the ancestors of a folder as they were, and none for the root', async () => {
      const outer = await makeFolder(server, admin, 'Outer crumbs');
      const inner = await makeFolder(server, admin, 'Inner crumbs', outer.id);
      const view = await replayView(server, admin, inner.id);
      expect(view.breadcrumbs.map((c) => c.name)).toEqual([ROOT_FOLDER_NAME, 'Outer crumbs']);
      const root = await replayView(server, admin, REPLAY_ROOT_ID);
      expect(root.breadcrumbs).toEqual([]);
    });

    it('answers the earlier window before a window’s first entry', async () => {
      const folder = await makeFolder(server, admin, 'Busy');
      for (let i = 1; i <= REPLAY_WINDOW_EVENTS + 10; i++) {
        const renamed = await call(server, admin, 'PATCH', `/api/rest/folders/${folder.id}`, {
          name: `Busy ${i}`,
        });
        expect(renamed.statusCode).toBe(200);
      }
      const timeline = (
        await server.services.db
          .selectFrom('history_events')
          .select('id')
          .where('database_id', '=', admin.databaseId)
          .where('item_id', '=', folder.id)
          .orderBy('chain_seq')
          .execute()
      ).map((r) => r.id);
      expect(timeline).toHaveLength(REPLAY_WINDOW_EVENTS + 11);

      const view = await replayView(server, admin, folder.id);
      expect(view.has_earlier).toBe(true);
      expect(view.has_later).toBe(false);
      expect(view.entries.map((e) => e.event.id)).toEqual(timeline.slice(-REPLAY_WINDOW_EVENTS));
      expect(stateOf(view).items[folder.id]?.name).toBe(`Busy ${REPLAY_WINDOW_EVENTS + 10}`);

      const first = view.entries[0]!.event.id;
      const earlier = await replayView(server, admin, folder.id, { before_event: first });
      const justBefore = timeline[timeline.indexOf(first) - 1]!;
      expect(earlier.moment.event_id).toBe(justBefore);
      expect(earlier.entries[earlier.position]?.event.id).toBe(justBefore);
      // From the folder's first event to REPLAY_WINDOW_EVENTS past the moment: all of it here.
      expect(earlier.entries.map((e) => e.event.id)).toEqual(timeline);
      expect(earlier.has_later).toBe(false);
      // The folder's first event is in this window: nothing of its timeline lies before it.
      expect(earlier.has_earlier).toBe(false);
      // Rename i is the (i + 1)-th event of the folder.
      expect(stateOf(earlier).items[folder.id]?.name).toBe(`Busy ${timeline.indexOf(justBefore)}`);
    });
  });

  describe('access', () => {
    let member: Actor;
    let insiderId: string;
    let parent: { id: string };
    let open: { id: string };
    let secretFolder: { id: string };
    let secret: { id: string };
    let restricted: { id: string };

    const restrict = async (folderId: string) => {
      const response = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
        folder_id: folderId,
        permissionables: [{ permissionable_id: insiderId, permissionable_type: 'user' }],
      });
      expect(response.statusCode).toBe(201);
    };

    beforeAll(async () => {
      member = await newActor(server, 'replay-member', 'member', admin.databaseId);
      insiderId = (
        await addUser(server, {
          username: 'replay-insider',
          password: 'replay insider password',
          databaseId: admin.databaseId,
        })
      ).userId;
      parent = await makeFolder(server, admin, 'Household');
      open = await uploadFile(server, admin, parent.id, 'Open.txt');
      secretFolder = await makeFolder(server, admin, 'Secret plans', parent.id);
      secret = await uploadFile(server, admin, secretFolder.id, 'Secret.txt');
      await restrict(secretFolder.id);
      restricted = await makeFolder(server, admin, 'Restricted');
      await restrict(restricted.id);
    });

    it('answers 404 to a member on a restricted folder they are not allowed in', async () => {
      for (const url of [
        `/api/rest/replay/folders/${restricted.id}`,
        `/api/rest/replay/folders/${secretFolder.id}`,
        `/api/rest/replay/folders/${restricted.id}/case_file?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
      ]) {
        expect({ url, status: (await get(member, url)).statusCode }).toEqual({ url, status: 404 });
      }
      // The administrator may.
      expect((await get(admin, `/api/rest/replay/folders/${restricted.id}`)).statusCode).toBe(200);
    });

    it('leaves the items of a restricted subfolder out of a member’s view of its parent', async () => {
      const view = await replayView(server, member, parent.id);
      const state = stateOf(view);
      expect(names(state, parent.id)).toEqual(['Open.txt']);
      expect(state.items[open.id]).toBeDefined();
      expect(state.items[secretFolder.id]).toBeUndefined();
      expect(state.items[secret.id]).toBeUndefined();
      // Nothing of the window names them either.
      const text = JSON.stringify(view);
      expect(text).not.toContain(secretFolder.id);
      expect(text).not.toContain(secret.id);
      expect(text).not.toContain('Secret');
      // Nor the case file.
      const file = await get(
        member,
        `/api/rest/replay/folders/${parent.id}/case_file?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z&format=json`,
      );
      expect(file.statusCode).toBe(200);
      expect(file.body).not.toContain('Secret');
      expect(file.json<CaseFileDto>().state_to.map((i) => i.path)).toEqual(['Open.txt']);
      // The administrator sees all of it.
      const adminState = stateOf(await replayView(server, admin, parent.id));
      expect(names(adminState, parent.id)).toEqual(['Secret plans', 'Open.txt']);
      expect(names(adminState, secretFolder.id)).toEqual(['Secret.txt']);
    });

    it('reads nothing of another firm, and answers a guest 404', async () => {
      const other = await newActor(server, 'replay-other-admin', 'admin');
      expect(other.databaseId).not.toBe(admin.databaseId);
      expect((await get(other, `/api/rest/replay/folders/${parent.id}`)).statusCode).toBe(404);
      expect(
        (
          await get(
            other,
            `/api/rest/replay/folders/${parent.id}/case_file?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
          )
        ).statusCode,
      ).toBe(404);
      const ourEvent = await newestEventId(server, admin.databaseId);
      const otherRoot = `/api/rest/replay/folders/${REPLAY_ROOT_ID}`;
      expect((await get(other, otherRoot)).statusCode).toBe(200);
      for (const query of [`event=${ourEvent}`, `before_event=${ourEvent}`]) {
        expect({ query, status: (await get(other, `${otherRoot}?${query}`)).statusCode }).toEqual({
          query,
          status: 404,
        });
      }
      // Their root as of now holds none of ours.
      const theirs = await replayView(server, other, '');
      expect(Object.keys(stateOf(theirs).items)).not.toContain(parent.id);
      expect(JSON.stringify(theirs)).not.toContain('Household');

      const link = await createLink(server, admin.cookie, {
        entity_type: 'folder',
        entity_id: parent.id,
      });
      const guest = { cookie: await guestCookie(server, link.token, 'replay-guest@example.com') };
      for (const url of [
        `/api/rest/replay/folders/${parent.id}`,
        `/api/rest/replay/folders/${REPLAY_ROOT_ID}`,
        `/api/rest/replay/folders/${parent.id}/case_file?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
      ]) {
        expect({ url, status: (await get(guest, url)).statusCode }).toEqual({ url, status: 404 });
      }
    });

    it('refuses a moment that is not a time', async () => {
      for (const asOf of ['yesterday-ish', '2024-13-45T99:00:00Z']) {
        const response = await get(
          admin,
          `/api/rest/replay/folders/${parent.id}?as_of=${encodeURIComponent(asOf)}`,
        );
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ message: REPLAY_MESSAGES.badMoment, code: 'bad_moment' });
      }
      const unknown = await get(
        admin,
        `/api/rest/replay/folders/${parent.id}?event=00000000-0000-7000-8000-000000000000`,
      );
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('the case file', () => {
    it('lists the period’s events and the items at both ends, as CSV and JSON, each recorded', async () => {
      later();
      const folder = await makeFolder(server, admin, 'Case file folder');
      const before = await uploadFile(server, admin, folder.id, 'Before.txt');
      const from = later(30_000);
      later(30_000);
      await uploadFile(server, admin, folder.id, 'During.txt');
      expect(
        (
          await call(server, admin, 'PATCH', `/api/rest/files/${before.id}`, {
            name: 'Renamed.txt',
          })
        ).statusCode,
      ).toBe(200);
      const to = later(30_000);
      later(30_000);
      await uploadFile(server, admin, folder.id, 'After.txt');
      const period = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      const url = `/api/rest/replay/folders/${folder.id}/case_file?${period}`;

      const csv = await get(admin, url);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(String(csv.headers['content-disposition'])).toMatch(/^attachment;.*Case file/);
      const records = parseCsv(csv.body).filter((r) => r.some((cell) => cell !== ''));
      expect(records[0]).toEqual([...CASE_FILE_COLUMNS]);
      const rows = records.slice(1);
      const events = rows.filter((r) => r[0] === 'event');
      expect(events).toHaveLength(2);
      expect(events.map((r) => r[4])).toEqual([
        expect.stringContaining('During.txt: Added'),
        expect.stringContaining('Renamed.txt: Renamed'),
      ]);
      expect(rows.filter((r) => r[0] === 'start').map((r) => r[3])).toEqual(['file Before.txt']);
      expect(rows.filter((r) => r[0] === 'end').map((r) => r[3])).toEqual([
        'file During.txt',
        'file Renamed.txt',
      ]);
      expect(rows.map((r) => r[0])).toEqual(['event', 'event', 'start', 'end', 'end']);
      const csvEvent = await newestEvent();
      expect(csvEvent).toMatchObject({ entity_type: 'user', action: 'download' });
      expect(csvEvent.attributes.export).toMatchObject({
        kind: 'case_file',
        folder_id: folder.id,
        format: 'csv',
        events: 2,
      });

      const json = await get(admin, `${url}&format=json`);
      expect(json.statusCode).toBe(200);
      const dto = json.json<CaseFileDto>();
      expect(dto).toMatchObject({
        folder_id: folder.id,
        folder_name: 'Case file folder',
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
      });
      expect(dto.rows.map((r) => r.user_name)).toEqual([expect.any(String), expect.any(String)]);
      expect(dto.state_from.map((i) => i.path)).toEqual(['Before.txt']);
      expect(dto.state_to.map((i) => [i.path, i.type, i.archived])).toEqual([
        ['During.txt', 'file', false],
        ['Renamed.txt', 'file', false],
      ]);
      const jsonEvent = await newestEvent();
      expect(jsonEvent.id).not.toBe(csvEvent.id);
      expect(jsonEvent.attributes.export).toMatchObject({ kind: 'case_file', format: 'print' });

      for (const [a, b] of [
        [to, from],
        [from, from],
      ]) {
        const bad = await get(
          admin,
          `/api/rest/replay/folders/${folder.id}/case_file?from=${encodeURIComponent(a!)}&to=${encodeURIComponent(b!)}`,
        );
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toEqual({ message: REPLAY_MESSAGES.badPeriod, code: 'bad_period' });
      }
      // A refused case file records nothing.
      expect((await newestEvent()).id).toBe(jsonEvent.id);
    });
  });

  describe('snapshots', () => {
    it('stores snapshots past 1,000 events, and answers the same from them as without', async () => {
      const folder = await makeFolder(server, admin, 'Long story');
      const at = server.clock.now;
      await appendEvents(
        server.services.db,
        admin.databaseId,
        Array.from({ length: 3_100 }, (_, i) => ({
          entity_type: 'folder',
          entity_id: folder.id,
          item_id: folder.id,
          action: 'rename',
          user_id: admin.userId,
          user_name: 'Admin',
          attributes: {
            name: `Chapter ${i + 1}`,
            prev: { name: i === 0 ? 'Long story' : `Chapter ${i}` },
            next: { name: `Chapter ${i + 1}` },
            parent: { id: '', name: 'Root' },
          },
          at,
        })),
      );
      const db = server.services.db;
      const snapshots = () =>
        db
          .selectFrom('replay_snapshots')
          .select(['chain_seq', 'format'])
          .where('database_id', '=', admin.databaseId)
          .orderBy('chain_seq')
          .execute();
      const middle = (
        await db
          .selectFrom('history_events')
          .select('id')
          .where('database_id', '=', admin.databaseId)
          .where('item_id', '=', folder.id)
          .orderBy('chain_seq', 'desc')
          .offset(20)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id;
      const views = async (): Promise<ReplayViewDto[]> => [
        await replayView(server, admin, folder.id),
        await replayView(server, admin, folder.id, { event: middle }),
        await replayView(server, admin, REPLAY_ROOT_ID, { event: middle }),
      ];

      await db.deleteFrom('replay_snapshots').where('database_id', '=', admin.databaseId).execute();
      const without = await views();
      expect(stateOf(without[0]!).items[folder.id]?.name).toBe('Chapter 3100');
      expect(stateOf(without[1]!).items[folder.id]?.name).toBe('Chapter 3080');
      await snapshotsSettled();
      const stored = await snapshots();
      expect(stored.length).toBeGreaterThanOrEqual(3);
      expect(new Set(stored.map((s) => Math.floor(Number(s.chain_seq) / 1_000))).size).toBe(
        stored.length,
      );
      expect(stored.every((s) => s.format === REPLAY_SNAPSHOT_FORMAT)).toBe(true);

      // From the snapshots: the same answers.
      expect(await views()).toEqual(without);
      // Each replay gets its own copy of a snapshot, whether decoded now or kept in memory.
      const first = await snapshotBefore(db, admin.databaseId, Number.MAX_SAFE_INTEGER);
      expect(first.seq).toBe(Number(stored.at(-1)!.chain_seq));
      const decoded = JSON.stringify(first.state);
      first.state.items[folder.id]!.name = 'Changed by one replay';
      const again = await snapshotBefore(db, admin.databaseId, Number.MAX_SAFE_INTEGER);
      expect(JSON.stringify(again.state)).toBe(decoded);

      // Snapshots of another format (older rules) are not read, and are replaced.
      await db
        .updateTable('replay_snapshots')
        .set({ format: REPLAY_SNAPSHOT_FORMAT - 1, state: 'not a snapshot of this format' })
        .where('database_id', '=', admin.databaseId)
        .execute();
      expect(await views()).toEqual(without);
      await snapshotsSettled();
      expect((await snapshots()).map((s) => s.format)).toEqual(
        stored.map(() => REPLAY_SNAPSHOT_FORMAT),
      );
      expect(await views()).toEqual(without);
    });

    it("finds a quiet folder's changes before the nearest snapshot, within the window's reach", async () => {
      const quiet = await makeFolder(server, admin, 'Quiet family');
      const busy = await makeFolder(server, admin, 'Busy family');
      const at = server.clock.now;
      const renames = (folderId: string, from: string, count: number, label: string) =>
        Array.from({ length: count }, (_, i) => ({
          entity_type: 'folder',
          entity_id: folderId,
          item_id: folderId,
          action: 'rename',
          user_id: admin.userId,
          user_name: 'Admin',
          attributes: {
            name: `${label} ${i + 1}`,
            prev: { name: i === 0 ? from : `${label} ${i}` },
            next: { name: `${label} ${i + 1}` },
            parent: { id: '', name: 'Root' },
          },
          at,
        }));
      // The quiet folder's renames lie about 1,100 positions back: before the newest snapshot,
      // within the window's reach (two snapshot intervals).
      const db = server.services.db;
      await appendEvents(db, admin.databaseId, renames(busy.id, 'Busy family', 2_500, 'Busy'));
      await appendEvents(db, admin.databaseId, renames(quiet.id, 'Quiet family', 5, 'Quiet'));
      await appendEvents(db, admin.databaseId, renames(busy.id, 'Busy 2500', 1_100, 'Busier'));
      await replayView(server, admin, busy.id);
      await snapshotsSettled();
      const newestSnapshot = await db
        .selectFrom('replay_snapshots')
        .select(({ fn }) => fn.max('chain_seq').as('seq'))
        .where('database_id', '=', admin.databaseId)
        .executeTakeFirstOrThrow();
      const quietRename = await db
        .selectFrom('history_events')
        .select(({ fn }) => fn.max('chain_seq').as('seq'))
        .where('database_id', '=', admin.databaseId)
        .where('item_id', '=', quiet.id)
        .executeTakeFirstOrThrow();
      expect(Number(quietRename.seq)).toBeLessThan(Number(newestSnapshot.seq));

      const view = await replayView(server, admin, quiet.id);
      const renamed = view.entries
        .filter((e) => e.event.action === 'rename')
        .map((e) => (e.event.attributes as { name?: string }).name);
      expect(renamed).toEqual(['Quiet 1', 'Quiet 2', 'Quiet 3', 'Quiet 4', 'Quiet 5']);
      expect(view.position).toBe(view.entries.length - 1);
      expect(stateOf(view).items[quiet.id]?.name).toBe('Quiet 5');
      // Stepping back to before the first rename shows the folder's first name.
      const first = view.entries.findIndex((e) => e.event.action === 'rename');
      expect(stateOf({ ...view, position: first - 1 }).items[quiet.id]?.name).toBe('Quiet family');
    });
  });
});
