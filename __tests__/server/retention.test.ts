/**
 * Retention schedules, on SQLite and PostgreSQL: a destroy (one item, several, the whole Archive)
 * of a file under retention is refused with 409 and a message naming the schedule and the day it
 * ends, and nothing is lost; a schedule reaches files below the folder it is applied to, files
 * carrying its index value, and counts from a date index value (on the file or a folder above);
 * a locked schedule is only lengthened (never shortened, changed, taken off, unlocked or removed,
 * not even by a statement past the services); moves and index changes may not shorten a locked
 * retention; every change is one history event, and a refused change writes none.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  addPeriod,
  formatDay,
  recordsMessage,
  RECORDS_MESSAGES,
  type ItemProtectionDto,
  type RetentionScheduleDto,
} from '@common/retention';
import type { CursorPage } from '@common/api';
import type { ArchivedEntityDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import { newId } from '@server/ids';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
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
  archived,
  chainIntact,
  createSchedule,
  daysAgo,
  destroy,
  eventsOf,
  expectRefusedByDatabase,
  fileAt,
  refusal,
  today,
} from './recordsHelpers';

describeEachDatabase('retention schedules', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'retention-member', 'member', admin.databaseId);
  });
  afterAll(async () => {
    await server.close();
  });

  const unique = (name: string) => `${name} ${newId().slice(-8)}`;

  /** An index field through the API: its id. */
  async function indexField(type: 'date' | 'list', values?: string[]): Promise<string> {
    const response = await call(server, admin, 'POST', '/api/rest/index_fields', {
      name: unique(type === 'date' ? 'Account closed' : 'Record type'),
      type,
      values,
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  }

  /** Applies index values to a file or folder (201 expected): the applied rows' ids by field. */
  async function tag(entityId: string, indexes: { indexFieldId: string; value: string }[]) {
    const response = await call(server, admin, 'POST', '/api/rest/applied_indexes', {
      entity_id: entityId,
      indexes,
    });
    expect(response.statusCode).toBe(201);
    const items = response.json<{ items: { id: string; index_field_id: string }[] }>().items;
    return new Map(items.map((i) => [i.index_field_id, i.id]));
  }

  function protectionOf(type: 'file' | 'folder', id: string) {
    return call(server, admin, 'GET', `/api/rest/private/records/protection?type=${type}&id=${id}`);
  }

  describe('destroy under retention', () => {
    it('refuses destroying a file kept by a schedule of a folder above it, naming the schedule and its end; nothing is lost', async () => {
      const top = await makeFolder(server, admin, unique('Clients'));
      const below = await makeFolder(server, admin, 'Smith', top.id);
      const file = await fileAt(server, admin, 'Statement.pdf', below.id, daysAgo(server, 10));
      const schedule = await createSchedule(server, admin, {
        name: unique('SEC 17a-4'),
        period_count: 6,
        period_unit: 'years',
        basis: 'created',
      });
      await applySchedule(server, admin, schedule.id, { type: 'folder', id: top.id });
      await archived(server, admin, [{ type: 'file', id: file.id }]);
      const events = await eventCount(server, admin.databaseId);

      const ends = addPeriod(daysAgo(server, 10).slice(0, 10), 6, 'years');
      const expected = recordsMessage(RECORDS_MESSAGES.underRetention, {
        name: 'Statement.pdf',
        schedule: schedule.name,
        date: formatDay(ends),
      });
      for (const actor of [admin, member]) {
        const response = await destroy(server, actor, [{ type: 'file', id: file.id }]);
        expect(refusal(response)).toEqual({
          status: 409,
          code: 'under_retention',
          message: expected,
        });
      }
      expect(await fileRow(server, file.id)).toBeDefined();
      expect(await objectText(server, file.storageKey)).toContain('content of Statement.pdf');
      expect(await eventCount(server, admin.databaseId)).toBe(events);

      const protection = (await protectionOf('file', file.id)).json<ItemProtectionDto>();
      expect(protection).toMatchObject({
        retained_until: ends,
        retention_pending: false,
        holds: [],
        refusal: expected,
      });
      expect(protection.schedules).toEqual([
        {
          schedule_id: schedule.id,
          schedule_name: schedule.name,
          locked: false,
          ends_on: ends,
          via: 'folder',
        },
      ]);
    });

    it('refuses a destroy of several items and of a folder tree as a whole, counting the protected items', async () => {
      const folder = await makeFolder(server, admin, unique('Kept'));
      const kept = [
        await fileAt(server, admin, 'a.pdf', folder.id),
        await fileAt(server, admin, 'b.pdf', folder.id),
      ];
      const loose = await makeFolder(server, admin, unique('Loose'));
      const free = await fileAt(server, admin, 'free.pdf', loose.id);
      const schedule = await createSchedule(server, admin, {
        name: unique('Seven years'),
        period_count: 7,
        period_unit: 'years',
        basis: 'created',
      });
      await applySchedule(server, admin, schedule.id, { type: 'folder', id: folder.id });
      await archived(server, admin, [
        { type: 'folder', id: folder.id },
        { type: 'file', id: free.id },
      ]);
      const response = await destroy(server, member, [
        { type: 'file', id: free.id },
        { type: 'folder', id: folder.id },
      ]);
      const { status, code, message } = refusal(response);
      expect(status).toBe(409);
      expect(code).toBe('under_retention');
      expect(message).toContain(`the retention schedule “${schedule.name}”`);
      expect(message).toMatch(/ 1 more protected item in this request\.$/);
      for (const file of [...kept, free]) expect(await fileRow(server, file.id)).toBeDefined();

      // The unprotected file alone goes.
      const alone = await destroy(server, member, [{ type: 'file', id: free.id }]);
      expect(alone.statusCode).toBe(200);
      expect(await fileRow(server, free.id)).toBeUndefined();
    });

    it('refuses emptying the Archive while one archived file is kept; once its retention ends it empties', async () => {
      const isolated = await newActor(server, `archive-admin-${kind}`, 'admin');
      const folder = await makeFolder(server, isolated, 'Old accounts');
      const old = await fileAt(server, isolated, 'old.pdf', folder.id, daysAgo(server, 40));
      const recent = await fileAt(server, isolated, 'recent.pdf', folder.id, daysAgo(server, 5));
      const schedule = await createSchedule(server, isolated, {
        name: 'Thirty days',
        period_count: 30,
        period_unit: 'days',
        basis: 'created',
      });
      await applySchedule(server, isolated, schedule.id, { type: 'folder', id: folder.id });
      await archived(server, isolated, [
        { type: 'file', id: old.id },
        { type: 'file', id: recent.id },
      ]);
      const listArchive = async () =>
        (await call(server, isolated, 'GET', '/api/rest/entities/archived?page_size=500'))
          .json<CursorPage<ArchivedEntityDto>>()
          .items.map((item) => ({ type: item.type, id: item.id }));
      const everything = await listArchive();
      expect(everything).toHaveLength(2);
      const refused = refusal(await destroy(server, isolated, everything));
      expect(refused).toEqual({
        status: 409,
        code: 'under_retention',
        message: recordsMessage(RECORDS_MESSAGES.underRetention, {
          name: 'recent.pdf',
          schedule: 'Thirty days',
          date: formatDay(addPeriod(daysAgo(server, 5).slice(0, 10), 30, 'days')),
        }),
      });
      expect(await listArchive()).toHaveLength(2);

      // 25 days later the last one's retention has ended (on its end day it may go).
      server.clock.now += 25 * 86_400_000;
      try {
        // The session idled out meanwhile: sign in again.
        const later = {
          ...isolated,
          cookie: await signIn(server, `archive-admin-${kind}`, 'organise test password'),
        };
        const emptied = await destroy(server, later, everything);
        expect(emptied.statusCode).toBe(200);
        const left = await call(server, later, 'GET', '/api/rest/entities/archived?page_size=500');
        expect(left.json<CursorPage<ArchivedEntityDto>>().items).toHaveLength(0);
        expect(await objectText(server, recent.storageKey)).toBeNull();
      } finally {
        server.clock.now -= 25 * 86_400_000;
        // Signing in 25 days on swept the sessions idle since then: sign the others in again.
        admin.cookie = await signIn(server);
        member.cookie = await signIn(server, 'retention-member', 'organise test password');
      }
    });
  });

  describe('what a schedule reaches', () => {
    it('counts from a date index value, on the file or the nearest folder above; without one the file waits', async () => {
      const closed = await indexField('date');
      const schedule = await createSchedule(server, admin, {
        name: unique('Five years after closing'),
        period_count: 5,
        period_unit: 'years',
        basis: 'index_date',
        basis_field_id: closed,
      });
      const household = await makeFolder(server, admin, unique('Household'));
      const file = await fileAt(server, admin, 'Agreement.pdf', household.id);
      await applySchedule(server, admin, schedule.id, { type: 'folder', id: household.id });
      const fieldName = schedule.basis_field_name!;

      // No date yet: kept until one is set.
      await archived(server, admin, [{ type: 'file', id: file.id }]);
      expect(refusal(await destroy(server, admin, [{ type: 'file', id: file.id }]))).toEqual({
        status: 409,
        code: 'under_retention',
        message: recordsMessage(RECORDS_MESSAGES.underRetentionPending, {
          name: 'Agreement.pdf',
          schedule: schedule.name,
          period: '5 years',
          field: fieldName,
        }),
      });
      expect((await protectionOf('file', file.id)).json<ItemProtectionDto>()).toMatchObject({
        retained_until: null,
        retention_pending: true,
      });
      // The account closed four years ago, set on the folder: kept one more year.
      const closedOn = addPeriod(today(server), -48, 'months');
      await tag(household.id, [{ indexFieldId: closed, value: closedOn }]);
      const refused = refusal(await destroy(server, admin, [{ type: 'file', id: file.id }]));
      expect(refused.message).toContain(`until ${formatDay(addPeriod(closedOn, 5, 'years'))}`);
      // A date on the file itself wins over the folder's: six years ago, so it may go.
      const restore = await call(server, admin, 'POST', `/api/rest/files/${file.id}/restore`);
      expect(restore.statusCode).toBe(200);
      await tag(file.id, [{ indexFieldId: closed, value: addPeriod(today(server), -6, 'years') }]);
      await archived(server, admin, [{ type: 'file', id: file.id }]);
      expect((await destroy(server, admin, [{ type: 'file', id: file.id }])).statusCode).toBe(200);
      expect(await fileRow(server, file.id)).toBeUndefined();
    });

    it('keeps the files carrying its index value (or below a folder carrying it), and only those', async () => {
      const recordType = await indexField('list', ['Brokerage', 'Other']);
      const schedule = await createSchedule(server, admin, {
        name: unique('Brokerage records'),
        period_count: 3,
        period_unit: 'years',
        basis: 'created',
        selector_field_id: recordType,
        selector_value: 'brokerage',
      });
      expect(schedule.selector_value).toBe('brokerage');
      const folder = await makeFolder(server, admin, unique('Mixed'));
      const tagged = await fileAt(server, admin, 'trade.pdf', folder.id);
      const other = await fileAt(server, admin, 'note.pdf', folder.id);
      await tag(tagged.id, [{ indexFieldId: recordType, value: 'Brokerage' }]);
      await tag(other.id, [{ indexFieldId: recordType, value: 'Other' }]);
      const taggedFolder = await makeFolder(server, admin, unique('Brokerage account'));
      const inside = await fileAt(server, admin, 'confirm.pdf', taggedFolder.id);
      await tag(taggedFolder.id, [{ indexFieldId: recordType, value: 'Brokerage' }]);
      await archived(server, admin, [
        { type: 'file', id: tagged.id },
        { type: 'file', id: other.id },
        { type: 'file', id: inside.id },
      ]);
      for (const file of [tagged, inside]) {
        const response = await destroy(server, admin, [{ type: 'file', id: file.id }]);
        expect(refusal(response).message).toContain(`“${schedule.name}”`);
        const via = (await protectionOf('file', file.id)).json<ItemProtectionDto>().schedules;
        expect(via.map((s) => s.via)).toEqual(['index_value']);
      }
      expect((await destroy(server, admin, [{ type: 'file', id: other.id }])).statusCode).toBe(200);
    });

    it('keeps a file under the latest end of every schedule that applies', async () => {
      const folder = await makeFolder(server, admin, unique('Two rules'));
      const file = await fileAt(server, admin, 'both.pdf', folder.id, daysAgo(server, 100));
      const short = await createSchedule(server, admin, {
        name: unique('Short'),
        period_count: 1,
        period_unit: 'years',
        basis: 'created',
      });
      const long = await createSchedule(server, admin, {
        name: unique('Long'),
        period_count: 10,
        period_unit: 'years',
        basis: 'created',
      });
      await applySchedule(server, admin, short.id, { type: 'folder', id: folder.id });
      await applySchedule(server, admin, long.id, { type: 'file', id: file.id });
      const protection = (await protectionOf('file', file.id)).json<ItemProtectionDto>();
      expect(protection.retained_until).toBe(
        addPeriod(daysAgo(server, 100).slice(0, 10), 10, 'years'),
      );
      expect(protection.refusal).toContain(`“${long.name}”`);
      expect(protection.schedules.map((s) => s.via).sort()).toEqual(['folder', 'item']);
    });
  });

  describe('locked schedules', () => {
    it('lengthens a locked schedule but never shortens, changes, unlocks or removes it, even for an administrator', async () => {
      const folder = await makeFolder(server, admin, unique('Locked'));
      const schedule = await createSchedule(server, admin, {
        name: unique('SEC six years'),
        period_count: 6,
        period_unit: 'years',
        basis: 'created',
      });
      const applied = await applySchedule(server, admin, schedule.id, {
        type: 'folder',
        id: folder.id,
      });
      const locked = await call(
        server,
        admin,
        'POST',
        `/api/rest/private/retention_schedules/${schedule.id}/lock`,
      );
      expect(locked.statusCode).toBe(200);
      expect(locked.json<RetentionScheduleDto>().locked_at).not.toBeNull();
      const url = `/api/rest/private/retention_schedules/${schedule.id}`;
      const events = await eventCount(server, admin.databaseId);

      const shorten = recordsMessage(RECORDS_MESSAGES.lockedShorten, { name: schedule.name });
      for (const body of [
        { period_count: 5 },
        { period_count: 71, period_unit: 'months' },
        { period_count: 2000, period_unit: 'days' },
      ]) {
        expect(refusal(await call(server, admin, 'PATCH', url, body))).toEqual({
          status: 409,
          code: 'schedule_locked',
          message: shorten,
        });
      }
      expect(refusal(await call(server, admin, 'PATCH', url, { basis: 'last_version' }))).toEqual({
        status: 409,
        code: 'schedule_locked',
        message: recordsMessage(RECORDS_MESSAGES.lockedChange, { name: schedule.name }),
      });
      expect(refusal(await call(server, admin, 'PATCH', url, { locked: false }))).toEqual({
        status: 409,
        code: 'schedule_locked',
        message: RECORDS_MESSAGES.unlockRefused,
      });
      expect(refusal(await call(server, admin, 'DELETE', url))).toEqual({
        status: 409,
        code: 'schedule_locked',
        message: recordsMessage(RECORDS_MESSAGES.lockedDelete, { name: schedule.name }),
      });
      const takeOff = await call(
        server,
        admin,
        'DELETE',
        `${url}/targets/${applied.targets[0]!.id}`,
      );
      expect(refusal(takeOff).code).toBe('schedule_locked');
      expect(await eventCount(server, admin.databaseId)).toBe(events);

      // Lengthening works, in the same unit or another, and so does a new name.
      const longer = await call(server, admin, 'PATCH', url, { period_count: 7 });
      expect(longer.statusCode).toBe(200);
      const months = await call(server, admin, 'PATCH', url, {
        period_count: 90,
        period_unit: 'months',
        name: `${schedule.name} (extended)`,
      });
      expect(months.statusCode).toBe(200);
      expect(months.json<RetentionScheduleDto>()).toMatchObject({
        period_count: 90,
        period_unit: 'months',
        name: `${schedule.name} (extended)`,
      });
      const changes = await eventsOf(server, admin, { labels: ['Schedule changed'] });
      const mine = changes.filter((e) => e.entity_id === schedule.id);
      expect(mine.map((e) => e.action)).toEqual(['update', 'update', 'lock', 'update']);
      expect(mine[0]!.attributes.schedule_changes).toEqual({
        name: { prev: schedule.name, next: `${schedule.name} (extended)` },
        period: { prev: '7 years', next: '90 months' },
      });
      expect(await chainIntact(server, admin)).toBe(true);
    });

    it('refuses, in the database too, deleting or unlocking a locked schedule behind the services', async () => {
      const schedule = await createSchedule(server, admin, {
        name: unique('Locked at once'),
        period_count: 3,
        period_unit: 'years',
        basis: 'created',
        locked: true,
      });
      expect(schedule.locked_at).not.toBeNull();
      const { db } = server.services;
      await expectRefusedByDatabase(
        db.deleteFrom('retention_schedules').where('id', '=', schedule.id).execute(),
        /locked retention schedule/,
      );
      await expectRefusedByDatabase(
        db
          .updateTable('retention_schedules')
          .set({ locked_at: null })
          .where('id', '=', schedule.id)
          .execute(),
        /locked retention schedule/,
      );
      await expectRefusedByDatabase(
        db
          .updateTable('retention_schedules')
          .set({ period_count: 2 })
          .where('id', '=', schedule.id)
          .execute(),
        /locked retention schedule/,
      );
      const row = await db
        .selectFrom('retention_schedules')
        .selectAll()
        .where('id', '=', schedule.id)
        .executeTakeFirstOrThrow();
      expect(row.locked_at).not.toBeNull();
      expect(Number(row.period_count)).toBe(3);
    });

    it('refuses a move or an index change that would shorten a locked retention; an unlocked one follows the move', async () => {
      const closed = await indexField('date');
      const lockedSchedule = await createSchedule(server, admin, {
        name: unique('Locked by closing'),
        period_count: 5,
        period_unit: 'years',
        basis: 'index_date',
        basis_field_id: closed,
        locked: true,
      });
      const kept = await makeFolder(server, admin, unique('Locked home'));
      const elsewhere = await makeFolder(server, admin, unique('Elsewhere'));
      await applySchedule(server, admin, lockedSchedule.id, { type: 'folder', id: kept.id });
      const file = await fileAt(server, admin, 'closing.pdf', kept.id);
      const applied = await tag(file.id, [{ indexFieldId: closed, value: today(server) }]);
      const appliedId = applied.get(closed)!;

      const move = await call(server, member, 'PATCH', `/api/rest/files/${file.id}`, {
        parent_id: elsewhere.id,
      });
      expect(refusal(move)).toMatchObject({ status: 409, code: 'shortens_locked_retention' });
      const bulkMove = await call(server, member, 'POST', '/api/rest/bulk/move', {
        items: [{ type: 'file', id: file.id }],
        folder_id: elsewhere.id,
      });
      expect(refusal(bulkMove).code).toBe('shortens_locked_retention');
      expect((await fileRow(server, file.id))!.folder_id).toBe(kept.id);

      // An earlier date, or none, would shorten it; a later one lengthens it.
      const earlier = await call(
        server,
        member,
        'PATCH',
        `/api/rest/applied_indexes/${appliedId}`,
        {
          value: addPeriod(today(server), -1, 'years'),
        },
      );
      expect(refusal(earlier).code).toBe('shortens_locked_retention');
      const removed = await call(
        server,
        member,
        'DELETE',
        `/api/rest/applied_indexes/${appliedId}`,
      );
      expect(refusal(removed).code).toBe('shortens_locked_retention');
      const later = await call(server, member, 'PATCH', `/api/rest/applied_indexes/${appliedId}`, {
        value: addPeriod(today(server), 1, 'years'),
      });
      expect(later.statusCode).toBe(200);

      // The index field a schedule reads stays.
      const fieldDelete = await call(server, admin, 'DELETE', `/api/rest/index_fields/${closed}`);
      expect(refusal(fieldDelete).code).toBe('index_field_in_schedule');

      // Under an unlocked schedule the file may move (and leaves the schedule).
      const unlocked = await createSchedule(server, admin, {
        name: unique('Unlocked'),
        period_count: 5,
        period_unit: 'years',
        basis: 'created',
      });
      const free = await makeFolder(server, admin, unique('Unlocked home'));
      await applySchedule(server, admin, unlocked.id, { type: 'folder', id: free.id });
      const movable = await fileAt(server, admin, 'movable.pdf', free.id);
      const moved = await call(server, member, 'PATCH', `/api/rest/files/${movable.id}`, {
        parent_id: elsewhere.id,
      });
      expect(moved.statusCode).toBe(200);
    });
  });

  describe('managing schedules', () => {
    it('checks what a schedule is given and records each change as one event', async () => {
      const bad = async (body: object) =>
        refusal(await call(server, admin, 'POST', '/api/rest/private/retention_schedules', body));
      expect(
        await bad({ name: ' ', period_count: 1, period_unit: 'years', basis: 'created' }),
      ).toMatchObject({ status: 400, message: RECORDS_MESSAGES.nameRequired });
      expect(
        await bad({ name: 'Zero', period_count: 0, period_unit: 'years', basis: 'created' }),
      ).toMatchObject({ status: 400, code: 'invalid_period' });
      expect(
        await bad({ name: 'No field', period_count: 1, period_unit: 'years', basis: 'index_date' }),
      ).toMatchObject({ status: 400, message: RECORDS_MESSAGES.basisFieldRequired });
      const list = await indexField('list', ['A']);
      expect(
        await bad({
          name: 'Not a date',
          period_count: 1,
          period_unit: 'years',
          basis: 'index_date',
          basis_field_id: list,
        }),
      ).toMatchObject({ status: 400, code: 'basis_field_not_date' });
      expect(
        await bad({
          name: 'Half a selector',
          period_count: 1,
          period_unit: 'years',
          basis: 'created',
          selector_field_id: list,
        }),
      ).toMatchObject({ status: 400, message: RECORDS_MESSAGES.selectorIncomplete });
      const name = unique('Unique name');
      await createSchedule(server, admin, {
        name,
        period_count: 1,
        period_unit: 'years',
        basis: 'created',
      });
      expect(
        await bad({
          name: name.toUpperCase(),
          period_count: 1,
          period_unit: 'years',
          basis: 'created',
        }),
      ).toMatchObject({ status: 409, code: 'schedule_name_taken' });
      // Members cannot manage schedules.
      const forbidden = await call(
        server,
        member,
        'POST',
        '/api/rest/private/retention_schedules',
        {
          name: 'Member schedule',
          period_count: 1,
          period_unit: 'years',
          basis: 'created',
        },
      );
      expect(forbidden.statusCode).toBe(403);

      const before = await eventCount(server, admin.databaseId);
      const schedule = await createSchedule(server, admin, {
        name: unique('Drafts'),
        period_count: 30,
        period_unit: 'days',
        basis: 'last_version',
      });
      const folder = await makeFolder(server, admin, unique('Drafts folder'));
      const applied = await applySchedule(server, admin, schedule.id, {
        type: 'folder',
        id: folder.id,
      });
      expect(applied.targets).toEqual([
        expect.objectContaining({
          type: 'folder',
          item_id: folder.id,
          name: folder.name,
          path: 'Root',
          missing: false,
        }),
      ]);
      // Applying again changes nothing.
      await applySchedule(server, admin, schedule.id, { type: 'folder', id: folder.id });
      const off = await call(
        server,
        admin,
        'DELETE',
        `/api/rest/private/retention_schedules/${schedule.id}/targets/${applied.targets[0]!.id}`,
      );
      expect(off.json<RetentionScheduleDto>().targets).toEqual([]);
      const removed = await call(
        server,
        admin,
        'DELETE',
        `/api/rest/private/retention_schedules/${schedule.id}`,
      );
      expect(removed.statusCode).toBe(204);
      // Created, the folder added, applied, taken off, removed: one event each.
      expect(await eventCount(server, admin.databaseId)).toBe(before + 5);
      const mine = (await eventsOf(server, admin, { entity_type: 'retention_schedule' })).filter(
        (e: HistoryEventDto) => e.entity_id === schedule.id,
      );
      expect(mine.map((e) => `${e.action}`)).toEqual(['delete', 'update', 'update', 'create']);
      expect(mine[1]!.attributes.target_removed).toEqual({
        type: 'folder',
        id: folder.id,
        name: folder.name,
      });
      // The folder's own history shows the schedule applied and taken off.
      const folderHistory = await call(
        server,
        admin,
        'GET',
        `/api/rest/folders/${folder.id}/history`,
      );
      expect(
        folderHistory
          .json<{ items: HistoryEventDto[] }>()
          .items.filter((e) => e.entity_type === 'retention_schedule'),
      ).toHaveLength(2);
    });
  });
});
