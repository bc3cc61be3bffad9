/**
 * The commands of `npm run backup` and `npm run restore` (server/cli/backup.ts), as a function
 * the tests run in-process:
 *
 *   npm run backup -- <dir>    back up the configured SQLite instance (it may keep serving)
 *   npm run restore -- <dir>   restore a backup into the configured, fresh DATA_DIR
 *
 * Both read the configuration as the app does (DATA_DIR, DATABASE_URL). See server/backup.ts for
 * what a backup holds and docs/operations.md "Backups and restore" for PostgreSQL and S3.
 */
import { loadConfig } from '../config';
import { backupSqlite, BackupRefused, restoreSqlite } from '../backup';

/** Usage text, printed for unknown commands. */
export const BACKUP_USAGE = [
  'Usage:',
  '  npm run backup -- <dir>     back up the SQLite database and DATA_DIR into a new folder',
  '  npm run restore -- <dir>    restore such a folder into a fresh DATA_DIR',
  'PostgreSQL: pg_dump / pg_restore and a copy of the bucket (docs/operations.md).',
].join('\n');

/** What a command reads and writes. */
export interface BackupIo {
  /** The environment (the app's configuration). */
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * Runs one command.
 * @param args the command (`backup` or `restore`) and the folder
 * @returns the exit code: 0 done, 1 a backup whose copy lacks recorded files' objects (deleted
 *   while it ran: take it again), 2 refused, usage or another error
 */
export async function runBackupCommand(args: readonly string[], io: BackupIo): Promise<number> {
  const [command, dir, ...rest] = args;
  if ((command !== 'backup' && command !== 'restore') || !dir || rest.length > 0) {
    io.err(BACKUP_USAGE);
    return 2;
  }
  try {
    const config = loadConfig(io.env);
    if (command === 'backup') {
      const result = await backupSqlite(config, dir);
      io.out(
        `Backed up ${config.dataDir} into ${dir}: the database and ` +
          `${result.manifest.recorded_files} recorded files.`,
      );
      if (!result.objectsChecked) {
        io.out('DATA_DIR has no objects folder: copy the object store bucket as well.');
      }
      if (result.missingObjects.length > 0) {
        io.err(
          `${result.missingObjects.length} recorded files have no object in the copy (deleted ` +
            `while the backup ran?), e.g. ${result.missingObjects.slice(0, 3).join(', ')}. ` +
            'Take the backup again.',
        );
        return 1;
      }
      return 0;
    }
    const manifest = await restoreSqlite(config, dir);
    io.out(
      `Restored the backup of ${manifest.created_at} (${manifest.recorded_files} recorded files) ` +
        `into ${config.dataDir}. Start the server: it migrates the database if needed.`,
    );
    return 0;
  } catch (error) {
    io.err(error instanceof BackupRefused ? error.message : String(error));
    return 2;
  }
}
