/**
 * `npm run backup -- <dir>` and `npm run restore -- <dir>` (server/cli/backupCommands.ts).
 * Exits 0 when done, 1 when a backup's copy lacks objects, 2 when refused or on an error.
 */
import { runBackupCommand } from './backupCommands';

runBackupCommand(process.argv.slice(2), {
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
})
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(2);
  });
