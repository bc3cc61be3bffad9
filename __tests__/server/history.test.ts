/**
 * The activity history's server side, on SQLite and PostgreSQL: filters and date
 * presets with a fixed clock, keyset paging while events arrive, per-item history, the CSV
 * export, stats, the append-only table, the hash chain and its verifier, and firm isolation.
 */
import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DATE_PRESETS,
  datePresetRange,
  eventsForLabels,
  HISTORY_EVENT_PAIRS,
  HISTORY_FILTER_LABELS,
  labelFor,
} from '@common/history';
import type {
  HistoryEventDto,
  HistoryFilters,
  HistoryPageDto,
  HistoryStatsDto,
  HistoryUserDto,
  HistoryVerifyDto,
} from '@common/history';
import { migrateToLatest, openDatabase } from '@server/db/database';
import { migrations } from '@server/db/migrations';
import { newId } from '@server/ids';
import { insertFile } from '@server/repositories/files';
import {
  recordEvent,
  resolveHistoryQuery,
  verifyAllFirms,
  verifyHistoryChain,
} from '@server/services/history';
import {
  recordContactLinked,
  recordItemCreated,
  recordPermissionsAdded,
} from '@server/services/historyEvents';
import {
  EXPORT_BATCH_ROWS,
  openExportReader,
  storedExportBatch,
  type HistoryQuery,
  type StoredExportRow,
} from '@server/repositories/history';
import {
  csvCell,
  csvRecord,
  csvText,
  exportRecordText,
  HISTORY_CSV_COLUMNS,
  HISTORY_EXPORT_FORMAT,
} from '@server/services/historyCsv';
import { startHistoryExport } from '@server/services/historyReports';
import { GENESIS_HASH, idLowerBound } from '@server/services/historyChain';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { appendEvents, contextFor, parseCsv, type BulkEvent } from './historyHelpers';

const PASSWORD = 'history test password';

describeEachDatabase('history', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });
  // Tests move the clock; sessions need it back at the real time.
  afterEach(() => {
    server.clock.now = Date.now();
  });

  /** Runs a statement on the log behind its back: the append-only triggers are lifted, then put back. */
  async function tamper(statement: ReturnType<typeof sql>): Promise<void> {
    const { db } = server.services;
    if (kind === 'postgres') {
      await sql`alter table history_events disable trigger history_events_no_update_delete`.execute(
        db,
      );
      await statement.execute(db);
      await sql`alter table history_events enable trigger history_events_no_update_delete`.execute(
        db,
      );
    } else {
      await sql`drop trigger history_events_no_update`.execute(db);
      await sql`drop trigger history_events_no_delete`.execute(db);
      await statement.execute(db);
      await sql`create trigger history_events_no_update before update on history_events
        begin select raise(abort, 'history_events is append-only: UPDATE refused'); end`.execute(
        db,
      );
      await sql`create trigger history_events_no_delete before delete on history_events
        begin select raise(abort, 'history_events is append-only: DELETE refused'); end`.execute(
        db,
      );
    }
  }

  /** A new firm with one user of that role, signed in at the current clock. */
  async function newFirm(username: string, role: 'admin' | 'member' | 'read_only' = 'admin') {
    const { userId, databaseId } = await addUser(server, { username, password: PASSWORD, role });
    const cookie = await signIn(server, username, PASSWORD);
    const ctx = contextFor({ userId, databaseId, userName: `${username} Tester`, role });
    return { userId, databaseId, cookie, ctx };
  }

  async function list(
    cookie: string,
    filters: HistoryFilters = {},
    query = 'page=1&page_size=500',
  ): Promise<HistoryPageDto> {
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/rest/history?${query}`,
      headers: { cookie },
      payload: filters,
    });
    expect(response.statusCode).toBe(200);
    return response.json<HistoryPageDto>();
  }

  /** Every matching event, following the cursors. */
  async function listAll(cookie: string, filters: HistoryFilters = {}): Promise<HistoryEventDto[]> {
    const events: HistoryEventDto[] = [];
    let cursor: string | undefined;
    for (let page = 1; ; page += 1) {
      const result = await list(cookie, { ...filters, cursor }, `page=${page}&page_size=500`);
      events.push(...result.items);
      if (!result.next_cursor) return events;
      cursor = result.next_cursor;
    }
  }

  /** Records one event per known (entity_type, action) pair, plus a folder update. */
  async function onePerPair(ctx: ReturnType<typeof contextFor>) {
    await server.services.db.transaction().execute(async (trx) => {
      for (const pair of HISTORY_EVENT_PAIRS) {
        await recordEvent(trx, server.services, ctx, {
          entityType: pair.entity_type,
          entityId: newId(),
          action: pair.action,
          attributes: { name: `${pair.entity_type} ${pair.action}` },
        });
      }
    });
  }

  it('filters by each date preset and a custom range, boundaries included and excluded', async () => {
    const firm = await newFirm(`presets-${kind}`);
    const now = new Date(2024, 4, 15, 10, 30).getTime(); // Wednesday 15 May 2024, local time
    const moments = new Set<number>([now]);
    for (const preset of DATE_PRESETS) {
      const { start, end } = datePresetRange(preset, new Date(now));
      for (const t of [Date.parse(start), Date.parse(end)]) {
        moments.add(t - 1);
        moments.add(t);
      }
    }
    const sorted = [...moments].sort((a, b) => a - b);
    for (const at of sorted) {
      server.clock.now = at;
      await server.services.db
        .transaction()
        .execute((trx) =>
          recordItemCreated(
            trx,
            server.services,
            firm.ctx,
            { type: 'folder', id: newId(), name: new Date(at).toISOString() },
            { id: '', name: 'Root' },
          ),
        );
    }
    server.clock.now = now;
    const all = await listAll(firm.cookie);
    expect(all.length).toBeGreaterThanOrEqual(sorted.length);
    for (const preset of DATE_PRESETS) {
      const range = datePresetRange(preset, new Date(now));
      const expected = all
        .filter((e) => e.created_at >= range.start && e.created_at < range.end)
        .map((e) => e.id);
      const got = (await listAll(firm.cookie, range)).map((e) => e.id);
      expect({ preset, got }).toEqual({ preset, got: expected });
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      // The boundary events: the first moment of the range is in, the one before it is out.
      const names = (await listAll(firm.cookie, range)).map((e) => e.attributes.name);
      expect(names).toContain(range.start);
      expect(names).not.toContain(new Date(Date.parse(range.start) - 1).toISOString());
      expect(names).toContain(new Date(Date.parse(range.end) - 1).toISOString());
      expect(names).not.toContain(range.end);
    }
    // A custom range of one millisecond holds exactly the event made in it.
    const at = sorted[3]!;
    const custom = await listAll(firm.cookie, {
      start: new Date(at).toISOString(),
      end: new Date(at + 1).toISOString(),
    });
    expect(custom.map((e) => e.attributes.name)).toEqual([new Date(at).toISOString()]);
    // An inverted range is refused.
    const inverted = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history',
      headers: { cookie: firm.cookie },
      payload: { start: '2024-05-02T00:00:00.000Z', end: '2024-05-01T00:00:00.000Z' },
    });
    expect(inverted.statusCode).toBe(400);
  });

  it('filters by each of the activity-type labels (the 21 of the spec, 7 of records management, 2 of file versions and 6 of document requests), entity type and actions', async () => {
    const firm = await newFirm(`labels-${kind}`);
    await onePerPair(firm.ctx);
    const pairsOf = (events: HistoryEventDto[]) =>
      events.map((e) => `${e.entity_type}:${e.action}`).sort();
    // The spec's 21, the 7 of records management, the two of file versions, then the six of
    // document requests.
    expect(HISTORY_FILTER_LABELS).toHaveLength(36);
    for (const { label } of HISTORY_FILTER_LABELS) {
      const got = await listAll(firm.cookie, { labels: [label] });
      const expected = eventsForLabels([label]).map((p) => `${p.entity_type}:${p.action}`);
      expect({ label, pairs: pairsOf(got) }).toEqual({ label, pairs: [...expected].sort() });
      for (const event of got) expect(labelFor(event)).toBe(label);
    }
    const two = await listAll(firm.cookie, { labels: ['Added', 'Log in'] });
    expect(pairsOf(two)).toEqual(['file:create', 'folder:create', 'user:login']);
    const folders = await listAll(firm.cookie, { entity_type: 'folder' });
    expect(folders).toHaveLength(9);
    expect(new Set(folders.map((e) => e.entity_type))).toEqual(new Set(['folder']));
    const deletes = await listAll(firm.cookie, { actions: ['delete'] });
    expect(pairsOf(deletes)).toEqual(
      HISTORY_EVENT_PAIRS.filter((p) => p.action === 'delete')
        .map((p) => `${p.entity_type}:${p.action}`)
        .sort(),
    );
    const folderAdded = await listAll(firm.cookie, { labels: ['Added'], entity_type: 'folder' });
    expect(pairsOf(folderAdded)).toEqual(['folder:create']);
    const unknown = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history',
      headers: { cookie: firm.cookie },
      payload: { labels: ['Teleported'] },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('filters by user, by item and by entity, alone and combined with a label', async () => {
    const firm = await newFirm(`users-${kind}`);
    const other = await addUser(server, {
      username: `users-b-${kind}`,
      password: PASSWORD,
      databaseId: firm.databaseId,
    });
    const otherCtx = contextFor({ ...other, userName: 'Grace Hopper' });
    const folder = { type: 'folder' as const, id: newId(), name: 'Smith family' };
    const elsewhere = { type: 'folder' as const, id: newId(), name: 'Jones family' };
    const root = { id: '', name: 'Root' };
    const linkId = newId();
    await server.services.db.transaction().execute(async (trx) => {
      await recordItemCreated(trx, server.services, firm.ctx, folder, root);
      await recordItemCreated(trx, server.services, otherCtx, elsewhere, root);
      await recordContactLinked(
        trx,
        server.services,
        otherCtx,
        { id: linkId },
        'Ann Smith',
        folder,
      );
      await recordPermissionsAdded(trx, server.services, firm.ctx, folder, [
        { permissionable_id: other.userId, permissionable_type: 'user', name: 'Grace Hopper' },
      ]);
    });
    const byOther = await listAll(firm.cookie, { user_id: other.userId });
    expect(byOther.map((e) => `${e.entity_type}:${e.action}`)).toEqual([
      'folder_contact:create',
      'folder:create',
    ]);
    expect(byOther.every((e) => e.user_name === 'Grace Hopper')).toBe(true);
    const aboutFolder = await listAll(firm.cookie, { item_id: folder.id });
    expect(aboutFolder.map((e) => e.entity_type)).toEqual([
      'folder_permission',
      'folder_contact',
      'folder',
    ]);
    const byEntity = await listAll(firm.cookie, { entity_id: linkId });
    expect(byEntity.map((e) => e.entity_type)).toEqual(['folder_contact']);
    const combined = await listAll(firm.cookie, { user_id: other.userId, labels: ['Linked'] });
    expect(combined.map((e) => e.entity_id)).toEqual([linkId]);
    const none = await listAll(firm.cookie, { user_id: other.userId, labels: ['Log out'] });
    expect(none).toEqual([]);

    const users = await server.app.inject({
      method: 'GET',
      url: '/api/rest/history/users',
      headers: { cookie: firm.cookie },
    });
    expect(
      users
        .json<HistoryUserDto[]>()
        .map((u) => u.id)
        .sort(),
    ).toEqual([firm.userId, other.userId].sort());
  });

  it('pages by cursor: every event exactly once while new events arrive', async () => {
    const firm = await newFirm(`paging-${kind}`);
    const base = Date.parse('2024-06-01T12:00:00.000Z');
    const event = (i: number, at: number): BulkEvent => ({
      entity_type: 'folder',
      action: 'create',
      entity_id: newId(),
      user_id: firm.userId,
      user_name: 'Paging Tester',
      attributes: { name: `Folder ${i}` },
      at,
    });
    // 95 events, several sharing a millisecond.
    const original = await appendEvents(
      server.services.db,
      firm.databaseId,
      Array.from({ length: 95 }, (_, i) => event(i, base + Math.floor(i / 3) * 1000)),
    );
    const newestFirst = [...original].reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    let arrivals = 0;
    for (let page = 1; ; page += 1) {
      const result = await list(firm.cookie, { cursor }, `page=${page}&page_size=10`);
      if (page === 1) expect(result).toMatchObject({ total: 95, total_exact: true });
      seen.push(...result.items.map((e) => e.id));
      if (!result.next_cursor) break;
      expect(result.next_cursor).toBe(result.items[result.items.length - 1]!.id);
      cursor = result.next_cursor;
      // New events arrive between pages (newer than all the others).
      arrivals += 3;
      await appendEvents(
        server.services.db,
        firm.databaseId,
        [0, 1, 2].map((j) => event(1000 + arrivals + j, base + 200_000 + arrivals * 10 + j)),
      );
    }
    expect(seen).toEqual(newestFirst);
    expect(new Set(seen).size).toBe(95);
    // Without a cursor, page n is read by offset: page 3 of a fresh listing.
    const all = await listAll(firm.cookie);
    const page3 = await list(firm.cookie, {}, 'page=3&page_size=10');
    expect(page3.items.map((e) => e.id)).toEqual(all.slice(20, 30).map((e) => e.id));
    // A cursor also pages a filtered listing.
    const filteredIds: string[] = [];
    let next: string | undefined;
    do {
      const result = await list(
        firm.cookie,
        { labels: ['Added'], cursor: next },
        'page=1&page_size=7',
      );
      filteredIds.push(...result.items.map((e) => e.id));
      next = result.next_cursor ?? undefined;
    } while (next);
    expect(filteredIds).toEqual(all.map((e) => e.id));
  });

  it('answers the history of one folder or file, and 404 for another firm', async () => {
    const firm = await newFirm(`items-${kind}`);
    const stranger = await newFirm(`items-stranger-${kind}`);
    const folderResponse = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie: firm.cookie },
      payload: { name: 'Estate planning' },
    });
    const folder = folderResponse.json<{ id: string; name: string }>();
    const fileId = newId();
    const now = new Date(server.clock.now).toISOString();
    await insertFile(server.services.db, {
      id: fileId,
      database_id: firm.databaseId,
      folder_id: folder.id,
      name: 'Will.pdf',
      name_key: 'will.pdf',
      extension: 'pdf',
      size: 10,
      content_type: 'application/pdf',
      storage_key: `${firm.databaseId}/${fileId}`,
      status: 'ready',
      created_by: firm.userId,
      created_at: now,
      updated_at: now,
    });
    await server.services.db.transaction().execute(async (trx) => {
      await recordItemCreated(
        trx,
        server.services,
        firm.ctx,
        { type: 'file', id: fileId, name: 'Will.pdf' },
        folder,
      );
      await recordContactLinked(trx, server.services, firm.ctx, { id: newId() }, 'Ann', folder);
    });
    const folderHistory = await server.app.inject({
      method: 'GET',
      url: `/api/rest/folders/${folder.id}/history?page_size=1`,
      headers: { cookie: firm.cookie },
    });
    expect(folderHistory.statusCode).toBe(200);
    const first = folderHistory.json<HistoryPageDto>();
    expect(first.items.map((e) => e.entity_type)).toEqual(['folder_contact']);
    expect(first.total).toBe(2);
    const second = await server.app.inject({
      method: 'GET',
      url: `/api/rest/folders/${folder.id}/history?page=2&page_size=1&cursor=${first.next_cursor}`,
      headers: { cookie: firm.cookie },
    });
    expect(second.json<HistoryPageDto>().items.map((e) => `${e.entity_type}:${e.action}`)).toEqual([
      'folder:create',
    ]);
    expect(second.json<HistoryPageDto>().next_cursor).toBeNull();
    const fileHistory = await server.app.inject({
      method: 'GET',
      url: `/api/rest/files/${fileId}/history`,
      headers: { cookie: firm.cookie },
    });
    expect(fileHistory.json<HistoryPageDto>().items.map((e) => e.attributes.name)).toEqual([
      'Will.pdf',
    ]);
    for (const url of [
      `/api/rest/folders/${folder.id}/history`,
      `/api/rest/files/${fileId}/history`,
      `/api/rest/folders/${newId()}/history`,
    ]) {
      const response = await server.app.inject({
        method: 'GET',
        url,
        headers: { cookie: stranger.cookie },
      });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
  });

  it("never shows another firm's events: list, filters, cursor, stats and export", async () => {
    const a = await newFirm(`iso-a-${kind}`);
    const b = await newFirm(`iso-b-${kind}`);
    const at = Date.parse('2024-07-01T10:00:00.000Z');
    const mk = (userId: string, name: string, i: number): BulkEvent => ({
      entity_type: 'folder',
      action: 'create',
      entity_id: newId(),
      item_id: null,
      user_id: userId,
      user_name: name,
      attributes: { name: `${name} ${i}` },
      at: at + i,
    });
    const aIds = await appendEvents(
      server.services.db,
      a.databaseId,
      Array.from({ length: 5 }, (_, i) => mk(a.userId, 'A', i)),
    );
    const bIds = await appendEvents(
      server.services.db,
      b.databaseId,
      Array.from({ length: 3 }, (_, i) => mk(b.userId, 'B', i)),
    );
    const seenByB = (await listAll(b.cookie)).map((e) => e.id);
    expect(seenByB).toEqual([...bIds].reverse());
    expect(await listAll(b.cookie, { user_id: a.userId })).toEqual([]);
    expect(await listAll(b.cookie, { entity_id: (await listAll(a.cookie))[0]!.entity_id })).toEqual(
      [],
    );
    const afterA = await listAll(b.cookie, { cursor: aIds[4] });
    expect(afterA.every((e) => bIds.includes(e.id))).toBe(true);
    const stats = await server.app.inject({
      method: 'GET',
      url: `/api/rest/history/stats?start=2024-07-01T00:00:00.000Z&end=2024-07-02T00:00:00.000Z`,
      headers: { cookie: b.cookie },
    });
    expect(stats.json<HistoryStatsDto>().total).toBe(3);
    const exported = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history/export',
      headers: { cookie: b.cookie },
      payload: {},
    });
    const ids = parseCsv(exported.body)
      .slice(1)
      .map((r) => r[0]);
    expect(ids.filter((id) => aIds.includes(id!))).toEqual([]);
    expect(ids).toEqual(expect.arrayContaining(bIds));
  });

  it('exports 10,000 rows as CSV that parses back to the same rows, and records the export', async () => {
    const firm = await newFirm(`export-${kind}`);
    const base = Date.parse('2023-01-01T00:00:00.000Z');
    const awkward = [
      'Plain',
      'Comma, inside',
      'Quote "inside"',
      'Line\nbreak',
      'Crlf\r\nbreak',
      'Ünïcødé – 東京',
      '=SUM(A1:A2)',
      '-negative',
      '@mention',
      '  spaces  ',
    ];
    const events: BulkEvent[] = Array.from({ length: 10_000 }, (_, i) => {
      const pair = HISTORY_EVENT_PAIRS[i % HISTORY_EVENT_PAIRS.length]!;
      const name = awkward[i % awkward.length]!;
      return {
        entity_type: pair.entity_type,
        action: pair.action,
        entity_id: newId(),
        item_id: i % 2 === 0 ? newId() : null,
        user_id: firm.userId,
        user_name: i % 7 === 0 ? `+${name}` : 'Export Tester',
        attributes: { name, file_name: name, index_values: [{ name: 'Tax year', value: `${i}` }] },
        ip: i % 3 === 0 ? null : '198.51.100.4',
        user_agent: i % 5 === 0 ? null : 'Mozilla/5.0 (X11; "quoted")',
        at: base + i * 60_000,
      };
    });
    // Every other thousand is stored without export records (rows written before migration
    // 0016): the export renders those and streams the others' stored records, in one order.
    const ids: string[] = [];
    for (let i = 0; i < events.length; i += 1_000) {
      ids.push(
        ...(await appendEvents(server.services.db, firm.databaseId, events.slice(i, i + 1_000), {
          legacy: (i / 1_000) % 2 === 0,
        })),
      );
    }
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history/export',
      headers: { cookie: firm.cookie },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date(server.clock.now).toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="history_beginning_to_${today}.csv"`,
    );
    // UTF-8 with a byte order mark (spreadsheets), CRLF line ends, one record per row.
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.body.endsWith('\r\n')).toBe(true);
    const records = parseCsv(response.body);
    expect(records[0]).toEqual([...HISTORY_CSV_COLUMNS]);
    const rows = records.slice(1);
    expect(rows).toHaveLength(10_000);
    expect(rows.map((r) => r[0])).toEqual([...ids].reverse());
    const stored = await server.services.db
      .selectFrom('history_events')
      .selectAll()
      .where('database_id', '=', firm.databaseId)
      .where('id', 'in', ids)
      .orderBy('id', 'desc')
      .execute();
    expect(rows).toEqual(stored.map(csvRecord));
    expect(stored.filter((r) => r.export_record === null)).toHaveLength(5_000);
    for (const row of stored.filter((r) => r.export_record !== null)) {
      expect(row.export_format).toBe(HISTORY_EXPORT_FORMAT);
      expect(row.export_record).toBe(csvText([csvRecord(row)]));
    }
    // Spot checks against the source, independent of csvRecord.
    const byId = new Map(events.map((e, i) => [ids[i]!, e]));
    for (const row of rows.slice(0, 40)) {
      const source = byId.get(row[0]!)!;
      const column = (name: (typeof HISTORY_CSV_COLUMNS)[number]) =>
        row[HISTORY_CSV_COLUMNS.indexOf(name)]!;
      expect(JSON.parse(column('attributes'))).toEqual(source.attributes);
      expect(column('created_at')).toBe(new Date(source.at).toISOString());
      expect(column('ip')).toBe(source.ip ?? '');
      expect(column('user_agent')).toBe(source.user_agent ?? '');
      expect(column('user')).toBe(
        /^[=+\-@]/.test(source.user_name) ? `'${source.user_name}` : source.user_name,
      );
    }
    // The export itself is recorded as a user download, outside its own file.
    const downloads = await listAll(firm.cookie, { labels: ['Downloaded'], entity_type: 'user' });
    const exportEvent = downloads.find((e) => e.attributes.export?.kind === 'history');
    expect(exportEvent).toBeDefined();
    expect(exportEvent!.attributes.export!.file_name).toBe(`history_beginning_to_${today}.csv`);
    expect(rows.some((r) => r[0] === exportEvent!.id)).toBe(false);

    // A filtered export: the same filters as the list, the range in the file name.
    const filtered = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history/export',
      headers: { cookie: firm.cookie },
      payload: {
        labels: ['Log in'],
        start: '2023-01-02T05:00:00.000Z',
        end: '2023-01-05T05:00:00.000Z',
        time_zone: 'America/New_York',
      },
    });
    expect(filtered.headers['content-disposition']).toBe(
      'attachment; filename="history_2023-01-02_to_2023-01-04.csv"',
    );
    const filteredRows = parseCsv(filtered.body).slice(1);
    const expected = events
      .map((e, i) => ({ e, id: ids[i]! }))
      .filter(
        ({ e }) =>
          e.entity_type === 'user' &&
          e.action === 'login' &&
          e.at >= Date.parse('2023-01-02T05:00:00.000Z') &&
          e.at < Date.parse('2023-01-05T05:00:00.000Z'),
      )
      .map(({ id }) => id)
      .reverse();
    expect(expected.length).toBeGreaterThan(0);
    expect(filteredRows.map((r) => r[0])).toEqual(expected);
    const badZone = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history/export',
      headers: { cookie: firm.cookie },
      payload: { time_zone: 'Mars/Olympus_Mons' },
    });
    expect(badZone.statusCode).toBe(400);
    // The page total is exact up to 10,000 matching events and a lower bound beyond.
    const page = await list(
      firm.cookie,
      { labels: ['Log in', 'Added', 'Renamed'] },
      'page=1&page_size=5',
    );
    expect(page.total_exact).toBe(true);
    const everything = await list(firm.cookie, {}, 'page=1&page_size=5');
    expect(everything).toMatchObject({ total: 10_000, total_exact: false });
  });

  it('guards cells against spreadsheet formulas', () => {
    for (const text of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(text)).toBe(`'${text}`);
    }
    for (const text of ['', 'plain', ' =1', "'=1", 'a=b', '1-2']) expect(csvCell(text)).toBe(text);
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-42)).toBe("'-42");
  });

  it('reads export batches through the export reader exactly as through Kysely', async () => {
    const firm = await newFirm(`export-reader-${kind}`);
    const other = await newFirm(`export-reader-other-${kind}`);
    const base = Date.parse('2023-06-01T00:00:00.000Z');
    const users = [firm.userId, other.userId];
    const ids = await appendEvents(
      server.services.db,
      firm.databaseId,
      Array.from({ length: 2_500 }, (_, i) => {
        const pair = HISTORY_EVENT_PAIRS[(i * 7) % HISTORY_EVENT_PAIRS.length]!;
        return {
          entity_type: pair.entity_type,
          action: pair.action,
          entity_id: i % 10 === 0 ? 'entity-fixed' : newId(),
          item_id: i % 3 === 0 ? null : newId(),
          user_id: users[i % 2]!,
          user_name: i % 2 === 0 ? 'Reader Tester' : '=Other',
          attributes: { name: `Item ${i}`, file_name: `Ünïcødé, "${i}".pdf` },
          ip: i % 4 === 0 ? null : '198.51.100.9',
          user_agent: 'jest',
          at: base + i * 60_000,
        };
      }),
    );
    const cases: HistoryFilters[] = [
      {},
      { labels: ['Added', 'Renamed', 'Downloaded'] }, // one index range per pair (UNION ALL)
      { labels: ['Log in'] },
      { user_id: other.userId, labels: ['Added', 'Moved'] },
      { entity_id: 'entity-fixed' },
      {
        start: new Date(base + 500 * 60_000).toISOString(),
        end: new Date(base + 2_000 * 60_000).toISOString(),
      },
      { labels: [] },
    ];
    const reader = await openExportReader(server.services.db, kind);
    try {
      for (const filters of cases) {
        const read = async (batch: (q: HistoryQuery) => Promise<StoredExportRow[]>) => {
          const q = resolveHistoryQuery(firm.databaseId, filters);
          q.beforeId = idLowerBound(Date.now() + 60_000);
          const rows: StoredExportRow[] = [];
          for (;;) {
            const page = await batch(q);
            rows.push(...page);
            if (page.length < 1_000) return rows;
            q.beforeId = page[page.length - 1]!.id;
          }
        };
        const viaReader = await read((q) => reader.batch(q, 1_000));
        const viaKysely = await read((q) => storedExportBatch(server.services.db, q, 1_000));
        expect({ filters, rows: viaReader }).toEqual({ filters, rows: viaKysely });
        if (Object.keys(filters).length === 0) {
          expect(viaReader.map((r) => r.id)).toEqual([...ids].reverse());
        }
      }
    } finally {
      reader.close();
    }
    // An export whose consumer stops early (the client went away) releases its reader.
    const started = await startHistoryExport(server.services, firm.ctx, {});
    expect((await started.batches.next()).value).toEqual([HISTORY_CSV_COLUMNS.join(',')]);
    const first = (await started.batches.next()).value as string[];
    expect(first.length).toBeGreaterThanOrEqual(
      Math.min(ids.length, EXPORT_BATCH_ROWS[kind === 'sqlite' ? 'sqliteReader' : 'kysely']),
    );
    await expect(started.batches.return(undefined)).resolves.toEqual({
      done: true,
      value: undefined,
    });
  });

  it('counts per local day and per activity type; both sum to the number of events', async () => {
    const firm = await newFirm(`stats-${kind}`);
    // Around the 2024 US DST change (10 March, a 23-hour day in New York).
    const times = [
      '2024-03-09T04:59:59.999Z', // 8 March 23:59 in New York: before the range
      '2024-03-09T05:00:00.000Z', // 9 March 00:00
      '2024-03-10T04:30:00.000Z', // 9 March 23:30
      '2024-03-10T05:00:00.000Z', // 10 March 01:00 EST
      '2024-03-10T07:30:00.000Z', // 10 March 03:30 EDT
      '2024-03-11T03:59:59.999Z', // 10 March 23:59 EDT
      '2024-03-11T04:00:00.000Z', // 11 March 00:00 EDT
      '2024-03-12T04:00:00.000Z', // 12 March 00:00: after the range
    ];
    const labels = ['folder:create', 'user:login', 'folder:update', 'file:preview'];
    await appendEvents(
      server.services.db,
      firm.databaseId,
      times.map((t, i) => {
        const [entity_type, action] = labels[i % labels.length]!.split(':') as [string, string];
        return {
          entity_type,
          action,
          entity_id: newId(),
          user_id: firm.userId,
          user_name: 'Stats Tester',
          attributes: {},
          at: Date.parse(t),
        };
      }),
    );
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/rest/history/stats?start=2024-03-09T05:00:00.000Z&end=2024-03-12T04:00:00.000Z&time_zone=America/New_York',
      headers: { cookie: firm.cookie },
    });
    expect(response.statusCode).toBe(200);
    const stats = response.json<HistoryStatsDto>();
    expect(stats.days).toEqual([
      { date: '2024-03-09', count: 2 },
      { date: '2024-03-10', count: 3 },
      { date: '2024-03-11', count: 1 },
    ]);
    expect(stats.total).toBe(6);
    expect(stats.days.reduce((s, d) => s + d.count, 0)).toBe(stats.total);
    expect(stats.types.reduce((s, t) => s + t.count, 0)).toBe(stats.total);
    expect(stats.types.map((t) => t.label)).toEqual([
      ...HISTORY_FILTER_LABELS.map((l) => l.label),
      'Other',
    ]);
    const count = (label: string) => stats.types.find((t) => t.label === label)!.count;
    expect([count('Added'), count('Log in'), count('Downloaded'), count('Other')]).toEqual([
      1, 2, 1, 2,
    ]);
    // The list agrees with the stats.
    const listed = await listAll(firm.cookie, { start: stats.start, end: stats.end });
    expect(listed).toHaveLength(stats.total);
    expect(stats.labels).toEqual([]);

    // With the type filter the days and the total count only those types; the per-type counts
    // (what the filter picks from) stay those of every type.
    const filtered = await server.app.inject({
      method: 'GET',
      url: `/api/rest/history/stats?start=2024-03-09T05:00:00.000Z&end=2024-03-12T04:00:00.000Z&time_zone=America/New_York&labels=${encodeURIComponent('Log in,Added')}`,
      headers: { cookie: firm.cookie },
    });
    expect(filtered.statusCode).toBe(200);
    const only = filtered.json<HistoryStatsDto>();
    expect(only.total).toBe(3);
    expect(only.days.reduce((s, d) => s + d.count, 0)).toBe(3);
    expect(only.labels).toEqual(['Log in', 'Added']);
    expect(only.types).toEqual(stats.types);
    const listedOnly = await listAll(firm.cookie, {
      start: stats.start,
      end: stats.end,
      labels: ['Log in', 'Added'],
    });
    expect(listedOnly).toHaveLength(only.total);

    for (const [query, code] of [
      ['start=2024-03-10T00:00:00Z&end=2024-03-09T00:00:00Z', 'invalid_range'],
      ['start=2020-01-01T00:00:00Z&end=2024-01-01T00:00:00Z', 'range_too_long'],
      [
        'start=2024-03-09T00:00:00Z&end=2024-03-10T00:00:00Z&time_zone=Nowhere/Land',
        'invalid_time_zone',
      ],
      ['start=2024-03-09T00:00:00Z&end=2024-03-10T00:00:00Z&labels=Nonsense', 'invalid_label'],
    ] as const) {
      const bad = await server.app.inject({
        method: 'GET',
        url: `/api/rest/history/stats?${query}`,
        headers: { cookie: firm.cookie },
      });
      expect({ query, status: bad.statusCode, code: bad.json<{ code: string }>().code }).toEqual({
        query,
        status: 400,
        code,
      });
    }
  });

  it('refuses UPDATE and DELETE on history_events', async () => {
    const firm = await newFirm(`append-only-${kind}`);
    await onePerPair(firm.ctx);
    const { db } = server.services;
    const before = await db
      .selectFrom('history_events')
      .selectAll()
      .where('database_id', '=', firm.databaseId)
      .orderBy('id')
      .execute();
    // Matched on the message, not with toThrow: better-sqlite3 registers its error class once per
    // process, so in the second test file of a Jest worker its errors belong to another realm and
    // toThrow takes them for "did not throw".
    const refused = { message: expect.stringMatching(/append-only/) };
    expect(before.length).toBeGreaterThan(0);
    await expect(
      sql`update history_events set user_name = 'Mallory' where database_id = ${firm.databaseId}`.execute(
        db,
      ),
    ).rejects.toMatchObject(refused);
    await expect(
      sql`delete from history_events where database_id = ${firm.databaseId}`.execute(db),
    ).rejects.toMatchObject(refused);
    if (kind === 'postgres') {
      await expect(sql`truncate history_events`.execute(db)).rejects.toMatchObject(refused);
    }
    const after = await db
      .selectFrom('history_events')
      .selectAll()
      .where('database_id', '=', firm.databaseId)
      .orderBy('id')
      .execute();
    expect(after).toEqual(before);
  });

  it('chains every firm: concurrent appends stay one chain, the verifier finds tampering', async () => {
    const firm = await newFirm(`chain-${kind}`);
    const member = await addUser(server, {
      username: `chain-member-${kind}`,
      password: PASSWORD,
      role: 'member',
      databaseId: firm.databaseId,
    });
    const memberCookie = await signIn(server, `chain-member-${kind}`, PASSWORD);
    // 30 concurrent transactions append to the same chain.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        server.services.db
          .transaction()
          .execute((trx) =>
            recordItemCreated(
              trx,
              server.services,
              firm.ctx,
              { type: 'folder', id: newId(), name: `Concurrent ${i}` },
              { id: '', name: 'Root' },
            ),
          ),
      ),
    );
    const links = await server.services.db
      .selectFrom('history_events')
      .select(['chain_seq', 'prev_hash', 'hash'])
      .where('database_id', '=', firm.databaseId)
      .orderBy('chain_seq')
      .execute();
    expect(links.map((l) => Number(l.chain_seq))).toEqual(
      Array.from({ length: links.length }, (_, i) => i + 1),
    );
    expect(links[0]!.prev_hash).toBe(GENESIS_HASH);
    links.slice(1).forEach((link, i) => expect(link.prev_hash).toBe(links[i]!.hash));

    const verify = (cookie: string) =>
      server.app.inject({ method: 'GET', url: '/api/rest/history/verify', headers: { cookie } });
    const ok = await verify(firm.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<HistoryVerifyDto>()).toMatchObject({
      database_id: firm.databaseId,
      ok: true,
      checked: links.length,
      broken: null,
      head: { seq: links.length, hash: links[links.length - 1]!.hash },
    });
    expect((await verify(memberCookie)).statusCode).toBe(403);
    expect(member.databaseId).toBe(firm.databaseId);

    // Change a row behind the log's back (the trigger is lifted for that, then put back).
    const { db } = server.services;
    const victim = await db
      .selectFrom('history_events')
      .select(['id', 'chain_seq'])
      .where('database_id', '=', firm.databaseId)
      .where('chain_seq', '=', 12)
      .executeTakeFirstOrThrow();
    await tamper(
      sql`update history_events set attributes = '{"name":"Innocent"}' where id = ${victim.id}`,
    );
    const changed = (await verify(firm.cookie)).json<HistoryVerifyDto>();
    expect(changed).toMatchObject({
      ok: false,
      checked: 12,
      broken: { seq: 12, id: victim.id, reason: 'content does not match its hash' },
      head: { seq: 11 },
    });
    // The command-line verifier walks every firm and flags only this one.
    const all = await verifyAllFirms(db);
    expect(all.filter((r) => !r.ok).map((r) => r.database_id)).toContain(firm.databaseId);
    expect(all.find((r) => r.database_id !== firm.databaseId && !r.ok)).toBeUndefined();

    // A deleted row shows as a gap.
    const gapFirm = await newFirm(`chain-gap-${kind}`);
    await onePerPair(gapFirm.ctx);
    const fifth = await db
      .selectFrom('history_events')
      .select('id')
      .where('database_id', '=', gapFirm.databaseId)
      .where('chain_seq', '=', 5)
      .executeTakeFirstOrThrow();
    await tamper(sql`delete from history_events where id = ${fifth.id}`);
    expect(await verifyHistoryChain(db, gapFirm.databaseId)).toMatchObject({
      ok: false,
      broken: { seq: 5, id: null, reason: 'sequence gap' },
    });
  });

  it('stores each event with its export record; the verifier finds a record changed behind its back', async () => {
    const firm = await newFirm(`records-${kind}`);
    await onePerPair(firm.ctx);
    const { db } = server.services;
    const stored = await db
      .selectFrom('history_events')
      .selectAll()
      .where('database_id', '=', firm.databaseId)
      .orderBy('chain_seq')
      .execute();
    expect(stored.length).toBeGreaterThanOrEqual(HISTORY_EVENT_PAIRS.length);
    for (const row of stored) {
      expect(row.export_format).toBe(HISTORY_EXPORT_FORMAT);
      expect(row.export_record).toBe(exportRecordText(row));
      // One record of the export's columns, parsed back as it was rendered.
      expect(parseCsv(`${row.export_record!}\r\n`)).toEqual([csvRecord(row)]);
    }
    expect(await verifyHistoryChain(db, firm.databaseId)).toMatchObject({ ok: true });

    const victim = stored[6]!;
    const forged = exportRecordText({ ...victim, user_name: 'Someone Else' });
    await tamper(sql`update history_events set export_record = ${forged} where id = ${victim.id}`);
    expect(await verifyHistoryChain(db, firm.databaseId)).toMatchObject({
      ok: false,
      checked: Number(victim.chain_seq),
      broken: {
        seq: Number(victim.chain_seq),
        id: victim.id,
        reason: 'export record does not match its content',
      },
      head: { seq: Number(victim.chain_seq) - 1 },
    });

    // A record of an older format is neither checked nor exported: the export renders the row.
    await tamper(
      sql`update history_events set export_format = ${HISTORY_EXPORT_FORMAT - 1} where id = ${victim.id}`,
    );
    expect(await verifyHistoryChain(db, firm.databaseId)).toMatchObject({ ok: true });
    const exported = await server.app.inject({
      method: 'POST',
      url: '/api/rest/history/export',
      headers: { cookie: firm.cookie },
      payload: {},
    });
    const line = parseCsv(exported.body).find((r) => r[0] === victim.id);
    expect(line).toEqual(csvRecord(victim));
  });

  it('migration 0002 links the events written before it into per-firm chains', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dossier-migrate-'));
    let url = `sqlite://${path.join(dir, 'm.sqlite')}`;
    let drop = async () => undefined as unknown;
    if (kind === 'postgres') {
      const adminUrl = process.env.DOSSIER_TEST_PG_URL!;
      const name = `dossier_mig_${newId().replace(/-/g, '').slice(-12)}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const u = new URL(adminUrl);
      u.pathname = `/${name}`;
      url = u.toString();
      drop = async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      };
    }
    const database = openDatabase(url);
    try {
      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      const first = await migrator.migrateTo('0001_initial');
      expect(first.error).toBeUndefined();
      const now = '2024-01-01T00:00:00.000Z';
      const firms = [newId(), newId()];
      for (const id of firms) {
        await sql`insert into databases (id, name, description, created_at)
                  values (${id}, ${id}, ${id}, ${now})`.execute(database.db);
      }
      const old = [0, 1, 0, 1, 0].map((f, i) => ({ firm: firms[f]!, id: newId(), i }));
      for (const e of old) {
        await sql`insert into history_events (id, database_id, entity_type, entity_id, action,
                    user_id, user_name, attributes, ip, user_agent, created_at)
                  values (${e.id}, ${e.firm}, ${e.i === 4 ? 'user' : 'folder'}, ${`ent-${e.i}`},
                    ${e.i === 4 ? 'login' : 'create'}, 'u', 'Old User', '{"name":"x"}', null, null,
                    ${now})`.execute(database.db);
      }
      await migrateToLatest(database.db);
      for (const firm of firms) {
        const result = await verifyHistoryChain(database.db, firm);
        expect(result).toMatchObject({ ok: true, checked: firm === firms[0] ? 3 : 2 });
      }
      const items = await database.db
        .selectFrom('history_events')
        .select(['entity_id', 'item_id'])
        .orderBy('id')
        .execute();
      expect(items.map((r) => r.item_id)).toEqual(['ent-0', 'ent-1', 'ent-2', 'ent-3', null]);
    } finally {
      await database.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
