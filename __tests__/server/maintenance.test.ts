// Feature flags and maintenance mode: GET /api/rest/feature_flags answers the defaults
// overridden by FEATURE_FLAGS; with maintenanceMode on, changes by non-administrators are refused
// with 503 while administrators keep working.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlags } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { loadConfig, parseFeatureFlags } from '@server/config';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';

describeEachDatabase('maintenance mode', (kind) => {
  let server: TestServer;
  let member: string;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: { FEATURE_FLAGS: 'maintenanceMode=1, sharing=0' },
    });
    const demo = await server.services.db
      .selectFrom('databases')
      .select('id')
      .executeTakeFirstOrThrow();
    await addUser(server, { username: 'member', password: 'pw-member-1', databaseId: demo.id });
    await addUser(server, {
      username: 'reader',
      password: 'pw-reader-1',
      databaseId: demo.id,
      role: 'read_only',
    });
    member = await signIn(server, 'member', 'pw-member-1');
    admin = await signIn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const createFolder = (cookie: string, name: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie },
      payload: { name },
    });

  it('serves the flags without a session', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/rest/feature_flags' });
    expect(response.statusCode).toBe(200);
    expect(response.json<FeatureFlags>()).toEqual({
      ...FEATURE_FLAG_DEFAULTS,
      maintenanceMode: true,
      sharing: false,
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses changes by members and read-only users with 503 and a clear message', async () => {
    const refused = await createFolder(member, 'Blocked');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: MESSAGES.maintenanceMode, code: 'maintenance_mode' });
    const reader = await signIn(server, 'reader', 'pw-reader-1');
    expect((await createFolder(reader, 'Blocked too')).statusCode).toBe(503);
  });

  it('keeps reads, sign-in, extend-session and sign-out open to everyone', async () => {
    const cookie = await signIn(server, 'member', 'pw-member-1');
    const list = await server.app.inject({
      method: 'GET',
      url: '/api/rest/entities',
      headers: { cookie },
    });
    expect(list.statusCode).toBe(200);
    const extended = await server.app.inject({
      method: 'POST',
      url: '/api/auth/extend-session',
      headers: { cookie },
    });
    expect(extended.statusCode).toBe(200);
    const out = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(out.statusCode).toBe(204);
  });

  it('lets administrators work', async () => {
    const created = await createFolder(admin, 'Admin during maintenance');
    expect(created.statusCode).toBe(201);
  });
});

describeEachDatabase('feature flags by default', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the defaults and lets members change things', async () => {
    const flags = await server.app.inject({ method: 'GET', url: '/api/rest/feature_flags' });
    expect(flags.json<FeatureFlags>()).toEqual(FEATURE_FLAG_DEFAULTS);
    const demo = await server.services.db
      .selectFrom('databases')
      .select('id')
      .executeTakeFirstOrThrow();
    await addUser(server, { username: 'member', password: 'pw-member-1', databaseId: demo.id });
    const cookie = await signIn(server, 'member', 'pw-member-1');
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/rest/folders',
      headers: { cookie },
      payload: { name: 'Normal day' },
    });
    expect(created.statusCode).toBe(201);
  });
});

describe('session and flag configuration', () => {
  it('parses FEATURE_FLAGS over the defaults', () => {
    expect(parseFeatureFlags(undefined)).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(parseFeatureFlags('')).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(parseFeatureFlags('maintenanceMode=1,sharing=0')).toEqual({
      ...FEATURE_FLAG_DEFAULTS,
      maintenanceMode: true,
      sharing: false,
    });
    expect(parseFeatureFlags(' switchIn = TRUE , fileStats=off, maintenanceMode ')).toEqual({
      ...FEATURE_FLAG_DEFAULTS,
      switchIn: true,
      fileStats: false,
      maintenanceMode: true,
    });
  });

  it('refuses unknown flags and malformed values', () => {
    expect(() => parseFeatureFlags('maintenance=1')).toThrow(/unknown flag "maintenance"/);
    expect(() => parseFeatureFlags('sharing=maybe')).toThrow(/sharing/);
  });

  it('reads the session lifetimes and the test-only idle override', () => {
    const dataDir = `${process.env.TMPDIR ?? '/tmp'}/dossier-config-test`;
    const base = { DATA_DIR: dataDir, SESSION_SECRET: 'x' };
    const defaults = loadConfig(base);
    expect(defaults.sessionMaxAgeMs).toBe(12 * 3_600_000);
    expect(defaults.ssoSessionMaxAgeMs).toBe(168 * 3_600_000);
    expect(defaults.sessionIdleSeconds).toBeNull();
    expect(defaults.featureFlags).toEqual(FEATURE_FLAG_DEFAULTS);
    const custom = loadConfig({
      ...base,
      SESSION_MAX_AGE_HOURS: '8',
      SSO_SESSION_MAX_AGE_HOURS: '24',
      SESSION_IDLE_SECONDS: '150',
    });
    expect(custom.sessionMaxAgeMs).toBe(8 * 3_600_000);
    expect(custom.ssoSessionMaxAgeMs).toBe(24 * 3_600_000);
    expect(custom.sessionIdleSeconds).toBe(150);
    expect(() => loadConfig({ ...base, SESSION_IDLE_SECONDS: '0' })).toThrow(
      /SESSION_IDLE_SECONDS/,
    );
    expect(() => loadConfig({ ...base, FEATURE_FLAGS: 'nope' })).toThrow(/FEATURE_FLAGS/);
  });
});
