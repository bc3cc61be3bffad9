/**
 * The disposition queue, on SQLite and PostgreSQL: it lists only files whose retention ended and
 * that no hold covers (not files still kept, held, waiting for a date, or under no schedule);
 * approving deletes exactly those files' rows and bytes, refuses the whole call when one of them
 * is not due (nothing deleted), and leaves one proof of deletion per file in the hash-chained
 * history (name, sha256, size, path, schedule, end, approver), written with the deletion.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  addPeriod,
  recordsMessage,
  RECORDS_MESSAGES,
  type ApproveDispositionResponse,
  type DispositionQueueDto,
} from '@common/retention';
import { newId } from '@server/ids';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import {
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
  eventsOf,
  fileAt,
  placeHold,
  refusal,
  today,
} from './recordsHelpers';

describeEachDatabase('disposition', (kind) => {
  let server: TestServer;
  let admin: Actor;
  beforeAll(async () => {
    server = await startTestServer(kind);
    // A firm of its own, so that the queue holds only this test's files.
    admin = await newActor(server, `disposition-admin-${kind}`, 'admin');
  });
  afterAll(async () => {
    await server.close();
  });

  async function queue(): Promise<DispositionQueueDto> {
    const response = await call(server, admin, 'GET', '/api/rest/private/disposition');
    expect(response.statusCode).toBe(200);
    return response.json<DispositionQueueDto>();
  }

  it('lists only what is due and not held; approval deletes only that and leaves its proof', async () => {
    const folder = await makeFolder(server, admin, 'Closed accounts');
    const inner = await makeFolder(server, admin, 'Jones', folder.id);
    const due = await fileAt(server, admin, 'due.pdf', inner.id, daysAgo(server, 40));
    const alsoDue = await fileAt(server, admin, 'also due.pdf', folder.id, daysAgo(server, 31));
    const kept = await fileAt(server, admin, 'kept.pdf', folder.id, daysAgo(server, 10));
    const heldFile = await fileAt(server, admin, 'held.pdf', folder.id, daysAgo(server, 90));
    const loose = await makeFolder(server, admin, 'No schedule');
    const unscheduled = await fileAt(server, admin, 'free.pdf', loose.id, daysAgo(server, 900));
    const schedule = await createSchedule(server, admin, {
      name: 'Thirty days',
      period_count: 30,
      period_unit: 'days',
      basis: 'created',
    });
    await applySchedule(server, admin, schedule.id, { type: 'folder', id: folder.id });
    await placeHold(server, admin, {
      name: 'Keep held.pdf',
      targets: [{ type: 'file', id: heldFile.id }],
    });
    // Archived or not, a due file is listed.
    await archived(server, admin, [{ type: 'file', id: alsoDue.id }]);

    const listed = await queue();
    expect(listed.today).toBe(today(server));
    expect(listed.total).toBe(2);
    expect(listed.items).toEqual([
      {
        id: due.id,
        name: 'due.pdf',
        path: 'Root / Closed accounts / Jones',
        size: expect.any(Number),
        sha256: due.sha256,
        archived: false,
        schedule_id: schedule.id,
        schedule_name: 'Thirty days',
        ended_on: addPeriod(daysAgo(server, 40).slice(0, 10), 30, 'days'),
      },
      expect.objectContaining({ id: alsoDue.id, archived: true, path: 'Root / Closed accounts' }),
    ]);

    // A file not due refuses the whole approval: nothing goes.
    const events = await eventCount(server, admin.databaseId);
    const mixed = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [due.id, kept.id],
    });
    expect(refusal(mixed)).toMatchObject({ status: 409, code: 'not_due' });
    expect(refusal(mixed).message).toContain('“kept.pdf” is kept by the retention schedule');
    const heldRefusal = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [heldFile.id],
    });
    expect(refusal(heldRefusal).message).toBe(
      recordsMessage(RECORDS_MESSAGES.underHold, {
        name: 'held.pdf',
        hold: 'Keep held.pdf',
        action: 'deleted',
      }),
    );
    const free = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [unscheduled.id],
    });
    expect(refusal(free).message).toBe(
      recordsMessage(RECORDS_MESSAGES.notInQueue, { name: 'free.pdf' }),
    );
    expect(await fileRow(server, due.id)).toBeDefined();
    expect(await eventCount(server, admin.databaseId)).toBe(events);

    const approved = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [due.id, alsoDue.id],
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json<ApproveDispositionResponse>()).toEqual({
      count: 2,
      items: [
        { id: due.id, name: 'due.pdf', sha256: due.sha256 },
        { id: alsoDue.id, name: 'also due.pdf', sha256: alsoDue.sha256 },
      ],
    });
    for (const gone of [due, alsoDue]) {
      expect(await fileRow(server, gone.id)).toBeUndefined();
      expect(await objectText(server, gone.storageKey)).toBeNull();
    }
    for (const stays of [kept, heldFile, unscheduled]) {
      expect(await fileRow(server, stays.id)).toBeDefined();
      expect(await objectText(server, stays.storageKey)).not.toBeNull();
    }
    expect(await eventCount(server, admin.databaseId)).toBe(events + 2);

    // The proof stays in the history after the bytes are gone.
    const proofs = await eventsOf(server, admin, { labels: ['Disposed'] });
    const proof = proofs.find((e) => e.entity_id === due.id)!;
    expect(proof).toMatchObject({
      entity_type: 'file',
      action: 'dispose',
      user_id: admin.userId,
      attributes: {
        name: 'due.pdf',
        parent: { id: inner.id, name: 'Jones' },
        disposition: {
          sha256: due.sha256,
          path: 'Root / Closed accounts / Jones',
          schedule: { id: schedule.id, name: 'Thirty days' },
          ended_on: addPeriod(daysAgo(server, 40).slice(0, 10), 30, 'days'),
          approved_by: `disposition-admin-${kind} Tester`,
        },
      },
    });
    expect(typeof (proof.attributes.disposition as { size: unknown }).size).toBe('number');
    expect(await chainIntact(server, admin)).toBe(true);
    expect((await queue()).total).toBe(0);
  });

  it('reaches files selected by an index value and leaves out files waiting for their date', async () => {
    const listField = await call(server, admin, 'POST', '/api/rest/index_fields', {
      name: `Record type ${newId().slice(-6)}`,
      type: 'list',
      values: ['Brokerage'],
    });
    const dateField = await call(server, admin, 'POST', '/api/rest/index_fields', {
      name: `Closed ${newId().slice(-6)}`,
      type: 'date',
    });
    const selector = await createSchedule(server, admin, {
      name: 'Brokerage three days',
      period_count: 3,
      period_unit: 'days',
      basis: 'created',
      selector_field_id: listField.json<{ id: string }>().id,
      selector_value: 'Brokerage',
    });
    const waiting = await createSchedule(server, admin, {
      name: 'After closing',
      period_count: 1,
      period_unit: 'days',
      basis: 'index_date',
      basis_field_id: dateField.json<{ id: string }>().id,
    });
    const folder = await makeFolder(server, admin, 'Selected');
    const tagged = await fileAt(server, admin, 'trade.pdf', folder.id, daysAgo(server, 5));
    const tagResponse = await call(server, admin, 'POST', '/api/rest/applied_indexes', {
      entity_id: tagged.id,
      indexes: [{ indexFieldId: selector.selector_field_id, value: 'Brokerage' }],
    });
    expect(tagResponse.statusCode).toBe(201);
    const pendingFolder = await makeFolder(server, admin, 'Not closed yet');
    const pending = await fileAt(server, admin, 'open.pdf', pendingFolder.id, daysAgo(server, 500));
    await applySchedule(server, admin, waiting.id, { type: 'folder', id: pendingFolder.id });

    const listed = await queue();
    expect(listed.items.map((i) => i.name)).toEqual(['trade.pdf']);
    expect(listed.items[0]!.schedule_name).toBe('Brokerage three days');
    const refused = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [pending.id],
    });
    expect(refusal(refused).code).toBe('not_due');
  });

  it('is for administrators of the firm only, and checks its input', async () => {
    const member = await newActor(server, `disposition-member-${kind}`, 'member', admin.databaseId);
    expect((await call(server, member, 'GET', '/api/rest/private/disposition')).statusCode).toBe(
      403,
    );
    const none = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [],
    });
    expect(refusal(none)).toEqual({
      status: 400,
      code: 'nothing_selected',
      message: RECORDS_MESSAGES.nothingSelected,
    });
    const unknown = await call(server, admin, 'POST', '/api/rest/private/disposition/approve', {
      file_ids: [newId()],
    });
    expect(unknown.statusCode).toBe(404);
  });
});
