// The operator's CLI (`npm run admin`, server/cli/adminCommands.ts) on SQLite and PostgreSQL, run
// in-process against the test server's database: unlock clears every address's lock (recorded in
// each firm), reset-password applies the policy, ends sessions, records the change, and takes the
// password from DOSSIER_NEW_PASSWORD or stdin or prints a generated one once.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { passwordProblem } from '@common/passwordPolicy';
import { ADMIN_USAGE, runAdminCommand } from '@server/cli/adminCommands';
import { generatePassword } from '@server/services/operatorAccounts';
import {
  ADMIN_PASSWORD,
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';

describeEachDatabase('operator CLI (npm run admin)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Runs a command with the server's configuration; answers its exit code and output. */
  async function run(args: string[], extra: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCommand(args, {
      env: {
        DATA_DIR: server.dataDir,
        DATABASE_URL: server.config.databaseUrl,
        SESSION_SECRET: 'test-secret',
        ...extra.env,
      },
      readStdin: () => Promise.resolve(extra.stdin ?? null),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const attempt = (username: string, password: string, ip = '203.0.113.9') =>
    server.app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username, password },
      remoteAddress: ip,
    });

  const events = (userId: string, action: string) =>
    server.services.db
      .selectFrom('history_events')
      .select(['database_id', 'user_id', 'user_agent', 'attributes'])
      .where('entity_type', '=', 'user')
      .where('entity_id', '=', userId)
      .where('action', '=', action)
      .execute();

  it('unlocks a locked administrator and records the unlock in their firm', async () => {
    const demo = await server.services.db
      .selectFrom('databases')
      .select('id')
      .executeTakeFirstOrThrow();
    const { userId } = await addUser(server, {
      username: 'cli-admin',
      password: 'cli admin passphrase 1',
      role: 'admin',
      databaseId: demo.id,
    });
    for (let i = 0; i < 5; i += 1) await attempt('cli-admin', `wrong-${i}`);
    expect((await attempt('cli-admin', 'cli admin passphrase 1')).statusCode).toBe(401);

    const result = await run(['unlock', 'CLI-Admin']);
    expect(result).toEqual({ code: 0, out: 'Unlocked "cli-admin".', err: '' });
    expect((await attempt('cli-admin', 'cli admin passphrase 1')).statusCode).toBe(200);
    const unlocks = await events(userId, 'unlock');
    expect(unlocks).toHaveLength(1);
    expect(unlocks[0]).toMatchObject({
      database_id: demo.id,
      user_id: userId,
      user_agent: 'dossier-cli',
    });
    const row = await server.services.db
      .selectFrom('users')
      .select(['failed_login_count', 'locked_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_login_count: 0, locked_at: null });
  });

  it('resets a password from DOSSIER_NEW_PASSWORD under the policy, ending sessions', async () => {
    const { userId, databaseId } = await addUser(server, {
      username: 'cli-reset',
      password: 'old passphrase for reset',
    });
    const session = await signIn(server, 'cli-reset', 'old passphrase for reset');
    for (const weak of ['password1234', 'aaaaaaaaaaaa', 'cli-reset2024']) {
      const refused = await run(['reset-password', 'cli-reset'], {
        env: { DOSSIER_NEW_PASSWORD: weak },
      });
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/^This password is too easy to guess\. /);
    }
    expect((await attempt('cli-reset', 'old passphrase for reset')).statusCode).toBe(200);

    const done = await run(['reset-password', 'cli-reset'], {
      env: { DOSSIER_NEW_PASSWORD: 'fresh operator passphrase 5' },
    });
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/^Password of "cli-reset" reset; \d+ session\(s\) ended\.$/);
    expect(done.out).not.toContain('fresh operator passphrase 5');
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/auth/current-user',
      headers: { cookie: session },
    });
    expect(me.statusCode).toBe(401);
    expect((await attempt('cli-reset', 'old passphrase for reset')).statusCode).toBe(401);
    expect((await attempt('cli-reset', 'fresh operator passphrase 5')).statusCode).toBe(200);
    const updates = await events(userId, 'update');
    expect(updates).toHaveLength(1);
    expect(updates[0]!.database_id).toBe(databaseId);
    expect(JSON.parse(updates[0]!.attributes)).toMatchObject({
      user_changes: { fields: ['password'] },
    });
    expect(updates[0]!.attributes).not.toContain('fresh operator passphrase');
  });

  it('reads the password from stdin, or prints a generated one once', async () => {
    await addUser(server, { username: 'cli-stdin', password: 'old stdin passphrase' });
    const piped = await run(['reset-password', 'cli-stdin'], {
      stdin: 'piped operator passphrase 6\n',
    });
    expect(piped.code).toBe(0);
    expect((await attempt('cli-stdin', 'piped operator passphrase 6')).statusCode).toBe(200);

    const generated = await run(['reset-password', 'cli-stdin']);
    expect(generated.code).toBe(0);
    const password = /New password \(shown only once\): (\S+)$/.exec(generated.out)?.[1];
    expect(password).toHaveLength(24);
    const signedIn = await attempt('cli-stdin', password!);
    expect(signedIn.statusCode).toBe(200);
    sessionCookie(signedIn);
  });

  it('refuses unknown users and bad usage without touching anything', async () => {
    expect(await run(['unlock', 'nobody-at-all'])).toEqual({
      code: 1,
      out: '',
      err: 'No user "nobody-at-all".',
    });
    expect(await run(['frobnicate', 'admin'])).toMatchObject({ code: 2, err: ADMIN_USAGE });
    expect(await run(['unlock'])).toMatchObject({ code: 2 });
    expect((await attempt('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });
});

it('generates passwords that pass the password policy', async () => {
  for (let i = 0; i < 20; i += 1) expect(await passwordProblem(generatePassword())).toBeNull();
});
