/**
 * Backup and restore of an SQLite instance (`npm run backup` / `npm run restore`,
 * server/backup.ts; docs/operations.md "Backups and restore"): a populated instance is backed up
 * while it keeps serving writes, the backup is restored into a fresh DATA_DIR, an instance started
 * on it serves the same journey (sign in, folders, a download with the same bytes) and every
 * firm's history chain verifies. SQLite only: PostgreSQL is backed up with pg_dump (refused here).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { Page } from '@common/api';
import type { FileDto, FolderDto } from '@common/entities';
import type { CreateUploadResponse } from '@common/uploads';
import { buildApp } from '@server/app';
import { BACKUP_USAGE, runBackupCommand } from '@server/cli/backupCommands';
import { loadConfig } from '@server/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '@server/db/database';
import { systemClock } from '@server/ids';
import { verifyAllFirms } from '@server/services/history';
import { LocalObjectStore } from '@server/storage/localObjectStore';
import {
  ADMIN_PASSWORD,
  json,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');
const SECRET = 'test-secret';

/** Runs a backup command with an environment; answers its exit code and output. */
async function run(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBackupCommand(args, {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('backup and restore (SQLite)', () => {
  let server: TestServer;
  let cookie: string;
  let scratch: string;
  const uploaded: { id: string; bytes: Buffer }[] = [];
  const folderNames: string[] = [];
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    cookie = await signIn(server);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'dossier-backup-'));
    for (const name of ['Clients', 'Compliance']) {
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/rest/folders',
        headers: { cookie },
        payload: { name },
      });
      expect(created.statusCode).toBe(201);
      folderNames.push(name);
    }
    for (const name of ['minimal-document.pdf', 'pdflatex-4-pages.pdf']) {
      const bytes = readFileSync(path.join(CORPUS, name));
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/rest/files',
        headers: { cookie },
        payload: {
          folder_id: '',
          name,
          extension: 'pdf',
          content_type: 'application/pdf',
          size: bytes.length,
        },
      });
      const upload = json<CreateUploadResponse>(created);
      const put = await server.app.inject({
        method: 'PUT',
        url: upload.url,
        headers: upload.headers,
        payload: bytes,
      });
      expect(put.statusCode).toBe(200);
      const recorded = await server.app.inject({
        method: 'POST',
        url: '/api/rest/files/record',
        headers: { cookie },
        payload: { id: upload.id },
      });
      expect(recorded.statusCode).toBe(201);
      uploaded.push({ id: json<FileDto>(recorded).id, bytes });
    }
  });
  afterAll(async () => {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const sourceEnv = () => ({
    DATA_DIR: server.dataDir,
    DATABASE_URL: server.config.databaseUrl,
    SESSION_SECRET: SECRET,
  });

  it('backs up while serving, restores into a fresh DATA_DIR, and serves the same data', async () => {
    const backupDir = path.join(scratch, 'backup');
    // Writes keep coming while the backup runs (the server is not stopped).
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        const answer = await server.app.inject({
          method: 'POST',
          url: '/api/rest/folders',
          headers: { cookie },
          payload: { name: `During backup ${written + 1}` },
        });
        expect(answer.statusCode).toBe(201);
        written += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const backup = await run(['backup', backupDir], sourceEnv());
    writing = false;
    await writes;
    expect(backup).toMatchObject({ code: 0, err: '' });
    expect(backup.out).toContain('2 recorded files');
    expect(readdirSync(backupDir).sort()).toEqual(['data', 'dossier.sqlite', 'manifest.json']);
    expect(written).toBeGreaterThan(0);

    // Restore into a fresh DATA_DIR (the app has never run there).
    const restoredDir = path.join(scratch, 'restored');
    const restoredEnv = { DATA_DIR: restoredDir, SESSION_SECRET: SECRET };
    const restore = await run(['restore', backupDir], restoredEnv);
    expect(restore).toMatchObject({ code: 0, err: '' });

    // An instance on the restored data, started as main.ts does.
    const config = loadConfig({ ...restoredEnv, LOG_LEVEL: 'silent' });
    const database: DatabaseHandle = openDatabase(config.databaseUrl);
    let app: FastifyInstance | undefined;
    try {
      await migrateToLatest(database.db);
      const store = new LocalObjectStore(config.dataDir, config.sessionSecret);
      await store.init();
      app = await buildApp({
        db: database.db,
        dialect: database.dialect,
        store,
        clock: systemClock,
        config,
        localStore: store,
        serveClient: false,
      });
      const signedIn = await app.inject({
        method: 'POST',
        url: '/api/rest/private/users/authenticate',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      expect(signedIn.statusCode).toBe(200);
      const restoredCookie = sessionCookie(signedIn);
      const folders = await app.inject({
        method: 'GET',
        url: '/api/rest/folders?page_size=500',
        headers: { cookie: restoredCookie },
      });
      expect(folders.statusCode).toBe(200);
      const names = json<Page<FolderDto>>(folders).items.map((folder) => folder.name);
      expect(names).toEqual(expect.arrayContaining(folderNames));
      // A consistent snapshot: folders made during the backup are there up to some point, never
      // with a gap (each was committed after the one before).
      const during = names.filter((name) => name.startsWith('During backup ')).length;
      expect(names).toEqual(
        expect.arrayContaining(Array.from({ length: during }, (_, i) => `During backup ${i + 1}`)),
      );
      for (const file of uploaded) {
        const download = await app.inject({
          method: 'GET',
          url: `/api/rest/files/${file.id}/download`,
          headers: { cookie: restoredCookie },
        });
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload.equals(file.bytes)).toBe(true);
      }
      // `npm run history:verify` on the restored database: every chain intact.
      const chains = await verifyAllFirms(database.db);
      expect(chains.length).toBeGreaterThan(0);
      expect(chains.map((chain) => ({ ok: chain.ok, broken: chain.broken }))).toEqual(
        chains.map(() => ({ ok: true, broken: null })),
      );
      expect(chains.reduce((sum, chain) => sum + chain.checked, 0)).toBeGreaterThan(
        uploaded.length + folderNames.length,
      );
    } finally {
      await app?.close();
      await database.close();
    }
  });

  it('refuses a non-empty backup folder, a folder inside DATA_DIR and a restore over data', async () => {
    const full = path.join(scratch, 'full');
    expect((await run(['backup', full], sourceEnv())).code).toBe(0);
    const again = await run(['backup', full], sourceEnv());
    expect(again).toMatchObject({ code: 2, err: `The backup folder ${full} is not empty.` });
    const inside = await run(['backup', path.join(server.dataDir, 'backup')], sourceEnv());
    expect(inside).toMatchObject({ code: 2, err: 'Choose a backup folder outside DATA_DIR.' });
    // Restoring over the running instance's data is refused: its database exists.
    const over = await run(['restore', full], sourceEnv());
    expect(over.code).toBe(2);
    expect(over.err).toContain('restore into a fresh DATA_DIR');
    // A folder that is not a finished backup.
    const notBackup = await run(['restore', scratch], { DATA_DIR: path.join(scratch, 'fresh') });
    expect(notBackup.code).toBe(2);
    expect(notBackup.err).toContain('is not a finished Dossier backup');
  });

  it('refuses PostgreSQL (pg_dump) and prints its usage for unknown commands', async () => {
    const pg = await run(['backup', path.join(scratch, 'pg')], {
      DATA_DIR: path.join(scratch, 'pg-data'),
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(pg.code).toBe(2);
    expect(pg.err).toContain('pg_dump');
    expect(await run(['copy', scratch], sourceEnv())).toMatchObject({ code: 2, err: BACKUP_USAGE });
  });
});
