/**
 * The prepared-statement cache of the embedded database (server/db/statementCache.ts): a query run
 * again reuses its statement, the oldest is dropped past the capacity, a statement still being
 * iterated is never handed out twice, long generated SQL is not kept, and a statement cached
 * before a schema change runs against the new schema.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import {
  cachingSqliteDatabase,
  MAX_CACHED_SQL_LENGTH,
  type CachingSqliteDatabase,
} from '@server/db/statementCache';

interface TestDb {
  items: { id: number; name: string };
}

describe('prepared-statement cache', () => {
  let connection: Database.Database;
  let cached: CachingSqliteDatabase;
  let db: Kysely<TestDb>;

  const open = (capacity?: number) => {
    connection = new Database(':memory:');
    connection.exec('create table items (id integer primary key, name text not null)');
    cached = cachingSqliteDatabase(connection, capacity);
    db = new Kysely<TestDb>({ dialect: new SqliteDialect({ database: cached }) });
  };

  beforeEach(() => open());
  afterEach(async () => {
    await db.destroy();
  });

  const byId = (id: number) =>
    db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();

  it('prepares a query once and reuses it with other values', async () => {
    await db.insertInto('items').values({ id: 1, name: 'one' }).execute();
    await db.insertInto('items').values({ id: 2, name: 'two' }).execute();
    const before = cached.stats();
    expect(await byId(1)).toEqual({ name: 'one' });
    expect(await byId(2)).toEqual({ name: 'two' });
    expect(await byId(3)).toBeUndefined();
    const after = cached.stats();
    // The select: prepared once, then two hits.
    expect(after.misses - before.misses).toBe(1);
    expect(after.hits - before.hits).toBe(2);
    // The insert ran twice with the same text: one statement, reused.
    expect(after.size).toBe(2);
  });

  it('drops the least recently used statement past its capacity', async () => {
    await db.destroy();
    open(2);
    await sql`select 1`.execute(db);
    await sql`select 2`.execute(db);
    await sql`select 1`.execute(db); // 1 is now the most recent
    await sql`select 3`.execute(db); // evicts 2
    const { misses } = cached.stats();
    await sql`select 1`.execute(db);
    expect(cached.stats().misses).toBe(misses);
    await sql`select 2`.execute(db);
    expect(cached.stats().misses).toBe(misses + 1);
    expect(cached.stats().size).toBe(2);
  });

  it('gives a busy statement (an unfinished iterator) to nobody else', () => {
    connection.exec("insert into items values (1, 'a'), (2, 'b'), (3, 'c')");
    const text = 'select id from items order by id';
    const first = cached.prepare(text);
    const iterator = first.iterate([]);
    expect(iterator.next().value).toEqual({ id: 1 });
    const second = cached.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect([...iterator]).toEqual([{ id: 2 }, { id: 3 }]);
    // Once the iterator is done, the cached statement is handed out again.
    expect(cached.prepare(text)).toBe(first);
  });

  it('does not keep SQL longer than the limit', () => {
    const ids = Array.from({ length: MAX_CACHED_SQL_LENGTH / 2 }, (_, i) => i).join(',');
    const text = `select id from items where id in (${ids})`;
    expect(text.length).toBeGreaterThan(MAX_CACHED_SQL_LENGTH);
    const first = cached.prepare(text);
    expect(cached.prepare(text)).not.toBe(first);
    expect(cached.stats().size).toBe(0);
  });

  it('runs a statement cached before a schema change against the new schema', async () => {
    await db.insertInto('items').values({ id: 1, name: 'one' }).execute();
    expect(await sql`select * from items`.execute(db)).toEqual({
      rows: [{ id: 1, name: 'one' }],
    });
    connection.exec("alter table items add column colour text not null default 'blue'");
    expect((await sql`select * from items`.execute(db)).rows).toEqual([
      { id: 1, name: 'one', colour: 'blue' },
    ]);
    connection.exec('drop table items');
    connection.exec('create table items (id integer primary key, label text)');
    connection.exec("insert into items values (7, 'seven')");
    expect((await sql`select * from items`.execute(db)).rows).toEqual([{ id: 7, label: 'seven' }]);
  });

  it('keeps a cached statement usable after it failed', async () => {
    await db.insertInto('items').values({ id: 1, name: 'one' }).execute();
    // better-sqlite3 builds its errors with the constructor of the first test file that loaded it
    // in this worker (another realm): match the error's fields, not its class.
    await expect(
      db.insertInto('items').values({ id: 1, name: 'again' }).execute(),
    ).rejects.toHaveProperty('code', 'SQLITE_CONSTRAINT_PRIMARYKEY');
    await db.insertInto('items').values({ id: 2, name: 'two' }).execute();
    expect(await byId(2)).toEqual({ name: 'two' });
  });
});
