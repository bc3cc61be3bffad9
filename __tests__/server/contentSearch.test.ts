/**
 * Content search on SQLite and PostgreSQL: a file is found by the text of one of its pages, with
 * that page and a snippet; not with the content filter off, nor by a member who cannot see its
 * folder, nor by another firm; a copy of the bytes is found too; name hits come first; the search
 * box adds content hits after fewer than 10 name hits; removing the derivatives removes the text;
 * renditions derived before content search are indexed from their stored text; and the real
 * derive job makes a corpus PDF searchable by page.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type {
  AutocompleteHitDto,
  AutocompleteResponse,
  SearchFilters,
  SearchHitDto,
  SearchResponse,
} from '@common/search';
import type { FolderDto } from '@common/entities';
import { isoAt, newId } from '@server/ids';
import { findJobForFile } from '@server/repositories/jobs';
import {
  deleteRendition,
  findRendition,
  replaceContentPages,
  saveRendition,
} from '@server/repositories/renditions';
import { autocompleteHits } from '@server/repositories/search';
import { contentPagesOf, indexStoredTexts } from '@server/services/imaging/contentPages';
import { deriveHandler, renditionKeys } from '@server/services/imaging/derive';
import { enqueueDerivations } from '@server/services/imaging/queue';
import { textQuery } from '@server/services/search';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { itWithTools } from './imagingHelpers';
import { adminActor, call, makeFile, makeFolder, newActor, type Actor } from './organiseHelpers';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');

describeEachDatabase('content search', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let otherFirm: Actor;
  let clients: FolderDto;
  let restricted: FolderDto;
  const db = () => server.services.db;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'content-member', 'member', admin.databaseId);
    otherFirm = await newActor(server, 'content-other', 'admin');
    clients = await makeFolder(server, admin, 'Clients');
    restricted = await makeFolder(server, admin, 'Board');
    const permit = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: restricted.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permit.statusCode).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  const sha256Of = async (fileId: string) =>
    (
      await db()
        .selectFrom('files')
        .select('sha256')
        .where('id', '=', fileId)
        .executeTakeFirstOrThrow()
    ).sha256!;

  /** Records a rendition of the file's bytes whose text has these pages (form feeds between). */
  const withText = async (fileId: string, text: string) => {
    const sha256 = await sha256Of(fileId);
    const keys = renditionKeys(sha256);
    await db()
      .transaction()
      .execute(async (trx) => {
        await saveRendition(trx, {
          sha256,
          source_kind: 'pdf',
          pdf_key: null,
          text_key: keys.text,
          thumbnail_key: null,
          page_count: text.split('\f').length,
          text_chars: text.length,
          recognized: 0,
          created_at: isoAt(server.services.clock),
        });
        await replaceContentPages(trx, sha256, contentPagesOf(text));
      });
    return sha256;
  };

  const search = async (actor: Actor, filters: SearchFilters): Promise<SearchHitDto[]> => {
    const response = await call(server, actor, 'POST', '/api/rest/entities/search', { filters });
    expect(response.statusCode).toBe(200);
    const body = response.json<SearchResponse>();
    expect(body.total).toBe(body.items.length);
    return body.items;
  };
  const complete = async (actor: Actor, query: string): Promise<AutocompleteHitDto[]> => {
    const response = await call(
      server,
      actor,
      'GET',
      `/api/rest/entities/search/autocomplete?query=${encodeURIComponent(query)}`,
    );
    expect(response.statusCode).toBe(200);
    return response.json<AutocompleteResponse>().items;
  };

  it('finds a file by a word of its text, with the best page and a marked snippet', async () => {
    const file = await makeFile(server, admin, 'Deed.pdf', clients.id, 'deed bytes');
    await withText(
      file.id,
      'Cover page of the deed\fThe settlor grants the quokkaberry estate to the trustees.\f' +
        'Schedule: quokkaberry orchards, quokkaberry fields.\f',
    );
    const hits = await search(admin, { query: 'quokkaberry' });
    expect(hits.map((h) => h.name)).toEqual(['Deed.pdf']);
    expect(hits[0]!.matched_in).toEqual(['content']);
    // The page where the word is densest ranks first.
    expect(hits[0]!.content!.page).toBe(3);
    expect(hits[0]!.content!.snippet).toEqual([
      { text: 'Schedule: ', match: false },
      { text: 'quokkaberry', match: true },
      { text: ' orchards, ', match: false },
      { text: 'quokkaberry', match: true },
      { text: ' fields.', match: false },
    ]);
    // Every word on one page, the last as a prefix.
    const two = await search(admin, { query: 'settlor quokka' });
    expect(two.map((h) => [h.name, h.content?.page])).toEqual([['Deed.pdf', 2]]);
    expect(await search(admin, { query: 'settlor orchards' })).toEqual([]);
    // Not with the content filter off; content: true is the default.
    expect(await search(admin, { query: 'quokkaberry', content: false })).toEqual([]);
    expect(await search(admin, { query: 'quokkaberry', content: true })).toHaveLength(1);
  });

  it('ranks name hits before content-only hits, and marks a name hit found in its text too', async () => {
    const named = await makeFile(server, admin, 'Wombatite notes.txt', clients.id, 'notes');
    await withText(named.id, 'wombatite in the notes too');
    const inText = await makeFile(server, admin, 'Appendix.pdf', clients.id, 'appendix');
    await withText(inText.id, 'mentions wombatite once');
    const folder = await makeFolder(server, admin, 'Wombatite archive', clients.id);
    const hits = await search(admin, { query: 'wombatite' });
    expect(hits.map((h) => h.name)).toEqual([
      'Wombatite archive',
      'Wombatite notes.txt',
      'Appendix.pdf',
    ]);
    expect(hits.map((h) => h.matched_in)).toEqual([['name'], ['name', 'content'], ['content']]);
    expect(hits[0]!.content).toBeUndefined();
    expect(hits[1]!.content!.page).toBe(1);
    // Paged: the total counts both arms.
    const response = await call(
      server,
      admin,
      'POST',
      '/api/rest/entities/search?page=2&page_size=2',
      { filters: { query: 'wombatite' } },
    );
    expect(response.json<SearchResponse>()).toMatchObject({ total: 3, page: 2 });
    expect(response.json<SearchResponse>().items.map((h) => h.name)).toEqual(['Appendix.pdf']);
    // Filters hold for content hits as for the others.
    const typed = await search(admin, { query: 'wombatite', types: ['PDF'] });
    expect(typed.map((h) => h.name)).toEqual(['Appendix.pdf']);
    const within = await search(admin, { query: 'wombatite', folder_id: folder.id });
    expect(within).toEqual([]);
  });

  it('hides content hits in folders the member may not see, and from other firms', async () => {
    const secret = await makeFile(server, admin, 'Minutes.pdf', restricted.id, 'minutes bytes');
    await withText(secret.id, 'board resolves on the platypodine merger');
    const open = await makeFile(server, admin, 'Memo.pdf', clients.id, 'memo bytes');
    await withText(open.id, 'memo about the platypodine merger');
    expect((await search(admin, { query: 'platypodine' })).map((h) => h.name).sort()).toEqual([
      'Memo.pdf',
      'Minutes.pdf',
    ]);
    expect((await search(member, { query: 'platypodine' })).map((h) => h.name)).toEqual([
      'Memo.pdf',
    ]);
    expect(await search(otherFirm, { query: 'platypodine' })).toEqual([]);
    expect((await complete(member, 'platypodine')).map((h) => h.name)).toEqual(['Memo.pdf']);
    expect(await complete(otherFirm, 'platypodine')).toEqual([]);
    // The exact statement (used when the tree cannot answer) leaves them out the same way.
    const rows = await autocompleteHits(db(), server.services.dialect, {
      databaseId: admin.databaseId,
      text: textQuery('platypodine'),
      hiddenFor: member.userId,
      limit: 10,
      content: true,
    });
    expect(rows.map((r) => [r.name, Number(r.tier)])).toEqual([['Memo.pdf', 3]]);
  });

  it('finds every file holding the same bytes, and archived ones only among archived items', async () => {
    const first = await makeFile(server, admin, 'Lease.pdf', clients.id, 'lease bytes');
    await withText(first.id, 'the echidnaroot lease');
    // A copy of the bytes (another file row, same sha256) needs no new text.
    const copy = await makeFile(server, admin, 'Lease copy.pdf', clients.id, 'lease bytes');
    expect(await sha256Of(copy.id)).toBe(await sha256Of(first.id));
    expect((await search(admin, { query: 'echidnaroot' })).map((h) => h.name)).toEqual([
      'Lease copy.pdf',
      'Lease.pdf',
    ]);
    const archive = await call(server, admin, 'POST', '/api/rest/bulk/archive', {
      items: [{ type: 'file', id: copy.id }],
    });
    expect(archive.statusCode).toBe(200);
    expect((await search(admin, { query: 'echidnaroot' })).map((h) => h.name)).toEqual([
      'Lease.pdf',
    ]);
    expect(
      (await search(admin, { query: 'echidnaroot', archived: true })).map((h) => h.name),
    ).toEqual(['Lease copy.pdf']);
  });

  it('adds content hits to the search box after fewer than 10 name hits', async () => {
    const named = await makeFile(server, admin, 'Bilbyfern plan.docx', clients.id, 'plan');
    const inText = await makeFile(server, admin, 'Budget.xlsx', clients.id, 'budget');
    await withText(inText.id, 'line 4: bilbyfern seedlings\fline 9: bilbyfern again');
    const hits = await complete(admin, 'bilbyf');
    expect(hits.map((h) => [h.name, h.matched_in])).toEqual([
      [named.name, ['name']],
      ['Budget.xlsx', ['content']],
    ]);
    // Ten name hits leave no room for content.
    for (let i = 0; i < 10; i += 1) {
      await makeFile(server, admin, `Bilbyfern ${i}.txt`, clients.id, `plan ${i}`);
    }
    const full = await complete(admin, 'bilbyf');
    expect(full).toHaveLength(10);
    expect(full.every((h) => h.matched_in.includes('name'))).toBe(true);
  });

  it('stops finding a file once its derivatives are removed', async () => {
    const one = await makeFile(server, admin, 'Gone.pdf', clients.id, 'gone bytes');
    const sha256 = await withText(one.id, 'numbatwood appears here');
    expect(await search(admin, { query: 'numbatwood' })).toHaveLength(1);
    await deleteRendition(db(), sha256);
    expect(await search(admin, { query: 'numbatwood' })).toEqual([]);
    expect(await complete(admin, 'numbatwood')).toEqual([]);
    const pages = await db()
      .selectFrom('content_pages')
      .select('page')
      .where('sha256', '=', sha256)
      .execute();
    expect(pages).toEqual([]);
    // A permanent delete of the last file holding the bytes removes the pages with the rendition.
    const two = await makeFile(server, admin, 'Destroyed.pdf', clients.id, 'destroyed bytes');
    const twoSha = await withText(two.id, 'dunnartite appears here');
    const items = [{ type: 'file', id: two.id }];
    expect(
      (await call(server, admin, 'POST', '/api/rest/bulk/archive', { items })).statusCode,
    ).toBe(200);
    expect(
      (await call(server, admin, 'POST', '/api/rest/bulk/destroy', { items })).statusCode,
    ).toBe(200);
    expect(await findRendition(db(), twoSha)).toBeUndefined();
    const left = await db()
      .selectFrom('content_pages')
      .select('page')
      .where('sha256', '=', twoSha)
      .execute();
    expect(left).toEqual([]);
  });

  it('indexes at start-up the stored text of renditions derived before content search', async () => {
    const file = await makeFile(server, admin, 'Old scan.pdf', clients.id, 'old scan bytes');
    const sha256 = await sha256Of(file.id);
    const keys = renditionKeys(sha256);
    const text = 'page one\f\fpage three mentions the quollshade clause\f';
    await server.store.write(keys.text, Readable.from([Buffer.from(text)]), 1000);
    await saveRendition(db(), {
      sha256,
      source_kind: 'image',
      pdf_key: null,
      text_key: keys.text,
      thumbnail_key: null,
      page_count: 3,
      text_chars: text.length,
      recognized: 1,
      created_at: isoAt(server.services.clock),
    });
    // A rendition whose text object is gone is marked done with nothing to search.
    const lost = await makeFile(server, admin, 'Lost.pdf', clients.id, 'lost bytes');
    const lostSha = await sha256Of(lost.id);
    await saveRendition(db(), {
      sha256: lostSha,
      source_kind: 'pdf',
      pdf_key: null,
      text_key: renditionKeys(lostSha).text,
      thumbnail_key: null,
      page_count: 1,
      text_chars: 0,
      recognized: 0,
      created_at: isoAt(server.services.clock),
    });
    expect(await search(admin, { query: 'quollshade' })).toEqual([]);
    expect(await indexStoredTexts(server.services, 1)).toBeGreaterThanOrEqual(2);
    const hits = await search(admin, { query: 'quollshade' });
    expect(hits.map((h) => [h.name, h.content?.page])).toEqual([['Old scan.pdf', 3]]);
    expect((await findRendition(db(), sha256))!.content_indexed).toBe(1);
    expect((await findRendition(db(), lostSha))!.content_indexed).toBe(1);
    // Nothing is left to index: a second start reads nothing.
    expect(await indexStoredTexts(server.services)).toBe(0);
  });

  itWithTools(
    ['pdftotext', 'pdftoppm'],
    'makes a corpus PDF searchable by page through the real derive job',
    async () => {
      const bytes = await readFile(`${CORPUS}/pdflatex-4-pages.pdf`);
      const id = newId();
      const storageKey = `${admin.databaseId}/${id}`;
      const stored = await server.store.write(storageKey, Readable.from([bytes]), bytes.length);
      const at = isoAt(server.services.clock);
      await db()
        .insertInto('files')
        .values({
          id,
          database_id: admin.databaseId,
          folder_id: clients.id,
          name: 'Blind text.pdf',
          name_key: 'blind text.pdf',
          extension: 'pdf',
          size: bytes.length,
          content_type: 'application/pdf',
          storage_key: storageKey,
          status: 'ready',
          // Not fingerprinted yet: the job sets it.
          sha256: null,
          created_by: admin.userId,
          created_at: at,
          updated_at: at,
          archived_at: null,
          archived_root_id: null,
        })
        .execute();
      await enqueueDerivations(server.services, [
        {
          databaseId: admin.databaseId,
          id,
          extension: 'pdf',
          contentType: 'application/pdf',
          sha256: null,
        },
      ]);
      const job = (await findJobForFile(db(), 'derive', id))!;
      const controller = new AbortController();
      expect(await deriveHandler(server.services)(job, controller.signal)).toBe(stored.sha256);
      expect(await sha256Of(id)).toBe(stored.sha256);
      // The page number printed at the foot of page 3 is on page 3 only.
      const hits = await search(admin, { query: 'gefburn 3' });
      expect(hits.map((h) => [h.name, h.content?.page])).toEqual([['Blind text.pdf', 3]]);
      const marked = hits[0]!.content!.snippet.filter((s) => s.match).map((s) => s.text);
      expect(marked).toContain('gefburn');
      expect((await search(member, { query: 'Huardest' })).map((h) => h.name)).toEqual([
        'Blind text.pdf',
      ]);
    },
    60_000,
  );
});
