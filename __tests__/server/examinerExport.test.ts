/**
 * The examiner's export on SQLite and PostgreSQL: the zip's contents (files at their folder paths,
 * index.csv, history.csv, manifest.json), the scope rules (a folder's tree only, a contact's
 * folders, a date range, the whole firm), who may export, the export recorded in History, its
 * progress, and the documented verification (`npm run history:verify -- --export FILE.zip`)
 * passing on the zip as exported and failing after a file or a history row was changed.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ZipStream from 'zip-stream';
import type { ExaminerExportDto, ExaminerScope } from '@common/examinerExport';
import { nameKey } from '@common/names';
import type { HistoryPageDto } from '@common/history';
import { newId } from '@server/ids';
import type { Executor } from '@server/repositories/types';
import { recordItemCreated, recordUserLogin } from '@server/services/historyEvents';
import { verifyExaminerExport } from '@server/services/examinerVerify';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { appendEvents, contextFor, parseCsv, seededAdmin } from './historyHelpers';
import { fileRow, folderRow, insertRows, storeObject, type Firm } from './seedRows';
import { unzipEntries } from './zipHelpers';

const ROOT = path.resolve(__dirname, '../..');
const PASSWORD = 'examiner-test-password';
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The manifest's fields the tests read. */
interface Manifest {
  format: string;
  firm: { id: string; name: string };
  scope: { kind: string };
  exported_by: { user_id: string; name: string };
  export_event: { id: string; chain_seq: number; hash: string; attributes: string };
  totals: { files: number; bytes: number; events: number };
  documents: { path: string; size: number; sha256: string }[];
  files: { path: string; file_id: string; size: number; sha256: string; newest: boolean }[];
  history: {
    database_id: string;
    count: number;
    complete: boolean;
    events: { id: string; chain_seq: number; prev_hash: string; hash: string }[];
  };
}

/** Runs the command-line verifier on a zip file. */
function verifyCli(file: string): { status: number | null; stdout: string } {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'server/cli/historyVerify.ts'), '--export', file],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: run.status, stdout: run.stdout };
}

/** Rewrites a zip with some entries replaced (the others copied as they are). */
async function rezip(
  entries: Map<string, Buffer | null>,
  replace: Record<string, Buffer>,
): Promise<Buffer> {
  const zip = new ZipStream();
  const chunks: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => zip.on('end', resolve));
  for (const [name, data] of entries) {
    await new Promise<void>((resolve, reject) =>
      zip.entry(
        data === null ? null : (replace[name] ?? data),
        { name, type: data === null ? 'directory' : 'file' },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }
  zip.finalize();
  await ended;
  return Buffer.concat(chunks);
}

describeEachDatabase('examiner export', (kind) => {
  let server: TestServer;
  let cookie: string;
  let memberCookie: string;
  let otherCookie: string;
  let firm: Firm;
  /** A moment after every event the sign-ins wrote; events of the fixture follow it. */
  let base: number;
  const tree = {} as Record<
    'clients' | 'smith' | 'year' | 'jones' | 'empty',
    { id: string; name: string }
  >;
  const files = {} as Record<
    'statement' | 'notes' | 'jones' | 'top' | 'archived',
    { id: string; name: string; body: Buffer }
  >;
  const contactId = newId();
  const idleContactId = newId();
  const fieldId = newId();
  let guardedEventId = '';
  let jonesEventId = '';

  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

  beforeAll(async () => {
    server = await startTestServer(kind);
    firm = await seededAdmin(server.services.db);
    await addUser(server, {
      username: 'examiner-member',
      password: PASSWORD,
      role: 'member',
      databaseId: firm.databaseId,
    });
    await addUser(server, { username: 'examiner-other', password: PASSWORD, role: 'admin' });
    base = server.clock.now + 60_000;
    const { db } = server.services;

    const clients = folderRow(firm, '', `Clients ${newId().slice(-4)}`, { updated_at: at(1) });
    const smith = folderRow(firm, clients.id, 'Smith family', { updated_at: at(2) });
    const year = folderRow(firm, smith.id, '2026', { updated_at: at(3) });
    const jones = folderRow(firm, clients.id, 'Jones', { updated_at: at(4) });
    const empty = folderRow(firm, smith.id, 'Empty', { updated_at: at(5) });
    Object.assign(tree, { clients, smith, year, jones, empty });
    const make = (folderId: string, name: string, body: Buffer, minute: number, extra = {}) => {
      const row = fileRow(firm, folderId, name, {
        sha256: sha256(body),
        created_at: at(minute),
        updated_at: at(minute),
        ...extra,
      });
      return { row, body };
    };
    const made = {
      statement: make(smith.id, 'Statement.pdf', randomBytes(200_000), 10),
      notes: make(year.id, '=notes.txt', Buffer.from('a note\n'.repeat(500)), 20),
      jones: make(jones.id, 'Jones.pdf', randomBytes(5000), 30),
      top: make('', `Top ${newId().slice(-4)}.pdf`, randomBytes(700), 40),
      archived: make(smith.id, 'Old.pdf', Buffer.from('old'), 10, {
        archived_at: at(11),
        archived_root_id: null,
      }),
    };
    for (const [key, value] of Object.entries(made)) {
      await storeObject(server, value.row, value.body);
      files[key as keyof typeof files] = {
        id: value.row.id,
        name: value.row.name,
        body: value.body,
      };
    }
    made.archived.row.archived_root_id = made.archived.row.id;
    await insertRows(server, {
      folders: [clients, smith, year, jones, empty],
      files: Object.values(made).map((f) => f.row),
    });

    // Contacts: "Jane Smith" on Smith family and (nested) on 2026; "Firm contact" on Clients.
    const now = at(0);
    await db
      .insertInto('contacts')
      .values(
        [
          [contactId, 'Jane Smith'],
          [idleContactId, 'Nobody Linked'],
          [newId(), 'Firm contact'],
        ].map(([id, name]) => ({
          id: id!,
          database_id: firm.databaseId,
          crm_id: null,
          name: name!,
          name_key: nameKey(name!),
          email: null,
          phones: '[]',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const firmContact = await db
      .selectFrom('contacts')
      .select('id')
      .where('name', '=', 'Firm contact')
      .where('database_id', '=', firm.databaseId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('folder_contacts')
      .values(
        [
          [smith.id, contactId],
          [year.id, contactId],
          [clients.id, firmContact.id],
        ].map(([folderId, id]) => ({
          id: newId(),
          database_id: firm.databaseId,
          folder_id: folderId!,
          contact_id: id!,
          created_by: firm.userId,
          created_at: now,
        })),
      )
      .execute();
    // An index field applied to the statement.
    await db
      .insertInto('index_fields')
      .values({
        id: fieldId,
        database_id: firm.databaseId,
        name: 'Account closed',
        name_key: 'account closed',
        archived_at: null,
        deleted_at: null,
        created_by: firm.userId,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('applied_indexes')
      .values({
        id: newId(),
        database_id: firm.databaseId,
        entity_type: 'file',
        entity_id: made.statement.row.id,
        index_field_id: fieldId,
        value: '2026-03-31',
        archived_at: null,
        created_by: firm.userId,
        created_at: now,
        updated_at: now,
      })
      .execute();

    // History: a create event per folder and file, each at its own minute, and a sign-in.
    const ctx = contextFor({
      userId: firm.userId,
      databaseId: firm.databaseId,
      userName: 'Demo Administrator',
    });
    const record = async (minute: number, write: (trx: Executor) => Promise<string>) => {
      server.clock.now = base + minute * 60_000;
      return db.transaction().execute((trx) => write(trx));
    };
    const created =
      (item: { id: string; name: string }, type: 'file' | 'folder', parentId: string) =>
      (trx: Executor) =>
        recordItemCreated(trx, server.services, ctx, { ...item, type }, { id: parentId, name: '' });
    await record(1, created(clients, 'folder', ''));
    await record(2, created(smith, 'folder', clients.id));
    await record(3, created(year, 'folder', smith.id));
    await record(4, created(jones, 'folder', clients.id));
    await record(10, created(made.statement.row, 'file', smith.id));
    await record(11, created(made.archived.row, 'file', smith.id));
    await record(20, created(made.notes.row, 'file', year.id));
    jonesEventId = await record(30, created(made.jones.row, 'file', jones.id));
    await record(35, (trx) => recordUserLogin(trx, server.services, ctx));
    await record(40, created(made.top.row, 'file', ''));
    // A row a spreadsheet would run as a formula (guarded in the CSV), without IP or user agent.
    const [guarded] = await appendEvents(db, firm.databaseId, [
      {
        entity_type: 'file',
        action: 'download',
        entity_id: made.statement.row.id,
        item_id: made.statement.row.id,
        user_id: firm.userId,
        user_name: '=HYPERLINK("x")',
        attributes: { name: 'Statement.pdf', download: { preview: false, print: false } },
        ip: null,
        user_agent: null,
        at: base + 50 * 60_000,
      },
    ]);
    guardedEventId = guarded!;
    // Sign in after the fixture's events (sessions end after 30 idle minutes of the clock).
    server.clock.now = base + 60 * 60_000;
    cookie = await signIn(server);
    memberCookie = await signIn(server, 'examiner-member', PASSWORD);
    otherCookie = await signIn(server, 'examiner-other', PASSWORD);
  });

  afterAll(async () => {
    await server.close();
  });

  const ask = (scope: ExaminerScope, as = cookie, versions?: 'newest' | 'all') =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/examiner_exports',
      headers: { cookie: as },
      payload: { scope, ...(versions ? { versions } : {}) },
    });

  /** Asks for an export, downloads it, and reads it back. */
  async function exported(scope: ExaminerScope, versions?: 'newest' | 'all') {
    const created = await ask(scope, cookie, versions);
    expect(created.statusCode).toBe(201);
    const dto = created.json<ExaminerExportDto>();
    const response = await server.app.inject({
      method: 'GET',
      url: dto.url!,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    const zip = response.rawPayload;
    const entries = await unzipEntries(zip);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
    const index = parseCsv(entries.get('index.csv')!.toString('utf8'));
    const history = parseCsv(entries.get('history.csv')!.toString('utf8'));
    const file = path.join(server.dataDir, `export-${newId()}.zip`);
    writeFileSync(file, zip);
    return { dto, response, zip, entries, manifest, index, history, file };
  }

  /** The export's row as GET examiner_exports/{id} answers it, once it is no longer running. */
  async function settled(id: string): Promise<ExaminerExportDto> {
    for (let i = 0; i < 100; i += 1) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/api/rest/examiner_exports/${id}`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
      const dto = response.json<ExaminerExportDto>();
      if (dto.status !== 'running') return dto;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the export kept running');
  }

  describe('a folder', () => {
    let result: Awaited<ReturnType<typeof exported>>;
    beforeAll(async () => {
      result = await exported({ kind: 'folder', folder_id: tree.smith.id });
    });

    it('answers a single-use link with the scope counted', async () => {
      const { dto, response } = result;
      expect(dto.status).toBe('ready');
      expect(dto.url).toMatch(/^\/api\/rest\/examiner_exports\/zip\/[\w-]{20,}$/);
      expect(dto.scope).toEqual({
        kind: 'folder',
        folder_id: tree.smith.id,
        path: `${tree.clients.name} / Smith family`,
      });
      expect(dto.files_total).toBe(2);
      expect(dto.bytes_total).toBe(files.statement.body.length + files.notes.body.length);
      expect(dto.events_total).toBe(6);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toContain('Examiner export - Smith family');
      const again = await server.app.inject({ method: 'GET', url: dto.url!, headers: { cookie } });
      expect(again.statusCode).toBe(404);
      expect(again.json<{ code: string }>().code).toBe('zip_expired');
    });

    it('holds the tree’s live files at their folder paths, and nothing else', () => {
      const smithPath = `files/${tree.clients.name}/Smith family`;
      expect([...result.entries.keys()].sort()).toEqual(
        [
          `${smithPath}/`,
          `${smithPath}/Statement.pdf`,
          `${smithPath}/2026/`,
          `${smithPath}/2026/=notes.txt`,
          `${smithPath}/Empty/`,
          'history.csv',
          'index.csv',
          'manifest.json',
        ].sort(),
      );
      expect(result.entries.get(`${smithPath}/Statement.pdf`)).toEqual(files.statement.body);
      expect(result.entries.get(`${smithPath}/2026/=notes.txt`)).toEqual(files.notes.body);
    });

    it('indexes each file: path, id, size, sha256, contacts and index values', () => {
      const [header, ...rows] = result.index;
      expect(header).toEqual([
        'path',
        'name',
        'file_id',
        'version',
        'size',
        'sha256',
        'created_at',
        'modified_at',
        'created_by',
        'contacts',
        'index: Account closed',
      ]);
      const smithPath = `files/${tree.clients.name}/Smith family`;
      expect(rows).toEqual([
        [
          `${smithPath}/Statement.pdf`,
          'Statement.pdf',
          files.statement.id,
          '',
          String(files.statement.body.length),
          sha256(files.statement.body),
          at(10),
          at(10),
          'Demo Administrator',
          'Firm contact; Jane Smith',
          '2026-03-31',
        ],
        [
          `${smithPath}/2026/=notes.txt`,
          // A name a spreadsheet would run as a formula is guarded.
          "'=notes.txt",
          files.notes.id,
          '',
          String(files.notes.body.length),
          sha256(files.notes.body),
          at(20),
          at(20),
          'Demo Administrator',
          'Firm contact; Jane Smith',
          '',
        ],
      ]);
    });

    it('holds the history of the tree’s items, oldest first, in the History export’s columns', () => {
      const [header, ...rows] = result.history;
      expect(header![0]).toBe('id');
      expect(header![14]).toBe('hash');
      const ids = rows.map((r) => r[0]);
      // Smith family, 2026, the statement, the archived file, the notes, the guarded download.
      expect(rows).toHaveLength(6);
      expect(ids).toContain(guardedEventId);
      expect(ids).not.toContain(jonesEventId);
      const seqs = rows.map((r) => Number(r[13]));
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      const guarded = rows.find((r) => r[0] === guardedEventId)!;
      expect(guarded[2]).toBe('\'=HYPERLINK("x")');
    });

    it('writes a manifest of the scope, the files, the documents and the chain links', () => {
      const { manifest, entries, dto } = result;
      expect(manifest.format).toBe('dossier-examiner-export-v1');
      expect(manifest.firm.id).toBe(firm.databaseId);
      expect(manifest.scope).toEqual(dto.scope);
      expect(manifest.exported_by).toEqual({ user_id: firm.userId, name: 'Demo Administrator' });
      expect(manifest.files).toEqual(
        [files.statement, files.notes].map((f) =>
          expect.objectContaining({
            file_id: f.id,
            size: f.body.length,
            sha256: sha256(f.body),
            newest: true,
          }),
        ),
      );
      for (const doc of manifest.documents) {
        expect(sha256(entries.get(doc.path)!)).toBe(doc.sha256);
        expect(entries.get(doc.path)!.length).toBe(doc.size);
      }
      expect(manifest.documents.map((d) => d.path)).toEqual(['index.csv', 'history.csv']);
      expect(manifest.history.count).toBe(6);
      expect(manifest.history.complete).toBe(false);
      expect(manifest.history.events.map((e) => e.id)).toEqual(
        result.history.slice(1).map((r) => r[0]),
      );
      expect(manifest.totals).toEqual({
        files: 2,
        bytes: files.statement.body.length + files.notes.body.length,
        events: 6,
      });
    });

    it('is recorded in History, also in the folder’s own history, before its first byte', async () => {
      const event = result.manifest.export_event;
      const attributes = JSON.parse(event.attributes) as { export: Record<string, unknown> };
      expect(attributes.export).toEqual({
        kind: 'examiner',
        file_name: result.dto.file_name,
        scope: result.dto.scope,
        versions: 'newest',
      });
      const page = await server.app.inject({
        method: 'GET',
        url: `/api/rest/folders/${tree.smith.id}/history`,
        headers: { cookie },
      });
      const items = page.json<HistoryPageDto>().items;
      expect(items[0]!.id).toBe(event.id);
      expect(items[0]!.entity_type).toBe('user');
      expect(items[0]!.action).toBe('download');
      // The export's own event is not in its history.csv: it came after the events exported.
      expect(result.history.map((r) => r[0])).not.toContain(event.id);
    });

    it('reports its progress, and the manifest’s sha256 once done', async () => {
      const done = await settled(result.dto.id);
      expect(done.status).toBe('done');
      expect(done.url).toBeNull();
      expect(done.files_done).toBe(2);
      expect(done.bytes_done).toBe(done.bytes_total);
      expect(done.events_done).toBe(6);
      expect(done.manifest_sha256).toBe(sha256(result.entries.get('manifest.json')!));
    });

    it('passes the verification, and fails it once a file in the zip was changed', async () => {
      const verified = await verifyExaminerExport(result.file);
      expect(verified.problems).toEqual([]);
      expect(verified.ok).toBe(true);
      expect(verified.filesChecked).toBe(2);
      expect(verified.eventsChecked).toBe(6);

      // The statement is stored (a PDF is not deflated): change one of its bytes in place.
      const tampered = Buffer.from(result.zip);
      const at = tampered.indexOf(files.statement.body.subarray(0, 64));
      expect(at).toBeGreaterThan(0);
      tampered[at + 100] = tampered[at + 100]! ^ 0xff;
      const file = `${result.file}.tampered.zip`;
      writeFileSync(file, tampered);
      const broken = await verifyExaminerExport(file);
      expect(broken.ok).toBe(false);
      expect(broken.problems).toEqual([
        expect.stringMatching(
          /Smith family\/Statement\.pdf: sha256 [0-9a-f]{64}, the manifest says/,
        ),
      ]);
    });

    it('fails the verification when a history row was changed, even with the manifest updated', async () => {
      const csv = result.entries.get('history.csv')!.toString('utf8');
      const forged = Buffer.from(csv.replace('Demo Administrator', 'Someone Else'));
      const manifest = result.entries
        .get('manifest.json')!
        .toString('utf8')
        .replace(sha256(result.entries.get('history.csv')!), sha256(forged))
        .replace(
          `"size": ${result.entries.get('history.csv')!.length}`,
          `"size": ${forged.length}`,
        );
      const file = `${result.file}.forged.zip`;
      writeFileSync(
        file,
        await rezip(result.entries, {
          'history.csv': forged,
          'manifest.json': Buffer.from(manifest),
        }),
      );
      const broken = await verifyExaminerExport(file);
      expect(broken.ok).toBe(false);
      expect(broken.problems).toEqual([
        expect.stringMatching(
          /^history event #\d+ \([0-9a-f-]+\): its content does not match its hash$/,
        ),
      ]);
    });

    if (kind === 'sqlite') {
      it('npm run history:verify -- --export: OK exits 0, a changed file FAIL exits 1', () => {
        const ok = verifyCli(result.file);
        expect(ok.stdout).toMatch(
          /OK: every file and every history event matches the manifest\.\n$/,
        );
        expect(ok.status).toBe(0);
        const failed = verifyCli(`${result.file}.tampered.zip`);
        expect(failed.stdout).toMatch(/FAIL .*Statement\.pdf: sha256/);
        expect(failed.stdout).toMatch(/FAIL: 1 problem found\.\n$/);
        expect(failed.status).toBe(1);
      });
    }
  });

  it('a contact: its linked folders’ trees, each once', async () => {
    const { dto, manifest, entries, history, file } = await exported({
      kind: 'contact',
      contact_id: contactId,
    });
    expect(dto.scope).toEqual({
      kind: 'contact',
      contact_id: contactId,
      name: 'Jane Smith',
      folders: [{ id: tree.smith.id, path: `${tree.clients.name} / Smith family` }],
    });
    expect(manifest.files.map((f) => f.file_id).sort()).toEqual(
      [files.statement.id, files.notes.id].sort(),
    );
    expect([...entries.keys()].filter((k) => k.includes('Jones'))).toEqual([]);
    // The fixture's six events of the Smith tree, and the exports of the Smith folder made by the
    // tests before (recorded on that folder too).
    const rows = history.slice(1);
    expect(rows.filter((r) => r[6] !== 'user')).toHaveLength(6);
    for (const row of rows.filter((r) => r[6] === 'user')) {
      expect([row[5], row[9]]).toEqual([
        'Demo Administrator exported records for an examiner',
        tree.smith.id,
      ]);
    }
    expect((await verifyExaminerExport(file)).ok).toBe(true);
  });

  it('a date range: files created or changed in it, and the firm’s events in it', async () => {
    const { manifest, history, file } = await exported({
      kind: 'date_range',
      start: at(15),
      end: at(36),
    });
    expect(manifest.files.map((f) => f.path)).toEqual([
      `files/${tree.clients.name}/Smith family/2026/=notes.txt`,
      `files/${tree.clients.name}/Jones/Jones.pdf`,
    ]);
    // The notes (minute 20), Jones.pdf (30) and the sign-in (35).
    expect(history.slice(1).map((r) => `${r[6]}:${r[7]}`)).toEqual([
      'file:create',
      'file:create',
      'user:login',
    ]);
    expect((await verifyExaminerExport(file)).ok).toBe(true);
  });

  it('the whole firm: every live file, and the whole chain up to the export', async () => {
    const { manifest, file } = await exported({ kind: 'firm' });
    const ids = manifest.files.map((f) => f.file_id);
    for (const f of [files.statement, files.notes, files.jones, files.top]) {
      expect(ids).toContain(f.id);
    }
    expect(ids).not.toContain(files.archived.id);
    expect(manifest.files.find((f) => f.file_id === files.top.id)!.path).toBe(
      `files/${files.top.name}`,
    );
    expect(manifest.history.complete).toBe(true);
    expect(manifest.history.events[0]!.chain_seq).toBe(1);
    expect(manifest.history.count).toBe(manifest.export_event.chain_seq - 1);
    const verified = await verifyExaminerExport(file);
    expect(verified.problems).toEqual([]);
    expect(verified.completeChain).toBe(true);
  });

  it('versions: "all" exports every stored version: older ones under versions/, the newest at its path', async () => {
    // The notes get an older version 1 (other bytes); their current bytes are version 2.
    const older = Buffer.from('the first draft of the notes\n');
    const olderKey = `${firm.databaseId}/${newId()}`;
    await server.store.write(olderKey, Readable.from([older]), older.length);
    const version = (number: number, key: string, body: Buffer, minute: number) => ({
      file_id: files.notes.id,
      number,
      database_id: firm.databaseId,
      storage_key: key,
      size: body.length,
      sha256: sha256(body),
      content_type: 'text/plain',
      created_by: firm.userId,
      created_at: at(minute),
      restored_from: null,
      upload_id: null,
      upload_batch_id: null,
      upload_client_key: null,
    });
    const current = await server.services.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', files.notes.id)
      .executeTakeFirstOrThrow();
    await server.services.db
      .insertInto('file_versions')
      .values([
        version(1, olderKey, older, 15),
        version(2, current.storage_key, files.notes.body, 20),
      ])
      .execute();
    try {
      const { dto, manifest, entries, file } = await exported(
        { kind: 'folder', folder_id: tree.year.id },
        'all',
      );
      expect(dto.versions).toBe('all');
      expect(manifest.files).toEqual([
        expect.objectContaining({
          file_id: files.notes.id,
          newest: false,
          sha256: sha256(older),
        }),
        expect.objectContaining({
          file_id: files.notes.id,
          newest: true,
          sha256: sha256(files.notes.body),
        }),
      ]);
      const olderPath = manifest.files[0]!.path;
      expect(olderPath.startsWith('versions/')).toBe(true);
      expect(entries.get(olderPath)).toEqual(older);
      expect((await verifyExaminerExport(file)).problems).toEqual([]);
    } finally {
      await server.services.db
        .deleteFrom('file_versions')
        .where('file_id', '=', files.notes.id)
        .execute();
    }
  });

  describe('refusals', () => {
    it('only administrators of the firm may export, read progress or download', async () => {
      const member = await ask({ kind: 'folder', folder_id: tree.smith.id }, memberCookie);
      expect(member.statusCode).toBe(403);
      expect(member.json<{ code: string }>().code).toBe('admin_only');
      const created = (await ask({ kind: 'firm' })).json<ExaminerExportDto>();
      for (const [as, status] of [
        [memberCookie, 403],
        [otherCookie, 404],
      ] as const) {
        const progress = await server.app.inject({
          method: 'GET',
          url: `/api/rest/examiner_exports/${created.id}`,
          headers: { cookie: as },
        });
        expect(progress.statusCode).toBe(status);
        const download = await server.app.inject({
          method: 'GET',
          url: created.url!,
          headers: { cookie: as },
        });
        expect(download.statusCode).toBe(status);
      }
      // The link still works for the administrator who asked.
      const mine = await server.app.inject({
        method: 'GET',
        url: created.url!,
        headers: { cookie },
      });
      expect(mine.statusCode).toBe(200);
    });

    it('another firm’s folder or contact is 404', async () => {
      for (const scope of [
        { kind: 'folder', folder_id: tree.smith.id },
        { kind: 'contact', contact_id: contactId },
      ] as const) {
        const response = await ask(scope, otherCookie);
        expect(response.statusCode).toBe(404);
      }
    });

    it('a bad scope is a clear 400', async () => {
      const cases: [unknown, string][] = [
        [{ kind: 'folder', folder_id: '' }, 'root_folder'],
        [{ kind: 'date_range', start: at(10), end: at(5) }, 'invalid_range'],
        [{ kind: 'contact', contact_id: idleContactId }, 'contact_without_folders'],
        [{ kind: 'folder' }, 'validation_error'],
        [{ kind: 'everything' }, 'validation_error'],
      ];
      for (const [scope, code] of cases) {
        const response = await server.app.inject({
          method: 'POST',
          url: '/api/rest/examiner_exports',
          headers: { cookie },
          payload: { scope },
        });
        expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([400, code]);
      }
    });

    it('an archived folder cannot be exported', async () => {
      const archived = folderRow(firm, '', `Archived ${newId().slice(-4)}`, {
        archived_at: at(1),
      });
      archived.archived_root_id = archived.id;
      await insertRows(server, { folders: [archived] });
      expect((await ask({ kind: 'folder', folder_id: archived.id })).statusCode).toBe(404);
    });
  });
});
