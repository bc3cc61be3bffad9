/**
 * The WAL checkpoint worker (server/db/walCheckpointer.ts): the server's connection stops
 * checkpointing itself, the worker copies the log into the database file, and a worker that
 * fails hands checkpointing back to the connection.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '@server/db/database';
import {
  DEFAULT_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
} from '@server/db/walCheckpointer';

describe('WAL checkpoint worker', () => {
  let dir: string;
  let database: DatabaseHandle;
  let checkpointer: WalCheckpointer | null = null;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dossier-wal-'));
    database = openDatabase(`sqlite://${path.join(dir, 'test.sqlite')}`);
  });

  afterEach(async () => {
    await checkpointer?.stop();
    checkpointer = null;
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const connection = () => database.sqlite!.connection;
  const autocheckpoint = () => connection().pragma('wal_autocheckpoint', { simple: true });

  /** Writes about `pages` pages of 4 KiB through the server's connection. */
  function write(pages: number): void {
    connection().exec('create table if not exists blobs (body blob)');
    const insert = connection().prepare('insert into blobs (body) values (zeroblob(4000))');
    connection().transaction(() => {
      for (let i = 0; i < pages; i += 1) insert.run();
    })();
  }

  it('turns the connection’s own checkpoints off and copies the log into the file', async () => {
    checkpointer = startWalCheckpointer(connection(), database.sqlite!.file, {
      intervalMs: 60_000,
    });
    expect(checkpointer).not.toBeNull();
    expect(autocheckpoint()).toBe(0);

    // Past SQLite's own threshold: the commit leaves everything in the log.
    write(DEFAULT_AUTOCHECKPOINT_PAGES * 2);
    const file = path.join(dir, 'test.sqlite');
    const before = statSync(file).size;
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(DEFAULT_AUTOCHECKPOINT_PAGES * 4096);

    const result = await checkpointer!.checkpointNow();
    expect(result.busy).toBe(0);
    expect(result.log).toBeGreaterThan(DEFAULT_AUTOCHECKPOINT_PAGES);
    expect(result.checkpointed).toBe(result.log);
    expect(statSync(file).size).toBeGreaterThan(before + DEFAULT_AUTOCHECKPOINT_PAGES * 4096);
    // The rows are all there, read through the server's connection.
    expect(connection().prepare('select count(*) from blobs').pluck().get()).toBe(
      DEFAULT_AUTOCHECKPOINT_PAGES * 2,
    );
  });

  it('checkpoints on its own every interval', async () => {
    checkpointer = startWalCheckpointer(connection(), database.sqlite!.file, { intervalMs: 20 });
    write(200);
    const file = path.join(dir, 'test.sqlite');
    const deadline = Date.now() + 10_000;
    while (statSync(file).size < 200 * 4000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statSync(file).size).toBeGreaterThanOrEqual(200 * 4000);
  });

  it('hands checkpointing back to the connection when the worker fails', async () => {
    const warnings: string[] = [];
    checkpointer = startWalCheckpointer(connection(), database.sqlite!.file, {
      driverPath: path.join(dir, 'no-such-driver.js'),
      warn: (message) => warnings.push(message),
    });
    expect(checkpointer).not.toBeNull();
    const deadline = Date.now() + 10_000;
    while (warnings.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(warnings[0]).toMatch(/WAL checkpoint worker stopped/);
    expect(autocheckpoint()).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    await expect(checkpointer!.checkpointNow()).rejects.toThrow('The checkpoint worker stopped.');
  });

  it('leaves an in-memory database alone', async () => {
    const memory = openDatabase('sqlite://:memory:');
    try {
      expect(startWalCheckpointer(memory.sqlite!.connection, memory.sqlite!.file)).toBeNull();
    } finally {
      await memory.close();
    }
  });
});
