/**
 * Test harness for server tests: the real app (buildApp) on a temporary SQLite file or a temporary
 * PostgreSQL database, with a temporary object-store folder, driven through `inject`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from '@jest/globals';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/db/database';
import { newId, type Clock } from '../../server/ids';
import { hashPassword } from '../../server/passwords';
import { insertDatabase, insertMembership, insertUser } from '../../server/repositories/users';
import { seed } from '../../server/seed';
import { fingerprintsSettled } from '../../server/services/fingerprints';
import type { Services } from '../../server/services/context';
import { LocalObjectStore } from '../../server/storage/localObjectStore';
import type { Role } from '../../common/types';

/** The database kinds a suite runs on. */
export type DatabaseKind = 'sqlite' | 'postgres';

/** Password of the seeded admin in tests. */
export const ADMIN_PASSWORD = 'correct horse battery staple';

/** A running test server. */
export interface TestServer {
  app: FastifyInstance;
  services: Services;
  store: LocalObjectStore;
  dataDir: string;
  config: Config;
  /** A settable clock (epoch ms) the app reads. */
  clock: { now: number };
  close(): Promise<void>;
}

/**
 * Runs `fn` once per database kind: always SQLite; PostgreSQL when the global setup found one
 * (otherwise the suite is skipped, and the reason was printed by __tests__/globalSetup.cjs).
 */
export function describeEachDatabase(name: string, fn: (kind: DatabaseKind) => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  if (process.env.DOSSIER_TEST_PG_URL) {
    describe(`${name} [postgres]`, () => fn('postgres'));
  } else {
    // CI and this machine have a PostgreSQL server, and there the PostgreSQL half always runs.
    const reason = process.env.DOSSIER_TEST_PG_UNAVAILABLE ?? 'no server';
    // Skip reason: no PostgreSQL server is reachable here (globalSetup printed why); the SQLite
    // half above still runs, and the PostgreSQL half runs wherever a server answers.
    describe.skip(`${name} [postgres] (${reason})`, () => fn('postgres')); // skipped: no PostgreSQL
  }
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.DOSSIER_TEST_PG_URL!;
  const name = `dossier_test_${newId().replace(/-/g, '').slice(-16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Starts an app on a fresh database of the given kind, seeded with "Demo Advisory" and admin.
 * `options.env` adds environment variables to its configuration (e.g. FEATURE_FLAGS).
 */
export async function startTestServer(
  kind: DatabaseKind,
  options: { clientDir?: string; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-test-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl = `sqlite://${path.join(dataDir, 'test.sqlite')}`;
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'test-secret',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    CLIENT_DIR: options.clientDir ?? path.join(dataDir, 'no-client'),
    ...options.env,
  });
  const clock = { now: Date.now() };
  const clockFn: Clock = () => clock.now;
  const database: DatabaseHandle = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  await seed(database.db, { username: 'admin', password: ADMIN_PASSWORD }, clockFn);
  const store = new LocalObjectStore(dataDir, config.sessionSecret, clockFn);
  await store.init();
  const services: Services = {
    db: database.db,
    dialect: database.dialect,
    store,
    clock: clockFn,
    config,
  };
  const app = await buildApp({ ...services, localStore: store });
  await app.ready();
  return {
    app,
    services,
    store,
    dataDir,
    config,
    clock,
    close: async () => {
      await fingerprintsSettled(services);
      await app.close();
      await database.close();
      if (dropDatabase) await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The session cookie ("name=value") of a response that set one. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'dossier_session');
  if (!cookie)
    throw new Error(`no session cookie (status ${response.statusCode}: ${response.body})`);
  return `${cookie.name}=${cookie.value}`;
}

/** Signs in and answers the session cookie. */
export async function signIn(
  server: TestServer,
  username = 'admin',
  password = ADMIN_PASSWORD,
): Promise<string> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/rest/private/users/authenticate',
    payload: { username, password },
  });
  return sessionCookie(response);
}

/**
 * Adds a firm database (when `databaseName` is new) and a user with a role in it.
 * @returns the user's and the database's ids
 */
export async function addUser(
  server: TestServer,
  input: {
    username: string;
    password: string;
    role?: Role;
    databaseId?: string;
    databaseName?: string;
  },
): Promise<{ userId: string; databaseId: string }> {
  const { db } = server.services;
  const now = new Date(server.clock.now).toISOString();
  let databaseId = input.databaseId;
  if (!databaseId) {
    databaseId = newId();
    const name = input.databaseName ?? `Firm ${databaseId.slice(-6)}`;
    await insertDatabase(db, { id: databaseId, name, description: name, created_at: now });
  }
  const userId = newId();
  await insertUser(db, {
    id: userId,
    username: input.username,
    username_key: input.username.toLowerCase(),
    email: null,
    first_name: input.username,
    last_name: 'Tester',
    password_hash: await hashPassword(input.password),
    sso: 0,
    disabled_at: null,
    created_at: now,
    updated_at: now,
  });
  await insertMembership(db, {
    id: newId(),
    user_id: userId,
    database_id: databaseId,
    role: input.role ?? 'member',
    created_at: now,
  });
  return { userId, databaseId };
}

/** JSON body of a response, typed by the caller. */
export function json<T>(response: LightMyRequestResponse): T {
  return response.json<T>();
}
