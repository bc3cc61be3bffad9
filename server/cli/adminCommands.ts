/**
 * The commands of `npm run admin` (server/cli/admin.ts), as a function the tests run in-process:
 *
 *   npm run admin -- unlock <username>
 *   npm run admin -- reset-password <username>
 *
 * They open the configured database (DATABASE_URL / DATA_DIR, as the app; migrated to the latest
 * schema first, as the app does at start) and apply the rules of
 * server/services/operatorAccounts.ts. reset-password takes the new password from
 * DOSSIER_NEW_PASSWORD, else from stdin when it is not a terminal (the first line), else generates
 * one and prints it once.
 */
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/database';
import { AppError } from '../errors';
import { systemClock } from '../ids';
import {
  generatePassword,
  operatorResetPassword,
  operatorUnlock,
} from '../services/operatorAccounts';

/** The environment variable a new password may come from. */
export const NEW_PASSWORD_ENV = 'DOSSIER_NEW_PASSWORD';

/** Usage text, printed for unknown commands. */
export const ADMIN_USAGE = [
  'Usage:',
  '  npm run admin -- unlock <username>',
  '  npm run admin -- reset-password <username>',
  `reset-password reads the new password from ${NEW_PASSWORD_ENV} or stdin, or prints a generated one.`,
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

/**
 * Runs one command.
 * @param args the arguments after `--`: the command and the username
 * @returns the exit code: 0 done, 1 refused (unknown user, weak password), 2 usage or error
 */
export async function runAdminCommand(args: readonly string[], io: AdminIo): Promise<number> {
  const [command, username, ...rest] = args;
  if ((command !== 'unlock' && command !== 'reset-password') || !username || rest.length > 0) {
    io.err(ADMIN_USAGE);
    return 2;
  }
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
