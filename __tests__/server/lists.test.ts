import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KyselyPlugin } from 'kysely';
import type { CursorPage } from '@common/api';
import type { ArchivedEntityDto, EntityDto, RecentEntityDto } from '@common/entities';
import { newId } from '@server/ids';
import { forgetHiddenRoots } from '@server/services/access';
import type { RequestContext } from '@server/services/context';
import { listEntities } from '@server/services/folders';
import { listArchived, listFavorites, listRecent } from '@server/services/lists';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { at, fileRow, firmOf, folderRow, insertRows, type Firm } from './seedRows';

describeEachDatabase('lists: folder pages, archive, favorites, recent', (kind) => {
  let server: TestServer;
  let cookie: string;
  let firm: Firm;
  let otherCookie: string;
  let otherFirm: Firm;
  beforeAll(async () => {
    server = await startTestServer(kind);
    cookie = await signIn(server);
    firm = await firmOf(server, cookie);
    await addUser(server, {
      username: 'outsider',
      password: 'outsider-pass-1',
      databaseName: 'Other firm',
    });
    otherCookie = await signIn(server, 'outsider', 'outsider-pass-1');
    otherFirm = await firmOf(server, otherCookie);
  });
  afterAll(async () => {
    await server.close();
  });

  const get = async <T>(url: string, as = cookie) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { cookie: as } });
    return { status: response.statusCode, body: response.json<T>() };
  };

  /** Reads every page of a list by following next_cursor; answers the pages. */
  const walk = async <T>(firstUrl: string, as = cookie): Promise<CursorPage<T>[]> => {
    const pages: CursorPage<T>[] = [];
    let url: string | null = firstUrl;
    let page = 1;
    while (url) {
      const { status, body }: { status: number; body: CursorPage<T> } = await get<CursorPage<T>>(
        url,
        as,
      );
      expect(status).toBe(200);
      pages.push(body);
      page += 1;
      url = body.next_cursor
        ? `${firstUrl}&page=${page}&cursor=${encodeURIComponent(body.next_cursor)}`
        : null;
      if (pages.length > 100) throw new Error('too many pages');
    }
    return pages;
  };

  /** A folder with 7 live folders, 13 live files and rows that must not be listed. */
  const bigFolder = async () => {
    const top = folderRow(firm, '', `Big ${newId()}`);
    const folderNames = ['beta', 'Alpha', 'gamma', 'Delta', 'epsilon', 'Zeta', 'eta'];
    const fileNames = Array.from({ length: 13 }, (_, i) =>
      i % 2 === 0
        ? `report ${String(i).padStart(2, '0')}.pdf`
        : `Report ${String(i).padStart(2, '0')}.PDF`,
    );
    const folders = folderNames.map((n) => folderRow(firm, top.id, n));
    const files = fileNames.map((n) => fileRow(firm, top.id, n));
    const hidden = [
      fileRow(firm, top.id, 'archived.pdf', { archived_at: at(5), archived_root_id: 'x' }),
      fileRow(firm, top.id, 'pending.pdf', { status: 'pending' }),
    ];
    const hiddenFolder = folderRow(firm, top.id, 'old', {
      archived_at: at(5),
      archived_root_id: 'x',
    });
    await insertRows(server, {
      folders: [top, ...folders, hiddenFolder],
      files: [...files, ...hidden],
    });
    const byKey = <R extends { name_key: string; id: string }>(a: R, b: R) =>
      a.name_key === b.name_key ? a.id.localeCompare(b.id) : a.name_key < b.name_key ? -1 : 1;
    const expected = [...[...folders].sort(byKey), ...[...files].sort(byKey)].map((r) => r.id);
    return { top, expected };
  };

  it('pages a folder by cursor: folders first, then files, by name; every item exactly once', async () => {
    const { top, expected } = await bigFolder();
    for (const size of [1, 3, 4, 7, 8, 20, 25]) {
      const pages = await walk<EntityDto>(
        `/api/rest/entities?folder_id=${top.id}&page_size=${size}`,
      );
      const ids = pages.flatMap((p) => p.items.map((i) => i.id));
      expect(ids).toEqual(expected);
      expect(pages.length).toBe(Math.max(1, Math.ceil(20 / size)));
      expect(pages.every((p) => p.total === 20)).toBe(true);
      expect(pages[pages.length - 1]!.next_cursor).toBeNull();
    }
  });

  it('answers page n by offset the same as by cursor, and a page past the end empty', async () => {
    const { top, expected } = await bigFolder();
    const size = 3;
    for (let page = 1; page <= 7; page += 1) {
      const { body } = await get<CursorPage<EntityDto>>(
        `/api/rest/entities?folder_id=${top.id}&page=${page}&page_size=${size}`,
      );
      expect(body.items.map((i) => i.id)).toEqual(expected.slice((page - 1) * size, page * size));
      expect(body.next_cursor === null).toBe(page === 7);
    }
    const past = await get<CursorPage<EntityDto>>(
      `/api/rest/entities?folder_id=${top.id}&page=9&page_size=${size}`,
    );
    expect(past.body.items).toEqual([]);
    expect(past.body.next_cursor).toBeNull();
    expect(past.body.total).toBe(20);
  });

  it('keeps the keyset position when items are added before it', async () => {
    const { top, expected } = await bigFolder();
    const first = await get<CursorPage<EntityDto>>(
      `/api/rest/entities?folder_id=${top.id}&page_size=10`,
    );
    await insertRows(server, { folders: [folderRow(firm, top.id, 'AAA first')] });
    const second = await get<CursorPage<EntityDto>>(
      `/api/rest/entities?folder_id=${top.id}&page=2&page_size=10&cursor=${encodeURIComponent(first.body.next_cursor!)}`,
    );
    expect(second.body.items.map((i) => i.id)).toEqual(expected.slice(10, 20));
    expect(second.body.total).toBe(21);
  });

  it('refuses a malformed cursor or one of another list with 400', async () => {
    const { top } = await bigFolder();
    const favorites = await get<CursorPage<EntityDto>>('/api/rest/entities/favorites?page_size=1');
    const foreign = Buffer.from(JSON.stringify(['archived', 'a', 'b', 'c'])).toString('base64url');
    for (const cursor of ['not-a-cursor', foreign, favorites.body.next_cursor ?? 'eA']) {
      const response = await get<{ code: string; message: string }>(
        `/api/rest/entities?folder_id=${top.id}&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_cursor');
    }
  });

  it('reads a page with a constant number of queries, whatever the depth or folder size', async () => {
    const counts: number[] = [];
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const services = { ...server.services, db: server.services.db.withPlugin(counter) };
    const ctx: RequestContext = {
      userId: firm.userId,
      userName: 'Admin',
      databaseId: firm.databaseId,
      role: 'admin',
      sessionId: 's',
      ip: null,
      userAgent: null,
    };
    for (const [folders, files] of [
      [5, 20],
      [30, 300],
    ] as const) {
      const top = folderRow(firm, '', `Counted ${newId()}`);
      await insertRows(server, {
        folders: [
          top,
          ...Array.from({ length: folders }, (_, i) => folderRow(firm, top.id, `f${i}`)),
        ],
        files: Array.from({ length: files }, (_, i) => fileRow(firm, top.id, `d${i}.txt`)),
      });
      const measure = async (page: number, cursor?: string) => {
        queries = 0;
        const result = await listEntities(services, ctx, top.id, page, 10, cursor);
        counts.push(queries);
        return result;
      };
      const first = await measure(1);
      const second = await measure(2, first.next_cursor!);
      await measure(2);
      await measure(Math.floor((folders + files) / 10));
      expect(second.items).toHaveLength(10);
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(8);
  });

  it('answers 404 for a folder of another firm', async () => {
    const theirs = folderRow(otherFirm, '', 'Their folder');
    await insertRows(server, { folders: [theirs] });
    expect((await get(`/api/rest/entities?folder_id=${theirs.id}`)).status).toBe(404);
    expect((await get(`/api/rest/entities?folder_id=${theirs.id}`, otherCookie)).status).toBe(200);
  });

  describe('archive list', () => {
    it('lists the items archived themselves, newest first, with their parent path; pages by cursor and by page&skip', async () => {
      const parent = folderRow(firm, '', `Clients ${newId()}`);
      const child = folderRow(firm, parent.id, 'Smith family');
      const archivedFolder = folderRow(firm, child.id, 'Old year', {
        archived_at: at(100),
      });
      archivedFolder.archived_root_id = archivedFolder.id;
      const inside = folderRow(firm, archivedFolder.id, 'Inside', {
        archived_at: at(100),
        archived_root_id: archivedFolder.id,
      });
      const insideFile = fileRow(firm, archivedFolder.id, 'inside.pdf', {
        archived_at: at(100),
        archived_root_id: archivedFolder.id,
      });
      const files = [1, 2, 3, 4].map((i) => {
        const f = fileRow(firm, i % 2 ? '' : child.id, `arch ${i}.pdf`, {
          archived_at: at(100 + i),
        });
        f.archived_root_id = f.id;
        return f;
      });
      const theirs = fileRow(otherFirm, '', 'theirs.pdf', { archived_at: at(500) });
      theirs.archived_root_id = theirs.id;
      await insertRows(server, {
        folders: [parent, child, archivedFolder, inside],
        files: [insideFile, ...files, theirs],
      });
      const expected = [files[3]!, files[2]!, files[1]!, files[0]!, archivedFolder].map(
        (r) => r.id,
      );

      const pages = await walk<ArchivedEntityDto>('/api/rest/entities/archived?page_size=2');
      const items = pages.flatMap((p) => p.items);
      expect(items.map((i) => i.id)).toEqual(expected);
      expect(pages[0]!.total).toBe(5);
      expect(items.find((i) => i.id === archivedFolder.id)!.parent_path).toBe(
        `${parent.name} / Smith family`,
      );
      expect(items.find((i) => i.id === files[0]!.id)!.parent_path).toBe('');
      expect(items.find((i) => i.id === files[1]!.id)!.parent_path).toBe(
        `${parent.name} / Smith family`,
      );
      expect(items.every((i) => i.archived_at !== null)).toBe(true);

      // POST with page&skip: the client removed one item (restored) from page 1 since reading it.
      await server.services.db
        .updateTable('files')
        .set({ archived_at: null, archived_root_id: null })
        .where('id', '=', files[3]!.id)
        .execute();
      const post = await server.app.inject({
        method: 'POST',
        url: '/api/rest/entities/archived?page=2&skip=1',
        headers: { cookie },
        payload: { page_size: 2 },
      });
      expect(post.statusCode).toBe(200);
      const body = post.json<CursorPage<ArchivedEntityDto>>();
      expect(body.items.map((i) => i.id)).toEqual([files[1]!.id, files[0]!.id]);
      expect(body.total).toBe(4);

      // POST with a cursor in the body.
      const withCursor = await server.app.inject({
        method: 'POST',
        url: '/api/rest/entities/archived?page=2',
        headers: { cookie },
        payload: { page_size: 2, cursor: pages[0]!.next_cursor },
      });
      expect(withCursor.json<CursorPage<ArchivedEntityDto>>().items.map((i) => i.id)).toEqual([
        files[1]!.id,
        files[0]!.id,
      ]);

      const other = await get<CursorPage<ArchivedEntityDto>>(
        '/api/rest/entities/archived',
        otherCookie,
      );
      expect(other.body.items.map((i) => i.id)).toEqual([theirs.id]);
    });
  });

  describe('favorites and recent', () => {
    it('lists the user’s enabled favorites of live items, newest first', async () => {
      const folder = folderRow(firm, '', `Fav folder ${newId()}`);
      const file = fileRow(firm, folder.id, 'fav.pdf');
      const archived = fileRow(firm, folder.id, 'archived fav.pdf', { archived_at: at(9) });
      const disabled = fileRow(firm, folder.id, 'unstarred.pdf');
      const othersFav = fileRow(firm, folder.id, 'someone else.pdf');
      await insertRows(server, { folders: [folder], files: [file, archived, disabled, othersFav] });
      const { userId: otherUser } = await addUser(server, {
        username: `colleague${newId().slice(-6)}`,
        password: 'colleague-pass-1',
        databaseId: firm.databaseId,
      });
      const fav = (
        entityId: string,
        type: string,
        updated: number,
        enabled = 1,
        userId = firm.userId,
      ) => ({
        id: newId(),
        database_id: firm.databaseId,
        entity_type: type,
        entity_id: entityId,
        user_id: userId,
        enabled,
        created_at: at(updated),
        updated_at: at(updated),
      });
      await server.services.db
        .insertInto('favorites')
        .values([
          fav(folder.id, 'folder', 10),
          fav(file.id, 'file', 20),
          fav(archived.id, 'file', 30),
          fav(disabled.id, 'file', 40, 0),
          fav(othersFav.id, 'file', 50, 1, otherUser),
        ])
        .execute();
      const pages = await walk<EntityDto>('/api/rest/entities/favorites?page_size=1');
      const items = pages.flatMap((p) => p.items);
      expect(items.map((i) => i.id)).toEqual([file.id, folder.id]);
      expect(items.every((i) => i.favorite)).toBe(true);
      expect(pages[0]!.total).toBe(2);
      const theirs = await get<CursorPage<EntityDto>>('/api/rest/entities/favorites', otherCookie);
      expect(theirs.body.items).toEqual([]);
    });

    it('lists the user’s recent items of live items, newest first, with the last action', async () => {
      const folder = (
        await server.app.inject({
          method: 'POST',
          url: '/api/rest/folders',
          headers: { cookie },
          payload: { name: `Recent ${newId()}` },
        })
      ).json<EntityDto>();
      const files = [
        fileRow(firm, folder.id, 'seen.pdf'),
        fileRow(firm, folder.id, 'gone.pdf', { archived_at: at(3) }),
      ];
      await insertRows(server, { files });
      const touch = (
        entityId: string,
        type: 'file' | 'folder',
        action: string,
        seconds: number,
      ) => ({
        database_id: firm.databaseId,
        user_id: firm.userId,
        entity_type: type,
        entity_id: entityId,
        action,
        at: new Date(Date.now() + seconds * 1000).toISOString(),
      });
      await server.services.db
        .insertInto('recent_items')
        .values([
          touch(files[0]!.id, 'file', 'preview', 60),
          touch(files[1]!.id, 'file', 'download', 120),
        ])
        .execute();
      const { body } = await get<CursorPage<RecentEntityDto>>(
        '/api/rest/entities/recent?page_size=50',
      );
      const mine = body.items.filter((i) => i.id === folder.id || files.some((f) => f.id === i.id));
      expect(mine.map((i) => [i.id, i.recent_action])).toEqual([
        [files[0]!.id, 'preview'],
        [folder.id, 'create'],
      ]);
      const times = body.items.map((i) => i.recent_at);
      expect([...times].sort().reverse()).toEqual(times);
      const pages = await walk<RecentEntityDto>('/api/rest/entities/recent?page_size=1');
      expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(body.items.map((i) => i.id));
      const theirs = await get<CursorPage<RecentEntityDto>>(
        '/api/rest/entities/recent',
        otherCookie,
      );
      expect(theirs.body.items.some((i) => i.id === folder.id)).toBe(false);
    });
  });

  it('reads Archive, Favorites and Recent pages with a constant number of queries', async () => {
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const services = { ...server.services, db: server.services.db.withPlugin(counter) };
    const { userId, databaseId } = await addUser(server, {
      username: `counter${newId().slice(-6)}`,
      password: 'counter-pass-1',
      databaseName: `Counting firm ${newId()}`,
    });
    const mine: Firm = { userId, databaseId };
    const ctx: RequestContext = {
      userId,
      userName: 'Counter',
      databaseId,
      role: 'member',
      sessionId: 's',
      ip: null,
      userAgent: null,
    };
    const perSize: number[][] = [];
    for (const size of [8, 60]) {
      const parent = folderRow(mine, '', `Parent ${newId()}`);
      const folders = Array.from({ length: size / 2 }, (_, i) =>
        folderRow(mine, parent.id, `folder ${i}`, { archived_at: at(1000 + 2 * i) }),
      );
      const files = Array.from({ length: size / 2 }, (_, i) =>
        fileRow(mine, parent.id, `file ${i}.pdf`, { archived_at: at(1001 + 2 * i) }),
      );
      for (const row of [...folders, ...files]) row.archived_root_id = row.id;
      const live = Array.from({ length: size }, (_, i) =>
        fileRow(mine, parent.id, `live ${i}.pdf`),
      );
      await insertRows(server, { folders: [parent, ...folders], files: [...files, ...live] });
      await server.services.db
        .insertInto('favorites')
        .values(
          live.map((f, i) => ({
            id: newId(),
            database_id: databaseId,
            entity_type: 'file',
            entity_id: f.id,
            user_id: userId,
            enabled: 1,
            created_at: at(i),
            updated_at: at(i),
          })),
        )
        .execute();
      await server.services.db
        .insertInto('recent_items')
        .values(
          live.map((f, i) => ({
            database_id: databaseId,
            user_id: userId,
            entity_type: 'file' as const,
            entity_id: f.id,
            action: 'preview',
            at: at(i),
          })),
        )
        .execute();
      const counts: number[] = [];
      const measure = async <T>(read: () => Promise<T>): Promise<T> => {
        forgetHiddenRoots(ctx); // each read as a new request (the hidden set is cached per request)
        queries = 0;
        const result = await read();
        counts.push(queries);
        return result;
      };
      const archived = await measure(() => listArchived(services, ctx, 1, 5));
      await measure(() => listArchived(services, ctx, 2, 5, { cursor: archived.next_cursor! }));
      await measure(() => listArchived(services, ctx, 2, 5, { skip: 1 }));
      const favorites = await measure(() => listFavorites(services, ctx, 1, 5));
      await measure(() => listFavorites(services, ctx, 2, 5, favorites.next_cursor!));
      const recent = await measure(() => listRecent(services, ctx, 1, 5));
      await measure(() => listRecent(services, ctx, 2, 5, recent.next_cursor!));
      expect(archived.items).toHaveLength(5);
      expect(favorites.items).toHaveLength(5);
      perSize.push(counts);
    }
    // Pages mix folders and files at both sizes, so each read costs the same at both. A member's
    // read includes one query for the restricted folders hidden from them (folder permissions).
    expect(perSize[1]).toEqual(perSize[0]);
    expect(Math.max(...perSize[0]!)).toBeLessThanOrEqual(10);
  });
});
