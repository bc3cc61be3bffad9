/**
 * Legal holds, on SQLite and PostgreSQL: what a hold covers (a folder with everything below, a
 * file, a contact's linked folders) cannot be archived or destroyed, whatever its retention says,
 * with 409 and the hold's name; it cannot leave the hold by a move or a contact unlink; a release
 * lets it go; holds and their scope are listed; placing, changing and releasing are history events
 * (in the same transaction: a refused change writes none), and a released hold never changes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  recordsMessage,
  RECORDS_MESSAGES,
  type ItemProtectionDto,
  type LegalHoldDto,
} from '@common/retention';
import { newId } from '@server/ids';
import { insertContacts } from '@server/repositories/contacts';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import {
  adminActor,
  call,
  eventCount,
  fileRow,
  makeFolder,
  newActor,
  objectText,
  type Actor,
} from './organiseHelpers';
import {
  applySchedule,
  archive,
  archived,
  chainIntact,
  createSchedule,
  daysAgo,
  destroy,
  eventsOf,
  expectRefusedByDatabase,
  fileAt,
  placeHold,
  refusal,
} from './recordsHelpers';

describeEachDatabase('legal holds', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'holds-member', 'member', admin.databaseId);
  });
  afterAll(async () => {
    await server.close();
  });

  const unique = (name: string) => `${name} ${newId().slice(-8)}`;
  const held = (name: string, hold: string, action: 'deleted' | 'archived') =>
    recordsMessage(RECORDS_MESSAGES.underHold, { name, hold, action });

  /** A CRM contact of the firm: its id. */
  async function contact(name: string): Promise<string> {
    const id = newId();
    const now = new Date(server.clock.now).toISOString();
    await insertContacts(server.services.db, [
      {
        id,
        database_id: admin.databaseId,
        crm_id: `crm-${id}`,
        name,
        name_key: name.toLowerCase(),
        email: null,
        phones: '[]',
        created_at: now,
        updated_at: now,
      },
    ]);
    return id;
  }

  describe('what a hold stops', () => {
    it('refuses archiving what a folder hold covers, below it at any depth, and the folders above it', async () => {
      const top = await makeFolder(server, admin, unique('Litigation'));
      const inner = await makeFolder(server, admin, 'Correspondence', top.id);
      const file = await fileAt(server, admin, 'letter.pdf', inner.id);
      const name = unique('Smith dispute');
      await placeHold(server, admin, {
        name,
        reason: 'Complaint received',
        matter: 'Smith v. Harbour',
        targets: [{ type: 'folder', id: inner.id }],
      });
      const events = await eventCount(server, admin.databaseId);
      expect(refusal(await archive(server, member, [{ type: 'file', id: file.id }]))).toEqual({
        status: 409,
        code: 'under_legal_hold',
        message: held('letter.pdf', name, 'archived'),
      });
      const single = await call(server, member, 'POST', `/api/rest/files/${file.id}/archive`);
      expect(refusal(single).code).toBe('under_legal_hold');
      // The folder above holds the held folder: archiving it would take it along.
      const above = refusal(await archive(server, admin, [{ type: 'folder', id: top.id }]));
      expect(above.status).toBe(409);
      expect(above.message).toMatch(/^“(Correspondence|letter\.pdf)” is under the legal hold/);
      expect((await fileRow(server, file.id))!.archived_at).toBeNull();
      expect(await eventCount(server, admin.databaseId)).toBe(events);
    });

    it('refuses destroying a held file even when its retention has ended; after the release it goes', async () => {
      const folder = await makeFolder(server, admin, unique('Closed accounts'));
      const file = await fileAt(server, admin, 'old.pdf', folder.id, daysAgo(server, 400));
      const schedule = await createSchedule(server, admin, {
        name: unique('One year'),
        period_count: 1,
        period_unit: 'years',
        basis: 'created',
      });
      await applySchedule(server, admin, schedule.id, { type: 'folder', id: folder.id });
      await archived(server, admin, [{ type: 'file', id: file.id }]);
      // An archived file can be held: the hold keeps it in the Archive.
      const name = unique('Examination');
      const hold = await placeHold(server, admin, {
        name,
        targets: [{ type: 'file', id: file.id }],
      });
      expect(refusal(await destroy(server, admin, [{ type: 'file', id: file.id }]))).toEqual({
        status: 409,
        code: 'under_legal_hold',
        message: held('old.pdf', name, 'deleted'),
      });
      const protection = await call(
        server,
        admin,
        'GET',
        `/api/rest/private/records/protection?type=file&id=${file.id}`,
      );
      expect(protection.json<ItemProtectionDto>()).toMatchObject({
        holds: [{ id: hold.id, name, matter: '' }],
        refusal: held('old.pdf', name, 'deleted'),
      });
      expect(await objectText(server, file.storageKey)).toContain('content of old.pdf');

      const released = await call(
        server,
        admin,
        'POST',
        `/api/rest/private/legal_holds/${hold.id}/release`,
      );
      expect(released.statusCode).toBe(200);
      expect(released.json<LegalHoldDto>().status).toBe('released');
      expect((await destroy(server, admin, [{ type: 'file', id: file.id }])).statusCode).toBe(200);
      expect(await fileRow(server, file.id)).toBeUndefined();
    });

    it('holds the folders a contact is linked to, and keeps the contact linked until the release', async () => {
      const jane = await contact(unique('Jane Smith'));
      const folder = await makeFolder(server, admin, unique('Smith household'));
      const file = await fileAt(server, admin, 'will.pdf', folder.id);
      const link = await call(server, admin, 'POST', '/api/rest/folder_contacts', {
        folder_id: folder.id,
        contact_id: jane,
      });
      expect(link.statusCode).toBe(201);
      const name = unique('Estate dispute');
      const hold = await placeHold(server, admin, {
        name,
        targets: [{ type: 'contact', id: jane }],
      });
      expect(hold.targets).toEqual([
        expect.objectContaining({ type: 'contact', item_id: jane, missing: false, path: '' }),
      ]);
      expect(refusal(await archive(server, member, [{ type: 'file', id: file.id }]))).toEqual({
        status: 409,
        code: 'under_legal_hold',
        message: held('will.pdf', name, 'archived'),
      });
      const unlink = await call(
        server,
        member,
        'DELETE',
        `/api/rest/folder_contacts/${folder.id}?contact_id=${jane}`,
      );
      expect(refusal(unlink)).toMatchObject({ status: 409, code: 'contact_on_hold' });
      await call(server, admin, 'POST', `/api/rest/private/legal_holds/${hold.id}/release`);
      expect((await archive(server, member, [{ type: 'file', id: file.id }])).statusCode).toBe(200);
      const unlinked = await call(
        server,
        member,
        'DELETE',
        `/api/rest/folder_contacts/${folder.id}?contact_id=${jane}`,
      );
      expect(unlinked.statusCode).toBe(204);
    });

    it('keeps a held item from leaving the hold by a move, until it is named by the hold itself', async () => {
      const heldFolder = await makeFolder(server, admin, unique('Held'));
      const sub = await makeFolder(server, admin, 'Sub', heldFolder.id);
      const outside = await makeFolder(server, admin, unique('Outside'));
      const file = await fileAt(server, admin, 'memo.pdf', heldFolder.id);
      const name = unique('Audit');
      const hold = await placeHold(server, admin, {
        name,
        targets: [{ type: 'folder', id: heldFolder.id }],
      });
      // Within the held tree a move is fine.
      const within = await call(server, member, 'PATCH', `/api/rest/files/${file.id}`, {
        parent_id: sub.id,
      });
      expect(within.statusCode).toBe(200);
      for (const request of [
        () =>
          call(server, member, 'PATCH', `/api/rest/files/${file.id}`, { parent_id: outside.id }),
        () =>
          call(server, member, 'POST', '/api/rest/bulk/move', {
            items: [{ type: 'folder', id: sub.id }],
            folder_id: outside.id,
          }),
      ]) {
        const response = await request();
        expect(refusal(response)).toMatchObject({
          status: 409,
          code: 'leaves_legal_hold',
        });
        expect(refusal(response).message).toContain(`the legal hold “${name}”`);
      }
      expect((await fileRow(server, file.id))!.folder_id).toBe(sub.id);
      const added = await call(
        server,
        admin,
        'POST',
        `/api/rest/private/legal_holds/${hold.id}/targets`,
        {
          type: 'file',
          id: file.id,
        },
      );
      expect(added.json<LegalHoldDto>().targets.map((t) => t.item_id)).toEqual([
        heldFolder.id,
        file.id,
      ]);
      const moved = await call(server, member, 'PATCH', `/api/rest/files/${file.id}`, {
        parent_id: outside.id,
      });
      expect(moved.statusCode).toBe(200);
      expect(refusal(await archive(server, member, [{ type: 'file', id: file.id }])).code).toBe(
        'under_legal_hold',
      );
    });
  });

  describe('managing holds', () => {
    it('lists holds with their scope and records place, change and release as events', async () => {
      const folder = await makeFolder(server, admin, unique('Scope'));
      const sub = await makeFolder(server, admin, 'Inner', folder.id);
      const file = await fileAt(server, admin, 'scope.pdf', sub.id);
      const before = await eventCount(server, admin.databaseId);
      const name = unique('Scope hold');
      const hold = await placeHold(server, admin, {
        name,
        reason: 'Subpoena',
        matter: 'SEC inquiry 42',
        targets: [
          { type: 'folder', id: sub.id },
          { type: 'file', id: file.id },
          { type: 'file', id: file.id },
        ],
      });
      expect(hold).toMatchObject({
        name,
        reason: 'Subpoena',
        matter: 'SEC inquiry 42',
        status: 'active',
      });
      expect(hold.targets.map((t) => ({ type: t.type, name: t.name, path: t.path }))).toEqual([
        { type: 'folder', name: 'Inner', path: `Root / ${folder.name}` },
        { type: 'file', name: 'scope.pdf', path: `Root / ${folder.name} / Inner` },
      ]);
      const changed = await call(
        server,
        admin,
        'PATCH',
        `/api/rest/private/legal_holds/${hold.id}`,
        {
          matter: 'SEC inquiry 43',
        },
      );
      expect(changed.json<LegalHoldDto>().matter).toBe('SEC inquiry 43');
      const off = await call(
        server,
        admin,
        'DELETE',
        `/api/rest/private/legal_holds/${hold.id}/targets/${hold.targets[1]!.id}`,
      );
      expect(off.json<LegalHoldDto>().targets).toHaveLength(1);
      const last = await call(
        server,
        admin,
        'DELETE',
        `/api/rest/private/legal_holds/${hold.id}/targets/${hold.targets[0]!.id}`,
      );
      expect(refusal(last)).toEqual({
        status: 400,
        code: 'hold_last_target',
        message: RECORDS_MESSAGES.holdLastTarget,
      });
      await call(server, admin, 'POST', `/api/rest/private/legal_holds/${hold.id}/release`);
      expect(await eventCount(server, admin.databaseId)).toBe(before + 4);

      const list = await call(server, admin, 'GET', '/api/rest/private/legal_holds');
      const listed = list.json<LegalHoldDto[]>().find((h) => h.id === hold.id)!;
      expect(listed).toMatchObject({ status: 'released', released_by_name: expect.any(String) });
      const placed = await eventsOf(server, admin, { labels: ['Hold placed'] });
      expect(placed.find((e) => e.entity_id === hold.id)!.attributes.targets).toEqual([
        { type: 'folder', id: sub.id, name: 'Inner' },
        { type: 'file', id: file.id, name: 'scope.pdf' },
      ]);
      const changes = (await eventsOf(server, admin, { labels: ['Hold changed'] })).filter(
        (e) => e.entity_id === hold.id,
      );
      expect(changes.map((e) => Object.keys(e.attributes).sort())).toEqual([
        ['hold', 'name', 'target_removed'],
        ['hold', 'hold_changes', 'name'],
      ]);
      const releases = await eventsOf(server, admin, { labels: ['Hold released'] });
      expect(releases.some((e) => e.entity_id === hold.id)).toBe(true);
      // The file's own history shows it taken off the hold.
      const fileHistory = await call(server, admin, 'GET', `/api/rest/files/${file.id}/history`);
      expect(
        fileHistory
          .json<{ items: { entity_type: string }[] }>()
          .items.some((e) => e.entity_type === 'legal_hold'),
      ).toBe(true);
      expect(await chainIntact(server, admin)).toBe(true);
    });

    it('never changes a released hold, refuses bad holds, and is for administrators only', async () => {
      const folder = await makeFolder(server, admin, unique('Released'));
      const hold = await placeHold(server, admin, {
        name: unique('Done'),
        targets: [{ type: 'folder', id: folder.id }],
      });
      const url = `/api/rest/private/legal_holds/${hold.id}`;
      await call(server, admin, 'POST', `${url}/release`);
      const events = await eventCount(server, admin.databaseId);
      for (const response of [
        await call(server, admin, 'PATCH', url, { name: 'Again' }),
        await call(server, admin, 'POST', `${url}/release`),
        await call(server, admin, 'POST', `${url}/targets`, { type: 'folder', id: folder.id }),
      ]) {
        expect(refusal(response)).toEqual({
          status: 409,
          code: 'hold_released',
          message: recordsMessage(RECORDS_MESSAGES.holdReleased, { name: hold.name }),
        });
      }
      expect(await eventCount(server, admin.databaseId)).toBe(events);
      await expectRefusedByDatabase(
        server.services.db.deleteFrom('legal_holds').where('id', '=', hold.id).execute(),
        /never deleted/,
      );
      await expectRefusedByDatabase(
        server.services.db
          .updateTable('legal_holds')
          .set({ released_at: null })
          .where('id', '=', hold.id)
          .execute(),
        /never changes/,
      );

      const post = (body: object) =>
        call(server, admin, 'POST', '/api/rest/private/legal_holds', body);
      expect(refusal(await post({ name: 'Nothing', targets: [] }))).toEqual({
        status: 400,
        code: 'hold_targets_required',
        message: RECORDS_MESSAGES.holdTargetsRequired,
      });
      expect(
        (await post({ name: ' ', targets: [{ type: 'folder', id: folder.id }] })).statusCode,
      ).toBe(400);
      expect(
        (await post({ name: 'Ghost', targets: [{ type: 'file', id: newId() }] })).statusCode,
      ).toBe(404);
      const other = await newActor(server, `holds-other-${kind}`, 'admin');
      const foreign = await call(server, other, 'POST', '/api/rest/private/legal_holds', {
        name: 'Not theirs',
        targets: [{ type: 'folder', id: folder.id }],
      });
      expect(foreign.statusCode).toBe(404);
      const byMember = await call(server, member, 'POST', '/api/rest/private/legal_holds', {
        name: 'Member hold',
        targets: [{ type: 'folder', id: folder.id }],
      });
      expect(byMember.statusCode).toBe(403);
    });
  });
});
