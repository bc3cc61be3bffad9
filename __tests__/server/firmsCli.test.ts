// Firm provisioning from the command line (`npm run admin -- firm …` / `operator …`,
// server/cli/adminCommands.ts) on SQLite and PostgreSQL, run in-process against the test server's
// database: firms named by name or id, clear refusals with exit code 1, usage with 2, every change
// recorded in the firm's history as the command line's operator, and operator grant/revoke
// opening and closing the operator API.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ADMIN_USAGE, runAdminCommand } from '@server/cli/adminCommands';
import { CLI_OPERATOR_NAME } from '@server/services/firms';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';

describeEachDatabase('firm provisioning CLI (npm run admin -- firm)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Runs a command with the server's configuration; answers its exit code and output. */
  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCommand(args, {
      env: {
        DATA_DIR: server.dataDir,
        DATABASE_URL: server.config.databaseUrl,
        SESSION_SECRET: 'test-secret',
      },
      readStdin: () => Promise.resolve(null),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const firmRow = (name: string) =>
    server.services.db
      .selectFrom('databases')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  it('creates, renames, describes, disables and enables a firm, recording each change', async () => {
    const created = await run(['firm', 'create', 'Cli Partners', 'Cli office']);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^Created firm "Cli Partners" \([0-9a-f-]{36}\)\.$/);
    const { id } = await firmRow('Cli Partners');
    expect(await run(['firm', 'create', 'cli partners'])).toEqual({
      code: 1,
      out: '',
      err: 'A firm named "cli partners" already exists.',
    });
    expect(await run(['firm', 'rename', 'CLI PARTNERS', 'Cli Advisers'])).toEqual({
      code: 0,
      out: 'Firm renamed "Cli Advisers".',
      err: '',
    });
    expect(await run(['firm', 'describe', id, ''])).toMatchObject({
      code: 0,
      out: 'Description of "Cli Advisers" removed: no firm switcher lists it now.',
    });
    expect((await run(['firm', 'describe', 'cli advisers', 'Second office'])).out).toBe(
      'Description of "Cli Advisers" set to "Second office".',
    );
    expect((await run(['firm', 'disable', 'Cli Advisers'])).out).toBe(
      'Disabled firm "Cli Advisers"; 0 session(s) ended.',
    );
    expect(await run(['firm', 'disable', 'Cli Advisers'])).toMatchObject({
      code: 1,
      err: 'The firm "Cli Advisers" is already disabled.',
    });
    const listed = await run(['firm', 'list']);
    expect(listed.out.split('\n')).toContain(
      ['Cli Advisers', 'Second office', 'disabled', '0 members', id].join('\t'),
    );
    expect((await run(['firm', 'enable', 'Cli Advisers'])).out).toBe(
      'Enabled firm "Cli Advisers".',
    );
    expect((await firmRow('Cli Advisers')).disabled_at).toBeNull();

    const history = await server.services.db
      .selectFrom('history_events')
      .select(['entity_type', 'action', 'user_id', 'user_name', 'user_agent'])
      .where('database_id', '=', id)
      .orderBy('chain_seq')
      .execute();
    expect(history.map((e) => `${e.entity_type} ${e.action}`)).toEqual([
      'database create',
      'database rename',
      'database update',
      'database update',
      'database disable',
      'database enable',
    ]);
    for (const event of history) {
      expect(event).toMatchObject({
        user_id: '',
        user_name: CLI_OPERATOR_NAME,
        user_agent: 'dossier-cli',
      });
    }
  });

  it('adds an existing user with a role, changes and removes it', async () => {
    await run(['firm', 'create', 'Cli Roles', 'Roles office']);
    const { id } = await firmRow('Cli Roles');
    const { userId } = await addUser(server, {
      username: 'cli-rhea',
      password: 'cli rhea passphrase 1',
    });
    expect(await run(['firm', 'add-user', 'Cli Roles', 'nobody-here', 'member'])).toEqual({
      code: 1,
      out: '',
      err: 'No user "nobody-here".',
    });
    expect(await run(['firm', 'add-user', 'No Such Firm', 'cli-rhea', 'member'])).toEqual({
      code: 1,
      out: '',
      err: 'No firm "No Such Firm".',
    });
    expect(await run(['firm', 'add-user', 'Cli Roles', 'cli-rhea', 'owner'])).toEqual({
      code: 1,
      out: '',
      err: 'Unknown role "owner": use admin, member or read_only.',
    });
    expect((await run(['firm', 'add-user', 'Cli Roles', 'CLI-Rhea', 'admin'])).out).toBe(
      'Added "cli-rhea" to "Cli Roles" as admin.',
    );
    expect((await run(['firm', 'add-user', 'Cli Roles', 'cli-rhea', 'member'])).err).toBe(
      '"cli-rhea" is already a member of "Cli Roles" as admin.',
    );
    expect((await run(['firm', 'add-user', 'Cli Roles', 'admin', 'admin'])).code).toBe(0);
    expect((await run(['firm', 'set-role', 'Cli Roles', 'cli-rhea', 'read_only'])).out).toBe(
      '"cli-rhea" is now read_only in "Cli Roles".',
    );
    expect((await run(['firm', 'members', 'Cli Roles'])).out.split('\n')).toEqual([
      ['username', 'name', 'role', 'state'].join('\t'),
      ['admin', 'Demo Administrator', 'admin', 'active'].join('\t'),
      ['cli-rhea', 'cli-rhea Tester', 'read_only', 'active'].join('\t'),
    ]);
    // Rhea signs in to her only firm; removing her ends that session.
    const cookie = await signIn(server, 'cli-rhea', 'cli rhea passphrase 1');
    expect((await run(['firm', 'remove-user', 'Cli Roles', 'cli-rhea'])).out).toBe(
      'Removed "cli-rhea" from "Cli Roles"; 1 session(s) ended.',
    );
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/auth/current-user',
      headers: { cookie },
    });
    expect(me.statusCode).toBe(401);
    expect((await run(['firm', 'remove-user', 'Cli Roles', 'cli-rhea'])).err).toBe(
      '"cli-rhea" is not a member of "Cli Roles".',
    );
    const events = await server.services.db
      .selectFrom('history_events')
      .select(['action'])
      .where('database_id', '=', id)
      .where('entity_type', '=', 'user')
      .where('entity_id', '=', userId)
      .orderBy('chain_seq')
      .execute();
    expect(events.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
  });

  it('grants and revokes the operator flag, which opens the operator API', async () => {
    await addUser(server, { username: 'cli-opal', password: 'cli opal passphrase 1' });
    const cookie = await signIn(server, 'cli-opal', 'cli opal passphrase 1');
    const firms = () =>
      server.app.inject({ method: 'GET', url: '/api/rest/private/firms', headers: { cookie } });
    expect((await firms()).statusCode).toBe(403);
    expect(await run(['operator', 'grant', 'CLI-Opal'])).toEqual({
      code: 0,
      out: '"cli-opal" is now an operator.',
      err: '',
    });
    expect((await run(['operator', 'grant', 'cli-opal'])).out).toBe(
      '"cli-opal" was already an operator.',
    );
    expect((await run(['operator', 'list'])).out).toBe('cli-opal');
    expect((await firms()).statusCode).toBe(200);
    expect((await run(['operator', 'revoke', 'cli-opal'])).out).toBe(
      '"cli-opal" is now not an operator.',
    );
    expect((await firms()).statusCode).toBe(403);
    expect((await run(['operator', 'grant', 'nobody-at-all'])).err).toBe(
      'No user "nobody-at-all".',
    );
  });

  it('prints the usage for unknown commands and wrong arguments', async () => {
    for (const args of [
      ['firm'],
      ['firm', 'explode', 'x'],
      ['firm', 'create'],
      ['firm', 'rename', 'only-one'],
      ['firm', 'add-user', 'a', 'b'],
      ['operator', 'grant'],
      ['operator', 'list', 'extra'],
    ]) {
      expect(await run(args)).toEqual({ code: 2, out: '', err: ADMIN_USAGE });
    }
    expect(await run(['firm', 'create', '  '])).toEqual({
      code: 1,
      out: '',
      err: 'A firm needs a name.',
    });
  });
});
