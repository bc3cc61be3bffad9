import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { FOLDER_SORT_KEYS, SORT_ORDERS, type FolderSort } from '@common/sort';
import type { CursorPage } from '@common/api';
import type { EntityDto } from '@common/entities';
import { newId } from '@server/ids';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { at, fileRow, firmOf, folderRow, insertRows, type Firm } from './seedRows';

/** Row fields an order reads. */
interface Sortable {
  id: string;
  name_key: string;
  updated_at: string;
  size?: number;
  extension?: string;
}

/** Code-unit comparison (ids, keys and ISO times compare alike in both databases' collations). */
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The expected order of rows of one kind: the sort's columns, then id, in its direction. */
function sorted<R extends Sortable>(rows: R[], kind: 'folder' | 'file', sort: FolderSort): R[] {
  const columns = (r: R): (string | number)[] => {
    if (sort.sort === 'modified') return [r.updated_at, r.id];
    if (kind === 'folder') return [r.name_key, r.id];
    if (sort.sort === 'size') return [r.size!, r.id];
    if (sort.sort === 'type') return [r.extension!, r.name_key, r.id];
    return [r.name_key, r.id];
  };
  const sign = sort.order === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const ca = columns(a);
    const cb = columns(b);
    for (let i = 0; i < ca.length; i += 1) {
      const c = cmp(ca[i]!, cb[i]!);
      if (c !== 0) return sign * c;
    }
    return 0;
  });
}

describeEachDatabase('folder view sorted by column', (kind) => {
  let server: TestServer;
  let cookie: string;
  let firm: Firm;
  beforeAll(async () => {
    server = await startTestServer(kind);
    cookie = await signIn(server);
    firm = await firmOf(server, cookie);
  });
  afterAll(async () => {
    await server.close();
  });

  const get = async <T>(url: string) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { cookie } });
    return { status: response.statusCode, body: response.json<T>() };
  };

  /**
   * A folder of 5 folders and 9 files with ties in every column but the id (same modified time,
   * same size, same extension), and rows that must not be listed.
   */
  const seed = async () => {
    const top = folderRow(firm, '', `Sorted ${newId()}`);
    const folders = [
      folderRow(firm, top.id, 'Oak', { updated_at: at(30) }),
      folderRow(firm, top.id, 'birch', { updated_at: at(10) }),
      folderRow(firm, top.id, 'Cedar', { updated_at: at(10) }),
      folderRow(firm, top.id, 'maple', { updated_at: at(50) }),
      folderRow(firm, top.id, 'Elm', { updated_at: at(10) }),
    ];
    const files = [
      fileRow(firm, top.id, 'Invoice.pdf', { size: 300, updated_at: at(40) }),
      fileRow(firm, top.id, 'agenda.docx', { size: 100, updated_at: at(20) }),
      fileRow(firm, top.id, 'Budget.xlsx', { size: 100, updated_at: at(20) }),
      fileRow(firm, top.id, 'photo.jpg', { size: 5_000_000_000, updated_at: at(60) }),
      fileRow(firm, top.id, 'notes.txt', { size: 7, updated_at: at(20) }),
      fileRow(firm, top.id, 'Contract.pdf', { size: 300, updated_at: at(5) }),
      fileRow(firm, top.id, 'scan.pdf', { size: 100, updated_at: at(40) }),
      fileRow(firm, top.id, 'Letter.docx', { size: 0, updated_at: at(20) }),
      fileRow(firm, top.id, 'Readme', { size: 100, updated_at: at(20) }),
    ];
    const unlisted = [
      fileRow(firm, top.id, 'gone.pdf', { archived_at: at(5), archived_root_id: 'x' }),
      fileRow(firm, top.id, 'pending.pdf', { status: 'pending' }),
    ];
    await insertRows(server, {
      folders: [top, ...folders, folderRow(firm, top.id, 'old', { archived_at: at(1) })],
      files: [...files, ...unlisted],
    });
    const expected = (sort: FolderSort) => [
      ...sorted(folders, 'folder', sort).map((r) => r.id),
      ...sorted(files as ((typeof files)[number] & Sortable)[], 'file', sort).map((r) => r.id),
    ];
    return { top, expected };
  };

  const allSorts: FolderSort[] = FOLDER_SORT_KEYS.flatMap((sort) =>
    SORT_ORDERS.map((order) => ({ sort, order })),
  );

  it('pages every sort and order by cursor across the folder/file boundary, ties by id', async () => {
    const { top, expected } = await seed();
    for (const sort of allSorts) {
      const base = `/api/rest/entities?folder_id=${top.id}&sort=${sort.sort}&order=${sort.order}`;
      for (const size of [1, 4, 5, 6, 14]) {
        const ids: string[] = [];
        let url: string | null = `${base}&page_size=${size}`;
        for (let page = 2; url; page += 1) {
          const { status, body }: { status: number; body: CursorPage<EntityDto> } =
            await get<CursorPage<EntityDto>>(url);
          expect(status).toBe(200);
          expect(body.total).toBe(14);
          ids.push(...body.items.map((i) => i.id));
          url = body.next_cursor
            ? `${base}&page_size=${size}&page=${page}&cursor=${encodeURIComponent(body.next_cursor)}`
            : null;
          if (page > 20) throw new Error('too many pages');
        }
        expect({ sort, size, ids }).toEqual({ sort, size, ids: expected(sort) });
      }
    }
  });

  it('answers page n by offset as by cursor for every sort and order', async () => {
    const { top, expected } = await seed();
    for (const sort of allSorts) {
      const want = expected(sort);
      for (let page = 1; page <= 4; page += 1) {
        const { body } = await get<CursorPage<EntityDto>>(
          `/api/rest/entities?folder_id=${top.id}&sort=${sort.sort}&order=${sort.order}&page=${page}&page_size=4`,
        );
        expect({ sort, page, ids: body.items.map((i) => i.id) }).toEqual({
          sort,
          page,
          ids: want.slice((page - 1) * 4, page * 4),
        });
      }
    }
  });

  it('sorts by name ascending without parameters, and ascending when only sort is given', async () => {
    const { top, expected } = await seed();
    const plain = await get<CursorPage<EntityDto>>(`/api/rest/entities?folder_id=${top.id}`);
    expect(plain.body.items.map((i) => i.id)).toEqual(expected({ sort: 'name', order: 'asc' }));
    const bySize = await get<CursorPage<EntityDto>>(
      `/api/rest/entities?folder_id=${top.id}&sort=size`,
    );
    expect(bySize.body.items.map((i) => i.id)).toEqual(expected({ sort: 'size', order: 'asc' }));
  });

  it('refuses an unknown sort or order with 400 and a message naming the allowed values', async () => {
    const { top } = await seed();
    const badSort = await get<{ code: string; message: string }>(
      `/api/rest/entities?folder_id=${top.id}&sort=colour`,
    );
    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual({
      code: 'invalid_sort',
      message: "Unknown sort 'colour': sort by one of name, modified, size, type.",
    });
    const badOrder = await get<{ code: string; message: string }>(
      `/api/rest/entities?folder_id=${top.id}&sort=name&order=up`,
    );
    expect(badOrder.status).toBe(400);
    expect(badOrder.body).toEqual({
      code: 'invalid_sort',
      message: "Unknown order 'up': use one of asc, desc.",
    });
  });

  it('refuses a cursor of another sort or order, or with a size that is not a number', async () => {
    const { top } = await seed();
    const first = await get<CursorPage<EntityDto>>(
      `/api/rest/entities?folder_id=${top.id}&sort=size&order=desc&page_size=8`,
    );
    const cursor = first.body.next_cursor!;
    expect(cursor).toBeTruthy();
    for (const query of ['sort=size&order=asc', 'sort=name&order=desc', 'sort=modified']) {
      const response = await get<{ code: string }>(
        `/api/rest/entities?folder_id=${top.id}&${query}&page=2&page_size=8&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_cursor');
    }
    const forged = Buffer.from(
      JSON.stringify(['entities', 'file', 'size', 'desc', 'lots', newId()]),
    ).toString('base64url');
    const response = await get<{ code: string }>(
      `/api/rest/entities?folder_id=${top.id}&sort=size&order=desc&page=2&page_size=8&cursor=${forged}`,
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_cursor');
  });

  it('remembers the sort per user: PUT preferences, then GET preferences and current-user', async () => {
    const put = (payload: object) =>
      server.app.inject({
        method: 'PUT',
        url: '/api/rest/preferences/folder_sort',
        headers: { cookie },
        payload,
      });
    const before = await get<{ folder_sort: FolderSort }>('/api/rest/preferences');
    expect(before.body).toEqual({ folder_sort: { sort: 'name', order: 'asc' } });
    expect((await put({ sort: 'size', order: 'desc' })).statusCode).toBe(200);
    expect((await put({ sort: 'modified', order: 'desc' })).statusCode).toBe(200);
    const after = await get<{ folder_sort: FolderSort }>('/api/rest/preferences');
    expect(after.body).toEqual({ folder_sort: { sort: 'modified', order: 'desc' } });
    const me = await get<{ preferences: { folder_sort: FolderSort } }>('/api/auth/current-user');
    expect(me.body.preferences).toEqual({ folder_sort: { sort: 'modified', order: 'desc' } });
    const bad = await put({ sort: 'colour' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ code: string }>().code).toBe('invalid_sort');
  });
});
