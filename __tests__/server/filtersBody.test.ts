/**
 * Calls the spec sends "with filters" (SPEC section 7), on SQLite and PostgreSQL: the history list
 * and export and the missing-indexes list take their filters flat, as before, or inside
 * `{"filters": {...}}`, with the same result; an unknown filter key is refused with 400 naming
 * the key in either place, never dropped.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { IndexFieldDto, MissingIndexesResponse } from '@common/indexFields';
import type { HistoryPageDto } from '@common/history';
import { parseCsv } from './historyHelpers';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { call, makeFile, makeFolder, newActor, type Actor } from './organiseHelpers';

describeEachDatabase('bodies sent with filters', (kind) => {
  let server: TestServer;
  let actor: Actor;

  beforeAll(async () => {
    server = await startTestServer(kind);
    // A firm of its own: three folders ("Added"), one of them archived ("Archived").
    actor = await newActor(server, `filters-${kind}`, 'admin');
    for (const name of ['One', 'Two', 'Three']) await makeFolder(server, actor, name);
    const archived = await makeFolder(server, actor, 'Archived one');
    const archive = await call(server, actor, 'POST', `/api/rest/folders/${archived.id}/archive`);
    expect(archive.statusCode).toBeLessThan(300);
  });
  afterAll(async () => {
    await server.close();
  });

  const historyPage = async (body: unknown) => {
    const response = await call(server, actor, 'POST', '/api/rest/history?page=1', body);
    expect(response.statusCode).toBe(200);
    return response.json<HistoryPageDto>();
  };
  const exportRows = async (body: unknown) => {
    const response = await call(server, actor, 'POST', '/api/rest/history/export', body);
    expect(response.statusCode).toBe(200);
    return parseCsv(response.body).slice(1);
  };
  const refused = async (url: string, body: unknown) => {
    const response = await call(server, actor, 'POST', url, body);
    expect(response.statusCode).toBe(400);
    return response.json<{ message: string; code: string }>();
  };

  it('lists history with the filters inside filters as it does with them flat', async () => {
    const all = await historyPage({});
    const flat = await historyPage({ labels: ['Archived'] });
    const nested = await historyPage({ filters: { labels: ['Archived'] } });
    expect(all.total).toBe(5);
    expect(nested.total).toBe(1);
    expect(nested.items.map((e) => e.action)).toEqual(['archive']);
    expect(nested.items).toEqual(flat.items);
    expect((await historyPage({ filters: { labels: ['Added'] } })).total).toBe(4);
    expect((await historyPage(null)).total).toBe(all.total);
    expect((await historyPage({ filters: null })).total).toBe(all.total);
  });

  it('exports history with the filters inside filters as it does with them flat', async () => {
    const all = await exportRows({ time_zone: 'UTC' });
    const nested = await exportRows({ filters: { labels: ['Added'] }, time_zone: 'UTC' });
    const flat = await exportRows({ labels: ['Added'], time_zone: 'UTC' });
    expect(all).toHaveLength(5);
    expect(nested).toHaveLength(4);
    expect(nested).toEqual(flat);
    expect(await exportRows({ filters: { labels: ['Added'], time_zone: 'UTC' } })).toEqual(flat);
  });

  it('refuses an unknown history filter key, flat or inside filters, naming it', async () => {
    for (const url of ['/api/rest/history?page=1', '/api/rest/history/export']) {
      const flat = await refused(url, { labels: ['Added'], label: 'Added' });
      expect(flat.code).toBe('validation_error');
      expect(flat.message).toContain("body has an unknown filter 'label'");
      const nested = await refused(url, { filters: { labels: ['Added'], folder: 'x' } });
      expect(nested.code).toBe('validation_error');
      expect(nested.message).toContain("body/filters has an unknown filter 'folder'");
      const twice = await refused(url, { labels: ['Added'], filters: { labels: ['Archived'] } });
      expect(twice.message).toContain("'labels' is sent both inside filters and beside it");
      // Each key is still checked by its schema inside filters.
      const badLabel = await refused(url, { filters: { labels: ['Teleported'] } });
      expect(badLabel.code).toBe('validation_error');
    }
  });

  it('lists files missing index values with the filters inside filters', async () => {
    const fieldResponse = await call(server, actor, 'POST', '/api/rest/index_fields', {
      name: `Tax year ${kind}`,
    });
    expect(fieldResponse.statusCode).toBe(201);
    const field = fieldResponse.json<IndexFieldDto>();
    const box = await makeFolder(server, actor, 'Backlog');
    await makeFile(server, actor, 'a.pdf', box.id);
    await makeFile(server, actor, 'b.pdf', box.id);
    await makeFile(server, actor, 'elsewhere.pdf', '');
    const missing = async (body: unknown) => {
      const response = await call(
        server,
        actor,
        'POST',
        '/api/rest/entities/search/missing-indexes?page=1',
        body,
      );
      expect(response.statusCode).toBe(200);
      return response.json<MissingIndexesResponse>();
    };
    const nested = await missing({ filters: { index_field_ids: [field.id], folder_id: box.id } });
    expect(nested.items.map((f) => f.name)).toEqual(['a.pdf', 'b.pdf']);
    const flat = await missing({ index_field_ids: [field.id], folder_id: box.id });
    expect(flat).toEqual(nested);
    const firmWide = await missing({ filters: { index_field_ids: [field.id] } });
    expect(firmWide.total).toBe(3);

    const url = '/api/rest/entities/search/missing-indexes?page=1';
    const unknown = await refused(url, { filters: { index_field_ids: [field.id], tag: 'x' } });
    expect(unknown.message).toContain("body/filters has an unknown filter 'tag'");
    const none = await refused(url, { filters: { folder_id: box.id } });
    expect(none.code).toBe('validation_error');
    expect(none.message).toContain("'index_field_ids'");
  });
});
