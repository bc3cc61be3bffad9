/**
 * Test harness for server tests: the real app (buildApp) on a temporary SQLite file or a temporary
 * PostgreSQL database, with a temporary object-store folder (or, for the S3 half of
 * {@link describeEachStore}, a fresh bucket of the Swift that __tests__/globalSetup.cjs started),
 * driven through `inject`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from '@jest/globals';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type AppDeps } from '@server/app';
import { loadConfig, type Config } from '@server/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '@server/db/database';
import { newId, type Clock } from '@server/ids';
import { hashPassword } from '@server/passwords';
import { insertDatabase, insertMembership, insertUser } from '@server/repositories/users';
import { seed } from '@server/seed';
import { fingerprintsSettled } from '@server/services/fingerprints';
import { snapshotsSettled } from '@server/services/replay/engine';
import type { Services } from '@server/services/context';
import { LocalObjectStore } from '@server/storage/localObjectStore';
import type { ObjectStore } from '@server/storage/objectStore';
import { S3ObjectStore } from '@server/storage/s3ObjectStore';
import type { Role } from '@common/session';

/** The database kinds a suite runs on. */
export type DatabaseKind = 'sqlite' | 'postgres';

/** The object stores a suite runs on. */
export type StoreKind = 'local' | 's3';

/** Password of the seeded admin in tests. */
export const ADMIN_PASSWORD = 'correct horse battery staple';

/** A running test server. */
export interface TestServer {
  app: FastifyInstance;
  services: Services;
  store: ObjectStore;
  /** The local store (null on S3), for tests of its own files. */
  localStore: LocalObjectStore | null;
  /** Which store this server uses. */
  storeKind: StoreKind;
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

/**
 * Runs `fn` once per database kind on the local store ({@link describeEachDatabase}), and once
 * more on SQLite with the S3 store (OpenStack Swift's S3 API, started by __tests__/globalSetup.cjs;
 * one database is enough there: the store is what that half tests). Without Swift the S3 half is
 * skipped with the reason (under CI=true the global setup fails instead).
 */
export function describeEachStore(
  name: string,
  fn: (kind: DatabaseKind, store: StoreKind) => void,
): void {
  describeEachDatabase(name, (kind) => fn(kind, 'local'));
  if (process.env.DOSSIER_TEST_S3_ENDPOINT) {
    describe(`${name} [sqlite, s3]`, () => fn('sqlite', 's3'));
  } else {
    const reason = process.env.DOSSIER_TEST_S3_UNAVAILABLE ?? 'no S3 server';
    // Skip reason: OpenStack Swift is not installed here (globalSetup printed why); the local store
    // halves above still run, and CI (CI=true) refuses to run without Swift.
    describe.skip(`${name} [sqlite, s3] (${reason})`, () => fn('sqlite', 's3')); // skipped: no Swift
  }
}

/** The S3 settings of the test Swift, for a bucket of its own. */
export function testS3Settings(bucket: string) {
  return {
    endpoint: process.env.DOSSIER_TEST_S3_ENDPOINT!,
    region: 'us-east-1',
    bucket,
    accessKeyId: 'test:tester',
    secretAccessKey: 'testing',
    forcePathStyle: true,
  };
}

/**
 * Waits until the test Swift answers (the global setup starts it without waiting) and creates a
 * fresh bucket there.
 * @throws when it does not answer within a minute (its log is in DOSSIER_TEST_SWIFT_DIR)
 */
export async function createTestBucket(): Promise<string> {
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const bucket = `test-${newId().replace(/-/g, '').slice(-20).toLowerCase()}`;
  const settings = testS3Settings(bucket);
  const client = new S3Client({
    ...settings,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  let last: unknown;
  try {
    for (let attempt = 0; attempt < 240; attempt++) {
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        return bucket;
      } catch (error) {
        last = error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    client.destroy();
  }
  throw new Error(
    `Swift at ${settings.endpoint} did not answer (log in ${process.env.DOSSIER_TEST_SWIFT_DIR}): ${String(last)}`,
  );
}

/**
 * Creates an empty PostgreSQL database on the test server (DOSSIER_TEST_PG_URL).
 * @returns its URL and a function that drops it
 */
export async function createPostgresDatabase(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
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
 * `options.env` adds environment variables to its configuration (e.g. FEATURE_FLAGS);
 * `options.app` passes the shutdown state or a log destination to buildApp.
 */
export async function startTestServer(
  kind: DatabaseKind,
  options: {
    clientDir?: string;
    env?: Record<string, string>;
    store?: StoreKind;
    app?: Pick<AppDeps, 'lifecycle' | 'logStream'>;
  } = {},
): Promise<TestServer> {
  const storeKind = options.store ?? 'local';
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
  const localStore =
    storeKind === 'local' ? new LocalObjectStore(dataDir, config.sessionSecret, clockFn) : null;
  await localStore?.init();
  const s3Store =
    storeKind === 's3'
      ? new S3ObjectStore(testS3Settings(await createTestBucket()), config.sessionSecret, clockFn)
      : null;
  const store: ObjectStore = localStore ?? s3Store!;
  const services: Services = {
    db: database.db,
    dialect: database.dialect,
    store,
    clock: clockFn,
    config,
  };
  const app = await buildApp({
    ...services,
    localStore: localStore ?? undefined,
    ...(database.pool ? { dbPool: database.pool } : {}),
    ...options.app,
  });
  await app.ready();
  return {
    app,
    services,
    store,
    localStore,
    storeKind,
    dataDir,
    config,
    clock,
    close: async () => {
      await fingerprintsSettled(services);
      await snapshotsSettled();
      await app.close();
      s3Store?.destroy();
      await database.close();
      if (dropDatabase) await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another app instance beside `first`, as a load balancer would have several: its own database
 * connection (pool) to the same database, its own object store on the same folder, the same
 * configuration (secrets included) and the same settable clock. Closing it leaves the database and
 * the folder to `first`. Local store only (`first` must be a local-store server).
 */
export async function startInstance(first: TestServer): Promise<TestServer> {
  const database = openDatabase(first.config.databaseUrl);
  const clockFn: Clock = () => first.clock.now;
  const store = new LocalObjectStore(first.dataDir, first.config.sessionSecret, clockFn);
  await store.init();
  const services: Services = {
    db: database.db,
    dialect: database.dialect,
    store,
    clock: clockFn,
    config: first.config,
  };
  const app = await buildApp({ ...services, localStore: store });
  await app.ready();
  return {
    app,
    services,
    store,
    localStore: store,
    storeKind: 'local',
    dataDir: first.dataDir,
    config: first.config,
    clock: first.clock,
    close: async () => {
      await fingerprintsSettled(services);
      await snapshotsSettled();
      await app.close();
      await database.close();
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
