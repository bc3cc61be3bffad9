/**
 * The commands of `npm run admin` (server/cli/admin.ts), as a function the tests run in-process:
 *
 *   npm run admin -- unlock <username>
 *   npm run admin -- reset-password <username>
 *   npm run admin -- firm <list|create|rename|describe|disable|enable|members|add-user|set-role|
 *                          remove-user> …
 *   npm run admin -- operator <list|grant|revoke> [username]
 *
 * They open the configured database (DATABASE_URL / DATA_DIR, as the app; migrated to the latest
 * schema first, as the app does at start) and apply the rules of
 * server/services/operatorAccounts.ts and server/services/firms.ts. reset-password takes the new
 * password from DOSSIER_NEW_PASSWORD, else from stdin when it is not a terminal (the first line),
 * else generates one and prints it once. A firm is named by its name (case-insensitive) or id.
 */
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/database';
import { AppError } from '../errors';
import { systemClock } from '../ids';
import type { FirmDto, FirmMemberDto } from '@common/firms';
import {
  addFirmMember,
  changeFirmRole,
  createFirm,
  listFirmMembers,
  listFirms,
  listOperators,
  removeFirmMember,
  setFirmDisabled,
  setUserOperator,
  updateFirm,
  type FirmServices,
} from '../services/firms';
import {
  generatePassword,
  operatorResetPassword,
  operatorUnlock,
} from '../services/operatorAccounts';

/** The environment variable a new password may come from. */
const NEW_PASSWORD_ENV = 'DOSSIER_NEW_PASSWORD';

/** Usage text, printed for unknown commands. */
export const ADMIN_USAGE = [
  'Usage:',
  '  npm run admin -- unlock <username>',
  '  npm run admin -- reset-password <username>',
  '  npm run admin -- firm list',
  '  npm run admin -- firm create <name> [description]',
  '  npm run admin -- firm rename <firm> <new name>',
  '  npm run admin -- firm describe <firm> <description>   ("" removes it)',
  '  npm run admin -- firm disable <firm>',
  '  npm run admin -- firm enable <firm>',
  '  npm run admin -- firm members <firm>',
  '  npm run admin -- firm add-user <firm> <username> <admin|member|read_only>',
  '  npm run admin -- firm set-role <firm> <username> <admin|member|read_only>',
  '  npm run admin -- firm remove-user <firm> <username>',
  '  npm run admin -- operator list',
  '  npm run admin -- operator grant <username>',
  '  npm run admin -- operator revoke <username>',
  `reset-password reads the new password from ${NEW_PASSWORD_ENV} or stdin, or prints a generated one.`,
  'A firm is named by its name (any case) or its id.',
].join('\n');

/** What a command reads and writes besides the database. */
export interface AdminIo {
  /** The environment (configuration and DOSSIER_NEW_PASSWORD). */
  env: NodeJS.ProcessEnv;
  /** Reads stdin when it is not a terminal; null when it is one. */
  readStdin: () => Promise<string | null>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** How many arguments each firm and operator command takes after its name (min, max). */
const ARITY: Record<string, readonly [number, number]> = {
  'firm list': [0, 0],
  'firm create': [1, 2],
  'firm rename': [2, 2],
  'firm describe': [2, 2],
  'firm disable': [1, 1],
  'firm enable': [1, 1],
  'firm members': [1, 1],
  'firm add-user': [3, 3],
  'firm set-role': [3, 3],
  'firm remove-user': [2, 2],
  'operator list': [0, 0],
  'operator grant': [1, 1],
  'operator revoke': [1, 1],
};

/** Whether the arguments name a known command with the right number of arguments. */
function usable(args: readonly string[]): boolean {
  const [command, first, ...rest] = args;
  if (command === 'unlock' || command === 'reset-password') {
    return Boolean(first) && rest.length === 0;
  }
  const arity = ARITY[`${command} ${first}`];
  return arity !== undefined && rest.length >= arity[0] && rest.length <= arity[1];
}

/** One firm as a line of `firm list`. */
function firmLine(firm: FirmDto): string {
  const members = `${firm.memberCount} member${firm.memberCount === 1 ? '' : 's'}`;
  return [
    firm.name,
    firm.description ?? '(no description: not listed in firm switchers)',
    firm.disabled ? 'disabled' : 'enabled',
    members,
    firm.id,
  ].join('\t');
}

/** One member as a line of `firm members`. */
function memberLine(member: FirmMemberDto): string {
  const name = `${member.firstName} ${member.lastName}`.trim();
  return [member.username, name, member.role, member.disabled ? 'disabled' : 'active'].join('\t');
}

/** Runs a firm or operator command. @returns the exit code */
async function runFirmCommand(
  services: FirmServices,
  args: readonly string[],
  io: AdminIo,
): Promise<number> {
  const [command, sub, a = '', b = '', c = ''] = args;
  const cli = { kind: 'cli' } as const;
  switch (`${command} ${sub}`) {
    case 'firm list': {
      const firms = await listFirms(services, cli);
      io.out(['name', 'description', 'state', 'members', 'id'].join('\t'));
      for (const firm of firms) io.out(firmLine(firm));
      return 0;
    }
    case 'firm create': {
      const firm = await createFirm(services, cli, { name: a, description: args[3] });
      io.out(`Created firm "${firm.name}" (${firm.id}).`);
      if (!firm.description) {
        io.out('It has no description, so no firm switcher lists it until `firm describe`.');
      }
      return 0;
    }
    case 'firm rename': {
      const firm = await updateFirm(services, cli, a, { name: b });
      io.out(`Firm renamed "${firm.name}".`);
      return 0;
    }
    case 'firm describe': {
      const firm = await updateFirm(services, cli, a, { description: b });
      io.out(
        firm.description
          ? `Description of "${firm.name}" set to "${firm.description}".`
          : `Description of "${firm.name}" removed: no firm switcher lists it now.`,
      );
      return 0;
    }
    case 'firm disable': {
      const firm = await setFirmDisabled(services, cli, a, true);
      io.out(`Disabled firm "${firm.name}"; ${firm.sessionsEnded} session(s) ended.`);
      return 0;
    }
    case 'firm enable': {
      const firm = await setFirmDisabled(services, cli, a, false);
      io.out(`Enabled firm "${firm.name}".`);
      return 0;
    }
    case 'firm members': {
      const members = await listFirmMembers(services, cli, a);
      io.out(['username', 'name', 'role', 'state'].join('\t'));
      for (const member of members) io.out(memberLine(member));
      return 0;
    }
    case 'firm add-user': {
      const member = await addFirmMember(services, cli, a, { username: b }, c);
      io.out(`Added "${member.username}" to "${a}" as ${member.role}.`);
      return 0;
    }
    case 'firm set-role': {
      const member = await changeFirmRole(services, cli, a, { username: b }, c);
      io.out(`"${member.username}" is now ${member.role} in "${a}".`);
      return 0;
    }
    case 'firm remove-user': {
      const { sessionsEnded } = await removeFirmMember(services, cli, a, { username: b });
      io.out(`Removed "${b}" from "${a}"; ${sessionsEnded} session(s) ended.`);
      return 0;
    }
    case 'operator list': {
      for (const username of await listOperators(services)) io.out(username);
      return 0;
    }
    case 'operator grant':
    case 'operator revoke': {
      const grant = sub === 'grant';
      const result = await setUserOperator(services, a, grant);
      const state = grant ? 'an operator' : 'not an operator';
      io.out(
        result.changed
          ? `"${result.username}" is now ${state}.`
          : `"${result.username}" was already ${state}.`,
      );
      return 0;
    }
    default:
      io.err(ADMIN_USAGE);
      return 2;
  }
}

/**
 * Runs one command.
 * @param args the arguments after `--`: the command and its arguments
 * @returns the exit code: 0 done, 1 refused (unknown user or firm, weak password, duplicate name,
 *   invalid role, …), 2 usage or error
 */
export async function runAdminCommand(args: readonly string[], io: AdminIo): Promise<number> {
  if (!usable(args)) {
    io.err(ADMIN_USAGE);
    return 2;
  }
  const [command, username] = args as [string, string];
  let password: string | undefined;
  let generated = false;
  if (command === 'reset-password') {
    const fromEnv = io.env[NEW_PASSWORD_ENV];
    const fromStdin = fromEnv ? null : await io.readStdin();
    const firstLine = fromStdin?.split(/\r?\n/)[0] ?? '';
    password = fromEnv || firstLine || undefined;
    if (!password) {
      password = generatePassword();
      generated = true;
    }
  }
  const config = loadConfig(io.env);
  const database = openDatabase(config.databaseUrl);
  const services = { db: database.db, dialect: database.dialect, clock: systemClock, config };
  try {
    // As the app does at start: the lockout table may be newer than the database.
    await migrateToLatest(database.db);
    if (command === 'firm' || command === 'operator') {
      return await runFirmCommand(services, args, io);
    }
    if (command === 'unlock') {
      const result = await operatorUnlock(services, username);
      io.out(
        result.wasLocked
          ? `Unlocked "${result.username}".`
          : `"${result.username}" was not locked; wrong passwords cleared.`,
      );
      return 0;
    }
    const result = await operatorResetPassword(services, username, password!);
    io.out(`Password of "${result.username}" reset; ${result.sessionsEnded} session(s) ended.`);
    if (generated) io.out(`New password (shown only once): ${password}`);
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}
